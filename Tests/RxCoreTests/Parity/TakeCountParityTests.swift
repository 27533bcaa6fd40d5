import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+TakeTests.swift, Observable+SkipTests.swift and
// Observable+TakeLastTests.swift about counts.
extension RxCoreTests {
    @Suite("take, skip and takeLast counts, RxSwift parity")
    struct TakeCountParityTests {
        private let testError = TestError(1)

        @Test("take(0) completes at subscription without subscribing to the source")
        func takeZero() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.take(0) }
            #expect(res.events == [.completed(200)])
            #expect(xs.subscriptions == [])
        }

        @Test("take counts an element before delivering it, so an element sent back from onNext is dropped")
        func takeDecrementsCountFirst() {
            let k = BehaviorSubject(value: false)
            var elements: [Bool] = []
            _ = k.take(1).subscribe(onNext: { n in
                elements.append(n)
                k.on(.next(!n))
            })
            #expect(elements == [false])
        }

        @Test("take of more elements than the source has ends with the source; an error passes through")
        func takeMoreThanAvailable() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(230, testError)])
            let res = scheduler.start { xs.take(5) }
            #expect(res.events == [.next(210, 1), .next(220, 2), .error(230, testError)])
            #expect(xs.subscriptions == [Subscription(200, 230)])
        }

        @Test("skip(0) passes everything; skip of more than the source has gives only its completion")
        func skipCounts() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res = scheduler.start { xs.skip(0) }
            #expect(res.events == [.next(210, 1), .next(220, 2), .completed(230)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let res2 = scheduler2.start { ys.skip(5) }
            #expect(res2.events == [.completed(230)])
            #expect(ys.subscriptions == [Subscription(200, 230)])
        }

        @Test("takeLast(0) emits only the completion; takeLast keeps the last elements of a longer source")
        func takeLastCounts() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .completed(240),
            ])
            let res = scheduler.start { xs.takeLast(0) }
            #expect(res.events == [.completed(240)])
            #expect(xs.subscriptions == [Subscription(200, 240)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([.next(210, 1), .next(220, 2), .completed(240)])
            let res2 = scheduler2.start { ys.takeLast(5) }
            #expect(res2.events == [.next(240, 1), .next(240, 2), .completed(240)])
        }
    }
}
