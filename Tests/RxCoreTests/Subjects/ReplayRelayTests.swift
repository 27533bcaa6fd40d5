import RxCore
import Testing

extension RxCoreTests {
    @Suite("ReplayRelay")
    struct ReplayRelayTests {
        @Test("A replay relay replays its buffer to new subscribers and never terminates")
        func replaysBuffer() {
            let relay = ReplayRelay<Int>.create(bufferSize: 2)
            relay.accept(1)
            relay.accept(2)
            relay.accept(3)
            var values: [Int] = []
            let subscription = relay.subscribe(onNext: { values.append($0) })
            relay.accept(4)
            #expect(values == [2, 3, 4])
            subscription.dispose()
            let unbound = ReplayRelay<Int>.createUnbound()
            unbound.accept(1)
            unbound.accept(2)
            #expect(synchronousEvents(of: unbound.take(2)) == [.next(1), .next(2), .completed])
        }
    }
}
