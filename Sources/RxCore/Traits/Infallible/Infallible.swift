/// A type that is, or can be viewed as, an ``Infallible``: a sequence that never fails.
public protocol InfallibleType: ObservableConvertibleType {}

/// A sequence that never fails: elements, then possibly completion (RxSwift's `Infallible`).
///
/// Built from a sequence that may fail by saying what replaces its error
/// (`asInfallible(onErrorJustReturn:)`, `onErrorFallbackTo:`, `onErrorRecover:`), or with
/// ``create(subscribe:)``, whose callback cannot express an error.
public struct Infallible<Element>: InfallibleType {
    let source: Observable<Element>

    /// Wraps `source`, which the caller guarantees never fails.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The events of this sequence as an ``Observable``.
    public func asObservable() -> Observable<Element> {
        source
    }
}

/// What an ``Infallible`` created with `create(subscribe:)` reports.
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// Completion.
    case completed
}

extension ObservableConvertibleType {
    /// This sequence as an ``Infallible`` that emits `element` and completes in place of an error.
    public func asInfallible(onErrorJustReturn element: Element) -> Infallible<Element> {
        Infallible(asObservable().catchAndReturn(element))
    }

    /// This sequence as an ``Infallible`` that continues with `infallible` in place of an error.
    public func asInfallible(onErrorFallbackTo infallible: Infallible<Element>) -> Infallible<Element> {
        Infallible(asObservable().catch { _ in infallible.asObservable() })
    }

    /// This sequence as an ``Infallible`` that continues with what `onErrorRecover` returns for
    /// the error.
    public func asInfallible(onErrorRecover: @escaping (Swift.Error) -> Infallible<Element>) -> Infallible<
        Element
    > {
        Infallible(asObservable().catch { onErrorRecover($0).asObservable() })
    }
}

extension Infallible {
    /// Returns `self`.
    public func asInfallible() -> Infallible<Element> {
        self
    }

    /// What a ``create(subscribe:)`` callback reports to.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// Creates an infallible sequence from a subscribe function that reports elements and
    /// completion, and returns the disposable that tears down its work.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable)
        -> Infallible<Element>
    {
        Infallible(
            Observable.create { observer in
                subscribe { event in
                    switch event {
                    case .next(let element):
                        observer.onNext(element)
                    case .completed:
                        observer.onCompleted()
                    }
                }
            })
    }
}

extension InfallibleEvent: EventConvertible {
    /// The event as an ``Event``.
    public var event: Event<Element> {
        switch self {
        case .next(let element): return .next(element)
        case .completed: return .completed
        }
    }
}

// Subscribing, on every `InfallibleType` as in RxSwift: there is no error closure to give.
extension InfallibleType {
    /// Subscribes closures for the elements and the completion; `onDisposed` is called once when
    /// the subscription ends.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes closures that receive `object` first, while it is alive (held weakly).
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(
            with: object, onNext: onNext, onCompleted: onCompleted, onDisposed: onDisposed)
    }

    /// Subscribes a closure that receives every event, as an ``InfallibleEvent`` (which has no
    /// error case; RxSwift's signature since 6.6). An error, which only an inner sequence of
    /// `flatMap` and its kind can bring in, goes to `Hooks.defaultErrorHandler` as with
    /// ``subscribe(onNext:onCompleted:onDisposed:)``.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe(onNext: { on(.next($0)) }, onCompleted: { on(.completed) })
    }
}

extension InfallibleType {
    /// The elements as an `AsyncStream`: `for await value in infallible.values { ... }`.
    /// Iterating subscribes; ending the iteration early disposes the subscription.
    public var values: AsyncStream<Element> {
        nonFailingValues(of: asObservable())
    }
}
