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

        // Two sources take their own sink (Observable+CombineLatest2.swift); these pin its
        // termination rules to those of the collection form, which serves every other arity.

        @Test("CombineLatest of two completes when a source that never emitted is done and the other emits")
        func twoSourcesCompleteWhenOneIsEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let empty = scheduler.createHotObservable([.next(150, 1), .completed(210)])
            let other = scheduler.createHotObservable([.next(150, 1), .next(215, 2), .completed(220)])
            let two = scheduler.start { Observable.combineLatest(empty, other) { $0 + $1 } }
            #expect(two.events == [.completed(215)])
            #expect(empty.subscriptions == [Subscription(200, 210)])
            #expect(other.subscriptions == [Subscription(200, 215)])

            let collectionScheduler = TestScheduler(initialClock: 0)
            let collectionEmpty = collectionScheduler.createHotObservable([.next(150, 1), .completed(210)])
            let collectionOther = collectionScheduler.createHotObservable([
                .next(150, 1), .next(215, 2), .completed(220),
            ])
            let collection = collectionScheduler.start {
                Observable.combineLatest([collectionEmpty.asObservable(), collectionOther.asObservable()]) {
                    $0[0] + $0[1]
                }
            }
            #expect(collection.events == two.events)
        }

        @Test("CombineLatest of two completes once both sources completed, whichever order")
        func twoSourcesCompleteWhenBothAreDone() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1), .completed(230)])
            let second = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(250)])
            let observer = scheduler.start { Observable.combineLatest(first, second) { $0 * 10 + $1 } }
            #expect(observer.events == [.next(220, 12), .next(240, 13), .completed(250)])
            #expect(first.subscriptions == [Subscription(200, 230)])
            #expect(second.subscriptions == [Subscription(200, 250)])
        }

        @Test("A throwing result selector of two sources fails combineLatest and unsubscribes both")
        func twoSourcesSelectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let first = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
            let second = scheduler.createHotObservable([.next(220, 1)])
            let observer = scheduler.start {
                Observable.combineLatest(first, second) { a, b -> Int in
                    if a == 2 { throw TestError(2) }
                    return a + b
                }
            }
            #expect(observer.events == [.next(220, 2), .error(230, TestError(2))])
            #expect(first.subscriptions == [Subscription(200, 230)])
            #expect(second.subscriptions == [Subscription(200, 230)])
        }

        @Test("Disposing combineLatest of two stops the tuples and releases both subscriptions")
        func twoSourcesDispose() {
            let first = PublishSubject<Int>()
            let second = PublishSubject<String>()
            var received: [String] = []
            let subscription = Observable.combineLatest(first, second).subscribe(onNext: {
                received.append("\($0)\($1)")
            })
            first.onNext(1)
            second.onNext("a")
            subscription.dispose()
            first.onNext(2)
            #expect(received == ["1a"])
            #expect(!first.hasObservers && !second.hasObservers)
        }
    }
}
