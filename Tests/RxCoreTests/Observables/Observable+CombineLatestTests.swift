import RxCore
import Testing

extension RxCoreTests {
    @Suite("combineLatest")
    struct CombineLatestTests {
        @Test("CombineLatest emits the latest of each source once all have emitted")
        func emitsLatestValues() {
            let scheduler = TestScheduler(initialClock: 0)
            let numbers = scheduler.createHotObservable([.next(210, 1), .next(230, 2), .completed(260)])
            let letters = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(250)])
            let observer = scheduler.start {
                Observable.combineLatest(numbers, letters) { "\($0)\($1)" }
            }
            #expect(
                observer.events == [.next(220, "1a"), .next(230, "2a"), .next(240, "2b"), .completed(260)])
        }

        @Test("CombineLatest without a result selector emits tuples")
        func emitsTuples() {
            let first = BehaviorSubject(value: 1)
            let second = BehaviorSubject(value: "x")
            var received: [String] = []
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: {
                received.append("\($0)-\($1)")
            })
            first.onNext(2)
            second.onNext("y")
            #expect(received == ["1-x", "2-x", "2-y"])
            subscription.dispose()
        }

        @Test("CombineLatest accepts up to eight sources of different types")
        func eightSources() {
            let events = synchronousEvents(
                of: Observable.combineLatest(
                    Observable.just(1), Observable.just("2"), Observable.just(3.0), Observable.just(true),
                    Observable.just(5), Observable.just(6), Observable.just(7), Observable.just(8)
                ) { a, b, c, d, e, f, g, h in "\(a)\(b)\(c)\(d)\(e)\(f)\(g)\(h)" })
            #expect(events == [.next("123.0true5678"), .completed])
        }

        @Test("CombineLatest of a collection emits arrays or the result of a selector")
        func collections() {
            let sources = [Observable.just(1), Observable.just(2), Observable.just(3)]
            #expect(
                synchronousEvents(of: Observable.combineLatest(sources)) == [.next([1, 2, 3]), .completed])
            #expect(
                synchronousEvents(of: Observable.combineLatest(sources) { $0.reduce(0, +) })
                    == [.next(6), .completed])
        }

        @Test("An error of any source terminates combineLatest")
        func errorTerminates() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1)])
            let second = scheduler.createHotObservable([.error(220, TestError(1), Int.self)])
            let observer = scheduler.start { Observable.combineLatest(first, second) { $0 + $1 } }
            #expect(observer.events == [.error(220, TestError(1))])
            #expect(first.subscriptions == [Subscription(200, 220)])
        }
    }
}
