extension ObservableType {
    /// Emits the last `count` elements when the sequence completes, then completes. Nothing is
    /// emitted before the completion; an error is emitted without the buffered elements.
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        return TakeLast(asObservable(), count)
    }
}

private final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let count: Int
    // Holds at most `count` elements, the latest ones. Only touched by the event methods, which
    // are never called concurrently.
    private var buffer = RxQueue<Element>()

    init(count: Int, observer: Observer, cancel: Cancelable) {
        self.count = count
        super.init(observer: observer, cancel: cancel)
    }

    func onNextElement(_ element: Element) {
        buffer.enqueue(element)
        if buffer.count > count {
            _ = buffer.dequeue()
        }
    }

    func onSourceCompleted() {
        // `forwardOn` stops delivering if the observer disposes the subscription meanwhile.
        while let element = buffer.dequeue() {
            forwardOn(.next(element))
        }
        forwardCompletedAndDispose()
    }
}

private final class TakeLast<Element>: SourceProducer<Element, Int, Element> {
    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(
            TakeLastSink(count: parameters, observer: observer, cancel: cancel))
    }
}
