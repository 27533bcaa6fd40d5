import RxCore
import Testing

// RxSwift 6.10.2's `...ReleasesResourcesOnComplete` / `...OnError` tests: subscribe without
// keeping the subscription, let the sequence end, and check (with the suite's resource check)
// that everything the operator made was released.
extension RxCoreTests {
    @Suite("Resources released after completion or error, RxSwift parity")
    struct ResourceReleaseParityTests {
        private let testError = TestError(1)

        @Test("Time-based operators release their resources when the source ends")
        func timeOperators() {
            let scheduler = TestScheduler(initialClock: 0)
            _ = Observable<Int>.just(1).throttle(.seconds(0), latest: false, scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).throttle(.seconds(0), latest: false, scheduler: scheduler)
                .subscribe()
            _ = Observable<Int>.just(1).throttle(.seconds(0), latest: true, scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).throttle(.seconds(0), latest: true, scheduler: scheduler)
                .subscribe()
            _ = Observable<Int>.just(1).debounce(.seconds(0), scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).debounce(.seconds(0), scheduler: scheduler).subscribe()
            _ = Observable<Int>.just(1).timeout(
                .seconds(100), other: Observable.empty(), scheduler: scheduler
            )
            .subscribe()
            _ = Observable<Int>.error(testError).timeout(
                .seconds(100), other: Observable.empty(), scheduler: scheduler
            )
            .subscribe()
            _ = Observable<Int>.just(1).delay(.seconds(100), scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).delay(.seconds(100), scheduler: scheduler).subscribe()
            _ = Observable<Int>.just(1).delaySubscription(.seconds(35), scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).delaySubscription(.seconds(35), scheduler: scheduler)
                .subscribe()
            _ = Observable<Int>.just(1).buffer(timeSpan: .seconds(0), count: 10, scheduler: scheduler)
                .subscribe()
            _ = Observable<Int>.error(testError).buffer(
                timeSpan: .seconds(0), count: 10, scheduler: scheduler
            )
            .subscribe()
            _ = Observable<Int>.just(1).window(timeSpan: .seconds(0), count: 10, scheduler: scheduler)
                .subscribe()
            _ = Observable<Int>.error(testError).window(
                timeSpan: .seconds(0), count: 10, scheduler: scheduler
            )
            .subscribe()
            _ = Observable<Int>.just(1).skip(.seconds(35), scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).skip(.seconds(35), scheduler: scheduler).subscribe()
            _ = Observable<Int>.just(1).take(for: .seconds(35), scheduler: scheduler).subscribe()
            _ = Observable<Int>.error(testError).take(for: .seconds(35), scheduler: scheduler).subscribe()
            _ = Observable<Int>.timer(.seconds(100), scheduler: scheduler).subscribe()
            _ = Observable<Int>.interval(.seconds(10), scheduler: scheduler).take(3).subscribe()
            _ = Observable<Int>.just(1).sample(Observable<Int>.interval(.seconds(1), scheduler: scheduler))
                .subscribe()
            _ = Observable<Int>.just(1).observe(on: scheduler).subscribe()
            _ = Observable<Int>.error(testError).observe(on: scheduler).subscribe()
            _ = Observable<Int>.just(1).subscribe(on: scheduler).subscribe()
            _ = Observable<Int>.error(testError).subscribe(on: scheduler).subscribe()
            _ = Observable<Int>.just(1).timeout(.seconds(10), scheduler: scheduler).subscribe()
            _ = Observable<Int>.never().timeout(.seconds(10), scheduler: scheduler).subscribe()
            scheduler.start()
        }

        @Test("Combining operators release their resources when their sources end")
        func combiningOperators() {
            _ = Observable.combineLatest(Observable.just(1), Observable.just(1)) { $0 + $1 }.subscribe()
            _ = Observable.combineLatest(Observable<Int>.error(testError), Observable.just(1)) { $0 + $1 }
                .subscribe()
            _ = Observable.combineLatest([Observable.just(1), Observable.just(1)]).subscribe()
            _ = Observable.zip(Observable.just(1), Observable.just(1)) { $0 + $1 }.subscribe()
            _ = Observable.zip(Observable<Int>.error(testError), Observable.just(1)) { $0 + $1 }.subscribe()
            _ = Observable.zip([Observable.just(1), Observable<Int>.error(testError)]).subscribe()
            _ = Observable.of(Observable<Int>.just(1)).switchLatest().subscribe()
            _ = Observable.of(Observable<Int>.error(testError)).switchLatest().subscribe()
            _ = Observable<Observable<Int>>.error(testError).switchLatest().subscribe()
            _ = Observable.of(1, 2).flatMap { Observable.just($0) }.subscribe()
            _ = Observable.of(1, 2).flatMap { _ in Observable<Int>.error(testError) }.subscribe()
            _ = Observable.of(1, 2).flatMapFirst { Observable.just($0) }.subscribe()
            _ = Observable.of(1, 2).concatMap { Observable.just($0) }.subscribe()
            _ = Observable.of(1, 2).concatMap { _ in Observable<Int>.error(testError) }.subscribe()
            _ = Observable.of(Observable.just(1), Observable.just(2)).merge(maxConcurrent: 1).subscribe()
            _ = Observable.concat([Observable.just(1), Observable<Int>.error(testError)]).subscribe()
            _ = Observable.amb([Observable.just(1), Observable<Int>.never()]).subscribe()
            _ = Observable.just(1).withLatestFrom(Observable.just(2)).subscribe()
            _ = Observable<Int>.error(testError).withLatestFrom(Observable.just(2)).subscribe()
            _ = Observable.just(1).take(until: Observable<Int>.never()).subscribe()
            _ = Observable.just(1).skip(until: Observable.just(1)).subscribe()
            _ = Observable.just(1).startWith(0).subscribe()
            _ = Observable<Int>.empty().ifEmpty(switchTo: Observable.just(1)).subscribe()
            _ = Observable<Int>.error(testError).catch { _ in Observable.just(1) }.subscribe()
            _ = Observable<Int>.error(testError).retry(3).subscribe()
            _ = Observable<Int>.error(testError).retry { errors in errors.take(2) }.subscribe()
            _ = Observable.of(1, 2, 3).groupBy { $0 % 2 }.flatMap { $0 }.subscribe()
            _ = Observable<Int>.error(testError).groupBy { $0 % 2 }.subscribe()
        }

        @Test("Element operators release their resources when the source ends")
        func elementOperators() {
            _ = Observable.of(1, 2).scan(0, accumulator: +).subscribe()
            _ = Observable.of(1, 2).reduce(0, accumulator: +).subscribe()
            _ = Observable.of(1, 2).toArray().subscribe()
            _ = Observable.of(1, 2).takeLast(1).subscribe()
            _ = Observable.of(1, 2).element(at: 5).subscribe()
            _ = Observable.of(1, 2).single().subscribe()
            _ = Observable.of(1, 1, 2).distinctUntilChanged().subscribe()
            _ = Observable.of(1, 2).materialize().dematerialize().subscribe()
            _ = Observable<Int>.error(testError).materialize().subscribe()
            _ = Observable.of(1, 2).enumerated().subscribe()
            _ = Observable.of(1, 2).take(while: { $0 < 2 }).subscribe()
            _ = Observable.of(1, 2).take(until: { $0 == 1 }, behavior: .inclusive).subscribe()
            _ = Observable.of(1, 2).skip(while: { $0 < 2 }).subscribe()
            _ = Observable.of(1, 2).compactMap { $0 }.subscribe()
            _ = Observable.of(1, 2).debug().subscribe()
            _ = Observable.of(1, 2).do(onNext: { _ in }).subscribe()
            _ = Observable.of(1, 2).share(replay: 1, scope: .whileConnected).subscribe()
            _ = Observable.of(1, 2).share(replay: 1, scope: .forever).subscribe()
            _ = Observable.of(1, 2).asSingle().subscribe()
            _ = Observable.of(1, 2).asMaybe().subscribe()
            _ = Observable.of(1, 2).first().subscribe()
            _ = Observable.repeatElement(1).take(3).subscribe()
            _ = Observable.generate(initialState: 0, condition: { $0 < 3 }, iterate: { $0 + 1 }).subscribe()
            _ = Observable.using({ BooleanDisposable() }, observableFactory: { _ in Observable.just(1) })
                .subscribe()
        }

        @Test("Trait operators release their resources when they end")
        func traitOperators() {
            _ = Completable.empty().andThen(Completable.empty()).subscribe()
            _ = Completable.error(testError).andThen(Completable.empty()).subscribe()
            _ = Completable.empty().andThen(Completable.error(testError)).subscribe()
            _ = Completable.empty().andThen(Single.just(1)).subscribe()
            _ = Completable.error(testError).andThen(Single.just(1)).subscribe()
            _ = Completable.empty().andThen(Single<Int>.error(testError)).subscribe()
            _ = Completable.empty().andThen(Maybe.just(1)).subscribe()
            _ = Completable.empty().andThen(Maybe<Int>.error(testError)).subscribe()
            _ = Completable.empty().andThen(Observable.just(1)).subscribe()
            _ = Completable.error(testError).andThen(Observable.just(1)).subscribe()
            _ = Single.zip(Single.just(1), Single.just(2)).subscribe()
            _ = Single.just(1).flatMap { Single.just($0) }.subscribe()
            _ = Single.just(1).flatMapMaybe { Maybe.just($0) }.subscribe()
            _ = Single.just(1).flatMapCompletable { _ in Completable.empty() }.subscribe()
            _ = Maybe<Int>.empty().ifEmpty(default: 1).subscribe()
        }
    }
}
