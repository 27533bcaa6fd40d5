#if DEBUG || TRACE_RESOURCES
    import Synchronization

    private let maxSourceStackDepth = Atomic<Int>(0)

    /// The deepest stack of source lists a `concat` or `catch(sequence:)` subscription has held at
    /// once (RxSwift's name). Nested `concat`s met last in their list are flattened into the
    /// running subscription instead of being subscribed to, so `[1, [2, [3, …].concat()].concat()]`
    /// runs with a stack of one when the list sizes are known (collections): a test sets this to
    /// zero, runs a deep nesting and checks the depth. Debug builds only.
    public var maxTailRecursiveSinkStackSize: Int {
        get { maxSourceStackDepth.load(ordering: .relaxed) }
        set { maxSourceStackDepth.store(newValue, ordering: .relaxed) }
    }

    /// Raises `maxTailRecursiveSinkStackSize` to `depth` if it is deeper.
    private func recordSourceStackDepth(_ depth: Int) {
        var current = maxSourceStackDepth.load(ordering: .relaxed)
        while current < depth {
            let (exchanged, original) = maxSourceStackDepth.compareExchange(
                expected: current, desired: depth, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }
#endif

/// The sources of a `concat` or `catch(sequence:)`: a sequence iterated once per subscription,
/// lazily (a source is made when it is about to be subscribed to, so a list may be long,
/// generated or even endless), with its length when it is known.
struct SourceList<Element> {
    let sources: AnySequence<Observable<Element>>
    /// The number of sources, when the list is a collection.
    let count: Int?

    init<Sources: Sequence>(_ sources: Sources) where Sources.Element == Observable<Element> {
        self.sources = AnySequence(sources)
        count = nil
    }

    init<Sources: Collection>(_ sources: Sources) where Sources.Element == Observable<Element> {
        self.sources = AnySequence(sources)
        count = sources.count
    }
}

/// The sink of `concat` and `catch(sequence:)`: it subscribes to its sources one after the other
/// and passes their elements through; the subclass says on which terminal event it moves on to
/// the next source (completion for `concat`, an error for `catch(sequence:)`).
///
/// Tail recursion (RxSwift's `TailRecursiveSink`): the sink keeps a stack of partly consumed
/// source lists. When the next source is itself an operator of the same kind (the subclass
/// recognises it in ``nestedSources(of:)``), its list is pushed instead of subscribing to it; a
/// list whose known count is exhausted is popped before, so a chain nested in the last position
/// runs in constant stack and memory.
///
/// `subscription` holds the subscription to the current source. Only the subscription chain
/// touches `lists`, and it is sequential: the next source is subscribed after the previous one
/// terminated.
class SourceListSink<Observer: ObserverType>: ElementSink<Observer> {
    typealias Element = Observer.Element

    final let subscription = SerialDisposable()
    /// The lists being consumed, innermost last, each with the count of its sources not yet
    /// taken when that is known.
    private var lists: [(iterator: AnyIterator<Observable<Element>>, left: Int?)]

    init(sources: SourceList<Element>, observer: Observer, cancel: Cancelable) {
        lists = [(AnyIterator(sources.sources.makeIterator()), sources.count)]
        super.init(observer: observer, cancel: cancel)
    }

    /// The sources of `source` when it is an operator of this sink's kind, to be consumed in
    /// place of subscribing to it; `nil` otherwise. Subclasses override.
    func nestedSources(of source: Observable<Element>) -> SourceList<Element>? {
        nil
    }

    /// The source to subscribe to next, or `nil` when every source has been subscribed.
    final func nextSource() -> Observable<Element>? {
        while let (iterator, left) = lists.popLast() {
            guard let candidate = iterator.next() else { continue }
            if let left {
                if left > 1 { lists.append((iterator, left - 1)) }
            } else {
                lists.append((iterator, nil))
            }
            guard let nested = nestedSources(of: candidate) else { return candidate }
            lists.append((AnyIterator(nested.sources.makeIterator()), nested.count))
            #if DEBUG || TRACE_RESOURCES
                recordSourceStackDepth(lists.count)
            #endif
        }
        return nil
    }

    final func onNextElement(_ element: Observer.Element) {
        forwardNext(element)
    }
}
