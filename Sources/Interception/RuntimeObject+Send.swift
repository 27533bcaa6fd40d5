// Typed message sends: `object.send("add:", Int32(41))` for any arity and result type, checked
// against the method's type encoding.
import CInterception

extension RuntimeObject {
    /// Sends `selector` with `arguments` and returns the method's result as `R`.
    ///
    /// The Swift types of the arguments and of the result make the call's type encoding (see
    /// ``RuntimeValue``), which must match the encoding of the method the object runs:
    ///
    /// ```swift
    /// let r: Int32 = try counter.send("add:", Int32(41))
    /// ```
    ///
    /// Integer literals are `Int` (`q`) unless you say otherwise, so `send("add:", 41)` against
    /// an `i@:i` method throws a mismatch; write `Int32(41)`.
    ///
    /// The check runs once per (receiver class, selector, Swift signature) and is cached;
    /// scalar and pointer calls with up to four integer and eight floating-point arguments are
    /// then made directly through registers, others through an invocation (libffi). A method
    /// that changes later (an override added, an implementation replaced) is re-checked on
    /// the next send.
    ///
    /// Objects the method returns are +0: the result handle takes its own reference.
    ///
    /// - Throws: ``RuntimeError`` with `IC_ERR_METHOD_NOT_FOUND` if the object neither
    ///   implements nor forwards `selector` ("unrecognized selector -[Counter foo:]"), or
    ///   `IC_ERR_SIGNATURE_MISMATCH` if the Swift types do not match the method's encoding.
    public func send<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        try Messenger.send(pointer, superclass: nil, selector, repeat each arguments, result: R.self)
    }

    /// Sends `selector` with `arguments` to a method that returns nothing (`v`).
    ///
    /// - Throws: as ``send(_:_:)-(_,repeat each A)->R``.
    public func send<each A: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let _: NoResult = try Messenger.send(
            pointer, superclass: nil, selector, repeat each arguments, result: NoResult.self)
    }

    /// Sends `selector` to the superclass implementation, from inside a method closure.
    ///
    /// Use it on the `this` a method closure received: the lookup starts at the superclass of
    /// the class that defines that method (not of the object's dynamic class, which may be any
    /// subclass), as Objective-C's `[super …]` does.
    ///
    /// - Throws: ``RuntimeError`` as ``send(_:_:)-(_,repeat each A)->R``, and
    ///   `IC_ERR_INVALID_ARGUMENT` on a handle that did not come from a method closure (use
    ///   ``sendSuper(from:_:_:)-(_,_,repeat each A)->R`` there) or from a root class method.
    public func sendSuper<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        let superclass = try superclassForSuperSend(selector)
        return try Messenger.send(
            pointer, superclass: superclass, selector, repeat each arguments, result: R.self)
    }

    /// ``sendSuper(_:_:)-(_,repeat each A)->R`` to a method that returns nothing.
    public func sendSuper<each A: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let superclass = try superclassForSuperSend(selector)
        let _: NoResult = try Messenger.send(
            pointer, superclass: superclass, selector, repeat each arguments, result: NoResult.self)
    }

    /// Sends `selector` starting the lookup at the superclass of `definingClass`: a super send
    /// on behalf of a method of `definingClass` (which must be the object's class or one of its
    /// superclasses).
    public func sendSuper<each A: RuntimeValue, R: RuntimeValue>(
        from definingClass: RuntimeClass, _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        let superclass = try superclassForSuperSend(from: definingClass.pointer, selector)
        return try Messenger.send(
            pointer, superclass: superclass, selector, repeat each arguments, result: R.self)
    }

    /// ``sendSuper(from:_:_:)-(_,_,repeat each A)->R`` to a method that returns nothing.
    public func sendSuper<each A: RuntimeValue>(
        from definingClass: RuntimeClass, _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let superclass = try superclassForSuperSend(from: definingClass.pointer, selector)
        let _: NoResult = try Messenger.send(
            pointer, superclass: superclass, selector, repeat each arguments, result: NoResult.self)
    }

    private func superclassForSuperSend(_ selector: Selector) throws(RuntimeError) -> OpaquePointer {
        guard let methodClass else {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "sendSuper(\(selector.name)) needs the `this` of a method closure, which knows the class "
                    + "defining the method; use sendSuper(from:) with that class")
        }
        return try superclassForSuperSend(from: methodClass, selector)
    }

    private func superclassForSuperSend(from definingClass: OpaquePointer, _ selector: Selector)
        throws(RuntimeError) -> OpaquePointer
    {
        guard ic_class_is_subclass_of(ic_object_get_class(pointer), definingClass) else {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "super send of \(selector.name) from \(String(cString: ic_class_name(definingClass))) "
                    + "to a \(String(cString: ic_object_class_name(pointer))), which is not one")
        }
        guard let superclass = ic_class_superclass(definingClass) else {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "super send of \(selector.name) from the root class, which has no superclass")
        }
        return superclass
    }
}

/// The send machinery shared by ``RuntimeObject/send(_:_:)-(_,repeat each A)->R`` and the super
/// sends.
enum Messenger {
    /// Checks (once, then from the cache) and performs a send of `selector` to `receiver`, with
    /// the lookup starting at the receiver's class, or at `superclass` for a super send.
    static func send<each A: RuntimeValue, R: RuntimeValue>(
        _ receiver: OpaquePointer, superclass: OpaquePointer?, _ selector: Selector,
        _ arguments: repeat each A, result: R.Type
    ) throws(RuntimeError) -> R {
        let lookupClass = superclass ?? ic_object_get_class(receiver)!
        let key = SendPlanKey(
            lookupClass: UInt(bitPattern: lookupClass), selector: UInt(bitPattern: selector.pointer),
            swiftSignature: ObjectIdentifier((R, repeat each A).self))
        let plan: SendPlan
        if let cached = SendPlanCache.shared.plan(for: key) {
            plan = cached
        } else {
            let made = try SendPlan.make(
                key: key, receiver: receiver, lookupClass: lookupClass, selector: selector,
                result: R.self, repeat (each A).self)
            plan = made.cacheable ? SendPlanCache.shared.insert(made) : made
        }

        // Only resolved once the plan exists: for a selector nobody implements or forwards,
        // the lookup itself would trap in the root's doesNotRecognizeSelector:.
        let imp: ic_imp
        if let superclass {
            var target = ic_super(receiver: receiver, super_class: superclass)
            imp = ic_msg_lookup_super(&target, selector.pointer)
        } else {
            imp = ic_msg_lookup(receiver, selector.pointer)
        }
        if plan.cacheable {
            let bits = UInt(bitPattern: unsafeBitCast(imp, to: Int.self))
            if bits != plan.validatedIMP.load(ordering: .relaxed) {
                try plan.revalidate(imp: bits, receiver: receiver, selector: selector)
            }
        }

        let mark = ReturnedObjects.mark
        defer { ReturnedObjects.drain(to: mark) }
        if let direct = plan.direct {
            return direct.call(
                imp, receiver: receiver, selector: selector.pointer, repeat each arguments, result: R.self)
        }
        return try InvocationCall.call(
            plan.signature, imp, receiver: receiver, selector: selector.pointer, repeat each arguments,
            result: R.self)
    }
}

/// The generic path of a send: an invocation, called through libffi, for any encoding.
enum InvocationCall {
    static func call<each A: RuntimeValue, R: RuntimeValue>(
        _ signature: OpaquePointer, _ imp: ic_imp, receiver: OpaquePointer, selector: OpaquePointer,
        _ arguments: repeat each A, result: R.Type
    ) throws(RuntimeError) -> R {
        guard let invocation = ic_invocation_create(signature) else {
            throw RuntimeError.lastCError()
        }
        defer { ic_invocation_destroy(invocation) }
        // The invocation's buffer is zeroed and sized by the signature, which was checked to
        // have each argument's size: storing the Swift values' bytes fills it exactly.
        ic_invocation_argument_pointer(invocation, 0)!.storeBytes(of: receiver, as: OpaquePointer.self)
        ic_invocation_argument_pointer(invocation, 1)!.storeBytes(of: selector, as: OpaquePointer.self)
        var index = 2
        for argument in repeat each arguments {
            let value = argument.runtimeRepresentation
            ic_invocation_argument_pointer(invocation, index)!.storeBytes(of: value, as: type(of: value))
            index += 1
        }
        try RuntimeError.check(ic_invocation_invoke_imp(invocation, imp))
        guard let returned = ic_invocation_return_pointer(invocation) else {
            // `void`: R is NoResult, which reads nothing meaningful.
            return withUnsafeBytes(of: UInt64(0)) {
                R(runtimeRepresentation: $0.loadUnaligned(as: R.RuntimeRepresentation.self))
            }
        }
        return R(runtimeRepresentation: returned.loadUnaligned(as: R.RuntimeRepresentation.self))
    }
}
