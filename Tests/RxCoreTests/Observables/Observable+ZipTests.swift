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

        @Test("Zip completes when an element can no longer be paired")
        func completesWhenUnpairable() {
            let scheduler = TestScheduler(initialClock: 0)
            let short = scheduler.createHotObservable([.next(210, 1), .completed(220)])
            let long = scheduler.createHotObservable([.next(230, 10), .next(240, 20), .next(250, 30)])
            let observer = scheduler.start { Observable.zip(short, long) { $0 + $1 } }
            #expect(observer.events == [.next(230, 11), .completed(240)])
        }
    }
}
