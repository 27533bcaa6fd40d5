extension ObservableType {
    /// Emits `initialState`, then each state `iterate` makes from the previous one, while
    /// `condition` holds; each element is emitted by its own action on `scheduler`. An error
    /// thrown by a closure is emitted.
    public static func generate(
        initialState: Element,
        condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance,
        iterate: @escaping (Element) throws -> Element
    ) -> Observable<Element> {
        Generate((initialState: initialState, condition: condition, scheduler: scheduler, iterate: iterate))
    }
}

private final class GenerateSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    func run(
        initialState: Element, condition: @escaping (Element) throws -> Bool,
        scheduler: ImmediateSchedulerType,
        iterate: @escaping (Element) throws -> Element
    ) -> Disposable {
        var isFirst = true
        return scheduler.scheduleRecursive(initialState) { state, recurse in
            do {
                var state = state
                if !isFirst {
                    state = try iterate(state)
                }
                isFirst = false
                if try condition(state) {
                    self.forwardOn(.next(state))
                    recurse(state)
                } else {
                    self.forwardCompletedAndDispose()
                }
            } catch {
                self.forwardErrorAndDispose(error)
            }
        }
    }
}

private final class Generate<Element>: ParameterProducer<
    (
        initialState: Element, condition: (Element) throws -> Bool, scheduler: ImmediateSchedulerType,
        iterate: (Element) throws -> Element
    ), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(GenerateSink(observer: observer, cancel: cancel)) {
            $0.run(
                initialState: parameters.initialState, condition: parameters.condition,
                scheduler: parameters.scheduler, iterate: parameters.iterate)
        }
    }
}
