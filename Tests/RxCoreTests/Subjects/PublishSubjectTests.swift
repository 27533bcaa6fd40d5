import RxCore
import Testing

extension RxCoreTests {
    @Suite("PublishSubject")
    struct PublishSubjectTests {
        @Test("A publish subject emits only the events sent after subscription")
        func emitsEventsAfterSubscription() {
            let subject = PublishSubject<Int>()
            subject.onNext(1)
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(2)
            subject.onNext(3)
            subject.onCompleted()
            subject.onNext(4)
            #expect(recorder.events == [.next(2), .next(3), .completed])
            subscription.dispose()
        }

        @Test("A late subscriber to a terminated publish subject receives only the terminal event")
        func lateSubscriberGetsTerminalEvent() {
            let subject = PublishSubject<Int>()
            subject.onNext(1)
            subject.onError(TestError(1))
            #expect(synchronousEvents(of: subject) == [.error(TestError(1))])
        }

        @Test("Disposing a subscription stops delivery to that observer only")
        func disposingStopsDelivery() {
            let subject = PublishSubject<Int>()
            let first = EventRecorder<Int>()
            let second = EventRecorder<Int>()
            let firstSubscription = subject.subscribe(first)
            let secondSubscription = subject.subscribe(second)
            #expect(subject.hasObservers)
            subject.onNext(1)
            firstSubscription.dispose()
            subject.onNext(2)
            #expect(first.events == [.next(1)])
            #expect(second.events == [.next(1), .next(2)])
            secondSubscription.dispose()
            #expect(!subject.hasObservers)
        }

        @Test("A disposed publish subject ignores events and fails new subscribers with RxError.disposed")
        func disposedSubjectFailsSubscribers() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            _ = subject.subscribe(recorder)
            subject.dispose()
            subject.onNext(1)
            #expect(subject.isDisposed)
            #expect(recorder.events.isEmpty)
            let late = synchronousEvents(of: subject)
            #expect(late.count == 1)
            guard case .error(let error) = late.first, case RxError.disposed = error else {
                Issue.record("expected RxError.disposed, got \(late)")
                return
            }
        }

        @Test("An event sent from an observer is queued and delivered after the current one, not nested")
        func reentrantEventIsQueued() {
            let subject = PublishSubject<Int>()
            var log: [String] = []
            let subscription = subject.subscribe(onNext: { value in
                log.append("begin \(value)")
                if value == 1 {
                    subject.onNext(2)
                }
                log.append("end \(value)")
            })
            subject.onNext(1)
            #expect(log == ["begin 1", "end 1", "begin 2", "end 2"])
            subscription.dispose()
        }

        @Test(
            "Events sent from several threads are delivered one at a time, all of them, and nothing after completion"
        )
        func concurrentSendersDoNotOverlap() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            let shared = Unchecked(subject)
            runConcurrently(threads: 4) { thread in
                for index in 0..<2_000 {
                    shared.value.onNext(thread * 10_000 + index)
                }
            }
            subject.onCompleted()
            runConcurrently(threads: 2) { _ in shared.value.onNext(-1) }
            #expect(recorder.overlaps == 0)
            #expect(recorder.grammarHolds)
            #expect(recorder.elements.count == 8_000)
            #expect(recorder.events.last == .completed)
            for thread in 0..<4 {
                let fromThread = recorder.elements.filter { $0 / 10_000 == thread }
                #expect(fromThread == fromThread.sorted(), "each sender's events keep their order")
            }
            subscription.dispose()
        }
    }
}
