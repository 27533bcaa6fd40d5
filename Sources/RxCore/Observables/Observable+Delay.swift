import Foundation

extension ObservableType {
    /// Delivers each element, and the completion, `dueTime` later on `scheduler`. An error is
    /// delivered at once and drops the elements still waiting, as in RxSwift.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        Delay(asObservable(), (dueTime: dueTime, scheduler: scheduler))
    }
}

/// A drain delivers at most one event per run, outside `lock`, so that an observer callback may
/// block on, or call back into, the source without deadlocking. `lock` guards `queue`,
/// `timerScheduled`, `delivering` and `pendingError`, and is held while a timer is scheduled, so
/// that `timer` is assigned before the drain it starts can assign the next one.
///
/// Invariants: at most one drain is scheduled or running (`timerScheduled`); `delivering` is set
/// while a drain forwards an event; an error that arrives then waits in `pendingError` and is
/// forwarded by that drain as soon as the delivery returns, otherwise `on(_:)` forwards it at
/// once. Either way exactly one of them forwards it, and no element is forwarded after it.
private final class DelaySink<Observer: ObserverType>: TimedSink<DueTimeParameters, Observer>,
    ObserverType
{
    typealias Element = Observer.Element

    private var queue: [(due: Date, event: Event<Element>)] = []
    private var timerScheduled = false
    private var delivering = false
    private var pendingError: Event<Element>?
    private let sourceSubscription = SingleAssignmentDisposable()

    func run(_ source: Observable<Element>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, timer)
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            sourceSubscription.dispose()
        }
        if case .error = event {
            let forwardNow = lock.withLock {
                queue = []
                pendingError = event
                return !delivering
            }
            if forwardNow {
                forwardOn(event)
                dispose()
            }
            return
        }
        lock.withLock {
            if pendingError != nil { return }
            queue.append((parameters.scheduler.now.addingTimeInterval(parameters.dueTime.rxSeconds), event))
            if !timerScheduled {
                timerScheduled = true
                scheduleDrain(after: parameters.dueTime)
            }
        }
    }

    /// Forwards the first event if it is due, then schedules the next drain if events remain, or
    /// forwards the error that arrived during the delivery.
    ///
    /// One event per run, as RxSwift's `delay` does: an event due at the same time as the one
    /// before it is forwarded by a new action scheduled with no delay (on a ``TestScheduler``, a
    /// tick later), so `just(1).delay(2)` records its element at 202 and its completion at 203.
    private func drain() -> Disposable {
        // `nil`: the sequence has ended; `.some(nil)`: nothing is due yet (a timer that fired early).
        let due: Event<Element>?? = lock.withLock {
            // An error already forwarded by `on(_:)` ends the sequence: nothing left to drain.
            if pendingError != nil { return .none }
            delivering = true
            guard let first = queue.first, first.due <= parameters.scheduler.now else { return .some(nil) }
            queue.removeFirst()
            return .some(first.event)
        }
        guard let due else { return Disposables.create() }
        if let event = due {
            forwardOn(event)
            if event.isStopEvent {
                dispose()
                return Disposables.create()
            }
        }
        let error: Event<Element>? = lock.withLock {
            delivering = false
            if let pendingError { return pendingError }
            guard let first = queue.first else {
                timerScheduled = false
                return nil
            }
            let wait = first.due.timeIntervalSince(parameters.scheduler.now)
            scheduleDrain(after: .rxFromSeconds(wait))
            return nil
        }
        if let error {
            forwardOn(error)
            dispose()
        }
        return Disposables.create()
    }

    /// Schedules the next drain. Called with `lock` held (see the type's comment).
    private func scheduleDrain(after wait: RxTimeInterval) {
        timer.disposable = parameters.scheduler.scheduleRelative((), dueTime: wait) { _ in self.drain() }
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
