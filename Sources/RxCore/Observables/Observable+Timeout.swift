extension ObservableType {
    /// Fails with `RxError.timeout` if `dueTime` passes on `scheduler` before the first element,
    /// or between two elements.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Timeout(asObservable(), (dueTime: dueTime, other: .error(RxError.timeout), scheduler: scheduler))
    }

    /// Switches to `other` if `dueTime` passes on `scheduler` before the first element, or between
    /// two elements.
    public func timeout<Other: ObservableConvertibleType>(
        _ dueTime: RxTimeInterval, other: Other, scheduler: SchedulerType
    ) -> Observable<Element> where Other.Element == Element {
        Timeout(asObservable(), (dueTime: dueTime, other: other.asObservable(), scheduler: scheduler))
    }
}

private typealias TimeoutParameters<Element> = (
    dueTime: RxTimeInterval, other: Observable<Element>, scheduler: SchedulerType
)

/// `lock` guards `id` and `switched` (see ``TimedSink``).
/// Each element starts a new timer (`id`); a timer that fires while its id is current switches
/// to the other sequence. `subscription` holds the source subscription, then the other one.
private final class TimeoutSink<Observer: ObserverType>: TimedSink<
    TimeoutParameters<Observer.Element>, Observer
>, ObserverType
{
    typealias Element = Observer.Element

    private var id = 0
    private var switched = false
    private let subscription = SerialDisposable()

    func run(_ source: Observable<Element>) -> Disposable {
        let original = SingleAssignmentDisposable()
        subscription.disposable = original
        startTimer(0)
        original.setDisposable(source.subscribe(self))
        return Disposables.create(subscription, timer)
    }

    private func startTimer(_ timerId: Int) {
        timer.disposable = parameters.scheduler.scheduleRelative(timerId, dueTime: parameters.dueTime) {
            timerId in
            let fired = self.lock.withLock { () -> Bool in
                guard timerId == self.id, !self.switched else { return false }
                self.switched = true
                return true
            }
            if fired {
                self.subscription.disposable = self.parameters.other.subscribe(self.forwarder())
            }
            return Disposables.create()
        }
    }

    func on(_ event: Event<Element>) {
        let current = lock.withLock { () -> Int? in
            if switched { return nil }
            id += 1
            return id
        }
        guard let current else { return }
        forwardOn(event)
        if event.isStopEvent {
            dispose()
        } else {
            startTimer(current)
        }
    }
}

private final class Timeout<Element>: SourceProducer<Element, TimeoutParameters<Element>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            TimeoutSink(parameters, observer: observer, cancel: cancel)
        ) { $0.run(source) }
    }
}
