import Dispatch
import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+ObserveOnTests.swift: disposing a subscription while
// events are queued on a serial scheduler that is busy delivering an earlier one.
extension RxCoreTests {
    @Suite("observe(on:) with queued events, RxSwift parity")
    struct ObserveOnParityTests {
        enum Queued: CaseIterable, Sendable { case element, error, completion }

        @Test("Disposing drops the events queued behind a delivery in progress", arguments: Queued.allCases)
        func disposeWithEnqueuedEvent(queued: Queued) {
            let emit = PublishSubject<Int>()
            let blocking = DispatchSemaphore(value: 0)
            let unblock = DispatchSemaphore(value: 0)
            let testDone = DispatchSemaphore(value: 0)
            let scheduler = SerialDispatchQueueScheduler(qos: .default)
            let events = LockedList<Event<Int>>()
            let subscription = emit.observe(on: scheduler).subscribe { event in
                if case .next(0) = event {
                    blocking.signal()
                    _ = unblock.wait(timeout: .now() + 5)
                }
                events.append(event)
            }
            emit.on(.next(0))
            #expect(blocking.wait(timeout: .now() + 5) == .success)
            switch queued {
            case .element: emit.on(.next(1))
            case .error: emit.on(.error(TestError(1)))
            case .completion: emit.on(.completed)
            }
            _ = scheduler.schedule(()) { _ in
                testDone.signal()
                return Disposables.create()
            }
            subscription.dispose()
            unblock.signal()
            #expect(testDone.wait(timeout: .now() + 5) == .success)
            #expect(events.items == [.next(0)])
        }

        @Test("An error or completion observed on a serial queue arrives once")
        func terminalEventsOnSerialQueue() {
            let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "testQueue1")
            let done = DispatchSemaphore(value: 0)
            let count = LockedList<String>()
            let first = Observable<Int>.error(TestError(1)).observe(on: scheduler)
                .subscribe(onError: { _ in count.append("error") })
            let second = Observable<Int>.empty().observe(on: scheduler)
                .subscribe(onCompleted: { count.append("completed") })
            _ = scheduler.schedule(()) { _ in
                done.signal()
                return Disposables.create()
            }
            #expect(done.wait(timeout: .now() + 5) == .success)
            #expect(count.items == ["error", "completed"])
            first.dispose()
            second.dispose()
        }
    }
}
