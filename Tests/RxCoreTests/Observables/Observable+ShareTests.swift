import RxCore
import Testing

extension RxCoreTests {
    @Suite("share")
    struct ShareTests {
        @Test("Share subscribes to the source once for all subscribers and unsubscribes after the last one")
        func sharesOneSubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3)])
            let shared = source.asObservable().share()
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var firstSubscription: Disposable?
            var secondSubscription: Disposable?
            scheduler.scheduleAt(200) { firstSubscription = shared.subscribe(first) }
            scheduler.scheduleAt(215) { secondSubscription = shared.subscribe(second) }
            scheduler.scheduleAt(225) { firstSubscription?.dispose() }
            scheduler.scheduleAt(240) { secondSubscription?.dispose() }
            scheduler.start()
            #expect(first.events == [.next(210, 1), .next(220, 2)])
            #expect(second.events == [.next(220, 2), .next(230, 3)])
            #expect(source.subscriptions == [Subscription(200, 240)])
        }

        @Test(
            "Share with replay and whileConnected replays within a connection and starts afresh after it ends"
        )
        func whileConnectedResets() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
            let shared = source.asObservable().share(replay: 1, scope: .whileConnected)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            let third = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(shared.subscribe(first)) }
            scheduler.scheduleAt(225) { subscriptions.append(shared.subscribe(second)) }
            scheduler.scheduleAt(230) { for subscription in subscriptions { subscription.dispose() } }
            scheduler.scheduleAt(300) { subscriptions = [shared.subscribe(third)] }
            scheduler.scheduleAt(400) { for subscription in subscriptions { subscription.dispose() } }
            scheduler.start()
            #expect(second.events == [.next(225, 2)])
            #expect(third.events == [.next(310, 1), .next(320, 2)])
            #expect(source.subscriptions == [Subscription(200, 230), Subscription(300, 400)])
        }

        @Test("Share with replay and forever keeps the replay buffer across connections")
        func foreverKeepsBuffer() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 1), .next(20, 2)])
            let shared = source.asObservable().share(replay: 1, scope: .forever)
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = shared.subscribe(first) }
            scheduler.scheduleAt(230) { subscription?.dispose() }
            scheduler.scheduleAt(300) { subscription = shared.subscribe(second) }
            scheduler.scheduleAt(400) { subscription?.dispose() }
            scheduler.start()
            #expect(first.events == [.next(210, 1), .next(220, 2)])
            #expect(second.events == [.next(300, 2), .next(310, 1), .next(320, 2)])
            #expect(source.subscriptions == [Subscription(200, 230), Subscription(300, 400)])
        }

        @Test(
            "A shared sequence that completes is subscribed again by the next subscriber with whileConnected")
        func completedSourceIsResubscribed() {
            var subscriptions = 0
            let source = Observable<Int>.deferred {
                subscriptions += 1
                return .of(subscriptions)
            }.share(replay: 1)
            #expect(synchronousEvents(of: source) == [.next(1), .completed])
            #expect(synchronousEvents(of: source) == [.next(2), .completed])
        }

        @Test("A shared subject-backed sequence delivers every element to every subscriber")
        func sharedSubjectSource() {
            let subject = PublishSubject<Int>()
            let shared = subject.map { $0 * 2 }.share(replay: 1)
            let first = EventRecorder<Int>()
            let second = EventRecorder<Int>()
            let firstSubscription = shared.subscribe(first)
            subject.onNext(1)
            let secondSubscription = shared.subscribe(second)
            subject.onNext(2)
            #expect(first.events == [.next(2), .next(4)])
            #expect(second.events == [.next(2), .next(4)])
            firstSubscription.dispose()
            secondSubscription.dispose()
            #expect(!subject.hasObservers)
        }
    }
}
