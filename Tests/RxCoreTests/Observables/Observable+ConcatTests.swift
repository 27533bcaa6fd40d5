import RxCore
import Testing

extension RxCoreTests {
    @Suite("concat")
    struct ConcatTests {
        @Test("Concat emits the sources one after the other")
        func emitsInTurn() {
            let events = synchronousEvents(of: Observable.concat(.of(1, 2), .just(3), .of(4)))
            #expect(events == [.next(1), .next(2), .next(3), .next(4), .completed])
            #expect(
                synchronousEvents(of: Observable.of(1).concat(Observable.of(2)))
                    == [.next(1), .next(2), .completed])
        }

        @Test("Concat subscribes to the next source only when the previous one completed")
        func subscribesInTurn() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createColdObservable([.next(10, 1), .completed(20)])
            let second = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let observer = scheduler.start {
                Observable.concat([first.asObservable(), second.asObservable()])
            }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
            #expect(first.subscriptions == [Subscription(200, 220)])
            #expect(second.subscriptions == [Subscription(220, 240)])
        }

        @Test("An error in a source stops concat")
        func errorStops() {
            let events = synchronousEvents(of: Observable.concat(.of(1), .error(TestError(1)), .of(2)))
            #expect(events == [.next(1), .error(TestError(1))])
        }

        @Test("Concat of a sequence of sequences subscribes the inner sequences in order")
        func concatOfSequences() {
            let events = synchronousEvents(of: Observable.of(Observable.of(1, 2), Observable.of(3)).concat())
            #expect(events == [.next(1), .next(2), .next(3), .completed])
        }
    }
}
