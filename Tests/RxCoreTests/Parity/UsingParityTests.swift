import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+UsingTests.swift.
extension RxCoreTests {
    @Suite("using, RxSwift parity")
    struct UsingParityTests {
        /// Records the virtual times of its creation and disposal (RxSwift's MockDisposable).
        final class MockDisposable: Disposable {
            private(set) var ticks: [Int] = []
            private unowned let scheduler: TestScheduler

            init(scheduler: TestScheduler) {
                self.scheduler = scheduler
                ticks.append(scheduler.clock)
            }

            func dispose() {
                ticks.append(scheduler.clock)
            }
        }

        private let testError = TestError(1)

        @Test("Using creates the resource at subscription and disposes it when the sequence completes")
        func complete() {
            let scheduler = TestScheduler(initialClock: 0)
            var resourceInvoked = 0
            var createInvoked = 0
            var xs: TestableObservable<Int>?
            var disposable: MockDisposable?
            let res = scheduler.start {
                Observable<Int>.using(
                    { () -> MockDisposable in
                        resourceInvoked += 1
                        disposable = MockDisposable(scheduler: scheduler)
                        return disposable!
                    },
                    observableFactory: { _ in
                        createInvoked += 1
                        let cold = scheduler.createColdObservable([
                            .next(100, scheduler.clock), .completed(200),
                        ])
                        xs = cold
                        return cold.asObservable()
                    })
            }
            #expect(res.events == [.next(300, 200), .completed(400)])
            #expect(resourceInvoked == 1)
            #expect(createInvoked == 1)
            #expect(xs?.subscriptions == [Subscription(200, 400)])
            #expect(disposable?.ticks == [200, 400])
        }

        @Test("Using disposes the resource when the subscription is disposed")
        func dispose() {
            let scheduler = TestScheduler(initialClock: 0)
            var xs: TestableObservable<Int>?
            var disposable: MockDisposable?
            let res = scheduler.start {
                Observable<Int>.using(
                    { () -> MockDisposable in
                        disposable = MockDisposable(scheduler: scheduler)
                        return disposable!
                    },
                    observableFactory: { _ in
                        let cold = scheduler.createColdObservable([
                            .next(100, scheduler.clock), .next(1000, scheduler.clock + 1),
                        ])
                        xs = cold
                        return cold.asObservable()
                    })
            }
            #expect(res.events == [.next(300, 200)])
            #expect(xs?.subscriptions == [Subscription(200, 1000)])
            #expect(disposable?.ticks == [200, 1000])
        }

        @Test("A throwing resource factory fails at subscription without calling the sequence factory")
        func throwResourceSelector() {
            let scheduler = TestScheduler(initialClock: 0)
            var createInvoked = 0
            let res = scheduler.start {
                Observable<Int>.using(
                    { () throws -> MockDisposable in throw testError },
                    observableFactory: { _ in
                        createInvoked += 1
                        return Observable.never()
                    })
            }
            #expect(res.events == [.error(200, testError)])
            #expect(createInvoked == 0)
        }

        @Test("A throwing sequence factory fails at subscription and disposes the resource at once")
        func throwResourceUsage() {
            let scheduler = TestScheduler(initialClock: 0)
            var disposable: MockDisposable?
            let res = scheduler.start {
                Observable<Int>.using(
                    { () -> MockDisposable in
                        disposable = MockDisposable(scheduler: scheduler)
                        return disposable!
                    },
                    observableFactory: { _ throws -> Observable<Int> in throw testError })
            }
            #expect(res.events == [.error(200, testError)])
            #expect(disposable?.ticks == [200, 200])
        }
    }
}
