import RxCore
import Testing

extension RxCoreTests {
    @Suite("Signal")
    struct SignalTests {
        @Test("A signal shares one subscription and does not replay to a later subscriber")
        func sharesWithoutReplay() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(
                    Recorded.events(.next(210, 1), .next(220, 2), .next(240, 3)))
                let signal = xs.asSignal(onErrorJustReturn: -1)
                let first = scheduler.createObserver(Int.self)
                let second = scheduler.createObserver(Int.self)
                var subscriptions: [Disposable] = []
                scheduler.scheduleAt(200) { subscriptions.append(signal.asObservable().subscribe(first)) }
                scheduler.scheduleAt(230) { subscriptions.append(signal.asObservable().subscribe(second)) }
                scheduler.scheduleAt(300) {
                    for subscription in subscriptions { subscription.dispose() }
                }
                scheduler.start()
                #expect(first.events == [.next(210, 1), .next(220, 2), .next(240, 3)])
                #expect(second.events == [.next(240, 3)])
                #expect(xs.subscriptions == [Subscription(200, 300)])
            }
        }

        @Test("AsSignal(onErrorJustReturn:) replaces the error")
        func onErrorJustReturn() {
            let scheduler = TestScheduler(initialClock: 0, simulateProcessingDelay: false)
            SharingScheduler.mock(scheduler: scheduler) {
                let xs = scheduler.createHotObservable(
                    Recorded.events(.next(210, 1), .error(220, TestError(1), Int.self)))
                let observer = scheduler.start { xs.asSignal(onErrorJustReturn: -1) }
                #expect(observer.events == [.next(210, 1), .next(220, -1), .completed(220)])
            }
        }

        @Test("Emit on the main queue sends to closures and relays")
        @MainActor
        func emit() {
            let subject = PublishSubject<Int>()
            let signal = subject.asSignal(onErrorJustReturn: 0)
            var values: [Int] = []
            let relay = PublishRelay<Int>()
            var relayed: [Int] = []
            let relaySubscription = relay.subscribe(onNext: { relayed.append($0) })
            let first = signal.emit(onNext: { values.append($0) })
            let second = signal.emit(to: relay)
            subject.onNext(1)
            #expect(values == [1])
            #expect(relayed == [1])
            first.dispose()
            second.dispose()
            relaySubscription.dispose()
        }
    }
}
