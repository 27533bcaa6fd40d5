extension ObservableType {
    /// Each time `sampler` emits (or completes), emits the latest element of this sequence if a
    /// new one arrived since the previous sample, or `defaultValue` if given. Completes when this
    /// sequence has completed and the sampler next emits or completes.
    public func sample<Source: ObservableType>(_ sampler: Source, defaultValue: Element? = nil) -> Observable<
        Element
    > {
        Sample(asObservable(), (sampler: sampler.asObservable(), defaultValue: defaultValue))
    }
}

/// `lock` (recursive: a source may emit while being subscribed) serializes the source and
/// sampler events, guards `latest` and `sourceDone`, and is held while forwarding.
private final class SampleSink<Sampler, Observer: ObserverType>: Sink<Observer>, ObserverType {
    typealias Element = Observer.Element

    fileprivate let lock = RxLock(recursive: true)
    fileprivate var latest: Element?
    fileprivate var sourceDone = false
    fileprivate let defaultValue: Element?
    private let sourceSubscription = SingleAssignmentDisposable()

    init(defaultValue: Element?, observer: Observer, cancel: Cancelable) {
        self.defaultValue = defaultValue
        super.init(observer: observer, cancel: cancel)
    }

    func run(source: Observable<Element>, sampler: Observable<Sampler>) -> Disposable {
        sourceSubscription.setDisposable(source.subscribe(self))
        let samplerSubscription = sampler.subscribe(SamplerObserver(parent: self))
        return Disposables.create(sourceSubscription, samplerSubscription)
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                latest = element
            case .error:
                forwardOn(event)
                dispose()
            case .completed:
                sourceDone = true
                sourceSubscription.dispose()
            }
        }
    }

    fileprivate func sample() {
        if let element = latest ?? defaultValue {
            latest = nil
            forwardOn(.next(element))
        }
        if sourceDone {
            forwardOn(.completed)
            dispose()
        }
    }
}

private struct SamplerObserver<Sampler, Observer: ObserverType>: ObserverType {
    typealias Element = Sampler

    let parent: SampleSink<Sampler, Observer>

    func on(_ event: Event<Sampler>) {
        parent.lock.withLock {
            switch event {
            case .next, .completed:
                parent.sample()
            case .error(let error):
                parent.forwardOn(.error(error))
                parent.dispose()
            }
        }
    }
}

private final class Sample<Element, Sampler>: SourceProducer<
    Element, (sampler: Observable<Sampler>, defaultValue: Element?), Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            SampleSink<Sampler, Observer>(
                defaultValue: parameters.defaultValue, observer: observer, cancel: cancel)
        ) { $0.run(source: source, sampler: parameters.sampler) }
    }
}
