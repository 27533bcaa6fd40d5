import RxCore
import Testing

extension RxCoreTests {
    @Suite("refCount")
    struct RefCountTests {
        @Test("RefCount connects for the first subscriber and disconnects after the last")
        func connectsAndDisconnects() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4)))
            let shared = xs.publish().refCount()
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            var a: Disposable?
            var b: Disposable?
            scheduler.scheduleAt(200) { a = shared.subscribe(first) }
            scheduler.scheduleAt(215) { b = shared.subscribe(second) }
            scheduler.scheduleAt(225) { a?.dispose() }
            scheduler.scheduleAt(235) { b?.dispose() }
            scheduler.start()
            #expect(first.events == [.next(210, 1), .next(220, 2)])
            #expect(second.events == [.next(220, 2), .next(230, 3)])
            #expect(xs.subscriptions == [Subscription(200, 235)])
        }

        @Test("After the source completes, the next subscriber connects again")
        func reconnectsAfterCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable(Recorded.events(.next(10, 1), .completed(20)))
            let shared = xs.publish().refCount()
            let first = scheduler.createObserver(Int.self)
            let second = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(200) { _ = shared.subscribe(first) }
            scheduler.scheduleAt(300) { _ = shared.subscribe(second) }
            scheduler.start()
            #expect(first.events == [.next(210, 1), .completed(220)])
            #expect(second.events == [.next(310, 1), .completed(320)])
            #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
        }
    }
}
