import RxCore
import Testing

extension RxCoreTests {
    @Suite("subscribe")
    struct SubscribeTests {
        @Test("Subscribe with closures calls onNext, onCompleted and then onDisposed")
        func closuresInOrder() {
            var log: [String] = []
            let subscription = Observable.of(1, 2).subscribe(
                onNext: { log.append("next \($0)") },
                onError: { log.append("error \($0)") },
                onCompleted: { log.append("completed") },
                onDisposed: { log.append("disposed") })
            #expect(log == ["next 1", "next 2", "completed", "disposed"])
            subscription.dispose()
            #expect(log.count == 4)
        }

        @Test("Subscribe with closures calls onError then onDisposed on failure")
        func errorThenDisposed() {
            var log: [String] = []
            _ = Observable<Int>.error(TestError(1)).subscribe(
                onError: { log.append("error \($0)") }, onDisposed: { log.append("disposed") })
            #expect(log == ["error TestError(1)", "disposed"])
        }

        @Test("Disposing a subscription calls onDisposed once and stops delivery")
        func disposeCallsOnDisposed() {
            let subject = PublishSubject<Int>()
            var received: [Int] = []
            var disposedCount = 0
            let subscription = subject.subscribe(
                onNext: { received.append($0) }, onDisposed: { disposedCount += 1 })
            subject.onNext(1)
            subscription.dispose()
            subscription.dispose()
            subject.onNext(2)
            #expect(received == [1])
            #expect(disposedCount == 1)
        }

        @Test("Subscribe with an event closure receives every event")
        func eventClosure() {
            var events: [Event<Int>] = []
            let subscription = Observable.of(1).subscribe { events.append($0) }
            #expect(events == [.next(1), .completed])
            subscription.dispose()
        }

        @Test("Subscribe with an object passes it weakly to the closures")
        func subscribeWithObject() {
            final class Owner {
                var values: [Int] = []
            }
            let owner = Owner()
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(
                with: owner, onNext: { owner, value in owner.values.append(value) })
            subject.onNext(1)
            subject.onNext(2)
            #expect(owner.values == [1, 2])
            subscription.dispose()
        }
    }
}
