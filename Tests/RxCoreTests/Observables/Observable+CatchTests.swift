import RxCore
import Testing

extension RxCoreTests {
    @Suite("catch")
    struct CatchTests {
        @Test("Catch switches to the recovery sequence on error")
        func switchesToRecovery() {
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createHotObservable([.next(210, 1), .error(220, TestError(1), Int.self)])
            let recovery = scheduler.createColdObservable([.next(10, 2), .completed(20)])
            let observer = scheduler.start { source.catch { _ in recovery.asObservable() } }
            #expect(observer.events == [.next(210, 1), .next(230, 2), .completed(240)])
            #expect(source.subscriptions == [Subscription(200, 220)])
            #expect(recovery.subscriptions == [Subscription(220, 240)])
        }

        @Test("CatchAndReturn emits the fallback element and completes")
        func catchAndReturn() {
            let events = synchronousEvents(
                of: Observable.concat(.of(1), .error(TestError(1))).catchAndReturn(99))
            #expect(events == [.next(1), .next(99), .completed])
        }

        @Test("An error thrown by the catch handler is emitted")
        func handlerErrorIsEmitted() {
            let events = synchronousEvents(
                of: Observable<Int>.error(TestError(1)).catch { _ in throw TestError(2) })
            #expect(events == [.error(TestError(2))])
        }

        @Test("The deprecated catchError and catchErrorJustReturn are catch and catchAndReturn")
        func deprecatedAliases() {
            let aliases: any DeprecatedAliasCalls = DeprecatedAliases()
            #expect(aliases.catchErrorEvents() == [.next(1), .next(2), .completed])
            #expect(aliases.catchErrorJustReturnEvents() == [.next(1), .next(2), .completed])
        }
    }
}
