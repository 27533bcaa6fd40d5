import RxCore
import Testing

extension RxCoreTests {
    @Suite("error")
    struct ErrorTests {
        @Test("Error fails immediately with its error")
        func failsImmediately() {
            #expect(synchronousEvents(of: Observable<Int>.error(TestError(3))) == [.error(TestError(3))])
        }
    }
}
