/// The observer of `Single.subscribe(onSuccess:onFailure:onDisposed:)`: calls the closure of the
/// first event (the element, or the error), drops what follows (the `completed` after the
/// element) and then disposes `disposed` (which runs `onDisposed`).
///
/// Why its own class rather than ``subscribeResult(_:onDisposed:reportsErrors:_:)``: that one
/// routes every event through a `deliver` closure over an ``Event``, a closure allocated per
/// subscription and, in generic code, a metadata lookup for each event built or switched over.
/// Created by the inlinable `subscribe`, in the caller, which knows the element type; elements
/// and completion arrive through `_onNextElement` / `_onCompleted`, without an `Event`.
@usableFromInline
final class SingleCallbackObserver<Element>: ElementObserver {
    private let onSuccess: ((Element) -> Void)?
    private let onFailure: ((Swift.Error) -> Void)?
    private let disposed: Disposable
    // The subscription's call stack, for an error without `onFailure` (see `Hooks`).
    private let callStack: [String]
    // Set by the first event; events to one observer never overlap.
    @exclusivity(unchecked) private var stopped = false

    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    @usableFromInline
    init(
        onSuccess: ((Element) -> Void)?, onFailure: ((Swift.Error) -> Void)?, disposed: Disposable,
        callStack: [String]
    ) {
        self.onSuccess = onSuccess
        self.onFailure = onFailure
        self.disposed = disposed
        self.callStack = callStack
    }

    func onNextElement(_ element: Element) {
        if stopped { return }
        stopped = true
        onSuccess?(element)
        disposed.dispose()
    }

    // The requirements are `@usableFromInline` because the class is (see `subscribe`).
    @usableFromInline
    func _onNextElement(_ element: Element) {
        onNextElement(element)
    }

    @usableFromInline
    func _onCompleted() {
        if stopped { return }
        stopped = true
        rxFatalErrorInDebug("A Single completed without an element")
        disposed.dispose()
    }

    @usableFromInline
    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNextElement(element)
        case .error(let error):
            if stopped { return }
            stopped = true
            if let onFailure {
                onFailure(error)
            } else {
                reportUnhandledError(error, callStack: callStack)
            }
            disposed.dispose()
        case .completed:
            _onCompleted()
        }
    }
}
