import Foundation
import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's tests that run on real dispatch-queue schedulers
// (Observable+ThrottleTests.swift `WithRealScheduler`, Observable+DelayTests.swift `Real_*`),
// with shorter intervals.
extension RxCoreTests {
    @Suite("time operators on real schedulers, RxSwift parity")
    struct RealSchedulerParityTests {
        @Test("Throttle with latest on a real scheduler waits for the window to emit the pending element")
        func throttleLatestRealScheduler() throws {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let start = Date()
            let elements = try Observable.from([0, 1])
                .throttle(.milliseconds(300), scheduler: scheduler)
                .toBlocking()
                .toArray()
            let elapsed = Date().timeIntervalSince(start)
            #expect(elements == [0, 1])
            #expect(elapsed >= 0.25)
            #expect(elapsed < 2)
        }

        @Test("Throttle without latest on a real scheduler completes at once with the first element")
        func throttleNotLatestRealScheduler() throws {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let start = Date()
            let elements = try Observable.from([0, 1])
                .throttle(.seconds(2), latest: false, scheduler: scheduler)
                .toBlocking()
                .toArray()
            #expect(elements == [0])
            #expect(Date().timeIntervalSince(start) < 1)
        }

        @Test(
            "Delay on a real scheduler delivers every element sent from another thread, then the completion")
        func delayRealSimple() throws {
            let scheduler = ConcurrentDispatchQueueScheduler(qos: .default)
            let subject = PublishSubject<Int>()
            let result = subject.delay(.milliseconds(10), scheduler: scheduler).toBlocking(timeout: 5)
            let sendable = Unchecked(subject)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                sendable.value.onNext(1)
                sendable.value.onNext(2)
                sendable.value.onNext(3)
                sendable.value.onCompleted()
            }
            #expect(try result.toArray() == [1, 2, 3])
        }
    }
}
