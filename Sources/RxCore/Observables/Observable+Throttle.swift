import Foundation

extension ObservableType {
    /// Emits the first element at once, then at most one element per `dueTime` window: elements
    /// that arrive within the window are dropped, except that with `latest: true` the last of them
    /// is emitted when the window ends. On completion, a pending latest element is emitted first.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType)
        -> Observable<Element>
    {
        Throttle(asObservable(), (dueTime: dueTime, latest: latest, scheduler: scheduler))
    }
}

/// `lock` (recursive, for schedulers that run actions immediately) guards `lastSent`,
/// `pending` and `completed`, and is held while forwarding. `timer` holds the timer that emits
/// the pending element at the end of the window.
private final class ThrottleSink<Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    private let dueTime: RxTimeInterval
    private let latest: Bool
    private let scheduler: SchedulerType
    private let lock = RxLock(recursive: true)
    private var lastSent: Date?
    private var pending: Element?
    private var completed = false
    private let timer = SerialDisposable()

    init(
        dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType, observer: Observer,
        cancel: Cancelable
    ) {
        self.dueTime = dueTime
        self.latest = latest
        self.scheduler = scheduler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let subscription = source.subscribe(self)
        return Disposables.create(subscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                let now = scheduler.now
                let remaining: Double
                if let lastSent {
                    remaining = dueTime.rxSeconds - now.timeIntervalSince(lastSent)
                } else {
                    remaining = 0
                }
                if remaining <= 0 {
                    send(element)
                    return
                }
                guard latest else { return }
                let windowAlreadyScheduled = pending != nil
                pending = element
                if windowAlreadyScheduled { return }
                let scheduled = SingleAssignmentDisposable()
                timer.disposable = scheduled
                scheduled.setDisposable(
                    scheduler.scheduleRelative((), dueTime: .rxFromSeconds(remaining)) { [weak self] _ in
                        self?.windowEnded()
                        return Disposables.create()
                    })
            case .error:
                pending = nil
                forwardOn(event)
                dispose()
            case .completed:
                if pending != nil {
                    completed = true
                } else {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }

    private func send(_ element: Element) {
        pending = nil
        forwardOn(.next(element))
        timer.disposable = Disposables.create()
        lastSent = scheduler.now
    }

    private func windowEnded() {
        lock.withLock {
            if let element = pending {
                send(element)
            }
            if completed {
                forwardOn(.completed)
                dispose()
            }
        }
    }
}

private final class Throttle<Element>: SourceProducer<
    Element, (dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            ThrottleSink(
                dueTime: parameters.dueTime, latest: parameters.latest, scheduler: parameters.scheduler,
                observer: observer, cancel: cancel)
        ) { $0.run(source) }
    }
}
