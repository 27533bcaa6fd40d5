import RxCore
import Testing

extension RxCoreTests {
    @Suite("buffer")
    struct BufferTests {
        @Test("Buffer emits an array per time span or when the count is reached")
        func timeOrCount() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(
                    .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5), .next(350, 6),
                    .next(370, 7), .next(420, 8), .next(470, 9), .completed(600)))
            let observer = scheduler.start {
                xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
            }
            #expect(
                observer.events == [
                    .next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7]), .next(440, [8]),
                    .next(510, [9]),
                    .next(580, []), .next(600, []), .completed(600),
                ])
            #expect(xs.subscriptions == [Subscription(200, 600)])
        }

        @Test("Buffer forwards an error and drops the current array")
        func error() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(205, 1), .error(250, TestError(1), Int.self)))
            let observer = scheduler.start {
                xs.buffer(timeSpan: .seconds(100), count: 3, scheduler: scheduler)
            }
            #expect(observer.events == [.error(250, TestError(1))])
        }
    }
}
