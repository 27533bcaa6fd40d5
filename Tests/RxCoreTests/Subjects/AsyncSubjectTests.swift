import RxCore
import Testing

extension RxCoreTests {
    @Suite("AsyncSubject")
    struct AsyncSubjectTests {
        @Test("An async subject emits only its last element, when it completes")
        func emitsLastElementOnCompletion() {
            let subject = AsyncSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(1)
            subject.onNext(2)
            #expect(recorder.events.isEmpty)
            subject.onCompleted()
            #expect(recorder.events == [.next(2), .completed])
            #expect(synchronousEvents(of: subject) == [.next(2), .completed])
            subscription.dispose()
        }

        @Test("An async subject that completes without elements emits only the completion")
        func completesWithoutElements() {
            let subject = AsyncSubject<Int>()
            subject.onCompleted()
            #expect(synchronousEvents(of: subject) == [.completed])
        }

        @Test("An async subject that fails emits only the error")
        func failsWithError() {
            let subject = AsyncSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            subject.onNext(1)
            subject.onError(TestError(2))
            #expect(recorder.events == [.error(TestError(2))])
            #expect(synchronousEvents(of: subject) == [.error(TestError(2))])
            subscription.dispose()
        }

        @Test(
            "Elements sent to an async subject from several threads yield one final element and one completion"
        )
        func concurrentSendersKeepGrammar() {
            let subject = AsyncSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.subscribe(recorder)
            let shared = Unchecked(subject)
            runConcurrently(threads: 4) { thread in
                for index in 0..<1_000 {
                    shared.value.onNext(thread * 10_000 + index)
                }
                shared.value.onCompleted()
            }
            #expect(recorder.overlaps == 0)
            #expect(recorder.grammarHolds)
            #expect(recorder.events.count == 2)
            #expect(recorder.events.last == .completed)
            subscription.dispose()
        }
    }
}
