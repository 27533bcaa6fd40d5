import RxCore
import Testing

extension RxCoreTests {
    @Suite("CompositeDisposable")
    struct CompositeDisposableTests {
        @Test("A composite disposable disposes its members, and removing one disposes it alone")
        func insertRemoveDispose() {
            var log: [String] = []
            let composite = CompositeDisposable()
            let keyA = composite.insert(Disposables.create { log.append("a") })
            _ = composite.insert(Disposables.create { log.append("b") })
            #expect(composite.count == 2)
            composite.remove(for: keyA!)
            #expect(log == ["a"])
            #expect(composite.count == 1)
            composite.dispose()
            #expect(log == ["a", "b"])
            #expect(composite.isDisposed)
        }

        @Test("Inserting into a disposed composite disposes the new member and returns no key")
        func insertAfterDispose() {
            let composite = CompositeDisposable()
            composite.dispose()
            var disposed = false
            let key = composite.insert(Disposables.create { disposed = true })
            #expect(key == nil)
            #expect(disposed)
        }
    }
}
