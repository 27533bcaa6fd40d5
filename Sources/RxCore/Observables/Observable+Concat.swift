extension ObservableType {
    /// Emits the elements of this sequence, then, once it has completed, those of `second`.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element>
    where Source.Element == Element {
        Concat(sources: [asObservable(), second.asObservable()])
    }

    /// Emits the elements of each of `sources` in turn: one is subscribed when the previous one
    /// has completed.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(sources: sources)
    }

    /// Emits the elements of each of `sources` in turn.
    public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
        Concat(sources: sources)
    }

    /// Emits the elements of each of `sources` in turn.
    public static func concat<Sources: Collection>(_ sources: Sources) -> Observable<Element>
    where Sources.Element == Observable<Element> {
        Concat(sources: Array(sources))
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Emits the elements of each inner sequence in turn, in the order they arrived: an inner
    /// sequence is subscribed when the previous one has completed.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// Subscribes the sources one after the other. Moving to the next source goes through the
/// ``CurrentThreadScheduler``, so a long list of synchronous sources does not grow the stack.
/// `current` holds the subscription of the active source.
private final class ConcatSink<Observer: ObserverType>: ElementSink<Observer>, SourceSink {
    typealias Element = Observer.Element

    private let sources: [Observable<Element>]
    // Only touched by the subscription chain, which is sequential: the next source is
    // subscribed after the previous one completed.
    private var index = 0
    private let current = SerialDisposable()

    init(sources: [Observable<Element>], observer: Observer, cancel: Cancelable) {
        self.sources = sources
        super.init(observer: observer, cancel: cancel)
    }

    func run() -> Disposable {
        subscribeNext()
        return current
    }

    private func subscribeNext() {
        guard index < sources.count else {
            forwardOn(.completed)
            dispose()
            return
        }
        let source = sources[index]
        index += 1
        current.replace { source.subscribe(self) }
    }

    func onNextElement(_ element: Element) {
        forwardNext(element)
    }

    func onSourceCompleted() {
        onTrampoline { self.subscribeNext() }
    }
}

private final class Concat<Element>: Producer<Element> {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) {
        self.sources = sources
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ConcatSink(sources: sources, observer: observer, cancel: cancel)) { $0.run() }
    }
}
