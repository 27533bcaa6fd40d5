import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+MergeTests.swift for flatMapFirst.
extension RxCoreTests {
    @Suite("flatMapFirst, RxSwift parity")
    struct FlatMapFirstParityTests {
        private let testError = TestError(1)

        private func source(
            _ scheduler: TestScheduler, firstEnd: Recorded<Event<Int>> = .completed(460),
            outerEnd: Recorded<Event<TestableObservable<Int>>>? = .completed(900)
        ) -> TestableObservable<TestableObservable<Int>> {
            var events: [Recorded<Event<TestableObservable<Int>>>] = [
                .next(5, scheduler.createColdObservable([.error(1, testError)])),
                .next(105, scheduler.createColdObservable([.error(1, testError)])),
                .next(
                    300,
                    scheduler.createColdObservable([
                        .next(10, 102), .next(90, 103), .next(110, 104), .next(190, 105), .next(440, 106),
                        firstEnd,
                    ])),
                .next(
                    400, scheduler.createColdObservable([.next(180, 202), .next(190, 203), .completed(205)])),
                .next(
                    550,
                    scheduler.createColdObservable([
                        .next(10, 301), .next(50, 302), .next(70, 303), .next(260, 304), .next(310, 305),
                        .completed(410),
                    ])),
                .next(750, scheduler.createColdObservable([.completed(40)])),
                .next(
                    850, scheduler.createColdObservable([.next(80, 401), .next(90, 402), .completed(100)])),
            ]
            if let outerEnd { events.append(outerEnd) }
            return scheduler.createHotObservable(events)
        }

        private func inner(_ xs: TestableObservable<TestableObservable<Int>>, _ index: Int) -> [Subscription]
        {
            xs.recordedEvents[index].value.element?.subscriptions ?? []
        }

        @Test("FlatMapFirst ignores the inner sequences that arrive while one is running")
        func complete() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start { xs.flatMapFirst { $0 } }
            #expect(
                res.events == [
                    .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106),
                    .next(930, 401), .next(940, 402), .completed(950),
                ])
            #expect(xs.subscriptions == [Subscription(200, 900)])
            #expect(inner(xs, 2) == [Subscription(300, 760)])
            #expect(inner(xs, 3) == [])
            #expect(inner(xs, 4) == [])
            #expect(inner(xs, 5) == [])
            #expect(inner(xs, 6) == [Subscription(850, 950)])
        }

        @Test("The outer sequence's error ends flatMapFirst and the running inner sequence")
        func errorOuter() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, outerEnd: .error(900, testError))
            let res = scheduler.start { xs.flatMapFirst { $0 } }
            #expect(
                res.events == [
                    .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106),
                    .error(900, testError),
                ])
            #expect(inner(xs, 6) == [Subscription(850, 900)])
        }

        @Test("An inner sequence's error ends flatMapFirst and the outer subscription")
        func errorInner() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, firstEnd: .error(460, testError))
            let res = scheduler.start { xs.flatMapFirst { $0 } }
            #expect(
                res.events == [
                    .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106),
                    .error(760, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 760)])
            #expect(inner(xs, 2) == [Subscription(300, 760)])
            #expect(inner(xs, 6) == [])
        }

        @Test("Disposing flatMapFirst disposes the running inner sequence")
        func dispose() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            let res = scheduler.start(disposed: 700) { xs.flatMapFirst { $0 } }
            #expect(res.events == [.next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105)])
            #expect(xs.subscriptions == [Subscription(200, 700)])
            #expect(inner(xs, 2) == [Subscription(300, 700)])
        }

        @Test("The selector is not called for elements ignored while an inner sequence runs")
        func selectorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler)
            var invoked = 0
            let res = scheduler.start {
                xs.flatMapFirst { x -> TestableObservable<Int> in
                    invoked += 1
                    if invoked == 2 { throw testError }
                    return x
                }
            }
            #expect(
                res.events == [
                    .next(310, 102), .next(390, 103), .next(410, 104), .next(490, 105), .next(740, 106),
                    .error(850, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 850)])
            #expect(inner(xs, 2) == [Subscription(300, 760)])
            #expect(inner(xs, 6) == [])
        }

        @Test("FlatMapFirst into timers takes an element only after the previous timer ended")
        func useFunction() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([
                .next(210, 4), .next(220, 3), .next(250, 5), .next(270, 1), .completed(290),
            ])
            let res = scheduler.start {
                xs.flatMapFirst { x in
                    Observable<Int64>.interval(.seconds(10), scheduler: scheduler).map { _ in x }.take(x)
                }
            }
            #expect(
                res.events == [
                    .next(220, 4), .next(230, 4), .next(240, 4), .next(250, 4), .next(280, 1),
                    .completed(290),
                ])
            #expect(xs.subscriptions == [Subscription(200, 290)])
        }
    }
}
