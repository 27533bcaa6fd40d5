// SubscriptionCountingObservable: a hot source whose owner learns when subscriptions come and go.

extension Observable {
    /// `source` itself, with `willSubscribe` called before each subscription and `didDispose`
    /// once after each subscription made is disposed: for bindings that keep an expensive
    /// upstream resource (an interception, a registration) only while someone listens.
    ///
    /// Observers subscribe to `source` directly: nothing is added on the event path, so `source`
    /// must itself honour the grammar and serialize its events (a subject does). When
    /// `willSubscribe` returns an error, the observer receives that error, `source` is not
    /// subscribed and `didDispose` is not called.
    ///
    /// This is plumbing for modules built on RxCore (the Interception module's `rx` bindings),
    /// not an RxSwift operator; hence the underscore.
    public static func _countingSubscriptions(
        of source: Observable<Element>, willSubscribe: @escaping @Sendable () -> Swift.Error?,
        didDispose: @escaping @Sendable () -> Void
    ) -> Observable<Element> {
        SubscriptionCountingObservable(source: source, willSubscribe: willSubscribe, didDispose: didDispose)
    }
}

private final class SubscriptionCountingObservable<Element>: Observable<Element> {
    private let source: Observable<Element>
    private let willSubscribe: @Sendable () -> Swift.Error?
    private let didDispose: @Sendable () -> Void

    init(
        source: Observable<Element>, willSubscribe: @escaping @Sendable () -> Swift.Error?,
        didDispose: @escaping @Sendable () -> Void
    ) {
        self.source = source
        self.willSubscribe = willSubscribe
        self.didDispose = didDispose
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        if let error = willSubscribe() {
            observer.on(.error(error))
            return Disposables.create()
        }
        let subscription = source.subscribe(observer)
        let didDispose = self.didDispose
        // AnonymousDisposable runs its action once, however often it is disposed.
        return Disposables.create {
            subscription.dispose()
            didDispose()
        }
    }
}
