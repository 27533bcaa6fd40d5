import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+TakeUntilTests.swift, Observable+TakeTests.swift (take
// for a duration), Observable+SkipTests.swift (skip for a duration) and
// Observable+DelaySubscriptionTests.swift.
extension RxCoreTests {
    @Suite("take(until:), take(for:), skip(_:scheduler:) and delaySubscription, RxSwift parity")
    struct TakeSkipParityTests {
        private let testError = TestError(1)

        private func someData(_ scheduler: TestScheduler) -> TestableObservable<Int> {
            scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
            ])
        }

        @Test("Take until the other emits completes then and unsubscribes from both")
        func preemptSomeDataNext() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let r = scheduler.createHotObservable([.next(150, 1), .next(225, 99), .completed(230)])
            let res = scheduler.start { l.take(until: r) }
            #expect(res.events == [.next(210, 2), .next(220, 3), .completed(225)])
            #expect(l.subscriptions == [Subscription(200, 225)])
            #expect(r.subscriptions == [Subscription(200, 225)])
        }

        @Test("Take until forwards the other's error and unsubscribes from both")
        func preemptSomeDataError() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let r: TestableObservable<Int> = scheduler.createHotObservable([
                .next(150, 1), .error(225, testError),
            ])
            let res = scheduler.start { l.take(until: r) }
            #expect(res.events == [.next(210, 2), .next(220, 3), .error(225, testError)])
            #expect(l.subscriptions == [Subscription(200, 225)])
            #expect(r.subscriptions == [Subscription(200, 225)])
        }

        @Test("Take until an other that completes empty keeps the source and drops the other")
        func noPreemptSomeDataEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let r: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(225)])
            let res = scheduler.start { l.take(until: r) }
            #expect(
                res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
            #expect(l.subscriptions == [Subscription(200, 250)])
            #expect(r.subscriptions == [Subscription(200, 225)])
        }

        @Test("Take until an other that never emits unsubscribes from it when the source completes")
        func noPreemptSomeDataNever() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let r: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1)])
            let res = scheduler.start { l.take(until: r) }
            #expect(
                res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250)])
            #expect(l.subscriptions == [Subscription(200, 250)])
            #expect(r.subscriptions == [Subscription(200, 250)])
        }

        @Test("Take until the other emits before the source's first element completes empty")
        func preemptBeforeFirstProduced() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(240)])
            let r = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
            let res = scheduler.start { l.take(until: r) }
            #expect(res.events == [.completed(210)])
            #expect(l.subscriptions == [Subscription(200, 210)])
            #expect(r.subscriptions == [Subscription(200, 210)])
        }

        @Test("After take until completed, a later source error is not delivered")
        func preemptBeforeFirstProducedRemainSilent() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = scheduler.createHotObservable([.next(150, 1), .error(215, testError), .completed(240)])
            let r = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(220)])
            let res = scheduler.start { l.take(until: r) }
            #expect(res.events == [.completed(210)])
            #expect(l.subscriptions == [Subscription(200, 210)])
        }

        @Test("The source completing first unsubscribes the other")
        func noPreemptAfterLastProduced() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = scheduler.createHotObservable([.next(150, 1), .next(230, 2), .completed(240)])
            let r = scheduler.createHotObservable([.next(150, 1), .next(250, 2), .completed(260)])
            let res = scheduler.start { l.take(until: r) }
            #expect(res.events == [.next(230, 2), .completed(240)])
            #expect(l.subscriptions == [Subscription(200, 240)])
            #expect(r.subscriptions == [Subscription(200, 240)])
        }

        @Test("Take until a predicate, inclusive, that always matches emits the first element and completes")
        func takeUntilPredicateInclusiveImmediately() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let res = scheduler.start { l.take(until: { _ in true }, behavior: .inclusive) }
            #expect(res.events == [.next(210, 2), .completed(210)])
            #expect(l.subscriptions == [Subscription(200, 210)])
        }

        @Test("Take until a predicate, exclusive, that always matches completes at the first element")
        func takeUntilPredicateExclusiveImmediately() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let res = scheduler.start { l.take(until: { _ in true }, behavior: .exclusive) }
            #expect(res.events == [.completed(210)])
            #expect(l.subscriptions == [Subscription(200, 210)])
        }

        @Test("A throwing take(until:) predicate fails the sequence")
        func takeUntilPredicateThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let l = someData(scheduler)
            let res = scheduler.start {
                l.take(until: { x in
                    if x == 4 { throw testError }
                    return false
                })
            }
            #expect(res.events == [.next(210, 2), .next(220, 3), .error(230, testError)])
            #expect(l.subscriptions == [Subscription(200, 230)])
        }

        @Test("Take for zero time completes a tick after the subscription")
        func takeForZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.take(for: .seconds(0), scheduler: scheduler) }
            #expect(res.events == [.completed(201)])
            #expect(xs.subscriptions == [Subscription(200, 201)])
        }

        @Test("Take for a duration completes when it runs out")
        func takeForSome() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
            ])
            let res = scheduler.start { xs.take(for: .seconds(25), scheduler: scheduler) }
            #expect(res.events == [.next(210, 1), .next(220, 2), .completed(225)])
            #expect(xs.subscriptions == [Subscription(200, 225)])
        }

        @Test("Take for a duration longer than the source ends with the source")
        func takeForLate() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.take(for: .seconds(50), scheduler: scheduler) }
            #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
            #expect(xs.subscriptions == [Subscription(200, 230)])
        }

        @Test("Skip for zero time lets everything through")
        func skipTimeZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.skip(.seconds(0), scheduler: scheduler) }
            #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
            #expect(xs.subscriptions == [Subscription(200, 230)])
        }

        @Test("Skip for a duration drops the elements inside it")
        func skipTimeSome() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.skip(.seconds(15), scheduler: scheduler) }
            #expect(res.events == [.next(220, 2), .completed(230)])
        }

        @Test("Skip for a duration forwards an error inside it")
        func skipTimeError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(210, testError)])
            let res = scheduler.start { xs.skip(.seconds(50), scheduler: scheduler) }
            #expect(res.events == [.error(210, testError)])
            #expect(xs.subscriptions == [Subscription(200, 210)])
        }

        @Test("DelaySubscription subscribes after the due time and passes everything")
        func delaySubscriptionSimple() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .completed(70)])
            let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            #expect(res.events == [.next(280, 42), .next(290, 43), .completed(300)])
            #expect(xs.subscriptions == [Subscription(230, 300)])
        }

        @Test("DelaySubscription forwards the error of the delayed subscription")
        func delaySubscriptionError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .error(70, testError)])
            let res = scheduler.start { xs.delaySubscription(.seconds(30), scheduler: scheduler) }
            #expect(res.events == [.next(280, 42), .next(290, 43), .error(300, testError)])
            #expect(xs.subscriptions == [Subscription(230, 300)])
        }

        @Test("DelaySubscription disposed early ends the subscription then")
        func delaySubscriptionDisposed() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(50, 42), .next(60, 43), .error(70, testError)])
            let res = scheduler.start(disposed: 291) {
                xs.delaySubscription(.seconds(30), scheduler: scheduler)
            }
            #expect(res.events == [.next(280, 42), .next(290, 43)])
            #expect(xs.subscriptions == [Subscription(230, 291)])
        }
    }
}
