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
