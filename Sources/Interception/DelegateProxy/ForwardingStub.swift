// The forwarding stub: the IMP a delegate proxy class gets for each protocol method it does not
// implement in Swift, which hands the call to the proxy's forward delegate.
import CInterception
import Synchronization

/// Makes the forwarding stub of a protocol method of signature `signature` (a method's) for a
/// proxy class whose forward-delegate slot is at `slotOffset`. The stub and its context live as
/// long as the class: forever.
///
/// A call whose values all travel in registers (the common delegate method: objects, integers,
/// `BOOL`, `double`) takes a register entry of the runtime (`ic_closure_imp_create_with_registers`)
/// and calls the forward delegate's implementation straight from the saved registers, with the
/// receiver swapped (``forwardingRegisterStub``): no libffi on either side. Any other signature,
/// or one made when the runtime's register entries are all taken, runs ``forwardingStub``
/// through a frame invocation. Both do the same thing; only the cost differs.
func makeForwardingStub(_ signature: OpaquePointer, slotOffset: Int) throws(RuntimeError) -> ic_imp {
    let result = String(cString: ic_signature_return_type(signature))
    let context = StubContext(slotOffset: slotOffset, vectorResult: result == "f" || result == "d")
    let retained = Unmanaged.passRetained(context)
    guard
        let imp = ic_closure_imp_create_with_registers(
            signature, forwardingStub, forwardingRegisterStub, retained.toOpaque(), nil)
    else {
        let error = RuntimeError.lastCError()
        retained.release()  // not handed over: creation failed
        throw error
    }
    return imp
}

/// What a forwarding stub knows: where the forward delegate's slot is, and the last delegate
/// class seen to implement the stub's selector (a one-entry cache of `respondsToSelector:`).
///
/// Why a cache: asking the delegate `respondsToSelector:` on every call takes the root's
/// method-list lock, a second mutex on a path that already takes the weak-reference lock. A YES
/// from the root's `respondsToSelector:` is permanent (methods are never removed), so it is
/// cached per stub by class, and used only while the delegate's `respondsToSelector:` is still the
/// root's (checked on every call with a lock-free lookup): a class that overrides it, even later,
/// is always asked.
private final class StubContext: Sendable {
    let slotOffset: Int
    /// Whether the method's result comes back in a floating-point register (`f`, `d`): where
    /// the register stub reads the forward delegate's result.
    let vectorResult: Bool
    /// The class (`ic_class *` bits) last found to implement the selector, or 0.
    let respondingClass = Atomic<UInt>(0)
    /// `respondsToSelector:` and the root's implementation of it, read once here: as lazily
    /// initialized globals they cost a `swift_once` call each per forward (perf).
    let respondsSelector = UInt(bitPattern: KnownSelectors.shared.respondsToSelector.pointer)
    let rootResponds = StubContext.rootRespondsToSelector

    init(slotOffset: Int, vectorResult: Bool) {
        self.slotOffset = slotOffset
        self.vectorResult = vectorResult
    }

    /// The root class's `respondsToSelector:` implementation.
    static let rootRespondsToSelector = UInt(
        bitPattern: unsafeBitCast(
            ic_class_get_imp(ic_class_root(), KnownSelectors.shared.respondsToSelector.pointer),
            to: OpaquePointer?.self))

    /// Whether `delegate` answers `selector`, through the cache when its answer is the root's.
    func responds(_ delegate: OpaquePointer, _ selector: OpaquePointer?) -> Bool {
        let respondsSel = OpaquePointer(bitPattern: respondsSelector)
        let imp = ic_msg_lookup(delegate, respondsSel)
        let usesRoot = UInt(bitPattern: unsafeBitCast(imp, to: OpaquePointer?.self)) == rootResponds
        let cls = UInt(bitPattern: ic_object_get_class(delegate))
        if usesRoot && respondingClass.load(ordering: .relaxed) == cls { return true }
        let answer = unsafeBitCast(imp, to: BoolSelectorIMP.self)(delegate, respondsSel, selector)
        if answer && usesRoot { respondingClass.store(cls, ordering: .relaxed) }
        return answer
    }
}

/// The frame callback of a forwarding stub (context: its ``StubContext``). Its frame's
/// return buffer starts zeroed, so a call nobody implements returns zero.
///
/// Receiver and selector are read from the frame's first two arguments (a stub's signature is a
/// method's, checked when the stub is made); the context is borrowed, not retained.
private let forwardingStub: ic_closure_fn = { invocation, context in
    guard let invocation, let context,
        let receiver = ic_invocation_argument_pointer_inline(invocation, 0)?.load(as: OpaquePointer?.self)
    else { return }
    let selector = ic_invocation_argument_pointer_inline(invocation, 1)?.load(as: OpaquePointer?.self)
    Unmanaged<StubContext>.fromOpaque(context)._withUnsafeGuaranteedRef { stub in
        let slot = DelegateProxyClass.slot(receiver, offset: stub.slotOffset)
        guard let delegate = ic_weak_load_retained(slot) else { return }
        defer { ic_release(delegate) }
        if stub.responds(delegate, selector) {
            invoke(invocation, on: delegate, restoring: receiver)
        }
    }
}

/// The register callback of a forwarding stub (context: its ``StubContext``): the call's
/// argument registers as saved by the register entry (`ic_closure_register_fn`). Returns zero
/// when there is no forward delegate or it does not answer the selector, as the frame stub does.
///
/// The forward delegate's implementation is called with the same registers but the receiver, so
/// each argument reaches it as the caller passed it (narrow integers already extended by the
/// caller, a `float` in the low bits of its vector register), and its result register is
/// returned as the stub's.
private let forwardingRegisterStub: ic_closure_register_fn = { registers, context in
    guard let registers, let context, let receiver = OpaquePointer(bitPattern: UInt(registers[0])) else {
        return 0
    }
    let selector = OpaquePointer(bitPattern: UInt(registers[1]))
    return Unmanaged<StubContext>.fromOpaque(context)._withUnsafeGuaranteedRef { stub in
        let slot = DelegateProxyClass.slot(receiver, offset: stub.slotOffset)
        guard let delegate = ic_weak_load_retained(slot) else { return 0 }
        defer { ic_release(delegate) }
        guard stub.responds(delegate, selector) else { return 0 }
        return callWithRegisters(
            ic_msg_lookup(delegate, selector), registers, receiver: delegate, vectorResult: stub.vectorResult)
    }
}

/// Calls `imp` with the saved argument registers `saved` (`ic_closure_register_fn`'s layout),
/// `receiver` in place of the first; returns the bits of its result register (the first vector
/// register if `vectorResult`, else the first integer one).
private func callWithRegisters(
    _ imp: ic_imp, _ saved: UnsafePointer<UInt64>, receiver: OpaquePointer, vectorResult: Bool
) -> UInt64 {
    #if (arch(x86_64) || arch(arm64)) && !os(Windows)
        let self_ = UInt64(UInt(bitPattern: receiver))
        #if arch(x86_64)
            let integers = (self_, saved[1], saved[2], saved[3], saved[4], saved[5])
        #else
            let integers = (self_, saved[1], saved[2], saved[3], saved[4], saved[5], saved[6], saved[7])
        #endif
        let v = saved + Int(IC_CLOSURE_INTEGER_REGISTERS)
        let vectors = (v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7])
        return callWithArgumentRegisters(imp, integers, vectors, vectorResult: vectorResult)
    #else
        preconditionFailure("no register entries on this architecture")
    #endif
}
