import RxCore
import Testing

extension RxCoreTests {
    @Suite("BehaviorRelay")
    struct BehaviorRelayTests {
        @Test("A behavior relay has a current value and replays it to new subscribers")
        func currentValueIsReplayed() {
            let relay = BehaviorRelay(value: [1])
            relay.accept(relay.value + [2])
            #expect(relay.value == [1, 2])
            let recorder = EventRecorder<[Int]>()
            let subscription = relay.subscribe(recorder)
            relay.accept([3])
            #expect(recorder.events == [.next([1, 2]), .next([3])])
            subscription.dispose()
        }

        @Test(
            "Elements accepted by a behavior relay from several threads are delivered one at a time and the last is its value"
        )
        func concurrentAcceptsDoNotOverlap() {
            let relay = BehaviorRelay(value: 0)
            let recorder = EventRecorder<Int>()
            let subscription = relay.subscribe(recorder)
            let shared = Unchecked(relay)
            runConcurrently(threads: 4) { _ in
                for _ in 0..<1_000 {
                    shared.value.accept(1)
                }
            }
            #expect(recorder.overlaps == 0)
            #expect(recorder.elements.count == 4_001)
            #expect(relay.value == 1)
            #expect(recorder.grammarHolds)
            subscription.dispose()
        }
    }
}
