import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+WindowTests.swift and Observable+BufferTests.swift not
// covered by the operators' own suites.
extension RxCoreTests {
    @Suite("window and buffer, RxSwift parity")
    struct WindowBufferParityTests {
        private let testError = TestError(1)

        private func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>) -> TestableObservable<Int>
        {
            scheduler.createHotObservable([
                .next(105, 0), .next(205, 1), .next(210, 2), .next(240, 3), .next(280, 4), .next(320, 5),
                .next(350, 6), .next(370, 7), .next(420, 8), .next(470, 9), end,
            ])
        }

        private func indexedWindows(_ xs: TestableObservable<Int>, _ scheduler: TestScheduler) -> Observable<
            String
        > {
            xs.window(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
                .enumerated()
                .map { index, window in window.map { "\(index) \($0)" } }
                .merge()
        }

        @Test("Window forwards the source's error to the current window and the result")
        func windowError() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, end: .error(600, testError))
            let res = scheduler.start { indexedWindows(xs, scheduler) }
            #expect(
                res.events == [
                    .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"),
                    .next(320, "2 5"),
                    .next(350, "2 6"), .next(370, "2 7"), .next(420, "3 8"), .next(470, "4 9"),
                    .error(600, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 600)])
        }

        @Test("Disposing window's subscription stops the windows and unsubscribes the source")
        func windowDisposed() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, end: .completed(600))
            let res = scheduler.start(disposed: 370) { indexedWindows(xs, scheduler) }
            #expect(
                res.events == [
                    .next(205, "0 1"), .next(210, "0 2"), .next(240, "0 3"), .next(280, "1 4"),
                    .next(320, "2 5"),
                    .next(350, "2 6"), .next(370, "2 7"),
                ])
            #expect(xs.subscriptions == [Subscription(200, 370)])
        }

        @Test("Buffer disposed early emits the arrays completed so far")
        func bufferDisposed() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = source(scheduler, end: .completed(600))
            let res = scheduler.start(disposed: 370) {
                xs.buffer(timeSpan: .seconds(70), count: 3, scheduler: scheduler)
            }
            #expect(res.events == [.next(240, [1, 2, 3]), .next(310, [4]), .next(370, [5, 6, 7])])
            #expect(xs.subscriptions == [Subscription(200, 370)])
        }

        @Test("Window on a serial dispatch queue splits a range by count")
        func windowDefaultScheduler() throws {
            let background = SerialDispatchQueueScheduler(qos: .default)
            let result = try Observable.range(start: 1, count: 10, scheduler: background)
                .window(timeSpan: .seconds(1000), count: 3, scheduler: background)
                .enumerated()
                .map { index, window in window.map { "\(index) \($0)" } }
                .merge()
                .skip(4)
                .toBlocking()
                .first()
            #expect(result == "1 5")
        }

        @Test("Buffer on a serial dispatch queue splits a range by count")
        func bufferDefaultScheduler() throws {
            let background = SerialDispatchQueueScheduler(qos: .default)
            let result = try Observable.range(start: 1, count: 10, scheduler: background)
                .buffer(timeSpan: .seconds(1000), count: 3, scheduler: background)
                .skip(1)
                .toBlocking()
                .first()
            #expect(result == [4, 5, 6])
        }
    }
}
