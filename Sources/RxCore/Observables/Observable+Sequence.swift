extension ObservableType {
    /// A sequence that emits `elements` in order and completes.
    ///
    /// Each element is emitted by its own action on `scheduler`; on the default
    /// ``CurrentThreadScheduler`` these actions are queued on the current thread's trampoline, so
    /// they interleave with other trampolined work exactly as in RxSwift.
    public static func of(
        _ elements: Element..., scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        ObservableSequence(elements, scheduler: scheduler)
    }

    /// A sequence that emits the elements of `array` in order and completes.
    public static func from(
        _ array: [Element], scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> {
        ObservableSequence(array, scheduler: scheduler)
    }

    /// A sequence that emits the elements of `sequence` in order and completes.
    public static func from<Source: Sequence>(
        _ sequence: Source, scheduler: ImmediateSchedulerType = CurrentThreadScheduler.instance
    ) -> Observable<Element> where Source.Element == Element {
        ObservableSequence(sequence, scheduler: scheduler)
    }

    /// A sequence that emits `optional`'s value if there is one, then completes.
    public static func from(optional: Element?) -> Observable<Element> {
        guard let element = optional else { return .empty() }
        return .just(element)
    }

    /// A sequence that emits `optional`'s value if there is one, then completes, on `scheduler`.
    public static func from(optional: Element?, scheduler: ImmediateSchedulerType) -> Observable<Element> {
        ObservableSequence(optional.map { [$0] } ?? [], scheduler: scheduler)
    }
}

private final class ObservableSequenceSink<Source: Sequence, Observer: ObserverType>: Sink<Observer>
where Source.Element == Observer.Element {
    func run(_ parent: ObservableSequence<Source>) -> Disposable {
        parent.scheduler.scheduleRecursive(parent.elements.makeIterator()) { iterator, recurse in
            var iterator = iterator
            if let element = iterator.next() {
                self.forwardOn(.next(element))
                recurse(iterator)
            } else {
                self.forwardOn(.completed)
                self.dispose()
            }
        }
    }
}

private final class ObservableSequence<Source: Sequence>: Producer<Source.Element> {
    let elements: Source
    let scheduler: ImmediateSchedulerType

    init(_ elements: Source, scheduler: ImmediateSchedulerType) {
        self.elements = elements
        self.scheduler = scheduler
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Element {
        run(ObservableSequenceSink<Source, Observer>(observer: observer, cancel: cancel)) {
            $0.run(self)
        }
    }
}
