// InterceptionState: what the rx bindings keep per object, attached to it as an associated value.
import CInterception
import RxCore

/// The rx bindings' per-object state: one sink per observed (selector, phase), one per typed
/// observable, and the dealloc sinks.
///
/// Ownership: attached to the object as an associated Swift value, so the object owns it and
/// releases it in its root dealloc, after its `dealloc` methods ran and before its memory is
/// freed. `deinit` then completes every stream of the object but `deallocated` (which completes
/// with its own event, after the memory is gone). The state never references its object, so
/// observables and their subscriptions do not keep the object alive.
final class InterceptionState: @unchecked Sendable {
    /// Guards the dictionaries and sink creation (never held while an observer runs: sinks
    /// deliver without it).
    private let lock = Lock()
    private var sentMessage: [Selector: ArgumentsSink] = [:]
    private var methodInvoked: [Selector: ArgumentsSink] = [:]
    private var typed: [TypedSinkKey: InterceptionSink] = [:]
    private var deallocating: DeallocSink?
    private var deallocated: DeallocSink?

    deinit {
        // Mutex in deinit: no other reference exists any more, so no contention.
        let sinks = lock.withLock {
            Array(sentMessage.values) + Array(methodInvoked.values) + Array(typed.values)
                + (deallocating.map { [$0] } ?? [])
        }
        for sink in sinks {
            sink.objectWillDie()
            sink.complete()
        }
        // `deallocated` is not completed here (it completes with its own event, after the
        // memory is gone), but it must not install anything any more either.
        lock.withLock { deallocated }?.objectWillDie()
    }

    /// Creates state on first use. A global lock keeps two threads from attaching two.
    private static let attachLock = Lock()
    private static let key = AssociationKey()

    /// The object's state, attached on first use.
    static func of(_ object: RuntimeObject) throws(RuntimeError) -> InterceptionState {
        try attachLock.withLock { () throws(RuntimeError) -> InterceptionState in
            if let state = object.associatedValue(forKey: key) as? InterceptionState {
                return state
            }
            let state = InterceptionState()
            try object.setAssociatedValue(state, forKey: key)
            return state
        }
    }

    /// The sink feeding `sentMessage` (before) or `methodInvoked` (after) for `selector`, made on
    /// first use. Nothing is installed here: the sink's first subscription installs its engine
    /// observer (SPEC 17.1); refusals found without installing (no such method, a signature the
    /// engine cannot take) are thrown now, the others arrive on subscribe.
    func argumentsSink(
        for object: RuntimeObject, selector: Selector, phase: ic_observer_phase
    ) throws(InterceptionError) -> ArgumentsSink {
        try lock.withLock { () throws(InterceptionError) -> ArgumentsSink in
            if let sink = phase == IC_OBSERVE_BEFORE ? sentMessage[selector] : methodInvoked[selector] {
                return sink
            }
            let signature = try InterceptionState.signature(of: object, selector: selector)
            let sink = ArgumentsSink(
                object: object.pointer, selector: selector, phase: phase, className: object.runtimeClass.name,
                signature: signature)
            if phase == IC_OBSERVE_BEFORE {
                sentMessage[selector] = sink
            } else {
                methodInvoked[selector] = sink
            }
            return sink
        }
    }

    /// The sink of a typed observable, made on first use (installed by its first subscription,
    /// as ``argumentsSink(for:selector:phase:)``); `make` builds it after the method's encoding
    /// was found (and is checked by the sink's initializer).
    func typedSink<Sink: InterceptionSink>(
        key: TypedSinkKey, for object: RuntimeObject,
        make: (OpaquePointer) throws(InterceptionError) -> Sink
    ) throws(InterceptionError) -> Sink {
        try lock.withLock { () throws(InterceptionError) -> Sink in
            if let sink = typed[key] as? Sink {
                return sink
            }
            let signature = try InterceptionState.signature(of: object, selector: key.selector)
            let sink = try make(signature)
            typed[key] = sink
            return sink
        }
    }

    /// The sink of `deallocating` (before: true) or `deallocated`, installed on first use.
    func deallocSink(for object: RuntimeObject, before: Bool) throws(InterceptionError) -> DeallocSink {
        try lock.withLock { () throws(InterceptionError) -> DeallocSink in
            if let sink = before ? deallocating : deallocated {
                try sink.register()
                return sink
            }
            let sink = DeallocSink(
                object: object.pointer, after: !before, className: object.runtimeClass.name)
            try sink.register()
            if before {
                deallocating = sink
            } else {
                deallocated = sink
            }
            return sink
        }
    }

    /// The signature of the method `object` runs for `selector`; refusals as the engine would
    /// report them (the engine itself checks again when installing).
    static func signature(of object: RuntimeObject, selector: Selector) throws(InterceptionError)
        -> OpaquePointer
    {
        let className = object.runtimeClass.name
        let isClassMethod = InterceptionError.isClassObject(object.pointer)
        guard let method = ic_class_get_method(ic_intercept_original_class(object.pointer), selector.pointer)
        else {
            throw .selectorNotImplemented(
                className: className, selector: selector, isClassMethod: isClassMethod)
        }
        guard let signature = ic_method_signature(method) else {
            throw .unsupportedSignature(
                className: className, selector: selector, encoding: String(cString: ic_method_types(method)),
                reason: String(cString: ic_error_message()), isClassMethod: isClassMethod)
        }
        return signature
    }
}

/// Identifies a typed observable of an object: selector, phase and the Swift types.
struct TypedSinkKey: Hashable {
    let selector: Selector
    let phase: ic_observer_phase
    let types: ObjectIdentifier
    /// What else tells two sinks of one selector apart (the key a property sink reads).
    var detail: String = ""
}
