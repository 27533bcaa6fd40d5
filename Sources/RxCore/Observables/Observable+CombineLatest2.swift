// `combineLatest` of two sources, the most common arity, without the element boxing of the
// variadic form.
//
// Why a second implementation: the variadic `combineLatest` (Observable+CombineLatest.swift)
// serves every arity with one sink over `[Any]`, so each event boxes its element in `Any`, copies
// the latest values into an array, and casts each back to its type to build the result; in code
// that is generic over a parameter pack, each of those steps looks up runtime metadata (a
// hash-table probe). With two subjects that was about 18× a subject's event (perf: ~30 % metadata
// lookups, the rest allocation and casts). This sink keeps each latest value in storage of its own
// type and calls `resultSelector` with both directly: no lookup, no allocation per event. The
// semantics are those of the variadic form, which is RxSwift's `CombineLatestSink`.

extension ObservableType {
    /// Whenever either source emits, once both have emitted at least once, emits
    /// `resultSelector` of the latest element of each (see `combineLatest(_:resultSelector:)`).
    ///
    /// Inlinable for the same reason as the tuple form below.
    @inlinable
    public static func combineLatest<Source1: ObservableType, Source2: ObservableType>(
        _ source1: Source1, _ source2: Source2,
        resultSelector: @escaping (Source1.Element, Source2.Element) throws -> Element
    ) -> Observable<Element> {
        _combineLatest2(source1.asObservable(), source2.asObservable()) { latest1, latest2, deliver in
            // Copies: `resultSelector` may make a source emit, which replaces the latest element.
            let element1 = latest1.pointee
            let element2 = latest2.pointee
            deliver(try resultSelector(element1, element2))
        }
    }
}

extension ObservableType where Element == Any {
    /// Emits tuples of the latest element of each source (see `combineLatest(_:resultSelector:)`).
    ///
    /// Inlinable so that the closure building the tuple is compiled for the caller's element
    /// types: built in generic code, each tuple would look up the tuple's metadata, and each
    /// latest element would be copied and destroyed through its value witnesses to be passed
    /// (the closure reads them through pointers instead).
    @inlinable
    public static func combineLatest<Source1: ObservableType, Source2: ObservableType>(
        _ source1: Source1, _ source2: Source2
    ) -> Observable<(Source1.Element, Source2.Element)> {
        _combineLatest2(source1.asObservable(), source2.asObservable()) {
            // A copy of each: the observer may make a source emit, which replaces its element.
            $2(($0.pointee, $1.pointee))
        }
    }
}

/// The producer of `combineLatest` over two sources, for the inlinable forms.
///
/// `resultSelector` reads the latest elements where the sink keeps them and hands the result to
/// `deliver`, a closure of the sink's that forwards it: the elements are passed as pointers and
/// the result is built, passed and destroyed in the code the caller compiles for its own types,
/// which is called as it is. With elements and a result of the generic types, it went through two
/// reabstraction thunks per event (one the caller's, one from storing it in the producer's
/// generic parameters), and each element was copied and destroyed through its value witnesses to
/// be passed; with the result initialized in room the sink gave it, the sink's generic code moved
/// it out and destroyed it through value witnesses per event (a tenth of an event, perf).
@usableFromInline
func _combineLatest2<Element1, Element2, Result>(
    _ source1: Observable<Element1>, _ source2: Observable<Element2>,
    _ resultSelector: @escaping CombineLatest2Selector<Element1, Element2, Result>
) -> Observable<Result> {
    CombineLatest2(source1, source2, resultSelector)
}

/// The selector of `_combineLatest2`: reads the latest elements and hands the result to its third
/// argument (unless it throws, which it does before handing over anything).
@usableFromInline
typealias CombineLatest2Selector<Element1, Element2, Result> =
    (UnsafePointer<Element1>, UnsafePointer<Element2>, (Result) -> Void) throws -> Void

/// The sink of `combineLatest` over two sources. `lock` (recursive: a source may emit while being
/// subscribed, or from the observer) guards every stored `var` and is held while forwarding; an
/// ``RxReentrantLock``, whose uncontended path is inline, since it is taken per event.
///
/// The latest values live in `latest1` / `latest2`, one-element buffers of their own type
/// initialized on the first element (`has1` / `has2`): a stored `Element?` would look up the
/// optional's metadata on every access in this generic code. `Result` is a parameter of the
/// class rather than `Observer.Element`, whose metadata each event looked up as an associated
/// type witness (perf).
private final class CombineLatest2Sink<Element1, Element2, Result, Observer: ObserverType>: Sink<Observer>
where Observer.Element == Result {

    private let resultSelector: CombineLatest2Selector<Element1, Element2, Result>
    private let lock = RxReentrantLock()
    private let latest1 = UnsafeMutablePointer<Element1>.allocate(capacity: 1)
    private let latest2 = UnsafeMutablePointer<Element2>.allocate(capacity: 1)
    // Guarded by `lock`, which makes the dynamic exclusivity checks redundant (they cost about as
    // much as the rest of an event).
    @exclusivity(unchecked) private var has1 = false
    @exclusivity(unchecked) private var has2 = false
    @exclusivity(unchecked) private var done1 = false
    @exclusivity(unchecked) private var done2 = false

    init(
        resultSelector: @escaping CombineLatest2Selector<Element1, Element2, Result>, observer: Observer,
        cancel: Cancelable
    ) {
        self.resultSelector = resultSelector
        super.init(observer: observer, cancel: cancel)
    }

    deinit {
        if has1 { latest1.deinitialize(count: 1) }
        if has2 { latest2.deinitialize(count: 1) }
        latest1.deallocate()
        latest2.deallocate()
    }

    func run(_ source1: Observable<Element1>, _ source2: Observable<Element2>) -> Disposable {
        let subscription1 = SingleAssignmentDisposable()
        let subscription2 = SingleAssignmentDisposable()
        subscription1.setDisposable(source1.subscribe(CombineLatest2First(parent: self)))
        subscription2.setDisposable(source2.subscribe(CombineLatest2Second(parent: self)))
        return Disposables.create(subscription1, subscription2)
    }

    func next1(_ element: Element1) {
        lock.lock()
        if has1 {
            latest1.pointee = element
        } else {
            latest1.initialize(to: element)
            has1 = true
        }
        emit(otherDone: done2)
        lock.unlock()
    }

    func next2(_ element: Element2) {
        lock.lock()
        if has2 {
            latest2.pointee = element
        } else {
            latest2.initialize(to: element)
            has2 = true
        }
        emit(otherDone: done1)
        lock.unlock()
    }

    /// After an element: the combination once both sources have one; otherwise, when the other
    /// source completed (without an element), completion. Call with `lock` held. Inlined into
    /// `next1` and `next2`: a call per event, with a stack-protector check for the closure's
    /// context. It does not throw (the selector's error is forwarded here), so its callers
    /// release the lock after it without a `defer`, which the compiler outlined into a call per
    /// event.
    @inline(__always)
    private func emit(otherDone: Bool) {
        if has1 && has2 {
            // The result is the selector's (its frame's, per event: the observer may make a
            // source emit again before it returns); the sink only borrows it to forward it.
            do {
                try resultSelector(UnsafePointer(latest1), UnsafePointer(latest2)) { result in
                    if !isDisposed {
                        observer._onNextElement(result)
                    }
                }
            } catch {
                forwardErrorAndDispose(error)
            }
        } else if otherDone {
            forwardCompletedAndDispose()
        }
    }

    func fail(_ error: Swift.Error) {
        lock.lock()
        defer { lock.unlock() }
        forwardErrorAndDispose(error)
    }

    func complete(first: Bool) {
        lock.lock()
        defer { lock.unlock() }
        if first {
            if done1 { return }
            done1 = true
        } else {
            if done2 { return }
            done2 = true
        }
        if done1 && done2 {
            forwardCompletedAndDispose()
        }
    }
}

/// Forwards the first source's events to its ``CombineLatest2Sink``.
private struct CombineLatest2First<Element1, Element2, Result, Observer: ObserverType>: ElementObserver
where Observer.Element == Result {
    let parent: CombineLatest2Sink<Element1, Element2, Result, Observer>

    // Inlined into the `_onNextElement` witness, through which elements arrive: one call fewer
    // per event.
    @inline(__always)
    func onNextElement(_ element: Element1) {
        parent.next1(element)
    }

    func _onCompleted() {
        parent.complete(first: true)
    }

    func on(_ event: Event<Element1>) {
        switch event {
        case .next(let element): parent.next1(element)
        case .error(let error): parent.fail(error)
        case .completed: parent.complete(first: true)
        }
    }
}

/// Forwards the second source's events to its ``CombineLatest2Sink``.
private struct CombineLatest2Second<Element1, Element2, Result, Observer: ObserverType>: ElementObserver
where Observer.Element == Result {
    let parent: CombineLatest2Sink<Element1, Element2, Result, Observer>

    // Inlined into the `_onNextElement` witness, through which elements arrive: one call fewer
    // per event.
    @inline(__always)
    func onNextElement(_ element: Element2) {
        parent.next2(element)
    }

    func _onCompleted() {
        parent.complete(first: false)
    }

    func on(_ event: Event<Element2>) {
        switch event {
        case .next(let element): parent.next2(element)
        case .error(let error): parent.fail(error)
        case .completed: parent.complete(first: false)
        }
    }
}

/// The producer of `combineLatest` over two sources. Not a `ParameterProducer`: the selector
/// stored in its generic parameters tuple would be reabstracted, and called through a thunk per
/// event.
private final class CombineLatest2<Element1, Element2, Result>: Producer<Result> {
    private let source1: Observable<Element1>
    private let source2: Observable<Element2>
    private let resultSelector: CombineLatest2Selector<Element1, Element2, Result>

    init(
        _ source1: Observable<Element1>, _ source2: Observable<Element2>,
        _ resultSelector: @escaping CombineLatest2Selector<Element1, Element2, Result>
    ) {
        self.source1 = source1
        self.source2 = source2
        self.resultSelector = resultSelector
    }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable)
        -> (sink: Disposable, subscription: Disposable)
    where Observer.Element == Result {
        run(
            CombineLatest2Sink<Element1, Element2, Result, Observer>(
                resultSelector: resultSelector, observer: observer, cancel: cancel)
        ) { $0.run(source1, source2) }
    }
}
