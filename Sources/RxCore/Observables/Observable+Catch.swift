extension ObservableType {
    /// On error, continues with the sequence returned by `handler` for that error. An error
    /// thrown by `handler` is emitted.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<
        Element
    > {
        Catch(asObservable(), handler)
    }

    /// On error, emits `element` and completes.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        Catch(asObservable(), { _ in .just(element) })
    }

    /// Deprecated RxSwift 5 name of `catch(_:)`.
    @available(*, deprecated, renamed: "catch(_:)")
    public func catchError(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<
        Element
    > {
        `catch`(handler)
    }

    /// Deprecated RxSwift 5 name of `catchAndReturn(_:)`.
    @available(*, deprecated, renamed: "catchAndReturn(_:)")
    public func catchErrorJustReturn(_ element: Element) -> Observable<Element> {
        catchAndReturn(element)
    }
}

/// `subscription` holds the source subscription, then the recovery one.
private final class CatchSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let handler: (Swift.Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()

    init(
        handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, cancel: Cancelable
    ) {
        self.handler = handler
        super.init(observer: observer, cancel: cancel)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        subscription.replace { source.subscribe(self) }
        return subscription
    }

    func onNextElement(_ element: Element) {
        forwardNext(element)
    }

    func onSourceError(_ error: Swift.Error) {
        do {
            let recovery = try handler(error)
            subscription.disposable = recovery.subscribe(forwarder())
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Catch<Element>: SourceProducer<
    Element, (Swift.Error) throws -> Observable<Element>, Element
>
{
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(CatchSink(handler: parameters, observer: observer, cancel: cancel)) {
            $0.run(source)
        }
    }
}
