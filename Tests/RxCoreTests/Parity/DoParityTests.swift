import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Observable+DoOnTests.swift: the order of the side effects against
// the source's subscription and disposal, and errors thrown by the handlers.
extension RxCoreTests {
    @Suite("do, RxSwift parity")
    struct DoParityTests {
        private let testError = TestError(1)

        enum DoOnEvent: Equatable {
            case sourceSubscribe, sourceDispose, doOnNext, doOnCompleted, doOnError, doOnSubscribe
            case doOnSubscribed, doOnDispose
        }

        private func source(
            _ log: @escaping (DoOnEvent) -> Void, _ body: @escaping (AnyObserver<Int>) -> Void
        )
            -> Observable<Int>
        {
            Observable<Int>.create { observer in
                log(.sourceSubscribe)
                body(observer)
                return Disposables.create { log(.sourceDispose) }
            }
        }

        @Test("Do's handlers run around an asynchronous completion in RxSwift's order")
        func orderCompletedAsync() {
            var events: [DoOnEvent] = []
            let scheduler = TestScheduler(initialClock: 0)
            _ = scheduler.start {
                source({ events.append($0) }) { observer in
                    scheduler.scheduleAt(300) {
                        observer.on(.next(0))
                        observer.on(.completed)
                    }
                }
                .do(
                    onNext: { _ in events.append(.doOnNext) }, onCompleted: { events.append(.doOnCompleted) },
                    onSubscribe: { events.append(.doOnSubscribe) },
                    onSubscribed: { events.append(.doOnSubscribed) },
                    onDispose: { events.append(.doOnDispose) })
            }
            #expect(
                events == [
                    .doOnSubscribe, .sourceSubscribe, .doOnSubscribed, .doOnNext, .doOnCompleted,
                    .sourceDispose,
                    .doOnDispose,
                ])
        }

        @Test("A synchronous completion disposes the source before onSubscribed runs")
        func orderCompletedSync() {
            var events: [DoOnEvent] = []
            let scheduler = TestScheduler(initialClock: 0)
            _ = scheduler.start {
                source({ events.append($0) }) { observer in
                    observer.on(.next(0))
                    observer.on(.completed)
                }
                .do(
                    onNext: { _ in events.append(.doOnNext) }, onCompleted: { events.append(.doOnCompleted) },
                    onSubscribe: { events.append(.doOnSubscribe) },
                    onSubscribed: { events.append(.doOnSubscribed) },
                    onDispose: { events.append(.doOnDispose) })
            }
            #expect(
                events == [
                    .doOnSubscribe, .sourceSubscribe, .doOnNext, .doOnCompleted, .sourceDispose,
                    .doOnSubscribed,
                    .doOnDispose,
                ])
        }

        @Test("A synchronous error disposes the source before onSubscribed runs")
        func orderError() {
            var events: [DoOnEvent] = []
            _ = source({ events.append($0) }) { observer in
                observer.on(.next(0))
                observer.on(.error(testError))
            }
            .do(
                onNext: { _ in events.append(.doOnNext) }, onError: { _ in events.append(.doOnError) },
                onSubscribe: { events.append(.doOnSubscribe) },
                onSubscribed: { events.append(.doOnSubscribed) }, onDispose: { events.append(.doOnDispose) }
            )
            .subscribe { _ in }
            #expect(
                events == [
                    .doOnSubscribe, .sourceSubscribe, .doOnNext, .doOnError, .sourceDispose, .doOnSubscribed,
                    .doOnDispose,
                ])
        }

        @Test("Disposing runs the source's disposal, then onDispose")
        func orderDispose() {
            var events: [DoOnEvent] = []
            source({ events.append($0) }) { observer in observer.on(.next(0)) }
                .do(
                    onNext: { _ in events.append(.doOnNext) }, onSubscribe: { events.append(.doOnSubscribe) },
                    onSubscribed: { events.append(.doOnSubscribed) },
                    onDispose: { events.append(.doOnDispose) }
                )
                .subscribe { _ in }
                .dispose()
            #expect(
                events == [
                    .doOnSubscribe, .sourceSubscribe, .doOnNext, .doOnSubscribed, .sourceDispose,
                    .doOnDispose,
                ])
        }

        private func someData(_ scheduler: TestScheduler) -> TestableObservable<Int> {
            scheduler.createHotObservable([
                .next(150, 1), .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .completed(250),
            ])
        }

        @Test("An error thrown by onNext replaces the element and ends the sequence")
        func onNextThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = someData(scheduler)
            var invoked = 0
            let res = scheduler.start {
                xs.do(onNext: { _ in
                    if invoked > 2 { throw testError }
                    invoked += 1
                })
            }
            #expect(res.events == [.next(210, 2), .next(220, 3), .next(230, 4), .error(240, testError)])
            #expect(xs.subscriptions == [Subscription(200, 240)])
            #expect(invoked == 3)
        }

        @Test("An error thrown by onError replaces the source's error")
        func onErrorThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .error(250, testError)])
            let res = scheduler.start { xs.do(onError: { _ in throw TestError(2) }) }
            #expect(res.events == [.next(210, 2), .error(250, TestError(2))])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("An error thrown by onCompleted replaces the completion")
        func onCompletedThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = someData(scheduler)
            let res = scheduler.start { xs.do(onCompleted: { throw testError }) }
            #expect(
                res.events == [
                    .next(210, 2), .next(220, 3), .next(230, 4), .next(240, 5), .error(250, testError),
                ])
            #expect(xs.subscriptions == [Subscription(200, 250)])
        }

        @Test("An error thrown by afterNext comes after the element and ends the sequence")
        func afterNextThrows() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = someData(scheduler)
            let res = scheduler.start {
                xs.do(afterNext: { element in
                    if element == 3 { throw testError }
                })
            }
            #expect(res.events == [.next(210, 2), .next(220, 3), .error(220, testError)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("After handlers run after the observer saw the event")
        func afterHandlersOrder() {
            var log: [String] = []
            _ = Observable.of(1).do(
                onNext: { log.append("onNext \($0)") }, afterNext: { log.append("afterNext \($0)") },
                onCompleted: { log.append("onCompleted") }, afterCompleted: { log.append("afterCompleted") }
            )
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            #expect(
                log == ["onNext 1", "next 1", "afterNext 1", "onCompleted", "completed", "afterCompleted"])
        }
    }
}
