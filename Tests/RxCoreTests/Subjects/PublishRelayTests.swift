import RxCore
import Testing

extension RxCoreTests {
    @Suite("PublishRelay")
    struct PublishRelayTests {
        @Test("A publish relay emits the accepted elements to its current observers")
        func emitsAcceptedElements() {
            let relay = PublishRelay<String>()
            relay.accept("ignored")
            let recorder = EventRecorder<String>()
            let subscription = relay.subscribe(recorder)
            relay.accept("a")
            relay.accept("b")
            #expect(recorder.events == [.next("a"), .next("b")])
            subscription.dispose()
            relay.accept("c")
            #expect(recorder.events.count == 2)
        }

        @Test("Elements accepted by a publish relay from several threads are delivered one at a time")
        func concurrentAcceptsDoNotOverlap() {
            let relay = PublishRelay<Int>()
            let recorder = EventRecorder<Int>()
            let subscription = relay.asObservable().subscribe(recorder)
            let shared = Unchecked(relay)
            runConcurrently(threads: 4) { thread in
                for index in 0..<1_000 {
                    shared.value.accept(thread * 10_000 + index)
                }
            }
            #expect(recorder.overlaps == 0)
            #expect(recorder.elements.count == 4_000)
            #expect(recorder.grammarHolds)
            subscription.dispose()
        }
    }
}
