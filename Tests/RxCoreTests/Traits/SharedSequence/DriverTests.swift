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

        // MARK: drive, as RxSwift's Driver tests call it (on the main queue)

        @Test("Drive sends the events to one or several observers")
        @MainActor
        func driveObservers() {
            let first = EventRecorder<Int>()
            let second = EventRecorder<Int>()
            _ = (Driver.just(1) as Driver<Int>).drive(first)
            _ = Driver.just(2).drive(first, second)
            #expect(first.events == [.next(1), .completed, .next(2), .completed])
            #expect(second.events == [.next(2), .completed])
        }

        @Test("Drive sends the elements as optionals to observers of optionals, without ambiguity")
        @MainActor
        func driveOptionalObservers() {
            let first = EventRecorder<Int?>()
            let second = EventRecorder<Int?>()
            _ = (Driver.just(1) as Driver<Int>).drive(first, second)
            _ = (Driver.just(2) as Driver<Int?>).drive(first)
            _ = Driver.just(3).drive(second)
            #expect(first.events == [.next(1), .completed, .next(2), .completed])
            #expect(second.events == [.next(1), .completed, .next(3), .completed])
        }

        @Test("Drive sets the value of behavior relays, optional ones included")
        @MainActor
        func driveBehaviorRelays() {
            let relay1 = BehaviorRelay<Int>(value: 0)
            let relay2 = BehaviorRelay<Int>(value: 0)
            let optional1 = BehaviorRelay<Int?>(value: 0)
            let optional2 = BehaviorRelay<Int?>(value: 0)
            let subscription = (Driver.just(1) as Driver<Int>).drive(relay1)
            #expect(relay1.value == 1)
            subscription.dispose()
            _ = Driver.just(2).drive(relay1, relay2)
            _ = (Driver.just(3) as Driver<Int>).drive(optional1, optional2)
            #expect([relay1.value, relay2.value] == [2, 2])
            #expect([optional1.value, optional2.value] == [3, 3])
            _ = (Driver.just(nil) as Driver<Int?>).drive(optional1, optional2)
            #expect([optional1.value, optional2.value] == [nil, nil])
            _ = Driver.just(4).drive(optional1)
            #expect(optional1.value == 4)
        }

        @Test("Drive sends the elements to replay relays, optional ones included, and never completes them")
        @MainActor
        func driveReplayRelays() {
            let relay1 = ReplayRelay<Int>.create(bufferSize: 1)
            let relay2 = ReplayRelay<Int>.create(bufferSize: 1)
            let optional = ReplayRelay<Int?>.create(bufferSize: 1)
            let recorder1 = EventRecorder<Int>()
            let recorder2 = EventRecorder<Int>()
            let optionalRecorder = EventRecorder<Int?>()
            let subscriptions = [
                relay1.subscribe(recorder1), relay2.subscribe(recorder2),
                optional.subscribe(optionalRecorder),
            ]
            _ = (Driver.just(1) as Driver<Int>).drive(relay1, relay2)
            _ = (Driver.just(2) as Driver<Int>).drive(optional)
            _ = (Driver.just(3) as Driver<Int?>).drive(optional)
            _ = Driver.just(4).drive(optional)
            #expect(recorder1.events == [.next(1)])
            #expect(recorder2.events == [.next(1)])
            #expect(optionalRecorder.events == [.next(2), .next(3), .next(4)])
            for subscription in subscriptions { subscription.dispose() }
        }

        @Test("Drive with no argument, with closures, with an object and through a binder function")
        @MainActor
        func driveOtherForms() {
            final class Owner {}
            let owner = Owner()
            var log: [String] = []
            _ = Driver.just(1).drive()
            _ = Driver.just(2).drive(
                onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            _ = Driver.just(3).drive(
                with: owner, onNext: { object, value in log.append("\(object === owner) \(value)") },
                onDisposed: { _ in log.append("disposed") })
            let count = Driver.just(4).drive { (source: Observable<Int>) in
                synchronousEvents(of: source).count
            }
            let curried = Driver.just(5).drive(
                { (source: Observable<Int>) in
                    { (prefix: String) in "\(prefix)\(synchronousEvents(of: source))" }
                }, curriedArgument: "events: ")
            #expect(log == ["next 2", "completed", "true 3", "disposed"])
            #expect(count == 2)
            #expect(curried == "events: [next(5), completed]")
        }

        // MARK: Conversions to Driver

        @Test("A behavior relay as a driver starts with its value and never completes")
        @MainActor
        func behaviorRelayAsDriver() {
            let relay = BehaviorRelay(value: 0)
            var values: [Int] = []
            let subscription = relay.asDriver().drive(onNext: { values.append($0) })
            relay.accept(1)
            relay.accept(2)
            #expect(values == [0, 1, 2])
            subscription.dispose()
        }

        @Test("An infallible as a driver delivers its elements and completion")
        @MainActor
        func infallibleAsDriver() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.asInfallible(onErrorJustReturn: -1).asDriver().drive(recorder)
            subject.onNext(1)
            subject.onError(TestError(1))
            #expect(recorder.events == [.next(1), .next(-1), .completed])
            subscription.dispose()
        }

        @Test("A driver's values iterate its elements on the main actor")
        @MainActor
        func driverValues() async {
            var received: [Int] = []
            for await value in Driver.from([1, 2, 3]).values {
                received.append(value)
            }
            #expect(received == [1, 2, 3])
        }

        @Test("Cancelling the task iterating a driver's values ends the iteration and disposes")
        @MainActor
        func driverValuesCancelled() async {
            let disposed = Flag()
            let driver = Driver<Int>.never().do(onDispose: { disposed.raise() })
            let task = Task { @MainActor in
                for await _ in driver.values {}
                return Task.isCancelled
            }
            task.cancel()
            #expect(await task.value)
            #expect(await disposed.wait())
        }
    }
}
