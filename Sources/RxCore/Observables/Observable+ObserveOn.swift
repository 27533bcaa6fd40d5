extension ObservableType {
    /// Delivers the events to the observer on `scheduler`, in order, one scheduled action per
    /// event (so on a ``TestScheduler`` each event is delivered one tick after it was queued).
    public func observe(on scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObserveOn(asObservable(), scheduler)
    }

    /// Deprecated RxSwift 5 name of ``observe(on:)``.
    @available(*, deprecated, renamed: "observe(on:)")
    public func observeOn(_ scheduler: ImmediateSchedulerType) -> Observable<Element> {
        observe(on: scheduler)
    }
}

/// `lock` guards `queue` and `running`. Events are queued as they arrive; the first one starts a
/// recursive action on the scheduler that delivers one event per run until the queue is empty.
/// `drain` holds that action's disposable.
private final class ObserveOnSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let scheduler: ImmediateSchedulerType
    private let lock = RxLock()
    private var queue = RxQueue<Event<Element>>()
    private var running = false
    private let drain = SerialDisposable()

    init(scheduler: ImmediateSchedulerType, observer: Observer, cancel: Cancelable) {
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func on(_ event: Event<Element>) {
        let start = lock.withLock { () -> Bool in
            queue.enqueue(event)
            if running { return false }
            running = true
            return true
        }
        if start {
            drain.disposable = scheduler.scheduleRecursive(()) { [weak self] _, recurse in
                self?.deliverNext(recurse)
            }
        }
    }

    private func deliverNext(_ recurse: (()) -> Void) {
        guard
            let event = lock.withLock({ () -> Event<Element>? in
                if let event = queue.dequeue() { return event }
                running = false
                return nil
            })
        else { return }
        if isDisposed { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
            return
        }
        let more = lock.withLock { () -> Bool in
            if !queue.isEmpty { return true }
            running = false
            return false
        }
        if more {
            recurse(())
        }
    }

    override func dispose() {
        super.dispose()
        drain.dispose()
    }
}

private final class ObserveOn<Element>: SourceProducer<Element, ImmediateSchedulerType, Element> {
    #if TRACE_RESOURCES
        /// Whether this sequence is counted in `Resources.numberOfSerialDispatchQueueObservables`.
        private let countsAsSerialQueue: Bool

        override init(_ source: Observable<Element>, _ scheduler: ImmediateSchedulerType) {
            countsAsSerialQueue = scheduler is SerialDispatchQueueScheduler
            super.init(source, scheduler)
            if countsAsSerialQueue { Resources.countSerialDispatchQueueObservable(1) }
        }

        deinit {
            if countsAsSerialQueue { Resources.countSerialDispatchQueueObservable(-1) }
        }
    #endif

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            ObserveOnSink(scheduler: parameters, observer: observer, cancel: cancel))
    }
}
