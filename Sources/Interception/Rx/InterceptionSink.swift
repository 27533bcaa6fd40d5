// InterceptionSink: the Swift end of one C observer of the interception engine.
import CInterception
import RxCore
import Synchronization

/// The Swift side of one observer registered with the interception engine.
///
/// Ownership: the C observer's context is a +1 reference to the sink, released by the engine
/// (`sinkRelease`) once the observer is removed or its object has died and no call of it can
/// still be running. The object's ``InterceptionState`` also references its sinks, to hand out
/// the same subject to every request and to complete it when the object dies.
///
/// Threading: `deliver` runs on the thread that called the intercepted method (several at once
/// if several threads call it); the subjects it feeds serialize delivery to each subscriber.
class InterceptionSink: @unchecked Sendable {
    /// A call of the intercepted method: `call` is the engine's frame invocation, valid only
    /// during this call.
    func deliver(_ call: OpaquePointer) {}

    /// The object's dealloc began (`object` is whole) or ended (`object` is a former address).
    func deliverDealloc(_ object: OpaquePointer?) {}

    /// Completes the subject(s) this sink feeds (its object has died).
    func complete() {}

    /// Registers this sink with the engine as an observer of `selector` on `object`.
    func install(on object: OpaquePointer, selector: Selector, phase: ic_observer_phase) -> ic_status {
        var token: ic_observer_token = 0
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = ic_intercept_add_observer(
            object, selector.pointer, phase, sinkCallback, context, sinkRelease, &token)
        if status != IC_OK {
            Unmanaged<InterceptionSink>.fromOpaque(context).release()
        }
        return status
    }

    /// Registers this sink with the engine as a dealloc observer of `object`.
    func installDealloc(on object: OpaquePointer, phase: ic_observer_phase) -> ic_status {
        var token: ic_observer_token = 0
        let context = Unmanaged.passRetained(self).toOpaque()
        let status = ic_intercept_add_dealloc_observer(
            object, phase, sinkDeallocCallback, context, sinkRelease, &token)
        if status != IC_OK {
            Unmanaged<InterceptionSink>.fromOpaque(context).release()
        }
        return status
    }
}

/// The engine's call observers: forward to the sink in the context. The engine holds a +1
/// reference for as long as a call can reach here, so the call borrows it (no retain/release).
let sinkCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { call, context in
    Unmanaged<InterceptionSink>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.deliver(call!) }
}

/// The engine's dealloc observers: forward to the sink in the context.
let sinkDeallocCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    object, context in
    Unmanaged<InterceptionSink>.fromOpaque(context!).takeUnretainedValue().deliverDealloc(object)
}

/// Releases the sink a C observer referenced.
let sinkRelease: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<InterceptionSink>.fromOpaque(context!).release()
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

    init(signature: OpaquePointer) {
        let count = ic_signature_argument_count(signature)
        boxers =
            count > 2
            ? (2..<count).map {
                ArgumentBoxer(encoding: String(cString: ic_signature_argument_type(signature, $0)))
            }
            : []
    }

    override func deliver(_ call: OpaquePointer) {
        let count = boxers.count
        if count == 0 {
            subject.onNext([])  // the empty array literal allocates nothing
            return
        }
        if scratchClaimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            for i in 0..<count {
                scratch.append(boxers[i].box(UnsafeRawPointer(ic_invocation_argument_pointer(call, i + 2)!)))
            }
            subject.onNext(scratch)
            // Drop the values (objects among them must not outlive the call here), keep the
            // buffer. If a subscriber kept the array, this detaches from it instead.
            scratch.removeAll(keepingCapacity: true)
            scratchClaimed.store(false, ordering: .releasing)
            return
        }
        // One allocation: the array's buffer, filled in place.
        let arguments = [Any](unsafeUninitializedCapacity: count) { buffer, initialized in
            boxers.withUnsafeBufferPointer { boxers in
                for i in 0..<count {
                    let argument = UnsafeRawPointer(ic_invocation_argument_pointer(call, i + 2)!)
                    (buffer.baseAddress! + i).initialize(to: boxers[i].box(argument))
                }
            }
            initialized = count
        }
        subject.onNext(arguments)
    }

    override func complete() { subject.onCompleted() }
}

/// Feeds `deallocating` / `deallocated`: one event, replayed to late subscribers.
final class DeallocSink: InterceptionSink, @unchecked Sendable {
    let subject = ReplaySubject<Void>.create(bufferSize: 1)
    /// `deallocated` completes with its event (the object is gone); `deallocating` completes when
    /// the object's other streams do, as its dealloc releases its associated state.
    private let completesWithEvent: Bool

    init(completesWithEvent: Bool) {
        self.completesWithEvent = completesWithEvent
    }

    override func deliverDealloc(_ object: OpaquePointer?) {
        subject.onNext(())
        if completesWithEvent {
            subject.onCompleted()
        }
    }

    override func complete() { subject.onCompleted() }
}
