import RxCore
import Testing

extension RxCoreTests {
    @Suite("SharedSequence more operators")
    struct SharedSequenceMoreOperatorsTests {
        @Test("delay of a driver runs on the sharing scheduler, after the tick asDriver adds")
        func delay() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
                let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1).delay(.seconds(5)) }
                #expect(res.events == [.next(216, 1), .next(226, 2), .completed(236)])
            }
        }

        @Test(
            "flatMap, flatMapLatest and flatMapFirst take the inner sequences' strategy: a driver mapped to signals is a signal"
        )
        func flatMapsTakeTheInnerStrategy() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
                let driver = xs.asDriver(onErrorJustReturn: -1)
                let signals: [Signal<Int>] = [
                    driver.flatMap { Signal.just($0 * 10) },
                    driver.flatMapLatest { Signal.just($0 * 10) },
                    driver.flatMapFirst { Signal.just($0 * 10) },
                ]
                let observers = signals.map { _ in scheduler.createObserver(Int.self) }
                scheduler.scheduleAt(200) {
                    for (signal, observer) in zip(signals, observers) {
                        _ = signal.asObservable().subscribe(observer)
                    }
                }
                scheduler.start()
                for observer in observers {
                    #expect(observer.events.compactMap(\.value.element) == [10, 20])
                }
            }
        }

        @Test("zip and combineLatest of drivers as tuples")
        func tuples() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
                let ys = scheduler.createHotObservable([.next(220, 2), .completed(300)])
                let res = scheduler.start {
                    Driver.combineLatest(xs.asDriver(onErrorJustReturn: 0), ys.asDriver(onErrorJustReturn: 0))
                        .map { $0 + $1 }
                }
                #expect(res.events == [.next(221, 3), .completed(301)])
            }
        }

        @Test("asSharedSequence with a strategy recovers from an error")
        func asSharedSequence() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([
                    .next(210, 1), Recorded<Event<Int>>.error(220, TestError(1)),
                ])
                let res = scheduler.start {
                    xs.asSharedSequence(sharingStrategy: SignalSharingStrategy.self, onErrorJustReturn: 9)
                }
                #expect(res.events == [.next(211, 1), .next(221, 9), .completed(221)])
            }
        }
    }
}
