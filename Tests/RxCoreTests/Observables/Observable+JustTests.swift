import RxCore
import Testing

extension RxCoreTests {
    @Suite("just")
    struct JustTests {
        @Test("Just emits its element and completes synchronously")
        func emitsAndCompletes() {
            #expect(synchronousEvents(of: Observable.just(42)) == [.next(42), .completed])
        }

        @Test("Just on a scheduler emits through the scheduler")
        func emitsOnScheduler() {
            let scheduler = TestScheduler(initialClock: 0)
            let observer = scheduler.start { Observable.just(1, scheduler: scheduler) }
            #expect(observer.events == [.next(201, 1), .completed(202)])
        }

        @Test(
            "Subscribing closures to just runs onNext, onCompleted, then onDisposed before returning, once each"
        )
        func closuresBeforeReturning() {
            var log: [String] = []
            let subscription = Observable.just(7).subscribe(
                onNext: { log.append("next \($0)") },
                onError: { log.append("error \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") })
            #expect(log == ["next 7", "completed", "disposed"])
            subscription.dispose()
            subscription.dispose()
            #expect(log == ["next 7", "completed", "disposed"])
        }

        @Test("A just seen through asObservable or an operator's result is subscribed like any sequence")
        func closuresThroughOtherShapes() {
            var log: [String] = []
            _ = Observable.just(1).asObservable().subscribe(onNext: { log.append("a \($0)") })
            _ = Observable.just(2).map { $0 * 10 }.subscribe(
                onNext: { log.append("b \($0)") }, onCompleted: { log.append("b done") })
            _ = Single.just(3).asObservable().subscribe(
                onNext: { log.append("c \($0)") }, onDisposed: { log.append("c disposed") })
            #expect(log == ["a 1", "b 20", "b done", "c 3", "c disposed"])
        }

        @Test("Subscribing only onDisposed to just runs it once the element and completion went by")
        func onlyOnDisposed() {
            var disposed = 0
            let subscription = Observable.just(1).subscribe(onDisposed: { disposed += 1 })
            #expect(disposed == 1)
            subscription.dispose()
            #expect(disposed == 1)
        }
    }
}
