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

        // MARK: emit, as RxSwift's Signal tests call it (on the main queue)

        @Test("Emit sends the events to observers, and as optionals to observers of optionals")
        @MainActor
        func emitToObservers() {
            let first = EventRecorder<Int>()
            let second = EventRecorder<Int>()
            let optional = EventRecorder<Int?>()
            _ = (Signal.just(1) as Signal<Int>).emit(to: first, second)
            _ = (Signal.just(2) as Signal<Int>).emit(to: optional)
            _ = Signal.just(3).emit(to: optional)
            #expect(first.events == [.next(1), .completed])
            #expect(second.events == first.events)
            #expect(optional.events == [.next(2), .completed, .next(3), .completed])
        }

        @Test("Emit sends the elements to publish, behavior and replay relays, optional ones included")
        @MainActor
        func emitToRelays() {
            let publish1 = PublishRelay<Int>()
            let publish2 = PublishRelay<Int>()
            let optionalPublish = PublishRelay<Int?>()
            let behavior = BehaviorRelay<Int>(value: 0)
            let optionalBehavior1 = BehaviorRelay<Int?>(value: 0)
            let optionalBehavior2 = BehaviorRelay<Int?>(value: 0)
            let replay = ReplayRelay<Int>.create(bufferSize: 1)
            let optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
            let recorders = (EventRecorder<Int>(), EventRecorder<Int>(), EventRecorder<Int?>())
            let replayRecorders = (EventRecorder<Int>(), EventRecorder<Int?>())
            let subscriptions = [
                publish1.subscribe(recorders.0), publish2.subscribe(recorders.1),
                optionalPublish.subscribe(recorders.2), replay.subscribe(replayRecorders.0),
                optionalReplay.subscribe(replayRecorders.1),
            ]
            _ = (Signal.just(1) as Signal<Int>).emit(to: publish1, publish2)
            _ = (Signal.just(2) as Signal<Int>).emit(to: optionalPublish)
            _ = (Signal.just(3) as Signal<Int?>).emit(to: optionalPublish)
            _ = Signal.just(4).emit(to: optionalPublish)
            _ = (Signal.just(5) as Signal<Int>).emit(to: behavior)
            _ = (Signal.just(6) as Signal<Int>).emit(to: optionalBehavior1, optionalBehavior2)
            _ = (Signal.just(7) as Signal<Int>).emit(to: replay)
            _ = (Signal.just(8) as Signal<Int>).emit(to: optionalReplay)
            _ = Signal.just(9).emit(to: optionalReplay)
            #expect(recorders.0.events == [.next(1)])
            #expect(recorders.1.events == [.next(1)])
            #expect(recorders.2.events == [.next(2), .next(3), .next(4)])
            #expect(behavior.value == 5)
            #expect([optionalBehavior1.value, optionalBehavior2.value] == [6, 6])
            #expect(replayRecorders.0.events == [.next(7)])
            #expect(replayRecorders.1.events == [.next(8), .next(9)])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("Emit with no argument and with an object")
        @MainActor
        func emitOtherForms() {
            final class Owner {}
            let owner = Owner()
            var log: [String] = []
            _ = Signal.just(1).emit()
            _ = Signal.just(2).emit(
                with: owner, onNext: { object, value in log.append("\(object === owner) \(value)") },
                onCompleted: { _ in log.append("completed") }, onDisposed: { _ in log.append("disposed") })
            #expect(log == ["true 2", "completed", "disposed"])
        }

        @Test("A publish relay as a signal delivers what it accepts to current subscribers only")
        @MainActor
        func publishRelayAsSignal() {
            let relay = PublishRelay<Int>()
            relay.accept(0)
            var values: [Int] = []
            let subscription = relay.asSignal().emit(onNext: { values.append($0) })
            relay.accept(1)
            relay.accept(2)
            #expect(values == [1, 2])
            subscription.dispose()
        }
    }
}
