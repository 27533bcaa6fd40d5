extension ObservableType {
    /// Subscribes to (and later disposes) this sequence on `scheduler`. Events are delivered
    /// wherever the source emits them; use ``observe(on:)`` to move them.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn(asObservable(), scheduler)
    }

    /// Deprecated RxSwift 5 name of ``subscribe(on:)``.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func run(source: Observable<Element>, scheduler: ImmediateSchedulerType) -> Disposable {
        // Holds the pending scheduled subscription, then the subscription itself wrapped so that
        // it is disposed on the scheduler.
        let everything = SerialDisposable()
        let pending = SingleAssignmentDisposable()
        everything.disposable = pending
        pending.setDisposable(
            scheduler.schedule(()) { _ in
                let subscription = source.subscribe(self)
                everything.disposable = ScheduledDisposable(scheduler: scheduler, disposable: subscription)
                return Disposables.create()
            })
        return everything
    }

    func onNextElement(_ element: Element) {
        forwardOn(.next(element))
    }
}

private final class SubscribeOn<Element>: SourceProducer<Element, ImmediateSchedulerType, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(SubscribeOnSink(observer: observer, cancel: cancel)) {
            $0.run(source: source, scheduler: parameters)
        }
    }
}
