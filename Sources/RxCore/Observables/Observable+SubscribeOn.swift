extension ObservableType {
    /// Subscribes to (and later disposes) this sequence on `scheduler`. Events are delivered
    /// wherever the source emits them; use ``observe(on:)`` to move them.
    ///
    /// The source's own subscription is the one disposed on `scheduler`, also when the source is
    /// an `ObservableType` that is not an ``Observable`` (it is subscribed as it is, not through
    /// `asObservable()`, whose wrapper would dispose it on the thread of a terminal event).
    public func subscribe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        SubscribeOn((source: self, scheduler: scheduler))
    }

    /// Deprecated RxSwift 5 name of ``subscribe(on:)``.
    @available(*, deprecated, renamed: "subscribe(on:)")
    public func subscribeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        subscribe(on: scheduler)
    }
}

private final class SubscribeOnSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    func run<Source: ObservableType>(source: Source, scheduler: ImmediateSchedulerType) -> Disposable
    where Source.Element == Element {
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

private final class SubscribeOn<Source: ObservableType>: ParameterProducer<
    (source: Source, scheduler: ImmediateSchedulerType), Source.Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        run(SubscribeOnSink(observer: observer, cancel: cancel)) {
            $0.run(source: parameters.source, scheduler: parameters.scheduler)
        }
    }
}
