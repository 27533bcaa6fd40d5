import RxCore
import Testing

extension RxCoreTests {
    @Suite("RefCountDisposable")
    struct RefCountDisposableTests {
        @Test("A ref-count disposable waits for every retained disposable before disposing")
        func waitsForDependents() {
            var disposed = 0
            let refCount = RefCountDisposable(disposable: Disposables.create { disposed += 1 })
            let first = refCount.retain()
            let second = refCount.retain()
            refCount.dispose()
            #expect(disposed == 0)
            first.dispose()
            first.dispose()
            #expect(disposed == 0)
            second.dispose()
            #expect(disposed == 1)
            #expect(refCount.isDisposed)
        }

        @Test(
            "Without dependents a ref-count disposable disposes at once, and retain afterwards does nothing")
        func disposesAtOnce() {
            var disposed = 0
            let refCount = RefCountDisposable(disposable: Disposables.create { disposed += 1 })
            refCount.dispose()
            refCount.dispose()
            #expect(disposed == 1)
            refCount.retain().dispose()
            #expect(disposed == 1)
        }
    }
}
