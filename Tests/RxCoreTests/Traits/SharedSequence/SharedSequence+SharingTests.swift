import RxCore
import Testing

// The creation and combining operators of a shared sequence share their subscription as the
// transforming ones do (RxCocoa applies the strategy's `share` to interval, timer, concat, merge,
// startWith and deferred; only just, empty, never, of and from are left unshared, since they
// replay nothing and cost nothing to run twice). For a driver that means one timer or one
// subscription to the sources for all subscribers, and the latest element replayed to a later
// one.
extension RxCoreTests {
    @Suite("SharedSequence: creation and combining operators share")
    struct SharedSequenceSharingTests {
        /// The events of two subscribers to `make()`'s driver, at 200 and at `second`, both
        /// disposed at 400.
        static func twoSubscribers(
            _ scheduler: TestScheduler, second: TestTime, _ make: () -> Driver<Int>
        ) -> (first: [Recorded<Event<Int>>], second: [Recorded<Event<Int>>]) {
            let driver = make()
            let first = scheduler.createObserver(Int.self)
            let late = scheduler.createObserver(Int.self)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) { subscriptions.append(driver.asObservable().subscribe(first)) }
            scheduler.scheduleAt(second) { subscriptions.append(driver.asObservable().subscribe(late)) }
            scheduler.scheduleAt(400) {
                for subscription in subscriptions { subscription.dispose() }
            }
            scheduler.start()
            return (first.events, late.events)
        }

        @Test("Driver.interval and Driver.timer run one timer for all subscribers and replay its latest tick")
        func intervalAndTimerShare() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let interval = Self.twoSubscribers(scheduler, second: 250) {
                    Driver<Int>.interval(.seconds(20))
                }
                #expect(interval.first.prefix(3) == [.next(220, 0), .next(240, 1), .next(260, 2)])
                #expect(interval.second.prefix(2) == [.next(250, 1), .next(260, 2)])
            }
            let timerScheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: timerScheduler) {
                let timer = Self.twoSubscribers(timerScheduler, second: 240) {
                    Driver<Int>.timer(.seconds(30), period: .seconds(20))
                }
                #expect(timer.first.prefix(2) == [.next(230, 0), .next(250, 1)])
                #expect(timer.second.prefix(2) == [.next(240, 0), .next(250, 1)])
            }
        }

        @Test("concat, merge and startWith of drivers subscribe to their sources once for all subscribers")
        func combiningOperatorsShare() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(Recorded.events(.next(210, 1), .next(260, 2)))
                let ys = scheduler.createHotObservable(Recorded.events(.next(220, 10), .next(270, 20)))
                let x = xs.asDriver(onErrorJustReturn: -1)
                let y = ys.asDriver(onErrorJustReturn: -1)
                let merged = Self.twoSubscribers(scheduler, second: 250) { Driver.merge([x, y]) }
                #expect(merged.first == [.next(210, 1), .next(220, 10), .next(260, 2), .next(270, 20)])
                #expect(merged.second == [.next(250, 10), .next(260, 2), .next(270, 20)])
                #expect(xs.subscriptions == [Subscription(200, 400)])
                #expect(ys.subscriptions == [Subscription(200, 400)])
            }
            let concatScheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: concatScheduler) {
                let xs = concatScheduler.createHotObservable(Recorded.events(.next(210, 1), .next(260, 2)))
                let x = xs.asDriver(onErrorJustReturn: -1)
                let concatenated = Self.twoSubscribers(concatScheduler, second: 250) {
                    Driver.concat([x.startWith(0)])
                }
                #expect(concatenated.first == [.next(200, 0), .next(210, 1), .next(260, 2)])
                #expect(concatenated.second == [.next(250, 1), .next(260, 2)])
                #expect(xs.subscriptions == [Subscription(200, 400)])
            }
        }
    }
}
