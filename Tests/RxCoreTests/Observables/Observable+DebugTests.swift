import RxCore
import Testing

extension RxCoreTests {
    @Suite("debug")
    struct DebugTests {
        @Test("Debug passes every event through unchanged")
        func passesThrough() {
            let source = Observable.concat(.of(1, 2), .error(TestError(1)))
            #expect(
                synchronousEvents(of: source.debug("test", trimOutput: true))
                    == [.next(1), .next(2), .error(TestError(1))])
        }
    }
}
