/// Whether the element that ends `take(while:)` / `take(until:)` is emitted.
public enum TakeBehavior: Sendable {
    /// The element that ends the sequence is emitted before completion.
    case inclusive
    /// The element that ends the sequence is not emitted.
    case exclusive
}

extension ObservableType {
    /// Emits the elements until `other` emits an element, then completes. An error of `other` is
    /// emitted; its completion is ignored.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntil(asObservable(), other.asObservable())
    }

    /// Emits the elements until `predicate` returns `true` for one, then completes; with
    /// `.inclusive`, that element is emitted too.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive)
        -> Observable<Element>
    {
        TakeWhile(asObservable(), (behavior: behavior, predicate: { try !predicate($0) }))
    }

    /// Deprecated RxSwift 5 name of `take(until:)` with another sequence.
    @available(*, deprecated, renamed: "take(until:)")
    public func takeUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        take(until: other)
    }

    /// Deprecated RxSwift 5 name of `take(until:behavior:)` with a predicate.
    @available(*, deprecated, renamed: "take(until:behavior:)")
    public func takeUntil(_ behavior: TakeBehavior, predicate: @escaping (Element) throws -> Bool)
        -> Observable<Element>
    {
        take(until: predicate, behavior: behavior)
    }
}

/// `lock` (recursive: `other` may emit while being subscribed) serializes the events of the
/// source and of `other`, and is held while forwarding.
private final class TakeUntilSink<Other, Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    fileprivate let lock = RxLock(recursive: true)

    func onNextElement(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        if !isDisposed {
            observer._onNextElement(element)
        }
    }

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let otherSubscription = other.subscribe(TakeUntilOtherObserver(parent: self))
        let sourceSubscription = source.subscribe(self)
        return Disposables.create(otherSubscription, sourceSubscription)
    }

    func onSourceError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    func onSourceCompleted() {
        lock.withLock { forwardCompletedAndDispose() }
    }
}

private struct TakeUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    typealias Element = Other

    let parent: TakeUntilSink<Other, Observer>

    func on(_ event: Event<Other>) {
        parent.lock.withLock {
            switch event {
            case .next:
                parent.forwardCompletedAndDispose()
            case .error(let error):
                parent.forwardErrorAndDispose(error)
            case .completed:
                break
            }
        }
    }
}

private final class TakeUntil<Element, Other>: SourceProducer<Element, Observable<Other>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(TakeUntilSink<Other, Observer>(observer: observer, cancel: cancel)) {
            $0.run(source: source, other: parameters)
        }
    }
}
