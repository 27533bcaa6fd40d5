import RxCore
import Testing

extension RxCoreTests {
    @Suite("withLatestFrom")
    struct WithLatestFromTests {
        @Test("WithLatestFrom combines each element with the latest of the other sequence")
        func combinesWithLatest() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([
                .next(210, 1), .next(230, 2), .next(250, 3), .completed(260),
            ])
            let other = scheduler.createHotObservable([.next(220, "a"), .next(240, "b"), .completed(245)])
            let observer = scheduler.start { source.withLatestFrom(other) { "\($0)\($1)" } }
            #expect(observer.events == [.next(230, "2a"), .next(250, "3b"), .completed(260)])
        }

        @Test("WithLatestFrom without a selector emits the other sequence's latest element")
        func emitsOtherElement() {
            let trigger = PublishSubject<Void>()
            let state = BehaviorSubject(value: "s0")
            let recorder = EventRecorder<String>()
            let subscription = trigger.withLatestFrom(state).subscribe(recorder)
            trigger.onNext(())
            state.onNext("s1")
            trigger.onNext(())
            #expect(recorder.events == [.next("s0"), .next("s1")])
            subscription.dispose()
        }
    }
}
