extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of the most recent inner sequence: when a new inner sequence arrives,
    /// the previous one is disposed. Completes when this sequence and the current inner sequence
    /// have completed.
    public func switchLatest() -> Observable<Element.Element> {
        Switch(asObservable(), { $0 })
    }
}

extension ObservableType {
    /// Maps each element to a sequence and emits the elements of the most recent one only: when
    /// a new element arrives, the sequence of the previous one is disposed.
    public func flatMapLatest<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    )
        -> Observable<Source.Element>
    {
        Switch(asObservable(), selector)
    }
}

/// The sink of `switchLatest` and `flatMapLatest`.
///
/// `lock` (recursive, for sources that emit while being subscribed) guards `latest`,
/// `hasLatest` and `sourceDone`, and is held while forwarding. Each inner sequence is tagged with
/// the value of `latest` when it arrived; events of older ones are dropped. `innerSubscription`
/// holds the current inner subscription, and assigning the next one disposes the previous one.
private final class SwitchSink<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    Sink<Observer>, SourceSink
where Observer.Element == Inner.Element {
    typealias Element = SourceElement

    private let selector: (SourceElement) throws -> Inner
    private let lock = RxLock(recursive: true)
    private var latest = 0
    private var hasLatest = false
    private var sourceDone = false
    private let sourceSubscription = SingleAssignmentDisposable()
    private let innerSubscription = SerialDisposable()

    init(selector: @escaping (SourceElement) throws -> Inner, observer: Observer, cancel: Cancelable) {
        self.selector = selector
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<SourceElement>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        return Disposables.create(sourceSubscription, innerSubscription)
    }

    func onNextElement(_ element: SourceElement) {
        let next = lock.withLock { () -> (Inner, Int)? in
            do {
                let inner = try selector(element)
                latest += 1
                hasLatest = true
                return (inner, latest)
            } catch {
                forwardErrorAndDispose(error)
                return nil
            }
        }
        guard let (inner, id) = next else { return }
        let subscription = SingleAssignmentDisposable()
        innerSubscription.disposable = subscription
        subscription.setDisposable(
            inner.asObservable().subscribe(
                SwitchInnerObserver(parent: self, id: id, subscription: subscription)))
    }

    func onSourceError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    func onSourceCompleted() {
        lock.withLock {
            sourceDone = true
            sourceSubscription.dispose()
            if !hasLatest {
                forwardCompletedAndDispose()
            }
        }
    }

    fileprivate func innerOn(_ event: Event<Observer.Element>, id: Int, subscription: Disposable) {
        if event.isStopEvent {
            // A terminated inner sequence is unsubscribed at once, even if it is not the latest.
            subscription.dispose()
        }
        lock.withLock {
            guard id == latest else { return }
            switch event {
            case .next:
                forwardOn(event)
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                hasLatest = false
                if sourceDone {
                    forwardOn(.completed)
                    dispose()
                }
            }
        }
    }
}

/// Forwards the events of one inner sequence to its ``SwitchSink``, tagged with its id.
private struct SwitchInnerObserver<SourceElement, Inner: ObservableConvertibleType, Observer: ObserverType>:
    ObserverType
where Observer.Element == Inner.Element {
    typealias Element = Inner.Element

    let parent: SwitchSink<SourceElement, Inner, Observer>
    let id: Int
    let subscription: Disposable

    func on(_ event: Event<Element>) {
        parent.innerOn(event, id: id, subscription: subscription)
    }
}

private final class Switch<SourceElement, Inner: ObservableConvertibleType>: SourceProducer<
    SourceElement, (SourceElement) throws -> Inner, Inner.Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Inner.Element {
        run(
            SwitchSink<SourceElement, Inner, Observer>(
                selector: parameters, observer: observer, cancel: cancel)
        ) {
            $0.run(source)
        }
    }
}
