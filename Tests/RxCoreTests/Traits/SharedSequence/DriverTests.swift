import RxCore
import Testing

extension RxCoreTests {
    @Suite("Driver")
    struct DriverTests {
        @Test("AsDriver(onErrorJustReturn:) delivers on the sharing scheduler and replaces the error")
        func onErrorJustReturn() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(
                    Recorded.events(.next(210, 1), .next(220, 2), .error(230, TestError(1), Int.self)))
                let observer = scheduler.start { xs.asDriver(onErrorJustReturn: -1) }
                #expect(observer.events == [.next(210, 1), .next(220, 2), .next(230, -1), .completed(230)])
                #expect(xs.subscriptions == [Subscription(200, 230)])
            }
        }

        @Test("A driver shares one subscription and replays its latest element to a later subscriber")
        func sharesAndReplays() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(
                    Recorded.events(.next(210, 1), .next(220, 2), .next(240, 3)))
                let driver = xs.asDriver(onErrorJustReturn: -1)
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var subscriptions: [Disposable] = []
                scheduler.scheduleAt(200) { subscriptions.append(driver.asObservable().subscribe(first)) }
                scheduler.scheduleAt(230) { subscriptions.append(driver.asObservable().subscribe(second)) }
                scheduler.scheduleAt(300) {
                    for subscription in subscriptions { subscription.dispose() }
                }
                scheduler.start()
                #expect(first.events == [.next(210, 1), .next(220, 2), .next(240, 3)])
                #expect(second.events == [.next(230, 2), .next(240, 3)])
                #expect(xs.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test("AsDriver(onErrorDriveWith:) and onErrorRecover continue with another driver")
        func fallbacks() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(Recorded.events(.error(210, TestError(1), Int.self)))
                let driveWith = scheduler.start(disposed: 500) { xs.asDriver(onErrorDriveWith: .just(5)) }
                #expect(driveWith.events == [.next(210, 5), .completed(210)])
            }
            let recoverScheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: recoverScheduler) {
                let xs = recoverScheduler.createHotObservable(
                    Recorded.events(.error(210, TestError(1), Int.self)))
                let recovered = recoverScheduler.start { xs.asDriver(onErrorRecover: { _ in .of(6, 7) }) }
                #expect(recovered.events == [.next(210, 6), .next(210, 7), .completed(210)])
            }
        }

        @Test("Drive on the main queue subscribes closures, observers and relays")
        @MainActor
        func drive() {
            let subject = PublishSubject<Int>()
            let driver = subject.asDriver(onErrorJustReturn: 0).map { $0 * 2 }
            var values: [Int] = []
            let relay = BehaviorRelay(value: 0)
            let first = driver.drive(onNext: { values.append($0) })
            let second = driver.drive(relay)
            subject.onNext(1)
            subject.onNext(2)
            #expect(values == [2, 4])
            #expect(relay.value == 4)
            first.dispose()
            second.dispose()
        }
    }
}
