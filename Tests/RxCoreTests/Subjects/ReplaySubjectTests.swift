import RxCore
import Testing

extension RxCoreTests {
    @Suite("ReplaySubject")
    struct ReplaySubjectTests {
        @Test("A bounded replay subject replays the last n elements to new subscribers")
        func replaysLastElements() {
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(4)
            #expect(recorder.events == [.next(2), .next(3), .next(4)])
            subscription.dispose()
        }

        @Test("A replay subject replays its buffer and then the terminal event after termination")
        func replaysBufferThenTerminalEvent() {
            let subject = ReplaySubject<Int>.create(bufferSize: 2)
            subject.onNext(1)
            subject.onNext(2)
            subject.onNext(3)
            subject.onCompleted()
            #expect(synchronousEvents(of: subject) == [.next(2), .next(3), .completed])
        }

        @Test("An unbounded replay subject replays every element")
        func unboundReplaysEverything() {
            let subject = ReplaySubject<Int>.createUnbound()
            for value in 1...5 {
                subject.onNext(value)
            }
            subject.onError(TestError(1))
            #expect(
                synchronousEvents(of: subject) == [
                    .next(1), .next(2), .next(3), .next(4), .next(5), .error(TestError(1)),
                ])
        }

        @Test("A replay subject with a buffer of zero replays nothing but the terminal event")
        func zeroBufferReplaysNothing() {
            let subject = ReplaySubject<Int>.create(bufferSize: 0)
            subject.onNext(1)
            subject.onCompleted()
            #expect(synchronousEvents(of: subject) == [.completed])
        }

        @Test("A disposed replay subject fails new subscribers with RxError.disposed")
        func disposedSubjectFails() {
            let subject = ReplaySubject<Int>.create(bufferSize: 1)
            subject.onNext(1)
            subject.dispose()
            let events = synchronousEvents(of: subject)
            guard events.count == 1, case .error(let error) = events[0], case RxError.disposed = error else {
                Issue.record("expected RxError.disposed, got \(events)")
                return
            }
        }

        @Test("Events sent to a replay subject from several threads are delivered one at a time")
        func concurrentSendersDoNotOverlap() {
            let subject = ReplaySubject<Int>.create(bufferSize: 3)
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
            #expect(recorder.elements.count == 4_000)
            #expect(synchronousEvents(of: subject).count == 4)
            subscription.dispose()
        }
    }
}
