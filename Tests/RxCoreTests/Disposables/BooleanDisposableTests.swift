import RxCore
import Testing

extension RxCoreTests {
    @Suite("BooleanDisposable")
    struct BooleanDisposableTests {
        @Test("A boolean disposable records that it was disposed")
        func recordsDisposal() {
            let disposable = BooleanDisposable()
            #expect(!disposable.isDisposed)
            disposable.dispose()
            #expect(disposable.isDisposed)
            #expect(BooleanDisposable(isDisposed: true).isDisposed)
        }
    }
}
