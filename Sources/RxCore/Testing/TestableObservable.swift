/// A sequence that emits recorded events on a ``TestScheduler`` and records its subscriptions
/// (RxTest's `TestableObservable`). Created by `createHotObservable` or `createColdObservable`.
public class TestableObservable<Element>: ObservableType {
    /// The scheduler that drives the sequence.
    unowned let scheduler: TestScheduler

    /// The subscriptions made so far, with their subscription and disposal times.
    public internal(set) var subscriptions: [Subscription] = []

    /// The events the sequence emits.
    public let recordedEvents: [Recorded<Event<Element>>]

    init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        self.scheduler = scheduler
        self.recordedEvents = recordedEvents
    }

    /// Subscribes `observer`; see the subclasses for when it receives the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        rxAbstractMethod()
    }

    /// The sequence as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }

    /// Marks the subscription at `index` as disposed now.
    func endSubscription(at index: Int) {
        subscriptions[index] = Subscription(subscriptions[index].subscribe, scheduler.clock)
    }
}

/// Emits each recorded event at its absolute time to the observers subscribed at that time.
final class HotObservable<Element>: TestableObservable<Element> {
    private var observers: [(id: Int, observer: AnyObserver<Element>)] = []
    private var nextId = 0

    override init(scheduler: TestScheduler, recordedEvents: [Recorded<Event<Element>>]) {
        super.init(scheduler: scheduler, recordedEvents: recordedEvents)
        for recorded in recordedEvents {
            scheduler.scheduleAt(recorded.time) { [weak self] in
                guard let self else { return }
                for entry in self.observers {
                    entry.observer.on(recorded.value)
                }
            }
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        let id = nextId
        nextId += 1
        observers.append((id, AnyObserver(observer)))
        subscriptions.append(Subscription(scheduler.clock))
        let index = subscriptions.count - 1
        return Disposables.create {
            self.observers.removeAll { $0.id == id }
            self.endSubscription(at: index)
        }
    }
}

/// Emits the recorded events to each subscriber at their times relative to its subscription.
///
/// As in RxTest, disposing a subscription does not take its events off the scheduler: they stay
/// queued (and still move the clock when their time comes) but are no longer delivered.
final class ColdObservable<Element>: TestableObservable<Element> {
    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        subscriptions.append(Subscription(scheduler.clock))
        let index = subscriptions.count - 1
        let disposed = BooleanDisposable()
        for recorded in recordedEvents {
            _ = scheduler.scheduleRelativeVirtual((), dueTime: recorded.time) { _ in
                if !disposed.isDisposed {
                    observer.on(recorded.value)
                }
                return Disposables.create()
            }
        }
        return Disposables.create {
            disposed.dispose()
            self.endSubscription(at: index)
        }
    }
}
