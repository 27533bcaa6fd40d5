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
    ///   implements nor forwards `selector` ("unrecognized selector -[Counter foo:]"; an object
    ///   forwards a selector when its class overrides `forwardInvocation:` and its
    ///   `methodSignatureForSelector:` answers for the selector), or
    ///   `IC_ERR_SIGNATURE_MISMATCH` if the Swift types do not match the method's encoding.
    @inlinable
    public func send<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        var signature = SwiftSignature(R.self)
        repeat signature.append((each A).self)
        guard let fast = fastSend(selector, signature) else {
            return try sendChecked(selector, signature, repeat each arguments)
        }
        if let body = fast.swiftMethodBody(as: SwiftMethodBody<repeat each A, R>.self) {
            return body._withUnsafeGuaranteedRef { $0.call(pointer, repeat each arguments) }
        }
        guard fast.callsThroughRegisters else {
            return try sendChecked(selector, signature, repeat each arguments)
        }
        var fastArguments = fast.arguments
        repeat fastArguments.place(each arguments)
        return fast.result(receiver: pointer, selector: selector.pointer, fastArguments)
    }

    /// Sends `selector` with `arguments` to a method that returns nothing (`v`).
    ///
    /// - Throws: as the value-returning `send(_:_:)`.
    @inlinable
    public func send<each A: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let _: NoResult = try send(selector, repeat each arguments)
    }

    /// The checked path of every send: makes (or revalidates) the plan, then calls through
    /// registers or an invocation. Not inlined: the specialized `send` bodies stay small.
    ///
    /// - Parameter superclass: `nil` for a send, the class where the lookup starts for a
    ///   super send.
    @usableFromInline
    func sendChecked<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ signature: borrowing SwiftSignature, superclass: OpaquePointer? = nil,
        _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        var call = try MessageCall(
            receiver: pointer, superclass: superclass, selector: selector, signature: signature
        ) {
            key, lookupClass throws(RuntimeError) in
            try SendPlan.make(
                key: key, receiver: pointer, lookupClass: lookupClass, selector: selector, result: R.self,
                repeat (each A).self)
        }
        var registers = RegisterFile()
        repeat call.append(each arguments, to: &registers)
        return try call.invoke(returning: R.self, registers: registers)
    }

    /// Sends `selector` to the superclass implementation, from inside a method closure.
    ///
    /// Use it on the `this` a method closure received: the lookup starts at the superclass of
    /// the class that defines that method (not of the object's dynamic class, which may be any
    /// subclass), as Objective-C's `[super …]` does.
    ///
    /// - Throws: ``RuntimeError`` as the value-returning `send(_:_:)`, and
    ///   `IC_ERR_INVALID_ARGUMENT` on a handle that did not come from a method closure (use
    ///   `sendSuper(from:_:_:)` there) or from a root class method.
    public func sendSuper<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        let superclass = try superclassForSuperSend(selector)
        return try sendSuper(superclass, selector, repeat each arguments, result: R.self)
    }

    /// `sendSuper(_:_:)` to a method that returns nothing.
    public func sendSuper<each A: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let superclass = try superclassForSuperSend(selector)
        _ = try sendSuper(superclass, selector, repeat each arguments, result: NoResult.self)
    }

    /// Sends `selector` starting the lookup at the superclass of `definingClass`: a super send
    /// on behalf of a method of `definingClass` (which must be the object's class or one of its
    /// superclasses).
    public func sendSuper<each A: RuntimeValue, R: RuntimeValue>(
        from definingClass: RuntimeClass, _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        let superclass = try superclassForSuperSend(from: definingClass.pointer, selector)
        return try sendSuper(superclass, selector, repeat each arguments, result: R.self)
    }

    /// `sendSuper(from:_:_:)` to a method that returns nothing.
    public func sendSuper<each A: RuntimeValue>(
        from definingClass: RuntimeClass, _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) {
        let superclass = try superclassForSuperSend(from: definingClass.pointer, selector)
        _ = try sendSuper(superclass, selector, repeat each arguments, result: NoResult.self)
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

    /// The super sends share this body (a super send is rarer than a send, so they pay the
    /// pack forwarding that the two `send` methods avoid).
    private func sendSuper<each A: RuntimeValue, R: RuntimeValue>(
        _ superclass: OpaquePointer, _ selector: Selector, _ arguments: repeat each A, result: R.Type
    ) throws(RuntimeError) -> R {
        var signature = SwiftSignature(R.self)
        repeat signature.append((each A).self)
        return try sendChecked(selector, signature, superclass: superclass, repeat each arguments)
    }
}
