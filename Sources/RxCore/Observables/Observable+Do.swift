extension ObservableType {
    /// Calls the given closures for side effects, without changing the sequence: `onX` before an
    /// event is forwarded, `afterX` after; `onSubscribe` before subscribing to the source,
    /// `onSubscribed` after, and `onDispose` when the subscription ends (termination or dispose).
    /// An error thrown by a closure is emitted instead of the event.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        Do(
            asObservable(),
            DoHandlers(
                onNext: onNext, afterNext: afterNext, onError: onError, afterError: afterError,
                onCompleted: onCompleted, afterCompleted: afterCompleted, onSubscribe: onSubscribe,
                onSubscribed: onSubscribed, onDispose: onDispose))
    }
}

private struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
    let onSubscribe: (() -> Void)?
    let onSubscribed: (() -> Void)?
    let onDispose: (() -> Void)?
}

private final class DoSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let handlers: DoHandlers<Element>

    init(handlers: DoHandlers<Element>, observer: Observer, cancel: Cancelable) {
        self.handlers = handlers
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        if isDisposed { return }
        do {
            try handlers.onNext?(element)
            observer._onNextElement(element)
            try handlers.afterNext?(element)
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func onSourceError(_ error: Swift.Error) {
        do {
            try handlers.onError?(error)
            forwardOn(.error(error))
            try handlers.afterError?(error)
            dispose()
        } catch {
            forwardErrorAndDispose(error)
        }
    }

    func onSourceCompleted() {
        do {
            try handlers.onCompleted?()
            forwardOn(.completed)
            try handlers.afterCompleted?()
            dispose()
        } catch {
            forwardErrorAndDispose(error)
        }
    }
}

private final class Do<Element>: SourceProducer<Element, DoHandlers<Element>, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        parameters.onSubscribe?()
        let sink = DoSink(handlers: parameters, observer: observer, cancel: cancel)
        let subscription = source.subscribe(sink)
        parameters.onSubscribed?()
        let onDispose = parameters.onDispose
        let all = Disposables.create {
            subscription.dispose()
            onDispose?()
        }
        return (sink, all)
    }
}
