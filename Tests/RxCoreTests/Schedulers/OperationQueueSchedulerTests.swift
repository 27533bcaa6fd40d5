import Foundation
import RxCore
import Testing

extension RxCoreTests {
    @Suite("OperationQueueScheduler")
    struct OperationQueueSchedulerTests {
        @Test("An operation-queue scheduler runs actions on its queue, in order on a serial queue")
        func runsOnQueue() throws {
            let queue = OperationQueue()
            queue.maxConcurrentOperationCount = 1
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let values = Unchecked(LockedList<Int>())
            let elements = try Observable.of(1, 2, 3).observe(on: scheduler)
                .do(onNext: { values.value.append($0) }).toBlocking(timeout: 10).toArray()
            queue.waitUntilAllOperationsAreFinished()
            #expect(elements == [1, 2, 3])
            #expect(values.value.items == [1, 2, 3])
        }

        @Test("Disposing before the operation runs cancels it")
        func cancels() {
            let queue = OperationQueue()
            queue.isSuspended = true
            let scheduler = OperationQueueScheduler(operationQueue: queue)
            let ran = Unchecked(LockedList<Bool>())
            let scheduled = scheduler.schedule(()) { _ in
                ran.value.append(true)
                return Disposables.create()
            }
            scheduled.dispose()
            queue.isSuspended = false
            queue.waitUntilAllOperationsAreFinished()
            #expect(ran.value.items.isEmpty)
        }
    }
}
