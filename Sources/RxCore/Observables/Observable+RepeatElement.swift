extension ObservableType {
    /// A sequence that emits `element` forever, each time by its own action on `scheduler` (on the
    /// default ``CurrentThreadScheduler``, use `take` to end it).
    public static func repeatElement(
        _ element: Element, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        RepeatElement((element, scheduler: scheduler))
    }
}

private final class RepeatElementSink<Observer: ObserverType>: Sink<Observer> {
    func run(_ element: Observer.Element, scheduler: ImmediateSchedulerType) -> Disposable {
        scheduler.scheduleRecursive(element) { element, recurse in
            self.forwardOn(.next(element))
            recurse(element)
        }
    }
}

private final class RepeatElement<Element>: ParameterProducer<
    (element: Element, scheduler: ImmediateSchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(RepeatElementSink(observer: observer, cancel: cancel)) {
            $0.run(parameters.element, scheduler: parameters.scheduler)
        }
    }
}
