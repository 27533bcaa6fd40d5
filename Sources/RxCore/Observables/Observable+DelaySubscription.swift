extension ObservableType {
    /// Subscribes to this sequence `dueTime` after the subscription, on `scheduler`.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element>
    {
        DelaySubscription(asObservable(), (dueTime: dueTime, scheduler: scheduler))
    }
}

private final class DelaySubscriptionSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func run(_ source: Observable<Element>, dueTime: RxTimeInterval, scheduler: SchedulerType) -> Disposable {
        scheduler.scheduleRelative((), dueTime: dueTime) { _ in source.subscribe(self) }
    }

    func onNextElement(_ element: Element) {
        forwardOn(.next(element))
    }
}

private final class DelaySubscription<Element>: SourceProducer<Element, DueTimeParameters, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(DelaySubscriptionSink(observer: observer, cancel: cancel)) {
            $0.run(source, dueTime: parameters.dueTime, scheduler: parameters.scheduler)
        }
    }
}
