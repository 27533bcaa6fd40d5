import Foundation

extension ObservableType {
    /// Delivers each element, and the completion, `dueTime` later on `scheduler`. An error is
    /// delivered at once and drops the elements still waiting, as in RxSwift.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(asObservable(), (dueTime: dueTime, scheduler: scheduler))
    }
}

/// `lock` guards `queue` and `timerScheduled` (see ``TimedSink``). Events wait in `queue` with
/// their due dates; one timer at a time drains the ones that are due.
private final class DelaySink<Observer: ObserverType>: TimedSink<DueTimeParameters, Observer>,
    ObserverType
{
    typealias Element = Observer.Element

    private var queue: [(due: Date, event: Event<Element>)] = []
    private var timerScheduled = false
    private let sourceSubscription = SingleAssignmentDisposable()

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, timer)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .error:
                queue = []
                forwardOn(event)
                dispose()
            case .next, .completed:
                if event.isStopEvent {
                    sourceSubscription.dispose()
                }
                queue.append(
                    (parameters.scheduler.now.addingTimeInterval(parameters.dueTime.rxSeconds), event))
                if !timerScheduled {
                    timerScheduled = true
                    timer.disposable = parameters.scheduler.scheduleRelative(
                        (), dueTime: parameters.dueTime
                    ) { _ in self.drain() }
                }
            }
        }
    }

    /// Forwards the first event if it is due and schedules the next drain, if events remain.
    ///
    /// One event per run, as RxSwift's `delay` does: an event due at the same time as the one
    /// before it is forwarded by a new action scheduled with no delay (on a ``TestScheduler``, a
    /// tick later), so `just(1).delay(2)` records its element at 202 and its completion at 203.
    private func drain() -> Disposable {
        lock.withLock {
            let now = parameters.scheduler.now
            if let first = queue.first, first.due <= now {
                queue.removeFirst()
                forwardOn(first.event)
                if first.event.isStopEvent {
                    dispose()
                    return
                }
            }
            guard let first = queue.first else {
                timerScheduled = false
                return
            }
            let wait = DispatchTimeInterval.rxFromSeconds(first.due.timeIntervalSince(now))
            timer.disposable = parameters.scheduler.scheduleRelative((), dueTime: wait) { _ in self.drain() }
        }
        return Disposables.create()
    }
}

private final class Delay<Element>: SourceProducer<Element, DueTimeParameters, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            DelaySink(parameters, observer: observer, cancel: cancel)
        ) { $0.run(source) }
    }
}
