import Foundation
import RxCore
import Testing

// The RxSwift 6.10.2 names that its own tests use, called once each: compiled, never run, so that
// the build fails if one goes missing or changes shape (the audit found
// `ReplaySubject.createUnbounded()` and the deprecated RxSwift 5 operator names missing).
// Deprecated names are called from `deprecatedRxSwiftNames()`, which is itself deprecated so that
// the package builds without warnings.
func rxSwiftNames() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Observable.of(1, 2, 3)
    _ = Observable.from(optional: 1)
    _ = Observable.from(optional: 1, scheduler: scheduler)
    _ = Observable.of(1, 2, scheduler: scheduler)
    _ = Observable.from([1, 2], scheduler: scheduler)
    _ = Observable<Int>.range(start: 0, count: 3, scheduler: scheduler)
    _ = Observable.repeatElement(1, scheduler: scheduler)
    _ = Observable.generate(initialState: 0, condition: { $0 < 3 }, scheduler: scheduler, iterate: { $0 + 1 })
    _ = Observable.merge(xs, xs)
    _ = Observable.merge([xs, xs])
    _ = Observable.concat(xs, xs)
    _ = Observable.amb([xs, xs])
    _ = xs.amb(xs)
    _ = xs.catchAndReturn(1)
    _ = xs.take(while: { $0 < 2 }, behavior: .inclusive)
    _ = xs.distinctUntilChanged({ $0 })
    _ = xs.distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    _ = xs.scan(into: 0) { $0 += $1 }
    _ = xs.startWith(0, 1)
    _ = xs.ignoreElements()
    _ = xs.ignoreElements().asCompletable()
    _ = xs.sample(xs, defaultValue: 0)
    _ = xs.withUnretained(scheduler) { $1 }
    _ = xs.subscribe(
        with: scheduler, onNext: { _, _ in }, onError: { _, _ in }, onCompleted: { _ in },
        onDisposed: { _ in })
    _ = xs.bind(with: scheduler) { _, _ in }
    _ = xs.debug("x", trimOutput: true)
    _ = Observable.of(xs, xs).merge(maxConcurrent: 2)
    _ = Observable.of(xs, xs).concat()
    _ = Observable.combineLatest([xs, xs]) { $0.count }
    _ = Observable.zip([xs, xs]) { $0.count }
    _ = xs.flatMapFirst { Observable.just($0) }
    _ = xs.flatMap { Observable.just($0) }
    _ = xs.concatMap { Observable.just($0) }
    let disposable = CompositeDisposable(disposables: [])
    let key = disposable.insert(Disposables.create())
    if let key { disposable.remove(for: key) }
    _ = disposable.count
    let bag = DisposeBag()
    bag.insert(Disposables.create(), Disposables.create())
    bag.insert([Disposables.create()])
    _ = BooleanDisposable(isDisposed: true)
    let serial = SerialDisposable()
    serial.disposable = Disposables.create()
    let single = SingleAssignmentDisposable()
    single.setDisposable(Disposables.create())
    let refCount = RefCountDisposable(disposable: Disposables.create())
    _ = refCount.retain()
    _ = ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: Disposables.create())
    _ = Disposables.create(Disposables.create(), Disposables.create(), Disposables.create())
    _ = Disposables.create([Disposables.create()])
    _ = CurrentThreadScheduler.isScheduleRequired
    _ = MainScheduler.asyncInstance
    _ = ConcurrentMainScheduler.instance
    _ = SerialDispatchQueueScheduler(queue: DispatchQueue.global(), internalSerialQueueName: "q")
    _ = OperationQueueScheduler(operationQueue: OperationQueue(), queuePriority: .normal)
    _ = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
    _ = Single.just(1).subscribe(onSuccess: { _ in }, onFailure: { _ in }, onDisposed: {})
    _ = Maybe.just(1).subscribe(onSuccess: { _ in }, onError: { _ in }, onCompleted: {}, onDisposed: {})
    _ = Completable.empty().subscribe(onCompleted: {}, onError: { _ in }, onDisposed: {})
    _ = Single.just(1).compactMap { $0 }
    _ = Single.just(1).flatMapCompletable { _ in Completable.empty() }
    _ = Single.just(1).asCompletable()
    _ = Single.just(1).do(
        onSuccess: { _ in }, afterSuccess: { _ in }, onError: { _ in }, afterError: { _ in }, onSubscribe: {},
        onSubscribed: {}, onDispose: {})
    _ = Maybe<Int>.empty().asObservable()
    _ = Completable.zip(Completable.empty(), Completable.empty())
    _ = Completable.merge(Completable.empty(), Completable.empty())
    _ = Completable.empty().andThen(Completable.empty())
    _ = Single.zip(Single.just(1), Single.just(2), Single.just(3))
    _ = Infallible.just(1)
    _ = Infallible.of(1, 2)
    _ = Infallible.from([1, 2])
    _ = Infallible<Int>.never()
    _ = Infallible<Int>.empty()
    _ = Infallible.deferred { Infallible.just(1) }
    _ = Infallible.combineLatest(Infallible.just(1), Infallible.just(2)) { $0 + $1 }
    _ = Infallible.zip(Infallible.just(1), Infallible.just(2)) { $0 + $1 }
    _ = Infallible.just(1).subscribe(onNext: { _ in }, onCompleted: {}, onDisposed: {})
    _ = xs.asSignal(onErrorSignalWith: Signal.just(1))
    _ = xs.asDriver(onErrorRecover: { _ in Driver.just(1) })
    _ = Signal.just(1)
    _ = Driver.just(1).startWith(0).scan(0, accumulator: +).distinctUntilChanged().throttle(.seconds(1))
        .debounce(.seconds(1)).flatMapLatest { Driver.just($0) }.withLatestFrom(Driver.just(2))
    _ = Driver.combineLatest(Driver.just(1), Driver.just(2)) { $0 + $1 }
    _ = Driver.merge(Driver.just(1), Driver.just(2))
    _ = Driver.concat([Driver.just(1)])
    let relay = ReplayRelay<Int>.create(bufferSize: 1)
    relay.accept(1)
    let behavior = BehaviorRelay(value: 1)
    _ = behavior.value
    let subject = BehaviorSubject(value: 1)
    _ = try? subject.value()
    _ = subject.hasObservers
    let publish = PublishSubject<Int>()
    _ = publish.isDisposed
    _ = AsyncSubject<Int>()
    _ = scheduler.createObserver(Int.self)
    _ = xs.toBlocking(timeout: 1)
}

func moreRxSwiftNames() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Observable.of(1, 2, 3)
    _ = Disposables.create(with: {})
    _ = AnyObserver<Int>(eventHandler: { _ in })
    _ = AnyObserver<Int>(eventHandler: { _ in }).mapObserver { (x: String) in x.count }
    _ = Binder(scheduler) { (_: TestScheduler, _: Int) in }
    _ = Binder(scheduler, scheduler: CurrentThreadScheduler.instance) { (_: TestScheduler, _: Int) in }
    _ = Completable.create { observer in
        observer(.completed)
        observer(.error(TestError(1)))
        return Disposables.create()
    }
    _ = xs.groupBy(keySelector: { $0 % 2 }).map { $0.key }
    _ = xs.share(replay: 1)
    _ = xs.multicast(PublishSubject<Int>())
    _ = xs.window(timeSpan: .seconds(1), count: 2, scheduler: scheduler)
    _ = Observable<Int>.timer(.seconds(1), period: .seconds(1), scheduler: scheduler)
    _ = RxError.overflow
    _ = RxError.unknown
    _ = RxError.disposed(object: scheduler)
    let event = Event<Int>.next(1)
    _ = event.element
    _ = event.error
    _ = event.isCompleted
    _ = event.isStopEvent
    _ = event.event
    _ = Recorded.completed(210, Int.self)
    _ = xs.materialize().dematerialize()
    _ = xs.asObservable().subscribe(AnyObserver { _ in })
    _ = ControlEvent(events: xs)
    _ = ControlProperty(values: xs, valueSink: AnyObserver { _ in })
    _ = xs.asInfallible(onErrorFallbackTo: .just(1))
    _ = Observable<Int>.error(TestError(1)).asSingle()
    _ = Observable.just(1).asMaybe()
    _ = Observable<Never>.empty().asCompletable()
    _ = Single.just(1).asMaybe().asObservable()
    _ = Single<Int>.error(TestError(1)).catchAndReturn(1)
    _ = Maybe.just(1).ifEmpty(default: 2)
    _ = Single.just(1).subscribe { (event: SingleEvent<Int>) in _ = event }
    _ = Maybe.just(1).subscribe { (event: MaybeEvent<Int>) in _ = event }
    _ = Completable.empty().subscribe { (event: CompletableEvent) in _ = event }
    _ = PublishRelay<Int>().asObservable()
    _ = BehaviorRelay(value: 1).asObservable()
    _ = xs.skip(.seconds(1), scheduler: scheduler)
    _ = xs.compactMap { $0 }
    _ = xs.withLatestFrom(xs) { $0 + $1 }
    _ = xs.enumerated().map { $0.index + $0.element }
    _ = Observable.catch(sequence: [xs])
    _ = GroupedObservable<Int, Int>.self
    _ = ReplaySubject<Int>.createUnbounded()
    _ = ReplayRelay<Int>.createUnbound()
}

@available(*, deprecated)
func deprecatedRxSwiftNames() {
    let scheduler = TestScheduler(initialClock: 0)
    let xs = Observable.of(1, 2, 3)
    _ = xs.takeWhile { $0 < 2 }
    _ = xs.takeUntil(xs)
    _ = xs.takeUntil(.inclusive) { $0 == 2 }
    _ = xs.skipWhile { $0 < 2 }
    _ = xs.skipUntil(xs)
    _ = xs.take(.seconds(1), scheduler: scheduler)
    _ = xs.elementAt(1)
    _ = xs.catchError { _ in xs }
    _ = xs.catchErrorJustReturn(1)
    _ = Observable.catchError([xs])
    _ = xs.retryWhen { (errors: Observable<Error>) in errors }
    _ = xs.observeOn(scheduler)
    _ = xs.subscribeOn(scheduler)
}

func rxSwiftSchedulerAndDisposableNames() {
    let scheduler = TestScheduler(initialClock: 0)
    _ = scheduler.schedulePeriodic(0, startAfter: .seconds(1), period: .seconds(1)) { $0 + 1 }
    _ = CurrentThreadScheduler.instance.scheduleRecursive(0) { _, _ in }
    MainScheduler.ensureRunningOnMainThread()
    let bag = DisposeBag(disposing: Disposables.create(), Disposables.create())
    bag.insert {
        Disposables.create()
        Disposables.create()
    }
    _ = DisposeBag(disposing: [Disposables.create()])
    _ = Single<Int>.create(detached: true, priority: .medium) { 1 }
    _ = Single<Int>.create { 1 }
    _ = TestScheduler.Defaults.created
    _ = RxError.timeout.debugDescription
    _ = Observable<Int>.empty().asObservable()
    let property = ControlProperty<String?>(values: Observable.just("a"), valueSink: AnyObserver { _ in })
    _ = property.orEmpty
    _ = property.changed
    _ = ControlEvent(events: Observable.just(1)).asSignal()
    _ = Observable.just(1).asSignal(onErrorJustReturn: 0).asObservable()
    _ = Driver.just(1).asObservable()
}

@MainActor
func rxCocoaSharedSequenceNames() {
    let driver = Driver.just(1)
    _ = driver.skip(1)
    _ = driver.debug("d")
    _ = driver.compactMap { $0 }
    _ = driver.filter { $0 > 0 }
    _ = driver.distinctUntilChanged { $0 == $1 }
    _ = driver.distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    _ = driver.flatMapFirst { Driver.just($0) }
    _ = driver.map { Driver.just($0) }.merge()
    _ = driver.map { Driver.just($0) }.switchLatest()
    _ = driver.scan(0) { $0 + $1 }
    _ = driver.do(onNext: { _ in }, afterNext: { _ in }, onCompleted: {}, afterCompleted: {})
    _ = driver.withLatestFrom(Driver.just(2)) { $0 + $1 }
    _ = driver.drive(with: NSObject(), onNext: { _, _ in }, onCompleted: { _ in }, onDisposed: { _ in })
    _ = Signal.just(1).emit(with: NSObject(), onNext: { _, _ in })
    _ = Signal.just(1).emit(to: PublishRelay<Int>())
    _ = driver.drive(BehaviorRelay(value: 0))
    _ = Driver.zip([driver, driver])
    _ = Driver.combineLatest([driver, driver]) { $0.count }
    _ = Driver<Int>.interval(.seconds(1))
    _ = Driver<Int>.timer(.seconds(1), period: .seconds(1))
    _ = driver.asDriver()
    _ = Signal.just(1).asSignal()
    _ = Signal.just(1).delay(.seconds(1))
}

func rxSwiftTypeNames() {
    let xs = Observable.of(1, 2, 3)
    MainScheduler.ensureExecutingOnScheduler(errorMessage: "main")
    _ = HistoricalSchedulerTimeConverter.self
    _ = (BooleanDisposable() as Cancelable).isDisposed
    _ = InfallibleEvent<Int>.next(1)
    _ = SingleTrait.self
    _ = MaybeTrait.self
    _ = CompletableTrait.self
    _ = Single.just(1).primitiveSequence
    _ = xs.distinctUntilChanged(at: \.self)
    _ = Observable.from(AnySequence([1, 2]))
    _ = Observable.zip(AnyCollection([xs, xs]))
    _ = Observable.merge(AnyCollection([xs, xs]))
    _ = Observable.concat(AnyCollection([xs, xs]))
    _ = xs.multicast({ PublishSubject<Int>() }, selector: { $0 })
    _ = xs.publish().refCount()
    _ = Observable.just(Data()).decode(type: [Int].self, decoder: JSONDecoder())
    _ =
        ScheduledDisposable(scheduler: CurrentThreadScheduler.instance, disposable: Disposables.create())
        .scheduler
    _ = Observable.zip(xs, xs).map { $0 + $1 }
    _ = Observable.combineLatest(xs, xs, xs, xs)
    _ = xs.asObservable().share(replay: 1, scope: .forever)
    _ = xs.single { $0 == 1 }
    _ = xs.first()
    _ = xs.ifEmpty(switchTo: .just(1))
    _ = NSObject().rx
    _ = Observable<Int>.create { observer in
        observer.onNext(1)
        observer.onError(TestError(1))
        observer.onCompleted()
        return Disposables.create()
    }
}

func infallibleNames() {
    let scheduler = TestScheduler(initialClock: 0)
    let inf = Infallible.of(1, 2, 3)
    _ = inf.map { $0 }.filter { $0 > 0 }.compactMap { $0 }
    _ = inf.distinctUntilChanged()
    _ = inf.distinctUntilChanged { $0 }
    _ = inf.debounce(.seconds(1), scheduler: scheduler)
    _ = inf.throttle(.seconds(1), scheduler: scheduler)
    _ = inf.flatMap { Infallible.just($0) }
    _ = inf.flatMapLatest { Infallible.just($0) }
    _ = inf.flatMapFirst { Infallible.just($0) }
    _ = inf.concatMap { Infallible.just($0) }
    _ = inf.startWith(0)
    _ = inf.take(1)
    _ = inf.take(until: { $0 == 2 })
    _ = inf.take(while: { $0 < 2 })
    _ = inf.take(until: inf)
    _ = inf.skip(1)
    _ = inf.scan(0) { $0 + $1 }
    _ = inf.scan(into: 0) { $0 += $1 }
    _ = inf.do(onNext: { _ in })
    _ = inf.share(replay: 1)
    _ = inf.withLatestFrom(inf)
    _ = inf.withUnretained(scheduler)
    _ = Infallible.merge(inf, inf)
    _ = Infallible.merge([inf, inf])
    _ = Infallible.concat(inf, inf)
    _ = Infallible.of(1, 2, scheduler: scheduler)
    _ = Infallible.from([1, 2], scheduler: scheduler)
    _ = Infallible.just(1, scheduler: scheduler)
    _ = inf.take(for: .seconds(1), scheduler: scheduler)
    _ = inf.skip(while: { $0 < 2 })
    _ = inf.skip(until: Observable.just(1))
    _ = inf.distinctUntilChanged(at: \.self)
    _ = inf.withUnretained(scheduler) { $1 }
    _ = Infallible.concat([inf, inf])
    _ = inf.concat(inf)
    _ = inf.asDriver()
    _ = inf.asObservable()
    _ = inf.debug()
    _ = Infallible.combineLatest([inf, inf]) { $0.count }
    _ = inf.subscribe(with: scheduler, onNext: { _, _ in })
    _ = inf.bind(to: PublishRelay<Int>())
}

func primitiveSequenceNames() {
    let scheduler = TestScheduler(initialClock: 0)
    _ = Maybe.just(1).do(
        onNext: { _ in }, afterNext: { _ in }, onError: { _ in }, afterError: { _ in }, onCompleted: {},
        afterCompleted: {}, onSubscribe: {}, onSubscribed: {}, onDispose: {})
    _ = Completable.empty().do(
        onError: { _ in }, afterError: { _ in }, onCompleted: {}, afterCompleted: {}, onSubscribe: {},
        onSubscribed: {}, onDispose: {})
    _ = Completable.empty().concat(Completable.empty())
    _ = Completable.concat([Completable.empty()])
    _ = Completable.empty().subscribe(
        with: scheduler, onCompleted: { _ in }, onError: { _, _ in }, onDisposed: { _ in })
    _ = Single.just(1).subscribe(
        with: scheduler, onSuccess: { _, _ in }, onFailure: { _, _ in }, onDisposed: { _ in })
    _ = Maybe.just(1).subscribe(
        with: scheduler, onSuccess: { _, _ in }, onError: { _, _ in }, onCompleted: { _ in },
        onDisposed: { _ in })
    _ = Single.using({ BooleanDisposable() }, primitiveSequenceFactory: { _ in Single.just(1) })
    _ = Single.just(1, scheduler: scheduler)
    _ = Maybe.just(1).catch { _ in Maybe.empty() }
    _ = Maybe.just(1).retry(2)
    _ = Maybe<Int>.empty().ifEmpty(switchTo: Single.just(1))
    _ = Single.zip([Single.just(1)]) { $0.count }
    _ = Maybe.zip(Maybe.just(1), Maybe.just(2)) { $0 + $1 }
    _ = Completable.empty().andThen(Observable.just(1))
    _ = Completable.empty().catch { _ in Completable.empty() }
    _ = Completable.empty().timeout(.seconds(1), scheduler: scheduler)
    _ = Single.just(1).flatMap { _ in Single.just(2) }.map { $0 }.filter { $0 > 0 }.asObservable()
}

func arityNames() {
    let s = Single.just(1)
    let x = Observable.just(1)
    let i = Infallible.just(1)
    let d = Driver.just(1)
    _ = Single.zip(s, s, s, s, s, s, s, s)
    _ = Maybe.zip(s.asMaybe(), s.asMaybe(), s.asMaybe())
    _ = Observable.combineLatest(x, x, x, x, x, x, x, x)
    _ = Observable.zip(x, x, x, x, x, x, x, x)
    _ = Infallible.combineLatest(i, i, i, i, i, i, i, i)
    _ = Infallible.zip(i, i, i, i, i, i, i, i)
    _ = Driver.combineLatest(d, d, d, d, d, d, d, d)
    _ = Driver.zip(d, d, d, d, d, d, d, d)
}
