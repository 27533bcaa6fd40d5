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
    }
}
