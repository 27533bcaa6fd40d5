import RxCore
import Testing

extension RxCoreTests {
    @Suite("using")
    struct UsingTests {
        @Test("Using creates the resource per subscription and disposes it with the subscription")
        func disposesResource() {
            let scheduler = TestScheduler(initialClock: 0)
            var created: [Int] = []
            var disposed: [Int] = []
            let observer = scheduler.start {
                Observable<Int>.using(
                    { () -> UsingResource in
                        created.append(scheduler.clock)
                        return UsingResource { disposed.append(scheduler.clock) }
                    },
                    observableFactory: { _ in
                        scheduler.createColdObservable(Recorded.events(.next(100, 1), .completed(200)))
                            .asObservable()
                    })
            }
            #expect(observer.events == [.next(300, 1), .completed(400)])
            #expect(created == [200])
            #expect(disposed == [400])
        }

        @Test("An error thrown by the resource factory is emitted")
        func factoryThrows() {
            let source = Observable<Int>.using(
                { () throws -> UsingResource in throw TestError(1) }, observableFactory: { _ in .just(1) })
            #expect(synchronousEvents(of: source) == [.error(TestError(1))])
        }
    }
}

/// A resource for `using`: runs `onDispose` when disposed.
private final class UsingResource: Disposable {
    private let onDispose: () -> Void

    init(onDispose: @escaping () -> Void) {
        self.onDispose = onDispose
    }

    func dispose() {
        onDispose()
    }
}
