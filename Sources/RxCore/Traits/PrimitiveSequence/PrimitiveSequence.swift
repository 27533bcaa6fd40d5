/// A sequence with a restricted grammar, named by its phantom `Trait`: ``Single`` (one element
/// or an error), ``Maybe`` (one element, completion or an error) and ``Completable`` (completion
/// or an error).
///
/// One generic wrapper around an ``Observable``, as in RxSwift: what differs between the traits
/// lives in extensions constrained on `Trait`. A value is built only by this module's creation
/// functions and conversions, which guarantee the grammar of its trait.
public struct PrimitiveSequence<Trait, Element> {
    let source: Observable<Element>

    /// Wraps `source`, whose events the caller guarantees to follow `Trait`'s grammar.
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

// Operators that keep the trait, whatever it is.
extension PrimitiveSequence {
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
