extension ObservableType {
    /// Emits the elements in arrays: an array every `timeSpan` on `scheduler`, or as soon as it
    /// holds `count` elements (which restarts the time span). On completion, emits the current
    /// array (possibly empty), then completes; an error is forwarded at once.
    public func buffer(timeSpan: RxTimeInterval, count: Int, scheduler: SchedulerType) -> Observable<
        [Element]
    > {
        precondition(count > 0, "count must be positive")
        return Buffer(asObservable(), (timeSpan: timeSpan, count: count, scheduler: scheduler))
    }
}

/// `buffer` holds the elements of the current window (see ``WindowingSink``).
private final class BufferSink<Element, Observer: ObserverType>: WindowingSink<Observer>, ObserverType
where Observer.Element == [Element] {
    private var buffer: [Element] = []

    func run(_ source: Observable<Element>) -> Disposable {
        lock.withLock { startTimer() }
        return Disposables.create(timer, source.subscribe(self))
    }

    override func windowClosed() {
        let elements = buffer
        buffer = []
        forwardOn(.next(elements))
    }

    func on(_ event: Event<Element>) {
        lock.withLock {
            switch event {
            case .next(let element):
                buffer.append(element)
                countElement()
            case .error(let error):
                buffer = []
                forwardErrorAndDispose(error)
            case .completed:
                forwardOn(.next(buffer))
                buffer = []
                forwardCompletedAndDispose()
            }
        }
    }
}

private final class Buffer<Element>: SourceProducer<Element, WindowParameters, [Element]> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == [Element] {
        run(BufferSink<Element, Observer>(parameters, observer: observer, cancel: cancel)) { $0.run(source) }
    }
}
