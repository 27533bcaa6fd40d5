import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+PrimitiveSequenceTest.swift (asSingle, asMaybe, first),
// Observable+SingleTests.swift, Observable+ElementAtTests.swift and the tests of the operators
// over empty collections.
extension RxCoreTests {
    @Suite("element operators and empty collections, RxSwift parity")
    struct ElementOperatorsParityTests {
        private let testError = TestError(1)

        private func twoElements(_ scheduler: TestScheduler) -> TestableObservable<Int> {
            scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(250)])
        }

        @Test("asSingle fails with moreThanOneElement at the second element")
        func asSingleMany() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = twoElements(scheduler)
            let res = scheduler.start { xs.asSingle() }
            #expect(res.events == [.error(220, RxError.moreThanOneElement)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("asSingle of an empty source fails with noElements at its completion")
        func asSingleEmpty() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.asSingle() }
            #expect(res.events == [.error(250, RxError.noElements)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("asSingle emits the only element when the source completes")
        func asSingleOne() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(250)])
            let res = scheduler.start { xs.asSingle() }
            #expect(res.events == [.next(250, 2), .completed(250)])
        }

        @Test("asMaybe fails at the second element, completes empty, or emits the only element at completion")
        func asMaybe() {
            let scheduler = TestScheduler(initialClock: 0)
            let many = twoElements(scheduler)
            let empty: TestableObservable<Int> = scheduler.createHotObservable([.completed(250)])
            let one = scheduler.createHotObservable([.next(210, 2), .completed(250)])
            let res1 = scheduler.createObserver(Int.self)
            let res2 = scheduler.createObserver(Int.self)
            let res3 = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(many.asMaybe().asObservable().subscribe(res1))
                subscriptions.append(empty.asMaybe().asObservable().subscribe(res2))
                subscriptions.append(one.asMaybe().asObservable().subscribe(res3))
            }
            scheduler.start()
            #expect(res1.events == [.error(220, RxError.moreThanOneElement)])
            #expect(res2.events == [.completed(250)])
            #expect(res3.events == [.next(250, 2), .completed(250)])
            #expect(many.subscriptions == [Subscription(200, 220)])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("first() succeeds with the first element at once and unsubscribes, or with nil when empty")
        func first() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = twoElements(scheduler)
            let res = scheduler.start { xs.first() }
            #expect(res.events == [.next(210, 2), .completed(210)])
            #expect(xs.subscriptions == [Subscription(200, 210)])

            let scheduler2 = TestScheduler(initialClock: 0)
            let empty: TestableObservable<Int> = scheduler2.createHotObservable([.completed(250)])
            let res2 = scheduler2.start { empty.first().map { $0 ?? -1 } }
            #expect(res2.events == [.next(250, -1), .completed(250)])
        }

        @Test("single() emits the element at once and fails at a second one")
        func singleOperator() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = twoElements(scheduler)
            let res = scheduler.start { xs.single() }
            #expect(res.events == [.next(210, 2), .error(220, RxError.moreThanOneElement)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("single(predicate) ignores the elements that do not match")
        func singlePredicate() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
            ])
            let res = scheduler.start { xs.single { $0 == 3 } }
            #expect(res.events == [.next(220, 3), .completed(250)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
            let res2 = scheduler2.start { ys.single { $0 == 9 } }
            #expect(res2.events == [.error(250, RxError.noElements)])
        }

        @Test("element(at:) past the end fails with argumentOutOfRange at completion")
        func elementAtOutOfRange() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = twoElements(scheduler)
            let res = scheduler.start { xs.element(at: 3) }
            #expect(res.events == [.error(250, RxError.argumentOutOfRange)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("element(at:) emits the element and completes at once")
        func elementAtFirst() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = twoElements(scheduler)
            let res = scheduler.start { xs.element(at: 1) }
            #expect(res.events == [.next(220, 3), .completed(220)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        // RxSwift 5+ (#1879): combineLatest of no sources emits the selector's result for [] once.
        @Test(
            "Over empty collections combineLatest emits the result for no elements and completes; zip, concat and merge complete; amb never ends"
        )
        func emptyCollections() {
            let none: [Observable<Int>] = []
            #expect(synchronousEvents(of: Observable.combineLatest(none)) == [.next([]), .completed])
            #expect(
                synchronousEvents(of: Observable.combineLatest(none) { $0.reduce(0, +) }) == [
                    .next(0), .completed,
                ])
            #expect(synchronousEvents(of: Observable.zip(none)) == [.completed])
            #expect(synchronousEvents(of: Observable.concat(none)) == [.completed])
            #expect(synchronousEvents(of: Observable.merge(none)) == [.completed])
            #expect(synchronousEvents(of: Observable.amb(none)) == [])
        }

        @Test("Reduce emits the mapped accumulation at completion, and a throwing accumulator fails")
        func reduce() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
            ])
            let res = scheduler.start { xs.reduce(0, accumulator: +, mapResult: { $0 * 5 }) }
            #expect(res.events == [.next(250, 45), .completed(250)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
            let res2 = scheduler2.start {
                ys.reduce(0) { acc, x in
                    if x == 3 { throw testError }
                    return acc + x
                }
            }
            #expect(res2.events == [.error(220, testError)])
            #expect(ys.subscriptions == [Subscription(200, 220)])
        }

        @Test("TakeLast forwards only the error when the source fails")
        func takeLastError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .error(250, testError)])
            let res = scheduler.start { xs.takeLast(1) }
            #expect(res.events == [.error(250, testError)])
            let scheduler2 = TestScheduler(initialClock: 0)
            let ys = scheduler2.createHotObservable([
                .next(210, 2), .next(220, 3), .next(230, 4), .completed(250),
            ])
            let res2 = scheduler2.start { ys.takeLast(2) }
            #expect(res2.events == [.next(250, 3), .next(250, 4), .completed(250)])
        }

        @Test("A throwing distinctUntilChanged comparer fails at the second element")
        func distinctComparerThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .next(220, 3), .completed(250)])
            let res = scheduler.start {
                xs.distinctUntilChanged { (_: Int, _: Int) throws -> Bool in throw testError }
            }
            #expect(res.events == [.next(210, 2), .error(220, testError)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("Materialize turns the error into an element at its time and completes")
        func materializeError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(210, 2), .error(250, testError)])
            let res = scheduler.start { xs.materialize().map { "\($0)" } }
            #expect(
                res.events == [.next(210, "next(2)"), .next(250, "error(TestError(1))"), .completed(250)])
        }

        @Test("ifEmpty(default:) emits the default at the source's completion")
        func ifEmptyDefault() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let res = scheduler.start { xs.ifEmpty(default: 7) }
            #expect(res.events == [.next(250, 7), .completed(250)])
        }

        @Test("ifEmpty(switchTo:) subscribes to the other sequence at the source's completion")
        func ifEmptySwitchTo() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs: TestableObservable<Int> = scheduler.createHotObservable([.next(150, 1), .completed(250)])
            let ys = scheduler.createColdObservable([.next(10, 5), .completed(20)])
            let res = scheduler.start { xs.ifEmpty(switchTo: ys.asObservable()) }
            #expect(res.events == [.next(260, 5), .completed(270)])
            #expect(xs.subscriptions == [Subscription(200, 250)])
            #expect(ys.subscriptions == [Subscription(250, 270)])
        }
    }
}
