// Replacing a method of a registered class from Swift (SPEC 14), with a typed closure or a C
// function: what `ic_class_replace_method` does in C.
import CInterception

extension RuntimeClass {
    /// Makes `body` the implementation of `selector` for this class and its subclasses that do
    /// not override it: replaces this class's own method, or, if the method is inherited (or
    /// new), adds one to this class.
    ///
    /// ```swift
    /// try Counter.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 2 }
    /// ```
    ///
    /// Caches are invalidated: the next send runs `body`, on objects that exist already too, and
    /// through interception (a trampoline runs the class's current implementation). The closure
    /// becomes a closure IMP that lives as long as the class (forever); so does every closure
    /// replaced later, since a call may still be running it.
    ///
    /// - Returns: this class's previous implementation, `nil` if the class did not have the
    ///   method itself (it inherited it, or nobody had it). Cast it to its C function type to
    ///   call it.
    /// - Throws: ``RuntimeError``: `IC_ERR_SIGNATURE_MISMATCH` if the closure's Swift types do not
    ///   match the encoding of the method the class has or inherits (the method keeps its
    ///   encoding), `IC_ERR_INVALID_ARGUMENT` for `dealloc`, `retain` and `release` (as in
    ///   the builder's `method(_:_:)`).
    @discardableResult
    public func replaceMethod<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
    ) throws(RuntimeError) -> ic_imp? {
        let returnsObject = R.runtimeEncoding == "@"
        let typed = SwiftMethodBody(definingClass: pointer, body)
        return try replaceWithClosure(selector, result: R.self, repeat (each A).self, body: typed) {
            this, frame in
            var index = 2
            let result = body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
            MethodFrame.setResult(result, frame, returnsObject: returnsObject)
        }
    }

    /// `replaceMethod(_:_:)` for a closure that returns nothing (`v`).
    @discardableResult
    public func replaceMethod<each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> Void
    ) throws(RuntimeError) -> ic_imp? {
        // No typed body: a closure literal cannot take a pack (sends call the closure IMP).
        return try replaceWithClosure(selector, result: NoResult.self, repeat (each A).self, body: nil) {
            this, frame in
            var index = 2
            body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
        }
    }

    /// Makes the C function `imp` the implementation of `selector` for this class: the escape
    /// hatch for what typed closures cannot express (any selector, `dealloc` included, whose
    /// replacement must then call the superclass's `dealloc` last itself).
    ///
    /// - Parameters:
    ///   - selector: the method whose implementation is replaced (or added).
    ///   - encoding: `imp`'s type encoding, which must describe its real C type (nothing can
    ///     check that). If the class has or inherits the method, the encodings must agree, and
    ///     the method keeps its own.
    ///   - imp: a `@convention(c)` function taking the receiver and the selector first.
    /// - Returns: this class's previous implementation, `nil` if it did not have the method
    ///   itself.
    /// - Throws: ``RuntimeError``: `IC_ERR_INVALID_ARGUMENT` if `imp` is not a C function
    ///   pointer, `IC_ERR_SIGNATURE_MISMATCH` if `encoding` disagrees with the method's, the
    ///   runtime's errors for a malformed encoding.
    @discardableResult
    public func replaceMethod<F>(_ selector: Selector, encoding: String, imp: F) throws(RuntimeError)
        -> ic_imp?
    {
        let typeName = String(describing: F.self)
        guard typeName.hasPrefix("@convention(c)"), MemoryLayout<F>.size == MemoryLayout<ic_imp>.size else {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "the implementation of \(selector.name) must be a @convention(c) function, not \(typeName)")
        }
        let existing = method(for: selector)?.encoding
        if let existing {
            let new = ic_signature_parse(encoding)
            let old = ic_signature_parse(existing)
            let agree =
                if let new, let old {
                    TypeEncoding.compatible(swiftSignature: new, methodSignature: old)
                } else {
                    encoding == existing
                }
            guard agree else {
                throw RuntimeError.signatureMismatch(
                    className: name, selector: selector, isClassMethod: isMetaclass, methodEncoding: existing,
                    swiftEncoding: encoding)
            }
        }
        var previous: ic_imp?
        try RuntimeError.check(
            ic_class_replace_method(
                pointer, selector.pointer, unsafeBitCast(imp, to: ic_imp.self), existing ?? encoding,
                &previous))
        return previous
    }

    /// Makes a closure IMP for a Swift signature and installs it as `selector`.
    func replaceWithClosure<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, result: R.Type, _ arguments: repeat (each A).Type,
        body: SwiftMethodBody<repeat each A, R>?,
        invoke: @escaping @Sendable (RuntimeObject, OpaquePointer) -> Void
    ) throws(RuntimeError) -> ic_imp? {
        let known = KnownSelectors.shared
        if [known.dealloc, known.retain, known.release].contains(selector) {
            throw RuntimeError(
                IC_ERR_INVALID_ARGUMENT,
                "\(selector.name) cannot be replaced by a Swift closure (a closure's `this` retains and "
                    + "releases the object); use replaceMethod(_:encoding:imp:) with a C function")
        }
        try TypeEncoding.checkLayouts(result: R.self, repeat (each A).self)
        let encoding = TypeEncoding.methodEncoding(result: R.runtimeEncoding, repeat (each A).self)
        guard let signature = ic_signature_parse(encoding) else {
            throw RuntimeError.lastCError()
        }
        // The method keeps its encoding; the closure must be callable as it.
        let existing = method(for: selector)?.encoding
        if let existing {
            guard let methodSignature = ic_signature_parse(existing),
                TypeEncoding.compatible(swiftSignature: signature, methodSignature: methodSignature)
            else {
                throw RuntimeError.signatureMismatch(
                    className: name, selector: selector, isClassMethod: isMetaclass, methodEncoding: existing,
                    swiftEncoding: encoding)
            }
        }
        let imp = try MethodClosure.makeIMP(signature: signature, definingClass: pointer, invoke: invoke)
        // Registered before the IMP is installed, so that a plan made as soon as it runs finds
        // it (one made without it would only call the IMP, not go wrong).
        if let body {
            SwiftMethodBodies.register(imp, body)
        }
        var previous: ic_imp?
        let status = ic_class_replace_method(pointer, selector.pointer, imp, existing ?? encoding, &previous)
        guard status == IC_OK else {
            let error = RuntimeError.lastCError()
            MethodClosure.destroy(imp)  // never installed, never called
            throw error
        }
        return previous
    }
}
