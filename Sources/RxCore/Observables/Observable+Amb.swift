extension ObservableType {
    /// Mirrors whichever of `sequence`'s sources emits an event first, and unsubscribes the others.
    public static func amb<Sources: Sequence>(_ sequence: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Amb(Array(sequence))
    }

    /// Mirrors whichever of this sequence and `right` emits an event first.
    public func amb<Right: ObservableConvertibleType>(_ right: Right) -> Observable<Element>
    where Right.Element == Element {
        Amb([asObservable(), right.asObservable()])
    }
}

/// `lock` (recursive: a source may emit while being subscribed) guards `winner` and is held while
/// forwarding, so that only the winner's events pass.
private final class AmbSink<Observer: ObserverType>: Sink<Observer> {
    typealias Element = Observer.Element

    private let lock = RxLock(recursive: true)
    private var winner: Int?
    private var subscriptions: [SingleAssignmentDisposable] = []

    func run(_ sources: [Observable<Element>]) -> Disposable {
        let subscriptions = sources.map { _ in SingleAssignmentDisposable() }
        lock.withLock { self.subscriptions = subscriptions }
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(AmbObserver(parent: self, index: index)))
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<Element>, index: Int) {
        lock.withLock {
            if winner == nil {
                winner = index
                for (other, subscription) in subscriptions.enumerated() where other != index {
                    subscription.dispose()
                }
            }
            guard winner == index else { return }
            forwardOn(event)
            if event.isStopEvent {
                dispose()
            }
        }
    }
}

private struct AmbObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element

    let parent: AmbSink<Observer>
    let index: Int

    func on(_ event: Event<Element>) {
        parent.on(event, index: index)
    }
}

private final class Amb<Element>: ParameterProducer<[Observable<Element>], Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(AmbSink(observer: observer, cancel: cancel)) { $0.run(parameters) }
    }
}
