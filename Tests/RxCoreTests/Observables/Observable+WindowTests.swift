import RxCore
import Testing

extension RxCoreTests {
    @Suite("window")
    struct WindowTests {
        @Test("Window opens a new window per time span or when the count is reached")
        func timeOrCount() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(
                    .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
                    .next(370, 7), .next(420, 8), .next(470, 9), .completed(600)))
            let observer = scheduler.start {
                xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler).enumerated()
                    .flatMap { window in window.element.map { "\(window.index) \($0)" } }
            }
            #expect(
                observer.events == [
                    .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"),
                    .next(320, "2 5"),
                    .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"),
                    .completed(600),
                ])
            #expect(xs.subscriptions == [Subscription(200, 600)])
        }

        @Test("An error reaches the current window and the outer sequence")
        func error() {
            var windowEvents: [Event<Int>] = []
            let subscriptions = CompositeDisposable()
            let events = synchronousEvents(
                of: Observable.concat(.of(1), .error(TestError(1)))
                    .window(timeSpan: .seconds(100), count: 5, scheduler: TestScheduler(initialClock: 0))
                    .do(onNext: { window in
                        _ = subscriptions.insert(window.subscribe { windowEvents.append($0) })
                    })
                    .map { _ in 0 })
            #expect(events == [.next(0), .error(TestError(1))])
            #expect(windowEvents == [.next(1), .error(TestError(1))])
            subscriptions.dispose()
        }
    }
}
