import RxCore
import Testing

// Scenarios of RxSwift 6.10.2's Completable+AndThen.swift and Single/Maybe trait tests, checked
// against our traits in virtual time.
extension RxCoreTests {
    @Suite("Single, Maybe and Completable, RxSwift parity")
    struct TraitsParityTests {
        private let testError = TestError(1)

        @Test("An empty completable and then a completable completes when the second does")
        func emptyAndThenCompletable() {
            let scheduler = TestScheduler(initialClock: 0)
            let x2: TestableObservable<Never> = scheduler.createHotObservable([.completed(290)])
            let res = scheduler.start { Completable.empty().andThen(x2.asCompletable()) }
            #expect(res.events == [.completed(290)])
            #expect(x2.subscriptions == [Subscription(200, 290)])
        }

        @Test("A completable and then a completable subscribes to the second at the first's completion")
        func completedAndThenCompletable() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
            let x2: TestableObservable<Never> = scheduler.createHotObservable([.completed(290)])
            let res = scheduler.start { x1.asCompletable().andThen(x2.asCompletable()) }
            #expect(res.events == [.completed(290)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(210, 290)])
        }

        @Test("A completable and then a completable that fails forwards the second's error")
        func completedAndThenFailingCompletable() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
            let x2: TestableObservable<Never> = scheduler.createHotObservable([.error(290, testError)])
            let res = scheduler.start { x1.asCompletable().andThen(x2.asCompletable()) }
            #expect(res.events == [.error(290, testError)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(210, 290)])
        }

        @Test("An empty completable and then a single emits the single's element when the source completes")
        func emptyAndThenSingle() {
            let scheduler = TestScheduler(initialClock: 0)
            let x2 = scheduler.createHotObservable([.next(285, 1), .completed(290)])
            let res = scheduler.start { Completable.empty().andThen(x2.asSingle()) }
            #expect(res.events == [.next(290, 1), .completed(290)])
            #expect(x2.subscriptions == [Subscription(200, 290)])
        }

        @Test("A failing completable and then a single never subscribes to the single")
        func failedAndThenSingle() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1: TestableObservable<Never> = scheduler.createHotObservable([.error(210, testError)])
            let x2 = scheduler.createHotObservable([.next(290, 1), .completed(290)])
            let res = scheduler.start { x1.asCompletable().andThen(x2.asSingle()) }
            #expect(res.events == [.error(210, testError)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [])
        }

        @Test("An empty completable and then a maybe emits the maybe's element when the source completes")
        func emptyAndThenMaybe() {
            let scheduler = TestScheduler(initialClock: 0)
            let x2 = scheduler.createHotObservable([.next(285, 1), .completed(290)])
            let res = scheduler.start { Completable.empty().andThen(x2.asMaybe()) }
            #expect(res.events == [.next(290, 1), .completed(290)])
            #expect(x2.subscriptions == [Subscription(200, 290)])
        }

        @Test("A completable and then an empty maybe completes with the maybe")
        func completedAndThenEmptyMaybe() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
            let x2: TestableObservable<Int> = scheduler.createHotObservable([.completed(290)])
            let res = scheduler.start { x1.asCompletable().andThen(x2.asMaybe()) }
            #expect(res.events == [.completed(290)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(210, 290)])
        }

        @Test("An empty completable and then an observable passes its elements as they come")
        func emptyAndThenObservable() {
            let scheduler = TestScheduler(initialClock: 0)
            let x2 = scheduler.createHotObservable([.next(285, 1), .completed(290)])
            let res = scheduler.start { Completable.empty().andThen(x2.asObservable()) }
            #expect(res.events == [.next(285, 1), .completed(290)])
            #expect(x2.subscriptions == [Subscription(200, 290)])
        }

        @Test("A completable and then an observable that fails forwards the error")
        func completedAndThenFailingObservable() {
            let scheduler = TestScheduler(initialClock: 0)
            let x1: TestableObservable<Never> = scheduler.createHotObservable([.completed(210)])
            let x2: TestableObservable<Int> = scheduler.createHotObservable([.error(290, testError)])
            let res = scheduler.start { x1.asCompletable().andThen(x2.asObservable()) }
            #expect(res.events == [.error(290, testError)])
            #expect(x1.subscriptions == [Subscription(200, 210)])
            #expect(x2.subscriptions == [Subscription(210, 290)])
        }

        @Test(
            "AndThen does not keep the first completable once it has completed or failed",
            arguments: [false, true])
        func andThenReleasesFirst(fails: Bool) {
            let scheduler = TestScheduler(initialClock: 0)
            let x: TestableObservable<Never> = scheduler.createHotObservable([
                fails ? .error(210, testError) : .completed(210)
            ])
            final class Token {}
            var object: Token? = Token()
            weak let weakObject = object
            var completable = x.asCompletable().do(onCompleted: { [object] in _ = object })
            let disposable = completable.andThen(Completable.never()).subscribe()
            scheduler.advanceTo(300)
            object = nil
            completable = .never()
            #expect(weakObject == nil)
            disposable.dispose()
            _ = completable
        }

        @Test("A created single takes the first result only and disposes its resource at once")
        func singleCreateSuccess() {
            let scheduler = TestScheduler(initialClock: 0)
            var observer: ((SingleEvent<Int>) -> Void)?
            var disposedTime: Int?
            scheduler.scheduleAt(201) { observer?(.success(1)) }
            scheduler.scheduleAt(202) { observer?(.success(1)) }
            scheduler.scheduleAt(203) { observer?(.failure(testError)) }
            let res = scheduler.start {
                Single<Int>.create { singleObserver in
                    observer = singleObserver
                    return Disposables.create { disposedTime = scheduler.clock }
                }.asObservable()
            }
            #expect(res.events == [.next(201, 1), .completed(201)])
            #expect(disposedTime == 201)
            observer = nil
        }

        @Test("A created single that fails first ignores later results and disposes at the failure")
        func singleCreateError() {
            let scheduler = TestScheduler(initialClock: 0)
            var observer: ((SingleEvent<Int>) -> Void)?
            var disposedTime: Int?
            scheduler.scheduleAt(201) { observer?(.failure(testError)) }
            scheduler.scheduleAt(202) { observer?(.success(1)) }
            scheduler.scheduleAt(203) { observer?(.failure(testError)) }
            let res = scheduler.start {
                Single<Int>.create { singleObserver in
                    observer = singleObserver
                    return Disposables.create { disposedTime = scheduler.clock }
                }.asObservable()
            }
            #expect(res.events == [.error(201, testError)])
            #expect(disposedTime == 201)
            observer = nil
        }

        @Test("A created single disposed early delivers nothing afterwards")
        func singleCreateDisposing() {
            let scheduler = TestScheduler(initialClock: 0)
            var observer: ((SingleEvent<Int>) -> Void)?
            var disposedTime: Int?
            var subscription: Disposable?
            let res = scheduler.createObserver(Int.self)
            scheduler.scheduleAt(201) {
                subscription = Single<Int>.create { singleObserver in
                    observer = singleObserver
                    return Disposables.create { disposedTime = scheduler.clock }
                }.asObservable().subscribe(res)
            }
            scheduler.scheduleAt(202) { subscription?.dispose() }
            scheduler.scheduleAt(203) { observer?(.success(1)) }
            scheduler.scheduleAt(204) { observer?(.failure(testError)) }
            scheduler.start()
            #expect(res.events == [])
            #expect(disposedTime == 202)
            observer = nil
            subscription = nil
        }

        @Test("A created maybe takes the first result only: completion ends it")
        func maybeCreateCompleted() {
            let scheduler = TestScheduler(initialClock: 0)
            var observer: ((MaybeEvent<Int>) -> Void)?
            var disposedTime: Int?
            scheduler.scheduleAt(201) { observer?(.completed) }
            scheduler.scheduleAt(202) { observer?(.success(1)) }
            scheduler.scheduleAt(203) { observer?(.error(testError)) }
            let res = scheduler.start {
                Maybe<Int>.create { maybeObserver in
                    observer = maybeObserver
                    return Disposables.create { disposedTime = scheduler.clock }
                }.asObservable()
            }
            #expect(res.events == [.completed(201)])
            #expect(disposedTime == 201)
            observer = nil
        }

        @Test("A single observed on a scheduler delivers its element and completion a tick apart")
        func singleObserveOn() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1).observe(on: scheduler).asObservable() }
            #expect(res.events == [.next(201, 1), .completed(202)])
        }

        @Test("A single subscribed on a scheduler delivers its element and completion together")
        func singleSubscribeOn() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single.just(1).subscribe(on: scheduler).asObservable() }
            #expect(res.events == [.next(201, 1), .completed(201)])
        }

        @Test("Single.timer emits zero and completes at the due time")
        func singleTimer() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single<Int>.timer(.seconds(2), scheduler: scheduler).asObservable() }
            #expect(res.events == [.next(202, 0), .completed(202)])
        }

        @Test("A single's timeout with another single switches to it")
        func singleTimeoutOther() {
            let scheduler = TestScheduler(initialClock: 0)
            let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)]).asSingle()
            let xs2 = scheduler.createColdObservable([.next(20, 2), .completed(20)]).asSingle()
            let res = scheduler.start {
                xs.timeout(.seconds(5), other: xs2, scheduler: scheduler).asObservable()
            }
            #expect(res.events == [.next(225, 2), .completed(225)])
        }

        @Test("Single.zip of an empty collection succeeds with an empty array, or the selector's result")
        func singleZipEmptyCollection() throws {
            let empty: [Single<Int>] = []
            #expect(try Single.zip(empty).toBlocking().first() == [])
            #expect(try Single.zip(empty) { $0.reduce(0, +) }.toBlocking().first() == 0)
            let three = [Single.just(1), Single.just(1), Single.just(1)]
            #expect(try Single.zip(three) { $0.reduce(0, +) }.toBlocking().first() == 3)
        }

        @Test("Maybe.zip of an empty collection succeeds with an empty array")
        func maybeZipEmptyCollection() throws {
            let empty: [Maybe<Int>] = []
            #expect(try Maybe.zip(empty).toBlocking().toArray() == [[]])
        }

        @Test("A single's filter that rejects the element is an empty maybe")
        func singleFilter() {
            let scheduler = TestScheduler(initialClock: 0)
            let res = scheduler.start { Single<Int>.just(1).filter { _ in false }.asObservable() }
            #expect(res.events == [.completed(200)])
        }

        @Test("Single retry(when:) resubscribes on the errors the handler passes through")
        func singleRetryWhen() {
            let scheduler = TestScheduler(initialClock: 0)
            var isFirst = true
            let res = scheduler.start {
                Single<Int>.error(testError)
                    .catch { error in
                        defer { isFirst = false }
                        return isFirst ? Single.error(error) : Single.just(2)
                    }
                    .retry { (errors: Observable<Error>) in errors }
                    .asObservable()
            }
            #expect(res.events == [.next(200, 2), .completed(200)])
        }
    }
}
