import Dispatch
import RxCore
import Testing

extension RxCoreTests {
    @Suite("subscribe(on:)")
    struct SubscribeOnTests {
        @Test("Subscribe on subscribes and disposes through the scheduler")
        func subscribesThroughScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(250, 2)])
            let observer = scheduler.start(disposed: 300) { source.subscribe(on: scheduler) }
            #expect(observer.events == [.next(210, 1), .next(250, 2)])
            #expect(source.subscriptions == [Subscription(201, 301)])
        }

        @Test("Subscribe on subscribes one tick after subscription and disposes one tick after disposal")
        func schedulerSleep() {
            let scheduler = TestScheduler(initialClock: 0)
            var subscribed = 0
            var disposed = 0
            let source = Observable<Int>.create { _ in
                subscribed = scheduler.clock
                return Disposables.create { disposed = scheduler.clock }
            }
            let observer = scheduler.start { source.subscribe(on: scheduler) }
            #expect(observer.events == [])
            #expect(subscribed == 201)
            #expect(disposed == 1001)
        }

        @Test("Subscribe on disposes a completed testable source on the scheduler")
        func schedulerCompleted() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable(Recorded.events(.completed(300, Int.self)))
            let observer = scheduler.start { source.subscribe(on: scheduler) }
            #expect(observer.events == [.completed(300)])
            #expect(source.subscriptions == [Subscription(201, 301)])
        }

        @Test("Subscribe on disposes a failed testable source on the scheduler")
        func schedulerError() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable(Recorded.events(.error(300, TestError(1), Int.self)))
            let observer = scheduler.start { source.subscribe(on: scheduler) }
            #expect(observer.events == [.error(300, TestError(1))])
            #expect(source.subscriptions == [Subscription(201, 301)])
        }

        @Test("Subscribe on releases what it holds when the source completes at once")
        func releasesOnImmediateCompletion() {
            let scheduler = TestScheduler(initialClock: 0)
            var events: [Event<Int>] = []
            _ = Observable.just(1).subscribe(on: scheduler).subscribe { events.append($0) }
            scheduler.start()
            #expect(events == [.next(1), .completed])
        }

        @Test("Subscribe on a queue scheduler runs the subscription on that queue")
        func subscribesOnQueue() {
            let queue = DispatchQueue(label: "subscribe-on-test")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let scheduler = SerialDispatchQueueScheduler(
                queue: queue, internalSerialQueueName: "subscribe-on-serial")
            let done = DispatchSemaphore(value: 0)
            let subscribedOnQueue = Unchecked(LockedList<Bool>())
            let source = Observable<Int>.create { observer in
                subscribedOnQueue.value.append(DispatchQueue.getSpecific(key: key) == true)
                observer.onNext(1)
                observer.onCompleted()
                return Disposables.create()
            }
            let subscription = source.subscribe(on: scheduler).subscribe(onCompleted: { done.signal() })
            done.wait()
            queue.sync {}
            #expect(subscribedOnQueue.value.items == [true])
            subscription.dispose()
            queue.sync {}
        }
    }
}
