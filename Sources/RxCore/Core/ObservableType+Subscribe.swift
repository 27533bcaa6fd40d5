import Synchronization

extension ObservableType {
    /// Subscribes a closure that receives every event.
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        subscribe(AnonymousObserver(on))
    }

    /// Subscribes closures for each kind of event.
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onError: Called when the sequence fails. Without it, the error is printed in debug
    ///     builds, as RxSwift does.
    ///   - onCompleted: Called when the sequence completes.
    ///   - onDisposed: Called once when the subscription ends: after termination, or on dispose.
    /// - Returns: The subscription; dispose it to stop receiving events.
    // Inlinable so that the caller, which knows the element type, creates the observer: made in
    // generic code, each subscription looked up the metadata of its class (a hash-table probe).
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        if let just = asObservable()._asJust() {
            // What subscribing the observer below to a `just` delivers, in the same order and
            // before returning: the element, completion, then the end of the subscription, which
            // has nothing left to dispose. Why: the observer, and the thunk that stores the
            // caller's `onNext` in it, were two of the three objects of
            // `Observable.just(x).subscribe(onNext:)` (perf, `rxcore_just_subscribe_dispose`).
            onNext?(just.element)
            onCompleted?()
            onDisposed?()
            return Disposables.create()
        }
        guard let onDisposed else {
            // Nothing to run on disposal: the subscription itself is the whole disposable (a
            // pair with a no-op disposable cost an object per subscription).
            return subscribe(
                CallbackObserver(
                    onNext: onNext, onError: onError, onCompleted: onCompleted,
                    disposable: Disposables.create(), callStack: callStack))
        }
        let disposable = Disposables.create(with: onDisposed)
        let observer = CallbackObserver(
            onNext: onNext, onError: onError, onCompleted: onCompleted, disposable: disposable,
            callStack: callStack)
        return Disposables.create(subscribe(observer), disposable)
    }

    /// Subscribes closures that receive `object` as their first argument, while `object` is
    /// alive; the object is held weakly, so the subscription does not keep it alive.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in
                guard let object else { return }
                onNext?(object, element)
            },
            onError: onError.map { onError in
                { [weak object] error in
                    guard let object else { return }
                    onError(object, error)
                }
            },
            onCompleted: { [weak object] in
                guard let object else { return }
                onCompleted?(object)
            },
            onDisposed: { [weak object] in
                guard let object else { return }
                onDisposed?(object)
            }
        )
    }
}

/// What happens to an error that reaches `subscribe` without an `onError` handler: it goes to
/// ``Hooks/defaultErrorHandler`` (by default, debug builds print it; release builds ignore it).
func reportUnhandledError(_ error: Swift.Error, callStack: [String]) {
    Hooks.defaultErrorHandler(callStack, error)
}

/// The observer of `subscribe(onNext:onError:onCompleted:onDisposed:)`: calls the closures,
/// keeps the grammar (nothing after the first terminal event) and disposes `disposable` (which
/// runs `onDisposed`) after a terminal event. Its own ``NextReceiver``, so that a subject
/// delivers elements to it with one virtual call.
@usableFromInline
final class CallbackObserver<Element>: NextReceiver<Element>, ElementObserver {
    private let onNext: ((Element) -> Void)?
    private let onError: ((Swift.Error) -> Void)?
    private let onCompleted: (() -> Void)?
    private let disposable: Disposable
    // The subscription's call stack, for an unhandled error (see `Hooks`).
    private let callStack: [String]
    // Set by the first terminal event. Events to one observer never overlap, so the flag only
    // needs to be atomic for reads after termination from another thread.
    private let stopped = Atomic<Bool>(false)

    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    @usableFromInline
    init(
        onNext: ((Element) -> Void)?, onError: ((Swift.Error) -> Void)?, onCompleted: (() -> Void)?,
        disposable: Disposable, callStack: [String]
    ) {
        self.onNext = onNext
        self.onError = onError
        self.onCompleted = onCompleted
        self.disposable = disposable
        self.callStack = callStack
    }

    func onNextElement(_ element: Element) {
        receive(element)
    }

    // The body of every element entry point. Not inlined into them: their bodies would then be
    // identical, and LLVM would merge them into one with the others (including this, the entry a
    // subject calls) as jumps to it: two more jumps per element (callgrind).
    @usableFromInline
    @inline(never)
    override func receive(_ element: Element) {
        if stopped.load(ordering: .relaxed) { return }
        onNext?(element)
    }

    // The requirements are `@usableFromInline` because the class is (see `subscribe`).
    @usableFromInline
    func _onNextElement(_ element: Element) {
        onNextElement(element)
    }

    // Its own receiver (see `nextReceiver(for:)`).
    @usableFromInline
    var _elementReceiver: AnyObject? {
        self
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNextElement(element)
        case .error(let error):
            if stopped.exchange(true, ordering: .relaxed) { return }
            if let onError {
                onError(error)
            } else {
                reportUnhandledError(error, callStack: callStack)
            }
            disposable.dispose()
        case .completed:
            _onCompleted()
        }
    }

    @usableFromInline
    func _onCompleted() {
        if stopped.exchange(true, ordering: .relaxed) { return }
        onCompleted?()
        disposable.dispose()
    }
}
