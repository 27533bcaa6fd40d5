import RxCore
import Testing

extension RxCoreTests {
    @Suite("zip")
    struct ZipTests {
        @Test("Zip pairs the elements of its sources by index")
        func pairsByIndex() {
            let scheduler = TestScheduler(initialClock: 0)
            let numbers = scheduler.createHotObservable([
                .next(210, 1), .next(220, 2), .next(230, 3), .completed(300),
            ])
            let letters = scheduler.createHotObservable([.next(240, "a"), .next(250, "b"), .completed(260)])
            let observer = scheduler.start { Observable.zip(numbers, letters) { "\($0)\($1)" } }
            #expect(observer.events == [.next(240, "1a"), .next(250, "2b"), .completed(300)])
        }

        @Test("Zip without a result selector emits tuples, and zip of a collection emits arrays")
        func tuplesAndCollections() {
            var tuples: [String] = []
            let subscription = Observable.zip(Observable.of(1, 2), Observable.of("a", "b", "c"))
                .subscribe(onNext: { tuples.append("\($0)\($1)") })
            #expect(tuples == ["1a", "2b"])
            subscription.dispose()
            #expect(
                synchronousEvents(of: Observable.zip([Observable.of(1, 2), Observable.of(3, 4)]))
                    == [.next([1, 3]), .next([2, 4]), .completed])
        }

        @Test("Zip of two sources completes only when both have completed, not on an unpairable element")
        func variadicCompletesWhenAllComplete() {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let observer = scheduler.start { Observable.zip(empty, other) { $0 + $1 } }
            #expect(observer.events == [.completed(220)])
            #expect(empty.subscriptions == [Subscription(200, 210)])
            #expect(other.subscriptions == [Subscription(200, 220)])
        }

        @Test("Zip keeps waiting when one source completes empty and the other never ends")
        func variadicNeverEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let never = scheduler.createHotObservable([.next(150, 1)])
            let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let observer = scheduler.start { Observable.zip(never, empty) { $0 + $1 } }
            #expect(observer.events == [])
            #expect(never.subscriptions == [Subscription(200, 1000)])
            #expect(empty.subscriptions == [Subscription(200, 210)])
        }

        @Test("Zip of three sources completes when the last one completes")
        func variadicAllCompleted3() {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([.next(150, 1), .next(210, 5), .completed(220)])
            let e1 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 5), .next(220, 6), .completed(230),
            ])
            let e2 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 5), .next(220, 6), .next(230, 7), .completed(240),
            ])
            let observer = scheduler.start { Observable.zip(e0, e1, e2) { $0 + $1 + $2 } }
            #expect(observer.events == Recorded.events(.next(210, 15), .completed(240)))
            #expect(e0.subscriptions == [Subscription(200, 220)])
            #expect(e1.subscriptions == [Subscription(200, 230)])
            #expect(e2.subscriptions == [Subscription(200, 240)])
        }

        @Test("Zip of a collection completes on an element that can no longer be paired")
        func collectionCompletesWhenUnpairable() {
            let scheduler = TestScheduler(initialClock: 0)
            let e0 = scheduler.createHotObservable([
                .next(150, 1), .next(210, 1), .next(250, 4), .completed(270),
            ])
            let e1 = scheduler.createHotObservable([
                .next(150, 1), .next(220, 2), .next(240, 5), .next(290, 7), .next(310, 9), .completed(410),
            ])
            let e2 = scheduler.createHotObservable([
                .next(150, 1), .next(230, 3), .next(260, 6), .next(280, 8), .completed(300),
            ])
            let observer = scheduler.start { Observable.zip([e0, e1, e2].map { $0.asObservable() }) }
            #expect(observer.events == [.next(230, [1, 2, 3]), .next(260, [4, 5, 6]), .completed(310)])
            #expect(e0.subscriptions == [Subscription(200, 270)])
            #expect(e1.subscriptions == [Subscription(200, 310)])
            #expect(e2.subscriptions == [Subscription(200, 300)])
        }

        @Test("Zip fails on the first error and unsubscribes every source")
        func errorUnsubscribesAll() {
            let scheduler = TestScheduler(initialClock: 0)
            let o1 = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(230)])
            let o2 = scheduler.createHotObservable([.next(150, 1), .error(220, TestError(1))])
            let observer = scheduler.start { Observable.zip(o1, o2) { $0 + $1 } }
            #expect(observer.events == [.error(220, TestError(1))])
            #expect(o1.subscriptions == [Subscription(200, 220)])
            #expect(o2.subscriptions == [Subscription(200, 220)])
        }
    }
}
