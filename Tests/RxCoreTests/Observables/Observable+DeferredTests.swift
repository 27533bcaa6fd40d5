import RxCore
import Testing

extension RxCoreTests {
    @Suite("deferred")
    struct DeferredTests {
        @Test("Deferred calls its factory on each subscription")
        func callsFactoryPerSubscription() {
            var calls = 0
            let source = Observable<Int>.deferred {
                calls += 1
                return .just(calls)
            }
            #expect(calls == 0)
            #expect(synchronousEvents(of: source) == [.next(1), .completed])
            #expect(synchronousEvents(of: source) == [.next(2), .completed])
        }

        @Test("An error thrown by the deferred factory is emitted")
        func factoryErrorIsEmitted() {
            let source = Observable<Int>.deferred { throw TestError(8) }
            #expect(synchronousEvents(of: source) == [.error(TestError(8))])
        }
    }
}
