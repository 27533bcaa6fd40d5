/// The trait of ``Single``: exactly one element, or an error.
public enum SingleTrait {}

/// A sequence that emits exactly one element or an error (RxSwift's `Single`).
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// What a ``Single`` delivers: its element or its error.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The callback a ``Single`` created with `create(subscribe:)` reports its result to.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// Creates a single from a subscribe function that reports one result (later reports are
    /// ignored) and returns the disposable that tears down its work.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<
        Element
    > {
        Single(
            raw: Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .success(let element):
                        observer.on(.next(element))
                        observer.on(.completed)
                    case .failure(let error):
                        observer.on(.error(error))
                    }
                }
            })
    }

    /// A single that emits `element`.
    ///
    /// Inlinable, as `map` and `subscribe(onSuccess:onFailure:onDisposed:)` are, so that the
    /// caller, which knows the element type, creates the objects of a single's life: made in
    /// generic code, each looked up the metadata of its class (a hash-table probe).
    @inlinable
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single that emits `element` on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// Subscribes a closure that receives the result.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        subscribeResult(primitiveSequence.source) { event in
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.failure(error))
            case .completed: rxFatalErrorInDebug("A Single completed without an element")
            }
        }
    }

    /// Subscribes closures for the element and the error; `onDisposed` is called once when the
    /// subscription ends.
    @inlinable
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onFailure == nil ? Hooks.subscriptionCallStack() : []
        guard let onDisposed else {
            // Nothing to run on disposal: the subscription is the whole disposable.
            return primitiveSequence.source.subscribe(
                SingleCallbackObserver(
                    onSuccess: onSuccess, onFailure: onFailure, disposed: Disposables.create(),
                    callStack: callStack))
        }
        let disposed = Disposables.create(with: onDisposed)
        let subscription = primitiveSequence.source.subscribe(
            SingleCallbackObserver(
                onSuccess: onSuccess, onFailure: onFailure, disposed: disposed, callStack: callStack))
        return Disposables.create(subscription, disposed)
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly).
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: weaklyCalling(object, onSuccess), onFailure: weaklyCalling(object, onFailure),
            onDisposed: weaklyCalling(object, onDisposed))
    }

    /// Transforms the element.
    @inlinable
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Single<Result> {
        Single(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, or completes empty when `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Emits the element if `predicate` accepts it, otherwise completes empty.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the single that `selector` returns for the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Single<Result>) -> Single<Result> {
        Single(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the maybe that `selector` returns for the element.
    public func flatMapMaybe<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result>
    {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// Continues with the completable that `selector` returns for the element.
    public func flatMapCompletable(_ selector: @escaping (Element) throws -> Completable) -> Completable {
        Completable(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// On error, emits `element` instead.
    public func catchAndReturn(_ element: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Calls the closures for side effects (see `ObservableType.do`).
    public func `do`(
        onSuccess: ((Element) throws -> Void)? = nil,
        afterSuccess: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Single<Element> {
        Single(
            raw: primitiveSequence.source.do(
                onNext: onSuccess, afterNext: afterSuccess, onError: onError, afterError: afterError,
                onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The single as a ``Maybe``.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source)
    }

    /// The single as a ``Completable`` that ignores the element.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.source.ignoreElements())
    }

    /// Emits `resultSelector` of the elements of the singles once all have succeeded.
    public static func zip<each SourceElement>(
        _ source: repeat Single<each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) throws -> Element
    ) -> Single<Element> {
        Single(raw: Observable.zip(repeat (each source).source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the array of the elements of `collection` once all have
    /// succeeded; with no single, emits `resultSelector([])` on subscription.
    public static func zip<Sources: Collection, Result>(
        _ collection: Sources, resultSelector: @escaping ([Element]) throws -> Result
    ) -> PrimitiveSequence<Trait, Result> where Sources.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, Result>(
                raw: Observable.deferred { .just(try resultSelector([])) })
        }
        return PrimitiveSequence<Trait, Result>(
            raw: Observable.zip(collection.map { $0.source }, resultSelector: resultSelector))
    }

    /// Emits the array of the elements of `collection` once all have succeeded; with no single,
    /// emits an empty array.
    public static func zip<Sources: Collection>(_ collection: Sources) -> Single<[Element]>
    where Sources.Element == Single<Element> {
        if collection.isEmpty {
            return Single<[Element]>(raw: .just([]))
        }
        return Single<[Element]>(raw: Observable.zip(collection.map { $0.source }))
    }
}

extension PrimitiveSequenceType where Trait == SingleTrait, Element == Any {
    /// Emits the tuple of the elements of the singles once all have succeeded.
    public static func zip<each SourceElement>(_ source: repeat Single<each SourceElement>)
        -> Single<(repeat each SourceElement)>
    {
        Single(raw: Observable.zip(repeat (each source).source))
    }
}
