import RxCore
import Testing

extension RxCoreTests {
    @Suite("SerialDisposable")
    struct SerialDisposableTests {
        @Test("Assigning a serial disposable disposes the previous disposable")
        func replacingDisposesPrevious() {
            var log: [String] = []
            let serial = SerialDisposable()
            serial.disposable = Disposables.create { log.append("first") }
            serial.disposable = Disposables.create { log.append("second") }
            #expect(log == ["first"])
            serial.dispose()
            #expect(log == ["first", "second"])
            serial.disposable = Disposables.create { log.append("third") }
            #expect(log == ["first", "second", "third"])
            #expect(serial.isDisposed)
        }
    }
}
