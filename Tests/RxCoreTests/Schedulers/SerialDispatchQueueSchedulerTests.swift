import Dispatch
import RxCore
import Synchronization
import Testing

/// A serial queue scheduler together with its queue, so that a test can wait with `queue.sync {}`
/// until the scheduled work has finished and released what it captured (signalling from inside
/// an action happens before that).
private func makeScheduler(_ name: String) -> (SerialDispatchQueueScheduler, DispatchQueue) {
    let queue = LockedList<DispatchQueue>()
    let scheduler = SerialDispatchQueueScheduler(
        internalSerialQueueName: name, serialQueueConfiguration: { queue.append($0) })
    return (scheduler, queue.items[0])
}

extension RxCoreTests {
    @Suite("SerialDispatchQueueScheduler")
    struct SerialDispatchQueueSchedulerTests {
        @Test("A serial queue scheduler runs actions on its queue, one at a time, in order")
        func runsInOrderOnQueue() {
            let (scheduler, queue) = makeScheduler("serial-test")
            let log = LockedList<Int>()
            let done = DispatchSemaphore(value: 0)
            for index in 0..<100 {
                _ = scheduler.schedule(index) { index in
                    log.append(index)
                    if index == 99 { done.signal() }
                    return Disposables.create()
                }
            }
            done.wait()
            queue.sync {}
            #expect(log.items == Array(0..<100))
        }

        @Test("A serial queue scheduler runs relative and periodic actions, and disposal cancels them")
        func relativeAndPeriodic() {
            let (scheduler, queue) = makeScheduler("relative-test")
            let fired = DispatchSemaphore(value: 0)
            _ = scheduler.scheduleRelative((), dueTime: .milliseconds(1)) { _ in
                fired.signal()
                return Disposables.create()
            }
            fired.wait()
            let ticks = LockedList<Int>()
            let threeTicks = DispatchSemaphore(value: 0)
            let periodic = scheduler.schedulePeriodic(
                0, startAfter: .milliseconds(1), period: .milliseconds(1)
            ) { state in
                ticks.append(state)
                if state == 2 { threeTicks.signal() }
                return state + 1
            }
            threeTicks.wait()
            periodic.dispose()
            #expect(Array(ticks.items.prefix(3)) == [0, 1, 2])
            // Checked on the test's thread: an issue recorded on the queue's thread is not
            // attributed to the test.
            let disposedActionRan = Atomic<Bool>(false)
            let cancelled = scheduler.scheduleRelative((), dueTime: .seconds(3600)) { _ in
                disposedActionRan.store(true, ordering: .relaxed)
                return Disposables.create()
            }
            cancelled.dispose()
            queue.sync {}
            let ran = disposedActionRan.load(ordering: .relaxed)
            #expect(!ran, "a disposed action ran")
        }

        @Test("Interval on a serial queue scheduler emits increasing integers")
        func intervalOnQueue() {
            let (scheduler, queue) = makeScheduler("interval-test")
            let done = DispatchSemaphore(value: 0)
            let values = LockedList<Int>()
            let subscription = Observable<Int>.interval(.milliseconds(1), scheduler: scheduler).take(3)
                .subscribe(onNext: { values.append($0) }, onCompleted: { done.signal() })
            done.wait()
            queue.sync {}
            #expect(values.items == [0, 1, 2])
            subscription.dispose()
        }
    }
}
