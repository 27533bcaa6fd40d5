extension ObservableType {
    /// A sequence that emits `element` and completes, synchronously on subscription.
    ///
    /// Inlinable so that the caller, which knows the element type, creates the sequence: made in
    /// generic code, each `just` looked up the metadata of its class (a hash-table probe), a
    /// tenth of `flatMap { .just($0) }` per element (perf).
    @inlinable
    public static func just(_ element: Element) -> Observable<Element> {
        Just(element)
    }

    /// A sequence that emits `element` and completes, on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ScheduledJust((element, scheduler: scheduler))
    }
}

@usableFromInline
final class Just<Element>: Producer<Element> {
    private let element: Element

    @usableFromInline
    init(_ element: Element) {
        self.element = element
    }

    // Emits directly: no sink is needed for two synchronous events.
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        observer._onNextElement(element)
        observer._onCompleted()
        return Disposables.create()
    }
}

private final class ScheduledJustSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ element: Observer.Element, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.schedule(element) { element in
            self.forwardOn(.next(element))
            return scheduler.schedule(()) { _ in
                self.forwardOn(.completed)
                self.dispose()
                return Disposables.create()
            }
        }
    }
}

private final class ScheduledJust<Element>: ParameterProducer<
    (element: Element, scheduler: ImmediateSchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ScheduledJustSink(observer: observer, cancel: cancel)) {
            $0.run(parameters.element, scheduler: parameters.scheduler)
        }
    }
}
