import RxCore
import Testing

extension RxCoreTests {
    @Suite("do")
    struct DoTests {
        @Test("Do calls its closures around each event, subscription and disposal in order")
        func callsClosuresInOrder() {
            var log: [String] = []
            let source = Observable.of(1).do(
                onNext: { log.append("onNext \($0)") },
                afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") },
                afterCompleted: { log.append("afterCompleted") },
                onSubscribe: { log.append("onSubscribe") },
                onSubscribed: { log.append("onSubscribed") },
                onDispose: { log.append("onDispose") })
            let subscription = source.subscribe(
                onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            subscription.dispose()
            #expect(
                log == [
                    // `of` emits from the trampoline, after the subscription call has returned.
                    "onSubscribe", "onSubscribed", "onNext 1", "next 1", "afterNext 1", "onCompleted",
                    "completed",
                    "afterCompleted", "onDispose",
                ])
        }

        @Test("Do sees errors and an error thrown by a closure replaces the event")
        func errorsAndThrowingClosures() {
            var seen: [String] = []
            let failing = Observable<Int>.error(TestError(1)).do(
                onError: { seen.append("onError \($0)") }, afterError: { seen.append("afterError \($0)") })
            #expect(synchronousEvents(of: failing) == [.error(TestError(1))])
            #expect(seen == ["onError TestError(1)", "afterError TestError(1)"])
            let throwing = Observable.of(1, 2).do(onNext: { _ in throw TestError(5) })
            #expect(synchronousEvents(of: throwing) == [.error(TestError(5))])
        }
    }
}
