// InterceptionSink: the Swift end of one C observer of the interception engine.
import CInterception
import RxCore
import Synchronization

/// The Swift side of one (object, selector, phase) stream: a subject, and the engine observer
/// that feeds it while someone listens.
///
/// Registration follows the subscribers (SPEC 17.1): requesting an observable changes nothing on
/// the object; the first subscription installs the engine observer (a refusal is that
/// subscription's error) and the last disposal removes it. (`deallocating` / `deallocated` are
/// installed when requested, see ``DeallocSink``.)
/// An object whose last engine observer goes moves back to its class, and its calls cost what
/// they cost before it was observed.
///
/// Ownership: each installation is a ``Registration``, the C observer's context, a +1 reference
/// released by the engine (`sinkRelease`) once the observer is removed or its object died and no
/// call of it can still be running. A registration references its sink. The object's
/// ``InterceptionState`` references its sinks, to hand out the same subject to every request and
/// to complete it when the object dies. The sink keeps the object's address, unretained: it is
/// used only under `lock` while `objectDied` is false, and the object's death sets that flag (from
/// its root dealloc, before its memory is freed) under the same lock.
///
/// Exactly once: removal first deactivates the registration (under `lock`), then asks the engine
/// to remove it (outside the lock: removal waits for calls in flight, whose subscribers may
/// subscribe or dispose). A call that sees a newer registration also sees the older one
/// deactivated (the new one was installed after the deactivation, under the same lock, and the
/// engine publishes it with release ordering), so no call reaches the subject twice.
///
/// Threading: `deliver` runs on the thread that called the intercepted method (several at once
/// if several threads call it); the subjects it feeds serialize delivery to each subscriber.
class InterceptionSink: @unchecked Sendable {
    /// What the engine observer observes.
    enum Target {
        case call(Selector, ic_observer_phase)
        case dealloc(ic_observer_phase)
    }

    let target: Target
    let className: String
    /// Guards everything below. Never held while calling into an observer or waiting for one.
    private let lock = Lock()
    /// The observed object, unretained; valid while `objectDied` is false.
    private let object: OpaquePointer
    private var objectDied = false
    private var subscribers = 0
    private var registration: Registration?
    private var token: ic_observer_token = 0

    init(object: OpaquePointer, target: Target, className: String) {
        self.object = object
        self.target = target
        self.className = className
    }

    /// A call of the intercepted method: `call` is the engine's frame invocation, valid only
    /// during this call.
    func deliver(_ call: OpaquePointer) {}

    /// The object's dealloc began (`object` is whole) or ended (`object` is a former address).
    func deliverDealloc(_ object: OpaquePointer?) {}

    /// Completes the subject(s) this sink feeds (its object has died).
    func complete() {}

    /// Whether this sink keeps its engine observer after the last subscriber left. Only
    /// `deallocated` does: it swaps no method, costs calls nothing, and is the only way to learn
    /// when the memory is gone (replayed to late subscribers).
    var staysRegistered: Bool { false }

    /// Whether an engine observer is installed now (tests and diagnostics).
    var isRegistered: Bool { lock.withLock { registration != nil } }

    /// Installs the engine observer unless one is installed (or the object died). Errors as the
    /// engine reports them.
    func register() throws(InterceptionError) {
        let status = lock.withLock { registerLocked() }
        try check(status)
    }

    /// The observable of `subject` that counts its subscriptions (see the type's comment).
    func observable<Element>(of subject: Observable<Element>) -> Observable<Element> {
        Observable._countingSubscriptions(
            of: subject,
            willSubscribe: { [self] in
                let status = lock.withLock {
                    subscribers += 1
                    let status = registerLocked()
                    if status != IC_OK { subscribers -= 1 }
                    return status
                }
                do { try check(status) } catch { return error }
                return nil
            },
            didDispose: { [self] in unsubscribed() })
    }

    /// The object is dying (its root dealloc releases its rx state): no more installations; its
    /// engine observers go with it.
    func objectWillDie() {
        lock.withLock {
            objectDied = true
            registration = nil
            token = 0
        }
    }

    private func unsubscribed() {
        let removed: ic_observer_token = lock.withLock {
            subscribers -= 1
            guard subscribers == 0, !staysRegistered, let registration else { return 0 }
            registration.active.store(false, ordering: .relaxed)
            self.registration = nil
            defer { token = 0 }
            return token
        }
        if removed != 0 {
            // OBSERVER_NOT_FOUND is fine: the object may have died since.
            _ = ic_intercept_remove_observer(removed)
        }
    }

    /// Caller holds `lock`.
    private func registerLocked() -> ic_status {
        if registration != nil || objectDied { return IC_OK }
        let fresh = Registration(sink: self)
        let context = Unmanaged.passRetained(fresh).toOpaque()
        var newToken: ic_observer_token = 0
        let status: ic_status
        switch target {
        case .call(let selector, let phase):
            status = ic_intercept_add_observer(
                object, selector.pointer, phase, sinkCallback, context, sinkRelease, &newToken)
        case .dealloc(let phase):
            status = ic_intercept_add_dealloc_observer(
                object, phase, sinkDeallocCallback, context, sinkRelease, &newToken)
        }
        if status != IC_OK {
            Unmanaged<Registration>.fromOpaque(context).release()
            if status == IC_ERR_DEALLOCATING, case .dealloc = target {
                // Requested while the object's dealloc runs: too late for an engine observer,
                // not for the event. ``DeallocSink/objectWillDie()`` delivers it.
                return IC_OK
            }
            return status
        }
        registration = fresh
        token = newToken
        return IC_OK
    }

    private func check(_ status: ic_status) throws(InterceptionError) {
        guard status != IC_OK else { return }
        let selector: Selector
        switch target {
        case .call(let s, _): selector = s
        case .dealloc: selector = KnownSelectors.shared.dealloc
        }
        // The encoding and the class are read only while the object is known to be alive.
        let (encoding, isClassMethod): (String?, Bool) = lock.withLock {
            guard !objectDied else { return (nil, false) }
            let encoding = ic_class_method_types(ic_intercept_original_class(object), selector.pointer).map {
                String(cString: $0)
            }
            return (encoding, InterceptionError.isClassObject(object))
        }
        throw InterceptionError.lastCError(
            status, className: className, selector: selector, encoding: encoding, isClassMethod: isClassMethod
        )
    }
}

/// One installation of a sink's engine observer: the C observer's context.
final class Registration: @unchecked Sendable {
    let sink: InterceptionSink
    /// Cleared (under the sink's lock) before the observer is removed; a call that still
    /// reaches a deactivated registration is dropped. Relaxed is enough: the store happens
    /// before any newer registration is published, and a call that reads this flag after seeing
    /// that newer one is ordered after the store by the engine's acquire/release publication.
    let active = Atomic<Bool>(true)

    init(sink: InterceptionSink) {
        self.sink = sink
    }
}

/// The engine's call observers: forward to the sink of the registration in the context. The
/// engine holds a +1 reference for as long as a call can reach here, so the call borrows it.
let sinkCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { call, context in
    Unmanaged<Registration>.fromOpaque(context!)._withUnsafeGuaranteedRef { registration in
        if registration.active.load(ordering: .relaxed) {
            registration.sink.deliver(call!)
        }
    }
}

/// The engine's dealloc observers: forward to the sink of the registration in the context.
let sinkDeallocCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    object, context in
    let registration = Unmanaged<Registration>.fromOpaque(context!).takeUnretainedValue()
    if registration.active.load(ordering: .relaxed) {
        registration.sink.deliverDealloc(object)
    }
}

/// Releases the registration a C observer referenced.
let sinkRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<Registration>.fromOpaque(context!).release()
}

/// Feeds `sentMessage` / `methodInvoked`: each call's arguments, boxed, into a hot subject.
final class ArgumentsSink: InterceptionSink, @unchecked Sendable {
    let subject = PublishSubject<[Any]>()
    /// One boxer per argument after self and _cmd, from the method's signature.
    private let boxers: [ArgumentBoxer]
    /// An arguments array whose buffer is reused from call to call when no subscriber kept the
    /// previous one (copy-on-write tells): a new `[Any]` per call costs an allocation and, on
    /// Linux, a generic-metadata lookup, about a third of a delivery (measured). Only the thread
    /// that set `scratchClaimed` touches `scratch`; others (concurrent calls) build their own.
    private var scratch: [Any] = []
    private let scratchClaimed = Atomic<Bool>(false)

    init(
        object: OpaquePointer, selector: Selector, phase: ic_observer_phase, className: String,
        signature: OpaquePointer
    ) {
        let count = ic_signature_argument_count(signature)
        boxers =
            count > 2
            ? (2..<count).map {
                ArgumentBoxer(encoding: String(cString: ic_signature_argument_type(signature, $0)))
            }
            : []
        super.init(object: object, target: .call(selector, phase), className: className)
    }

    override func deliver(_ call: OpaquePointer) {
        let count = boxers.count
        if count == 0 {
            subject.onNext([])  // the empty array literal allocates nothing
            return
        }
        if scratchClaimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            for i in 0..<count {
                scratch.append(
                    boxers[i].box(UnsafeRawPointer(ic_invocation_argument_pointer_inline(call, i + 2)!)))
            }
            subject.onNext(scratch)
            // Drop the values (objects among them must not outlive the call here), keep the
            // buffer. If a subscriber kept the array, this detaches from it instead.
            scratch.removeAll(keepingCapacity: true)
            scratchClaimed.store(false, ordering: .releasing)
            return
        }
        let arguments = ArgumentBoxer.box(boxers, of: call)
        subject.onNext(arguments)
    }

    override func complete() { subject.onCompleted() }
}

/// Feeds `deallocating` / `deallocated`: one event, replayed to late subscribers.
final class DeallocSink: InterceptionSink, @unchecked Sendable {
    let subject = ReplaySubject<Void>.create(bufferSize: 1)
    /// `deallocated` (after: the object is gone) completes with its event; `deallocating`
    /// completes when the object's other streams do, as its dealloc releases its rx state.
    private let isAfter: Bool

    init(object: OpaquePointer, after: Bool, className: String) {
        isAfter = after
        super.init(
            object: object, target: .dealloc(after ? IC_OBSERVE_AFTER : IC_OBSERVE_BEFORE),
            className: className)
    }

    override var staysRegistered: Bool { isAfter }

    override func deliverDealloc(_ object: OpaquePointer?) {
        subject.onNext(())
        if isAfter {
            subject.onCompleted()
        }
    }

    override func objectWillDie() {
        // A sink without an engine observer now either had no subscriber when the dealloc began
        // (`deallocating`) or was requested during the dealloc (either one): the event happened
        // or is about to (the memory goes right after), and late subscribers must see it.
        if !isRegistered {
            subject.onNext(())
            if isAfter { subject.onCompleted() }
        }
        super.objectWillDie()
    }

    override func complete() { subject.onCompleted() }
}
