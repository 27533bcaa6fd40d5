import Dispatch
import Foundation
import RxCore
import Testing

extension RxCoreTests {
    @Suite("observe(on:)")
    struct ObserveOnTests {
        @Test("Observe on delivers each event through the scheduler, in order")
        func deliversThroughScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let observer = scheduler.start { source.observe(on: scheduler) }
            #expect(observer.events == [.next(211, 1), .next(221, 2), .completed(231)])
        }

        @Test("Observe on a serial queue scheduler delivers every event on that queue, in order")
        func deliversOnQueue() {
            let queue = DispatchQueue(label: "observe-on-test")
            let key = DispatchSpecificKey<Bool>()
            queue.setSpecific(key: key, value: true)
            let scheduler = SerialDispatchQueueScheduler(
                queue: queue, internalSerialQueueName: "observe-on-serial")
            let done = DispatchSemaphore(value: 0)
            let onQueue = Unchecked(LockedList<Bool>())
            let values = Unchecked(LockedList<Int>())
            let subscription = Observable.of(1, 2, 3).observe(on: scheduler).subscribe(
                onNext: { value in
                    onQueue.value.append(DispatchQueue.getSpecific(key: key) == true)
                    values.value.append(value)
                },
                onCompleted: { done.signal() })
            done.wait()
            queue.sync {}
            #expect(values.value.items == [1, 2, 3])
            #expect(onQueue.value.items == [true, true, true])
            subscription.dispose()
        }

        #if TRACE_RESOURCES
            @Test("Resources counts the live observe(on:) sequences on serial dispatch queues, back to zero")
            func countsSerialDispatchQueueObservables() {
                #expect(Resources.numberOfSerialDispatchQueueObservables == 0)
                var serial: Observable<Int>? = Observable.just(0)
                    .observe(on: SerialDispatchQueueScheduler(qos: .default))
                #expect(Resources.numberOfSerialDispatchQueueObservables == 1)
                var main: Observable<Int>? = Observable.just(0).observe(on: MainScheduler.instance)
                #expect(Resources.numberOfSerialDispatchQueueObservables == 2, "MainScheduler is serial")
                var concurrent: Observable<Int>? = Observable.just(0)
                    .observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
                let scheduler = TestScheduler(initialClock: 0)
                var virtual: Observable<Int>? = Observable.just(0).observe(on: scheduler)
                #expect(Resources.numberOfSerialDispatchQueueObservables == 2)
                #expect(serial != nil && main != nil && concurrent != nil && virtual != nil)
                serial = nil
                #expect(Resources.numberOfSerialDispatchQueueObservables == 1)
                main = nil
                concurrent = nil
                virtual = nil
                #expect(Resources.numberOfSerialDispatchQueueObservables == 0)
            }
        #endif
    }
}
