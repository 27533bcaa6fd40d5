import RxCore
import Testing

extension RxCoreTests {
    @Suite("Infallible")
    struct InfallibleTests {
        @Test("AsInfallible(onErrorJustReturn:) replaces the error with an element and completion")
        func onErrorJustReturn() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createHotObservable(
                Recorded.events(.next(210, 1), .error(220, TestError(1), Int.self)))
            let observer = scheduler.start { xs.asInfallible(onErrorJustReturn: -1) }
            #expect(observer.events == [.next(210, 1), .next(220, -1), .completed(220)])
            #expect(xs.subscriptions == [Subscription(200, 220)])
        }

        @Test("AsInfallible(onErrorFallbackTo:) and onErrorRecover continue with another infallible")
        func fallbacks() {
            var values: [Int] = []
            let failing = Observable<Int>.error(TestError(1))
            _ = failing.asInfallible(onErrorFallbackTo: .of(1, 2)).subscribe(onNext: { values.append($0) })
            _ = failing.asInfallible(onErrorRecover: { _ in .just(3) }).subscribe(onNext: {
                values.append($0)
            })
            #expect(values == [1, 2, 3])
        }

        @Test("A created infallible reports elements and completion")
        func create() {
            var log: [String] = []
            _ = Infallible<Int>.create { observer in
                observer(.next(1))
                observer(.completed)
                observer(.next(2))
                return Disposables.create()
            }
            .subscribe(onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            #expect(log == ["next 1", "completed"])
        }

        @Test("Infallible operators keep the trait")
        func operators() {
            var values: [Int] = []
            _ = Infallible.of(1, 2, 2, 3).distinctUntilChanged().map { $0 * 10 }.filter { $0 > 10 }
                .flatMap { Infallible.just($0 + 1) }.startWith(0)
                .subscribe(onNext: { values.append($0) })
            _ = Infallible.zip(Infallible.just(1), Infallible.just(2)) { $0 + $1 }
                .subscribe(onNext: { values.append($0) })
            #expect(values == [0, 21, 31, 3])
        }

        @Test("An infallible's values iterate its elements and finish with it")
        func values() async {
            var received: [Int] = []
            for await value in Infallible.of(1, 2, 3).values {
                received.append(value)
            }
            #expect(received == [1, 2, 3])
        }

        @Test("Leaving the iteration of an infallible's values early disposes the subscription")
        func valuesEndedEarly() async {
            let disposed = Flag()
            let endless = Infallible.of(1, 2, 3).concat(Infallible.never()).do(onDispose: { disposed.raise() }
            )
            for await value in endless.values where value == 2 {
                break
            }
            #expect(await disposed.wait())
        }

        @Test("Subscribing with an object passes it while it is alive, and the completion with it")
        func subscribeWithObject() {
            final class Owner {}
            let scheduler = TestScheduler(initialClock: 0)
            let source = scheduler.createColdObservable([.next(10, 0), .next(20, 1), .completed(30)])
                .asInfallible(onErrorJustReturn: -1)
            let owner = Owner()
            var log: [String] = []
            _ = source.subscribe(
                with: owner,
                onNext: { object, value in log.append("\(object === owner) \(value)") },
                onCompleted: { object in log.append("completed \(object === owner)") },
                onDisposed: { object in log.append("disposed \(object === owner)") })
            scheduler.start()
            #expect(log == ["true 0", "true 1", "completed true", "disposed true"])
        }

        @Test("Subscribe is available on every InfallibleType, not only Infallible")
        func subscribeOnInfallibleType() {
            struct Wrapper: InfallibleType {
                let inner: Infallible<Int>
                func asObservable() -> Observable<Int> { inner.asObservable() }
            }
            var log: [String] = []
            let wrapper = Wrapper(inner: .of(1, 2))
            _ = wrapper.subscribe(
                onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            _ = wrapper.subscribe { (event: InfallibleEvent<Int>) in
                switch event {
                case .next(let element): log.append("event next \(element)")
                case .completed: log.append("event completed")
                }
            }
            #expect(
                log == ["next 1", "next 2", "completed", "event next 1", "event next 2", "event completed"])
        }

        @Test("InfallibleEvent converts to an Event")
        func infallibleEventIsEventConvertible() {
            #expect(InfallibleEvent.next(3).event == Event.next(3))
            #expect(InfallibleEvent<Int>.completed.event == Event.completed)
            let observer: Infallible<Int>.InfallibleObserver = { _ in }
            observer(.completed)
        }

        @Test("A control event as an infallible forwards its events")
        @MainActor
        func controlEventAsInfallible() {
            let subject = PublishSubject<Int>()
            var log: [String] = []
            let subscription = ControlEvent(events: subject).asInfallible().subscribe(
                onNext: { log.append("next \($0)") }, onCompleted: { log.append("completed") })
            subject.onNext(1)
            subject.onCompleted()
            #expect(log == ["next 1", "completed"])
            subscription.dispose()
        }
    }
}
