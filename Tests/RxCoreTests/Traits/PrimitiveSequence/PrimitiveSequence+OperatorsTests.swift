import RxCore
import Testing

// The recordings are those of RxSwift's SingleTest, MaybeTest and CompletableTest.
extension RxCoreTests {
    @Suite("PrimitiveSequence operators")
    struct PrimitiveSequenceOperatorsTests {
        @Test("delay shifts a single's element and completion; the completion runs a tick later")
        func delaySingle() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1).delay(.seconds(2), scheduler: scheduler) }
            #expect(res.events == [.next(202, 1), .completed(203)])
        }

        @Test("delay of a completable and a maybe")
        func delayCompletableAndMaybe() {
            let scheduler = TestScheduler(initialClock: 0)
            let completable = scheduler.start { Completable.empty().delay(.seconds(2), scheduler: scheduler) }
            #expect(completable.events == [.completed(202)])
            let maybe = TestScheduler(initialClock: 0)
            let res = maybe.start { Maybe.just(1).delay(.seconds(2), scheduler: maybe) }
            #expect(res.events == [.next(202, 1), .completed(203)])
        }

        @Test("delaySubscription subscribes after the due time")
        func delaySubscription() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1).delaySubscription(.seconds(2), scheduler: scheduler) }
            #expect(res.events == [.next(202, 1), .completed(202)])
            let other = TestScheduler(initialClock: 0)
            let completable = other.start {
                Completable.empty().delaySubscription(.seconds(2), scheduler: other)
            }
            #expect(completable.events == [.completed(202)])
        }

        @Test("timeout fails with RxError.timeout when the single is late")
        func timeoutFails() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)]).asSingle()
            let res = scheduler.start { xs.timeout(.seconds(5), scheduler: scheduler) }
            #expect(res.events == [.error(205, RxError.timeout)])
        }

        @Test("timeout switches to the other single when the first is late")
        func timeoutOther() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)]).asSingle()
            let xs2 = scheduler.createColdObservable([.next(20, 2), .completed(20)]).asSingle()
            let res = scheduler.start { xs.timeout(.seconds(5), other: xs2, scheduler: scheduler) }
            #expect(res.events == [.next(225, 2), .completed(225)])
        }

        @Test("timeout lets a single in time through, with or without another")
        func timeoutSucceeds() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)]).asSingle()
            let res = scheduler.start { xs.timeout(.seconds(30), scheduler: scheduler) }
            #expect(res.events == [.next(220, 1), .completed(220)])
            let second = TestScheduler(initialClock: 0)
            let ys = second.createColdObservable([.next(10, 1), .completed(20)]).asSingle()
            let ys2 = second.createColdObservable([.next(20, 2), .completed(20)]).asSingle()
            let other = second.start { ys.timeout(.seconds(30), other: ys2, scheduler: second) }
            #expect(other.events == [.next(220, 1), .completed(220)])
        }

        @Test("timeout of a completable")
        func timeoutCompletable() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            let xs2 = scheduler.createColdObservable([Recorded<Event<Never>>.completed(20)]).asCompletable()
            let res = scheduler.start { xs.timeout(.seconds(5), other: xs2, scheduler: scheduler) }
            #expect(res.events == [.completed(225)])
        }

        @Test("debug passes the events through")
        func debugPassesThrough() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1).debug() }
            #expect(res.events == [.next(200, 1), .completed(200)])
            let completable = TestScheduler(initialClock: 0).start { Completable.empty().debug("c") }
            #expect(completable.events == [.completed(200)])
        }

        @Test("using owns the resource for the subscription's lifetime")
        func using() {
            let scheduler = TestScheduler(initialClock: 0)
            var disposedAt: [Int] = []
            var xs: TestableObservable<Int>!
            let res = scheduler.start {
                Single.using(
                    { ClosureResource { disposedAt.append(scheduler.clock) } },
                    primitiveSequenceFactory: { (_: ClosureResource) -> Single<Int> in
                        xs = scheduler.createColdObservable([.next(100, scheduler.clock), .completed(100)])
                        return xs.asObservable().asSingle()
                    })
            }
            #expect(res.events == [.next(300, 200), .completed(300)])
            #expect(xs.subscriptions == [Subscription(200, 300)])
            #expect(disposedAt == [300])
        }

        @Test("timer emits zero after the due time")
        func timer() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single<Int>.timer(.seconds(2), scheduler: scheduler) }
            #expect(res.events == [.next(202, 0), .completed(202)])
        }

        @Test("retry(when:) with a handler of untyped errors")
        func retryWhenUntyped() {
            let scheduler = TestScheduler(initialClock: 0)
            var isFirst = true
            let res = scheduler.start {
                Single<Int>.error(TestError(1))
                    .catch { error in
                        defer { isFirst = false }
                        return isFirst ? Single.error(error) : Single.just(2)
                    }
                    .retry { errors in errors }
            }
            #expect(res.events == [.next(200, 2), .completed(200)])
        }

        @Test("just on a scheduler delivers there")
        func justOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let single = scheduler.start { Single.just(1, scheduler: scheduler) }
            #expect(single.events == [.next(201, 1), .completed(202)])
            let other = TestScheduler(initialClock: 0)
            let maybe = other.start { Maybe.just(1, scheduler: other) }
            #expect(maybe.events == [.next(201, 1), .completed(202)])
        }

        @Test("Observable.first is a single of the first element, or of nil")
        func observableFirst() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .completed(250),
            ])
            let res = scheduler.start { xs.first() }
            #expect(res.events == [.next(210, 2), .completed(210)])
            #expect(xs.subscriptions == [Subscription(200, 210)])

            let empty = TestScheduler(initialClock: 0)
            let ys = empty.createHotObservable([.next(150, 1), Recorded<Event<Int>>.completed(250)])
            let none = empty.start { ys.first() }
            #expect(none.events == [.next(250, nil), .completed(250)])

            let failing = TestScheduler(initialClock: 0)
            let zs = failing.createHotObservable([
                .next(150, 1), Recorded<Event<Int>>.error(240, TestError(1)),
            ])
            let error = failing.start { zs.first() }
            #expect(error.events == [.error(240, TestError(1))])
        }
    }
}

/// A resource for `using` that runs a closure when disposed.
private final class ClosureResource: Disposable {
    private let onDispose: () -> Void

    init(_ onDispose: @escaping () -> Void) {
        self.onDispose = onDispose
    }

    func dispose() {
        onDispose()
    }
}
