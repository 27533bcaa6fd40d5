extension ObservableType {
    /// For each element, emits `resultSelector` of it and the latest element of `second`;
    /// elements that arrive before `second` has emitted are dropped. An error of `second` is
    /// emitted; its completion is ignored.
    public func withLatestFrom<Source: ObservableConvertibleType, Result>(
        _ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> Result
    ) -> Observable<Result> {
        WithLatestFrom(asObservable(), (second: second.asObservable(), resultSelector: resultSelector))
    }

    /// For each element, emits the latest element of `second` (dropping elements that arrive
    /// before `second` has emitted).
    public func withLatestFrom<Source: ObservableConvertibleType>(_ second: Source) -> Observable<
        Source.Element
    > {
        withLatestFrom(second) { $1 }
    }
}

/// `lock` (recursive: a source may emit while being subscribed) serializes both sources, guards
/// `latest`, and is held while forwarding.
private final class WithLatestFromSink<First, Second, Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = First

    private let resultSelector: (First, Second) throws -> Observer.Element
    fileprivate let lock = RxLock(recursive: true)
    fileprivate var latest: Second?

    init(
        resultSelector: @escaping (First, Second) throws -> Observer.Element, observer: Observer,
        cancel: Cancelable
    ) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    func run(first: Observable<First>, second: Observable<Second>) -> Disposable {
        let secondSubscription = second.subscribe(WithLatestFromSecondObserver(parent: self))
        let firstSubscription = first.subscribe(self)
        return Disposables.create(firstSubscription, secondSubscription)
    }

    func onNextElement(_ element: First) {
        lock.withLock {
            guard let latest else { return }
            do {
                forwardOn(.next(try resultSelector(element, latest)))
            } catch {
                forwardErrorAndDispose(error)
            }
        }
    }

    func onSourceError(_ error: Swift.Error) {
        lock.withLock { forwardErrorAndDispose(error) }
    }

    func onSourceCompleted() {
        lock.withLock { forwardCompletedAndDispose() }
    }
}

private struct WithLatestFromSecondObserver<First, Second, Observer: ObserverType>: ObserverType {
    typealias Element = Second

    let parent: WithLatestFromSink<First, Second, Observer>

    func on(_ event: Event<Second>) {
        parent.lock.withLock {
            switch event {
            case .next(let element):
                parent.latest = element
            case .error(let error):
                parent.forwardErrorAndDispose(error)
            case .completed:
                break
            }
        }
    }
}

private final class WithLatestFrom<First, Second, Result>: SourceProducer<
    First, (second: Observable<Second>, resultSelector: (First, Second) throws -> Result), Result
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            WithLatestFromSink<First, Second, Observer>(
                resultSelector: parameters.resultSelector, observer: observer, cancel: cancel)
        ) { $0.run(first: source, second: parameters.second) }
    }
}
