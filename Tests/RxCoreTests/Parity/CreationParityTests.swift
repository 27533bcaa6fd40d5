import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+GenerateTests.swift, Observable+RangeTests.swift,
// Observable+RepeatTests.swift and Observable+CreationTest.swift on a TestScheduler.
extension RxCoreTests {
    @Suite("creation operators on a scheduler, RxSwift parity")
    struct CreationParityTests {
        private let testError = TestError(1)

        @Test("A throwing generate condition fails at the first tick")
        func generateThrowCondition() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable.generate(
                    initialState: 0, condition: { _ throws -> Bool in throw testError }, scheduler: scheduler,
                    iterate: { $0 + 1 })
            }
            #expect(res.events == [.error(201, testError)])
        }

        @Test("A throwing generate iterate fails at the second tick, after the first element")
        func generateThrowIterate() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start {
                Observable.generate(
                    initialState: 0, condition: { _ in true }, scheduler: scheduler,
                    iterate: { _ throws -> Int in throw testError })
            }
            #expect(res.events == [.next(201, 0), .error(202, testError)])
        }

        @Test("Generate disposed early stops at the disposal")
        func generateDispose() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start(disposed: 203) {
                Observable.generate(
                    initialState: 0, condition: { _ in true }, scheduler: scheduler, iterate: { $0 + 1 })
            }
            #expect(res.events == [.next(201, 0), .next(202, 1)])
        }

        @Test("Range of zero elements completes at the first tick; of Int.max emits it, then completes")
        func rangeEdges() {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.start { Observable<Int>.range(start: 0, count: 0, scheduler: scheduler) }
            #expect(empty.events == [.completed(201)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let max = scheduler2.start {
                Observable<Int>.range(start: Int.max, count: 1, scheduler: scheduler2)
            }
            #expect(max.events == [.next(201, Int.max), .completed(202)])
            let scheduler3 = TestScheduler(initialClock: 0)
            let disposed = scheduler3.start(disposed: 204) {
                Observable<Int>.range(start: -10, count: 5, scheduler: scheduler3)
            }
            #expect(disposed.events == [.next(201, -10), .next(202, -9), .next(203, -8)])
        }

        @Test("Deferred with a throwing factory fails at subscription")
        func deferredError() {
            let scheduler = TestScheduler(initialClock: 0)
            var invoked = 0
            let res = scheduler.start {
                Observable<Int>.deferred {
                    invoked += 1
                    throw testError
                }
            }
            #expect(res.events == [.error(200, testError)])
            #expect(invoked == 1)
        }

        @Test("Deferred calls the factory at subscription time and subscribes to what it returns")
        func deferredComplete() {
            let scheduler = TestScheduler(initialClock: 0)
            var invoked = 0
            var xs: TestableObservable<Int>?
            let res = scheduler.start {
                Observable<Int>.deferred {
                    invoked += 1
                    let cold = scheduler.createColdObservable([.next(100, scheduler.clock), .completed(200)])
                    xs = cold
                    return cold.asObservable()
                }
            }
            #expect(invoked == 1)
            #expect(res.events == [.next(300, 200), .completed(400)])
            #expect(xs?.subscriptions == [Subscription(200, 400)])
        }
    }
}
