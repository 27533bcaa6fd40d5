import RxCore
import Testing

// RxSwift 6.10.2's arity tests (Observable+ZipTests+arity.swift,
// Observable+CombineLatestTests+arity.swift): every arity up to eight, with the result selector
// labelled or trailing, and the tuple forms.
extension RxCoreTests {
    @Suite("zip and combineLatest arities, RxSwift parity")
    struct ArityParityTests {
        @Test("Zip of eight sources with a labelled result selector pairs by index")
        func zipEight() {
            let scheduler = TestScheduler(initialClock: 0)
            let sources = (1...8).map { index in
                scheduler.createHotObservable([
                    .next(150, 0), .next(200 + index * 10, index), .completed(400),
                ])
            }
            let sum: (Int, Int, Int, Int, Int, Int, Int, Int) -> Int = { a, b, c, d, e, f, g, h in
                [a, b, c, d, e, f, g, h].reduce(0, +)
            }
            let res = scheduler.start { () -> Observable<Int> in
                Observable.zip(
                    sources[0], sources[1], sources[2], sources[3], sources[4], sources[5], sources[6],
                    sources[7],
                    resultSelector: sum)
            }
            #expect(res.events == [.next(280, 36), .completed(400)])
            for source in sources { #expect(source.subscriptions == [Subscription(200, 400)]) }
        }

        @Test(
            "CombineLatest of three sources emits on each element once all have one, as a tuple or through a selector"
        )
        func combineLatestThree() {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 1), .next(240, 4), .completed(270),
            ])
            let e1 = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(250, 5), .completed(280),
            ])
            let e2 = scheduler.createHotObservable([
                .next(150, 1), .next(230, 3), .next(260, 6), .completed(290),
            ])
            let res = scheduler.start {
                Observable.combineLatest(e0, e1, e2).map { $0 + $1 + $2 }
            }
            #expect(
                res.events == [.next(230, 6), .next(240, 9), .next(250, 12), .next(260, 15), .completed(290)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let f0 = scheduler2.createHotObservable([.next(210, 1), .completed(270)])
            let f1 = scheduler2.createHotObservable([.next(220, 2), .completed(280)])
            let f2 = scheduler2.createHotObservable([.next(230, 3), .completed(290)])
            let res2 = scheduler2.start {
                Observable.combineLatest(f0, f1, f2, resultSelector: { $0 * $1 * $2 })
            }
            #expect(res2.events == [.next(230, 6), .completed(290)])
        }

        @Test("Zip of three sources completes when every source has completed")
        func zipThreeCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 1), .completed(215)])
            let e1 = scheduler.createHotObservable([.next(150, 1), .next(220, 2), .completed(240)])
            let e2 = scheduler.createHotObservable([
                .next(150, 1), .next(230, 3), .next(250, 4), .completed(260),
            ])
            let res = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
            #expect(res.events == [.next(230, 6), .completed(260)])
            #expect(e0.subscriptions == [Subscription(200, 215)])
            #expect(e1.subscriptions == [Subscription(200, 240)])
            #expect(e2.subscriptions == [Subscription(200, 260)])
        }
    }
}
