import RxCore
import Testing

extension RxCoreTests {
    @Suite("SingleAssignmentDisposable")
    struct SingleAssignmentDisposableTests {
        @Test("A single-assignment disposable disposes what is assigned, even after it was disposed")
        func disposesAssignment() {
            var log: [String] = []
            let first = SingleAssignmentDisposable()
            first.setDisposable(Disposables.create { log.append("first") })
            first.dispose()
            let second = SingleAssignmentDisposable()
            second.dispose()
            #expect(second.isDisposed)
            second.setDisposable(Disposables.create { log.append("second") })
            #expect(log == ["first", "second"])
        }
    }
}
