import RxCore
import Testing

extension RxCoreTests {
    @Suite("BehaviorSubject")
    struct BehaviorSubjectTests {
        @Test("A behavior subject replays its latest value to each new subscriber")
        func replaysLatestValue() throws {
            let subject = BehaviorSubject(value: 0)
            let first = EventRecorder<Int>()
            let firstSubscription = subject.subscribe(first)
            subject.onNext(1)
            subject.onNext(2)
            let second = EventRecorder<Int>()
            let secondSubscription = subject.subscribe(second)
            subject.onNext(3)
            #expect(first.events == [.next(0), .next(1), .next(2), .next(3)])
            #expect(second.events == [.next(2), .next(3)])
            #expect(try subject.value() == 3)
            firstSubscription.dispose()
            secondSubscription.dispose()
        }

        @Test(
            "After completion a behavior subject gives new subscribers only the completion, and keeps its value"
        )
        func completedSubjectGivesOnlyCompletion() throws {
            let subject = BehaviorSubject(value: 1)
            subject.onCompleted()
            #expect(synchronousEvents(of: subject) == [.completed])
            #expect(try subject.value() == 1)
        }

        @Test("After an error a behavior subject gives new subscribers the error and value() throws it")
        func failedSubjectThrowsFromValue() {
            let subject = BehaviorSubject(value: 1)
            subject.onError(TestError(4))
            #expect(synchronousEvents(of: subject) == [.error(TestError(4))])
            #expect(throws: TestError(4)) { try subject.value() }
        }

        @Test("A disposed behavior subject throws RxError.disposed from value() and fails new subscribers")
        func disposedSubjectThrows() {
            let subject = BehaviorSubject(value: 1)
            subject.dispose()
            #expect(subject.isDisposed)
            #expect(throws: RxError.self) { try subject.value() }
            let events = synchronousEvents(of: subject)
            guard case .error(let error) = events.first, case RxError.disposed = error else {
                Issue.record("expected RxError.disposed, got \(events)")
                return
            }
        }

        @Test(
            "Events sent to a behavior subject from several threads are delivered one at a time after the replayed value"
        )
        func concurrentSendersDoNotOverlap() {
            let subject = BehaviorSubject(value: -1)
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            let shared = Unchecked(subject)
            runConcurrently(threads: 4) { thread in
                for index in 0..<1_000 {
                    shared.value.onNext(thread * 10_000 + index)
                }
            }
            subject.onCompleted()
            #expect(recorder.overlaps == 0)
            #expect(recorder.grammarHolds)
            #expect(recorder.events.first == .next(-1))
            #expect(recorder.elements.count == 4_001)
            subscription.dispose()
        }

        @Test(
            "Subscribing while other threads send still delivers the replayed value first and never overlaps")
        func subscribeDuringConcurrentSends() {
            let subject = BehaviorSubject(value: 0)
            let shared = Unchecked(subject)
            let recorders = Unchecked((0..<20).map { _ in EventRecorder<Int>() })
            let subscriptions = Unchecked(SubscriptionList())
            runConcurrently(threads: 3) { thread in
                if thread == 0 {
                    for recorder in recorders.value {
                        subscriptions.value.append(shared.value.subscribe(recorder))
                    }
                } else {
                    for index in 1...1_000 {
                        shared.value.onNext(index)
                    }
                }
            }
            for recorder in recorders.value {
                #expect(recorder.overlaps == 0)
                #expect(!recorder.events.isEmpty)
            }
            subscriptions.value.disposeAll()
        }
    }
}
