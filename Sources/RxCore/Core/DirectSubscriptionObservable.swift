// DirectSubscriptionObservable: a custom subscribe that attaches observers to a hot source as they are.

extension Observable {
    /// An observable whose subscriptions run `subscribe`, which receives two functions bound to
    /// the subscribing observer: `attach` subscribes it to a source directly (nothing is put
    /// between the source and the observer), `send` gives it an event directly. `subscribe`
    /// returns what disposes the subscription.
    ///
    /// Why: `create(_:)` hands the subscribe function an `AnyObserver` wrapping a
    /// serializing sink, two layers that every event crosses, each a runtime metadata lookup in
    /// unspecialized generic code. A binding that feeds a hot subject and only needs to add
    /// something around the subscription (an element sent first, a lock held while attaching)
    /// pays for those layers on every event; with this, events go from the subject straight to
    /// the observer.
    ///
    /// `subscribe` must keep the grammar itself: `send` does not check it, `attach`ed sources
    /// are expected to serialize their events (a subject does), and `send` must not run
    /// concurrently with the source's events (hold the lock the source's sender holds).
    /// `attach` and `send` are valid only during `subscribe`.
    ///
    /// This is plumbing for modules built on RxCore (the Interception module's property
    /// observation), not an RxSwift operator; hence the underscore.
    public static func _subscribingDirectly(
        _ subscribe:
            @escaping (
                _ attach: (Observable<Element>) -> Disposable, _ send: (Event<Element>) -> Void
            ) -> Disposable
    ) -> Observable<Element> {
        DirectSubscriptionObservable(subscribe)
    }
}

private final class DirectSubscriptionObservable<Element>: Observable<Element> {
    typealias SubscribeHandler = (
        _ attach: (Observable<Element>) -> Disposable, _ send: (Event<Element>) -> Void
    ) -> Disposable

    private let handler: SubscribeHandler

    init(_ handler: @escaping SubscribeHandler) {
        self.handler = handler
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable
    where Observer.Element == Element {
        handler({ $0.subscribe(observer) }, { observer.on($0) })
    }
}
