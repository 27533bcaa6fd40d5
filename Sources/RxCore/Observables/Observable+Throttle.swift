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

private typealias ThrottleParameters = (dueTime: RxTimeInterval, latest: Bool, scheduler: SchedulerType)

/// `lock` guards `lastSent`, `pending` and `completed` (see ``TimedSink``). The timer emits the
/// pending element at the end of the window.
private final class ThrottleSink<Observer: ObserverType>: TimedSink<ThrottleParameters, Observer>,
    ObserverType
{
    typealias Element = Observer.Element

    private var lastSent: Date?
    private var pending: Element?
    private var completed = false

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                let now = parameters.scheduler.now
                let remaining: Double
                if let lastSent {
                    remaining = parameters.dueTime.rxSeconds - now.timeIntervalSince(lastSent)
                } else {
                    remaining = 0
                }
                if remaining <= 0 {
                    send(element)
                    return
                }
                guard parameters.latest else { return }
                let windowAlreadyScheduled = pending != nil
                pending = element
                if windowAlreadyScheduled { return }
                timer.replace {
                    parameters.scheduler.scheduleRelative((), dueTime: .rxFromSeconds(remaining)) {
                        [weak self] _ in
                        self?.windowEnded()
                        return Disposables.create()
                    }
                }
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
        lastSent = parameters.scheduler.now
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

private final class Throttle<Element>: SourceProducer<Element, ThrottleParameters, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(timed: ThrottleSink(parameters, observer: observer, cancel: cancel))
    }
}
