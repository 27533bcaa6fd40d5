/// The trait of ``Maybe``: at most one element, then completion, or an error.
public enum MaybeTrait {}

/// A sequence that emits one element, completes empty, or fails (RxSwift's `Maybe`).
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// What a ``Maybe`` delivers.
public enum MaybeEvent<Element> {
    /// The one element (the maybe completes with it).
    case success(Element)
    /// The error.
    case error(Swift.Error)
    /// Completion without an element.
    case completed
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The callback a ``Maybe`` created with `create(subscribe:)` reports its result to.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// Creates a maybe from a subscribe function that reports one result (later reports are
    /// ignored) and returns the disposable that tears down its work.
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> Maybe<Element>
    {
        Maybe(
            raw: Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .success(let element):
                        observer.on(.next(element))
                        observer.on(.completed)
                    case .error(let error):
                        observer.on(.error(error))
                    case .completed:
                        observer.on(.completed)
                    }
                }
            })
    }

    /// A maybe that emits `element`.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A maybe that emits `element` on `scheduler`.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A maybe that completes without an element.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }

    /// Subscribes a closure that receives the result.
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        subscribeResult(primitiveSequence.source) { event in
            switch event {
            case .next(let element): observer(.success(element))
            case .error(let error): observer(.error(error))
            case .completed: observer(.completed)
            }
        }
    }

    /// Subscribes closures for the element, the error and the completion without an element;
    /// `onDisposed` is called once when the subscription ends.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribeResult(primitiveSequence.source, onDisposed: onDisposed, reportsErrors: onError == nil) {
            event in
            switch event {
            case .next(let element): onSuccess?(element)
            case .error(let error): onError?(error)
            case .completed: onCompleted?()
            }
        }
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly); once
    /// it is gone, none of them is called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: weaklyCalling(object, onSuccess), onError: weaklyCalling(object, onError),
            onCompleted: weaklyCalling(object, onCompleted), onDisposed: weaklyCalling(object, onDisposed))
    }

    /// Transforms the element.
    public func map<Result>(_ transform: @escaping (Element) throws -> Result) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.map(transform))
    }

    /// Transforms the element, or completes empty when `transform` returns `nil`.
    public func compactMap<Result>(_ transform: @escaping (Element) throws -> Result?) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.compactMap(transform))
    }

    /// Emits the element if `predicate` accepts it, otherwise completes empty.
    public func filter(_ predicate: @escaping (Element) throws -> Bool) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.filter(predicate))
    }

    /// Continues with the maybe that `selector` returns for the element.
    public func flatMap<Result>(_ selector: @escaping (Element) throws -> Maybe<Result>) -> Maybe<Result> {
        Maybe(raw: primitiveSequence.source.flatMap { try selector($0).asObservable() })
    }

    /// On error, emits `element` instead.
    public func catchAndReturn(_ element: Element) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.catchAndReturn(element))
    }

    /// Emits `defaultValue` when the maybe completes empty.
    public func ifEmpty(default defaultValue: Element) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(default: defaultValue))
    }

    /// Continues with `other` when the maybe completes empty.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Continues with `other` when the maybe completes empty.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        Single(raw: primitiveSequence.source.ifEmpty(switchTo: other.source))
    }

    /// Calls the closures for side effects (see `ObservableType.do`).
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Maybe<Element> {
        Maybe(
            raw: primitiveSequence.source.do(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose))
    }

    /// The maybe as a ``Completable`` that ignores the element.
    public func asCompletable() -> Completable {
        Completable(raw: primitiveSequence.source.ignoreElements())
    }

    /// Emits `resultSelector` of the elements of the maybes once all have emitted one; completes
    /// empty when one completes empty.
    public static func zip<each SourceElement>(
        _ source: repeat Maybe<each SourceElement>,
        resultSelector: @escaping (repeat each SourceElement) throws -> Element
    ) -> Maybe<Element> {
        Maybe(raw: Observable.zip(repeat (each source).source, resultSelector: resultSelector))
    }

    /// Emits `resultSelector` of the array of the elements of `collection` once all have emitted
    /// one; completes empty when one completes empty; with no maybe, emits `resultSelector([])`.
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

    /// Emits the array of the elements of `collection` once all have emitted one; with no maybe,
    /// emits an empty array.
    public static func zip<Sources: Collection>(_ collection: Sources) -> PrimitiveSequence<Trait, [Element]>
    where Sources.Element == PrimitiveSequence<Trait, Element> {
        if collection.isEmpty {
            return PrimitiveSequence<Trait, [Element]>(raw: .just([]))
        }
        return PrimitiveSequence<Trait, [Element]>(raw: Observable.zip(collection.map { $0.source }))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait, Element == Any {
    /// Emits the tuple of the elements of the maybes once all have emitted one; completes empty
    /// when one completes empty.
    public static func zip<each SourceElement>(_ source: repeat Maybe<each SourceElement>)
        -> Maybe<(repeat each SourceElement)>
    {
        Maybe(raw: Observable.zip(repeat (each source).source))
    }
}
