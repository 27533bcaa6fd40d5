import RxCore
import Testing

extension RxCoreTests {
    @Suite("Disposables")
    struct DisposablesTests {
        @Test("A disposable created with an action runs it once")
        func actionRunsOnce() {
            var count = 0
            let disposable = Disposables.create { count += 1 }
            #expect(!disposable.isDisposed)
            disposable.dispose()
            disposable.dispose()
            #expect(count == 1)
            #expect(disposable.isDisposed)
        }

        @Test("Disposables created from several disposables dispose all of them")
        func groupsDisposeAll() {
            var log: [Int] = []
            let two = Disposables.create(
                Disposables.create { log.append(1) }, Disposables.create { log.append(2) })
            two.dispose()
            let three = Disposables.create(
                Disposables.create { log.append(3) }, Disposables.create { log.append(4) },
                Disposables.create { log.append(5) })
            three.dispose()
            let list = Disposables.create([Disposables.create { log.append(6) }])
            list.dispose()
            Disposables.create().dispose()
            #expect(log == [1, 2, 3, 4, 5, 6])
            #expect(two.isDisposed && three.isDisposed && list.isDisposed)
        }
    }
}
