import RxCore
import Testing

// RxCocoa 6.10.2's SharedSequence creation and sharing semantics (SharedSequence.swift,
// Driver.swift, Signal.swift) in virtual time, through SharingScheduler.mock.
extension RxCoreTests {
    @Suite("Driver and Signal creation and sharing, RxCocoa parity")
    struct SharedSequenceParityTests {
        @Test(
            "Driver.just and empty subscribe on the sharing scheduler; of and from emit one element per tick")
        func creationTiming() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let just = scheduler.start { Driver.just(1) }
                #expect(just.events == [.next(201, 1), .completed(201)])
            }
            let scheduler2 = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler2) {
                let of = scheduler2.start { Driver.of(1, 2) }
                #expect(of.events == [.next(201, 1), .next(202, 2), .completed(203)])
            }
            let scheduler3 = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler3) {
                let empty = scheduler3.start { Signal<Int>.empty() }
                #expect(empty.events == [.completed(201)])
            }
            let scheduler4 = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler4) {
                let optional = scheduler4.start { Driver.from(optional: Optional(7)) }
                #expect(optional.events == [.next(201, 7), .completed(202)])
            }
        }

        @Test("asDriver delivers a tick later, replaces the error after delivering it, and completes at once")
        func asDriverErrorTiming() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .error(250, TestError(1))])
                let res = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
                #expect(res.events == [.next(211, 1), .next(251, -1), .completed(251)])
                // The testable sequence is subscribed through asObservable(), an Observable.create
                // wrapper that disposes its subscription on the terminal event, as in RxSwift.
                #expect(xs.subscriptions == [Subscription(200, 250)])
            }
        }

        @Test("A driver shares one subscription and replays the latest element; a signal does not replay")
        func sharing() {
            let scheduler = TestScheduler(initialClock: 0)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(240, 3)])
                let driver = xs.asDriver(onErrorJustReturn: -1)
                let signal = xs.asSignal(onErrorJustReturn: -1)
                let d1 = scheduler.createObserver(Int.self)
                let d2 = scheduler.createObserver(Int.self)
                let s1 = scheduler.createObserver(Int.self)
                let s2 = scheduler.createObserver(Int.self)
                var subscriptions: [Disposable] = []
                scheduler.scheduleAt(200) {
                    subscriptions.append(driver.asObservable().subscribe(d1))
                    subscriptions.append(signal.asObservable().subscribe(s1))
                }
                scheduler.scheduleAt(230) {
                    subscriptions.append(driver.asObservable().subscribe(d2))
                    subscriptions.append(signal.asObservable().subscribe(s2))
                }
                scheduler.scheduleAt(300) {
                    for subscription in subscriptions { subscription.dispose() }
                }
                scheduler.start()
                #expect(d1.events == [.next(211, 1), .next(221, 2), .next(241, 3)])
                #expect(d2.events == [.next(230, 2), .next(241, 3)])
                #expect(s1.events == [.next(211, 1), .next(221, 2), .next(241, 3)])
                #expect(s2.events == [.next(241, 3)])
                #expect(xs.subscriptions == [Subscription(200, 300), Subscription(200, 300)])
            }
        }
    }
}
