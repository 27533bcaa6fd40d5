import RxCore
import Testing

extension RxCoreTests {
    @Suite("skip")
    struct SkipTests {
        @Test("Skip drops the first n elements")
        func dropsFirstElements() {
            #expect(
                synchronousEvents(of: Observable.of(1, 2, 3, 4).skip(2)) == [.next(3), .next(4), .completed])
            #expect(synchronousEvents(of: Observable.of(1, 2).skip(5)) == [.completed])
            #expect(synchronousEvents(of: Observable.of(1).skip(0)) == [.next(1), .completed])
        }

        @Test("Skip drops the first elements of a subject and forwards the rest")
        func skipFromSubject() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.skip(1).subscribe(recorder)
            subject.onNext(1)
            subject.onNext(2)
            subject.onCompleted()
            #expect(recorder.events == [.next(2), .completed])
            subscription.dispose()
        }
    }
}
