import Dispatch
import RxCore
import Testing

extension RxCoreTests {
    @Suite("ConcurrentDispatchQueueScheduler")
    struct ConcurrentDispatchQueueSchedulerTests {
        @Test("A concurrent queue scheduler runs every scheduled action")
        func runsAllActions() {
            let queue = DispatchQueue(label: "concurrent-test", attributes: .concurrent)
            let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
            let group = DispatchGroup()
            let log = LockedList<Int>()
            for index in 0..<50 {
                group.enter()
                _ = scheduler.schedule(index) { index in
                    log.append(index)
                    group.leave()
                    return Disposables.create()
                }
            }
            group.wait()
            // Wait until the actions have returned and released what they captured.
            queue.sync(flags: .barrier) {}
            #expect(log.items.sorted() == Array(0..<50))
        }

        @Test("Elements observed on a concurrent scheduler are still delivered one at a time and in order")
        func observeOnConcurrentKeepsOrder() {
            let queue = DispatchQueue(label: "observe-on-concurrent-test", attributes: .concurrent)
            let scheduler = ConcurrentDispatchQueueScheduler(queue: queue)
            let recorder = EventRecorder<Int>()
            let done = DispatchSemaphore(value: 0)
            let subscription = Observable.from(Array(0..<500)).observe(on: scheduler)
                .do(afterCompleted: { done.signal() }).subscribe(recorder)
            done.wait()
            queue.sync(flags: .barrier) {}
            #expect(recorder.overlaps == 0)
            #expect(recorder.elements == Array(0..<500))
            subscription.dispose()
        }
    }
}
