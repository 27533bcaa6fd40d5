import RxCore
import Testing

extension RxCoreTests {
    @Suite("interval and timer")
    struct TimerTests {
        @Test("Interval emits increasing integers every period")
        func intervalTicks() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start(disposed: 245) {
                Observable<Int>.interval(.seconds(10), scheduler: scheduler)
            }
            #expect(observer.events == [.next(210, 0), .next(220, 1), .next(230, 2), .next(240, 3)])
        }

        @Test("Timer without a period emits zero once and completes")
        func oneShotTimer() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable<Int>.timer(.seconds(30), scheduler: scheduler) }
            #expect(observer.events == [.next(230, 0), .completed(230)])
        }

        @Test("Timer with a period emits after the due time and then every period")
        func periodicTimer() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start(disposed: 260) {
                Observable<Int>.timer(.seconds(30), period: .seconds(20), scheduler: scheduler)
            }
            #expect(observer.events == [.next(230, 0), .next(250, 1)])
        }

        @Test("Intervals are converted to ticks with the scheduler's resolution")
        func resolution() {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
            let observer = scheduler.start(disposed: 1000) {
                Observable<Int>.interval(.milliseconds(300), scheduler: scheduler)
            }
            #expect(observer.events == [.next(500, 0), .next(800, 1)])
        }
    }
}
