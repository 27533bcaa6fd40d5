import RxCore
import Testing

extension RxCoreTests {
    @Suite("empty")
    struct EmptyTests {
        @Test("Empty completes immediately")
        func completes() {
            #expect(synchronousEvents(of: Observable<Int>.empty()) == [.completed])
        }
    }
}
