/// The trait of ``Completable``: completion or an error, no element.
public enum CompletableTrait {}

/// A sequence that only completes or fails (RxSwift's `Completable`).
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// What a ``Completable`` delivers.
public enum CompletableEvent {
    /// The error.
    case error(Swift.Error)
    /// Completion.
    case completed
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The callback a ``Completable`` created with `create(subscribe:)` reports its result to.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// Creates a completable from a subscribe function that reports one result (later reports
    /// are ignored) and returns the disposable that tears down its work.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable)
        -> Completable
    {
        Completable(
            raw: Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .error(let error):
                        observer.on(.error(error))
                    case .completed:
                        observer.on(.completed)
                    }
                }
            })
    }

    /// A completable that completes at once.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// Subscribes a closure that receives the result.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        subscribe(onCompleted: { observer(.completed) }, onError: { observer(.error($0)) })
    }

    /// Subscribes closures for the completion and the error; `onDisposed` is called once when the
    /// subscription ends.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        subscribeResult(primitiveSequence.source, onDisposed: onDisposed, reportsErrors: onError == nil) {
            event in
            switch event {
            case .next: break
            case .error(let error): onError?(error)
            case .completed: onCompleted?()
            }
        }
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly); once
    /// it is gone, none of them is called.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: weaklyCalling(object, onCompleted), onError: weaklyCalling(object, onError),
            onDisposed: weaklyCalling(object, onDisposed))
    }

    /// Calls the closures for side effects (see `ObservableType.do`).
    public func `do`(
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Completable {
        Completable(
            raw: primitiveSequence.source.do(
                onError: onError, afterError: afterError, onCompleted: onCompleted,
                afterCompleted: afterCompleted, onSubscribe: onSubscribe, onSubscribed: onSubscribed,
                onDispose: onDispose))
    }

    /// Runs the completables one after the other; fails on the first error. The sequence is
    /// read lazily, one completable at a time, so it may be endless.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.concat(sequence.lazy.map { $0.source }))
    }

    /// Runs the completables of `collection` one after the other; fails on the first error.
    public static func concat<Sources: Collection>(_ collection: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.source }))
    }

    /// Runs the completables one after the other; fails on the first error.
    public static func concat(_ sources: Completable...) -> Completable {
        concat(sources)
    }

    /// Runs the completables at the same time; completes when all have, fails on the first error.
    public static func zip<Sources: Collection>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.source }))
    }

    /// Runs the completables at the same time; completes when all have, fails on the first error.
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// Same as `zip(_:)`: runs the completables at the same time.
    public static func merge<Sources: Collection>(_ sources: Sources) -> Completable
    where Sources.Element == Completable {
        zip(sources)
    }

    /// Same as `zip(_:)`: runs the completables at the same time.
    public static func merge(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// This completable followed by `other`.
    public func concat(_ other: Completable) -> Completable {
        Completable.concat(primitiveSequence, other)
    }
}

extension ObservableType where Element == Swift.Never {
    /// This sequence, which has no element, as a ``Completable``.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
