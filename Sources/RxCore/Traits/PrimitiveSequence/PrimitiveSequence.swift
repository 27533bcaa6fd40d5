/// A sequence with a restricted grammar, named by its phantom `Trait`: ``Single`` (one element
/// or an error), ``Maybe`` (one element, completion or an error) and ``Completable`` (completion
/// or an error).
///
/// One generic wrapper around an ``Observable``, as in RxSwift: what differs between the traits
/// lives in extensions constrained on `Trait`. A value is built only by this module's creation
/// functions and conversions, which guarantee the grammar of its trait.
public struct PrimitiveSequence<Trait, Element> {
    @usableFromInline
    let source: Observable<Element>

    /// Wraps `source`, whose events the caller guarantees to follow `Trait`'s grammar.
    @usableFromInline
    init(raw source: Observable<Element>) {
        self.source = source
    }
}

/// A type that is, or can be viewed as, a ``PrimitiveSequence``. Extensions constrained on
/// `Trait` hang the operators of each trait on it.
public protocol PrimitiveSequenceType {
    /// The phantom type naming the trait (``SingleTrait``, ``MaybeTrait``, ``CompletableTrait``).
    associatedtype Trait
    /// The type of the element.
    associatedtype Element

    /// The sequence as a ``PrimitiveSequence``.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Returns `self`.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The events of this sequence as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }
}

// Creation functions and operators that keep the trait, whatever it is.
extension PrimitiveSequence {
    /// A sequence that fails with `error`, which every trait's grammar allows.
    public static func error(_ error: Swift.Error) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.error(error))
    }

    /// A sequence that never emits nor terminates.
    public static func never() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.never())
    }

    /// A sequence that calls `factory` on each subscription and subscribes to what it returns.
    public static func deferred(_ factory: @escaping () throws -> PrimitiveSequence<Trait, Element>)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: Observable.deferred { try factory().asObservable() })
    }

    /// On error, continues with the sequence `handler` returns for it.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>)
        -> PrimitiveSequence<Trait, Element>
    {
        PrimitiveSequence(raw: source.catch { try handler($0).asObservable() })
    }

    /// Resubscribes after an error, up to `maxAttemptCount` subscriptions in all.
    public func retry(_ maxAttemptCount: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(maxAttemptCount))
    }

    /// Resubscribes after an error when the sequence `notificationHandler` makes from the errors
    /// emits; see `ObservableType.retry(when:)`.
    public func retry<TriggerObservable: ObservableType, Error: Swift.Error>(
        when notificationHandler: @escaping (Observable<Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Delivers the events on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.observe(on: scheduler))
    }

    /// Subscribes to (and disposes) the sequence on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.subscribe(on: scheduler))
    }
}

/// The subscription behind the `subscribe` methods of the traits: delivers the first terminal
/// result of `source` (an element counts as the result of a ``Single`` or ``Maybe``) to
/// `deliver`, drops what follows, and calls `onDisposed` once when the subscription ends. With
/// `reportsErrors`, an error goes to ``Hooks/defaultErrorHandler`` instead of `deliver`, as for
/// a `subscribe` without an error handler.
func subscribeResult<Element>(
    _ source: Observable<Element>, onDisposed: (() -> Void)? = nil, reportsErrors: Bool = false,
    _ deliver: @escaping (Event<Element>) -> Void
) -> Disposable {
    let callStack = reportsErrors ? Hooks.subscriptionCallStack() : []
    guard let onDisposed else {
        // Nothing to run on disposal: the subscription is the whole disposable.
        return source.subscribe(
            ResultObserver(
                deliver: deliver, disposed: Disposables.create(), reportsErrors: reportsErrors,
                callStack: callStack))
    }
    let disposed = Disposables.create(with: onDisposed)
    let subscription = source.subscribe(
        ResultObserver(
            deliver: deliver, disposed: disposed, reportsErrors: reportsErrors, callStack: callStack))
    return Disposables.create(subscription, disposed)
}

/// The observer of ``subscribeResult(_:onDisposed:reportsErrors:_:)``: one object per
/// subscription (a closure over a captured flag cost three: the flag's box, the closure's
/// context and the observer wrapping it).
private final class ResultObserver<Element>: ObserverType {
    private let deliver: (Event<Element>) -> Void
    private let disposed: Disposable
    private let reportsErrors: Bool
    private let callStack: [String]
    // Set by the first event; events to one observer never overlap.
    @exclusivity(unchecked) private var stopped = false

    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    init(
        deliver: @escaping (Event<Element>) -> Void, disposed: Disposable, reportsErrors: Bool,
        callStack: [String]
    ) {
        self.deliver = deliver
        self.disposed = disposed
        self.reportsErrors = reportsErrors
        self.callStack = callStack
    }

    func on(_ event: Event<Element>) {
        if stopped { return }
        stopped = true
        if reportsErrors, case .error(let error) = event {
            reportUnhandledError(error, callStack: callStack)
        } else {
            deliver(event)
        }
        disposed.dispose()
    }
}
