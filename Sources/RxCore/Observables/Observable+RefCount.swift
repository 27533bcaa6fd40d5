extension ConnectableObservableType {
    /// Connects when the first subscriber subscribes and disconnects when the last one leaves
    /// (or when the source terminates); a later subscriber connects again.
    public func refCount() -> Observable<Element> {
        RefCount(self)
    }
}

/// A subscriber of a ``RefCount``: forwards the events; a terminal event ends the connection it
/// belongs to.
private final class RefCountSink<Source: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>,
    ObserverType
where Source.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCount<Source>
    // The connection this subscriber counts in; set under the parent's lock.
    private var connectionId = 0

    init(parent: RefCount<Source>, observer: Observer, cancel: Cancelable) {
        self.parent = parent
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        guard let id = parent.addSubscriber(unlessDisposed: self) else {
            return subscription
        }
        connectionId = id
        return Disposables.create {
            subscription.dispose()
            self.parent.removeSubscriber(connectionId: id)
        }
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error, .completed:
            parent.endConnection(connectionId)
            forwardOn(event)
            dispose()
        }
    }
}

/// `lock` guards the count of subscribers, the connection and its id (bumped when a terminal
/// event ends a connection, so that subscribers of the old one no longer count).
private final class RefCount<Source: ConnectableObservableType>: Producer<Source.Element> {
    let source: Source
    private let lock = RxLock(recursive: true)
    private var count = 0
    private var connectionId = 0
    private var connection: Disposable?

    init(_ source: Source) {
        self.source = source
    }

    /// Counts a new subscriber, connecting for the first one; returns the connection's id, or nil
    /// if `sink` was disposed meanwhile.
    func addSubscriber(unlessDisposed sink: Sink<some ObserverType>) -> Int? {
        lock.withLock {
            if sink.isDisposed { return nil }
            count += 1
            if count == 1 {
                connection = source.connect()
            }
            return connectionId
        }
    }

    /// Counts a subscriber out of connection `id`, disconnecting after the last one.
    func removeSubscriber(connectionId id: Int) {
        let disconnecting = lock.withLock { () -> Disposable? in
            guard id == connectionId else { return nil }
            count -= 1
            guard count == 0 else { return nil }
            defer { connection = nil }
            return connection
        }
        disconnecting?.dispose()
    }

    /// Ends connection `id` after its source terminated: later subscribers connect again.
    func endConnection(_ id: Int) {
        let disconnecting = lock.withLock { () -> Disposable? in
            guard id == connectionId else { return nil }
            count = 0
            connectionId &+= 1
            defer { connection = nil }
            return connection
        }
        disconnecting?.dispose()
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Source.Element {
        run(RefCountSink(parent: self, observer: observer, cancel: cancel)) { $0.run() }
    }
}
