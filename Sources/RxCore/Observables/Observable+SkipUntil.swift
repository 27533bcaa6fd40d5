extension ObservableType {
    /// Drops the elements until `other` emits an element, then emits the rest. An error of
    /// `other` is emitted; its completion is ignored.
    ///
    /// As in RxSwift, if this sequence completes before `other` has emitted, the completion is
    /// not emitted either: the subscription ends without a terminal event.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntil(asObservable(), other.asObservable())
    }

    /// Deprecated RxSwift 5 name of `skip(until:)`.
    @available(*, deprecated, renamed: "skip(until:)")
    public func skipUntil<Source: ObservableType>(_ other: Source) -> Observable<Element> {
        skip(until: other)
    }
}

/// `lock` (recursive: `other` may emit while being subscribed) serializes the events of the
/// source and of `other`, guards `forwarding`, and is held while forwarding.
private final class SkipUntilSink<Other, Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    fileprivate let lock = RxLock(recursive: true)
    /// Set when `other` emits its first element; never reset.
    fileprivate var forwarding = false

    func onNextElement(_ element: Element) {
        lock.lock()
        defer { lock.unlock() }
        if forwarding && !isDisposed {
            observer._onNextElement(element)
        }
    }

    /// Subscribes the source first and then `other`, as RxSwift does.
    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let sourceSubscription = source.subscribe(self)
        let otherObserver = SkipUntilOtherObserver(parent: self)
        otherObserver.subscription.setDisposable(other.subscribe(otherObserver))
        return Disposables.create(sourceSubscription, otherObserver.subscription)
    }

    func onSourceError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    func onSourceCompleted() {
        lock.withLock {
            if forwarding {
                forwardOn(.completed)
            }
            dispose()
        }
    }
}

/// Opens the gate at the first element of `other` and then unsubscribes from it.
private final class SkipUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    typealias Element = Other

    private let parent: SkipUntilSink<Other, Observer>
    let subscription = SingleAssignmentDisposable()

    init(parent: SkipUntilSink<Other, Observer>) {
        self.parent = parent
    }

    func on(_ event: Event<Other>) {
        parent.lock.withLock {
            switch event {
            case .next:
                parent.forwarding = true
                subscription.dispose()
            case .error(let error):
                parent.forwardErrorAndDispose(error)
            case .completed:
                subscription.dispose()
            }
        }
    }
}

private final class SkipUntil<Element, Other>: SourceProducer<Element, Observable<Other>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(SkipUntilSink<Other, Observer>(observer: observer, cancel: cancel)) {
            $0.run(source: source, other: parameters)
        }
    }
}
