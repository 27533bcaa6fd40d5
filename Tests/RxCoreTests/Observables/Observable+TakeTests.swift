import RxCore
import Testing

extension RxCoreTests {
    @Suite("take")
    struct TakeTests {
        @Test("Take emits the first n elements, completes and unsubscribes")
        func takesFirstElements() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3)])
            let observer = scheduler.start { source.take(2) }
            #expect(observer.events == [.next(210, 1), .next(220, 2), .completed(220)])
            #expect(source.subscriptions == [Subscription(200, 220)])
        }

        @Test("Take of zero completes immediately and take stops an endless sequence")
        func zeroAndEndless() {
            #expect(synchronousEvents(of: Observable.of(1, 2).take(0)) == [.completed])
            #expect(
                synchronousEvents(of: Observable.repeatElement(7).take(3))
                    == [.next(7), .next(7), .next(7), .completed])
        }

        @Test("Take of one from a subject completes after the first element and unsubscribes")
        func takeOneFromSubject() {
            let subject = PublishSubject<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = subject.take(1).subscribe(recorder)
            subject.onNext(1)
            subject.onNext(2)
            #expect(recorder.events == [.next(1), .completed])
            #expect(!subject.hasObservers)
            subscription.dispose()
        }
    }
}
