// RuntimeClass.Builder: adds methods to a class being defined, from typed Swift closures or C
// functions.
import CInterception

extension RuntimeClass {
    /// Adds methods and class methods to a class while
    /// ``RuntimeClass/define(_:superclass:storageSize:_:)`` runs.
    ///
    /// Method closures receive the receiver as `this` (for a class method, the class object:
    /// ``RuntimeObject/asClass`` gives the class), then the arguments, typed; the method's
    /// type encoding is derived from those Swift types (see ``RuntimeValue``). Closures must be
    /// `@Sendable`: any thread may send the message. Each becomes a closure IMP of the runtime,
    /// kept for the life of the class.
    ///
    /// The builder is usable only during `define`'s closure; afterwards every method throws.
    public final class Builder {
        let cls: OpaquePointer
        /// The superclass of the class being defined: where its super sends start.
        public let superclass: RuntimeClass
        /// Closure IMPs made for this class, destroyed if the definition fails.
        private var closures: [ic_imp] = []
        private var sealed = false

        init(cls: OpaquePointer, superclass: RuntimeClass) {
            self.cls = cls
            self.superclass = superclass
        }

        /// The name of the class being defined.
        public var name: String { String(cString: ic_class_name(cls)) }

        /// Adds a method implemented by `body`, which returns a value.
        ///
        /// ```swift
        /// try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }   // i@:i
        /// ```
        ///
        /// An object result is returned +0, as the runtime's methods do; it is kept alive until
        /// the caller retains it (see ``Runtime/autoreleasepool(_:)``).
        ///
        /// The closure may throw (every `method`, `classMethod` and `dealloc` closure may, and
        /// so may `RuntimeClass.replaceMethod`'s): a call of the method cannot,
        /// since C callers could not catch it, so the error goes to
        /// ``Runtime/methodErrorHandler`` with the class and the selector (``MethodError``) and
        /// the call returns zero (`nil`, `0`, `false`, an all-zero struct). A throwing closure
        /// must declare an object result optional (`RuntimeObject?`).
        ///
        /// ```swift
        /// try c.method("load:") { (this: RuntimeObject, path: String) -> Int in
        ///     try this.send("open:", path)   // a send that fails goes to the handler
        /// }
        /// ```
        ///
        /// - Throws: ``RuntimeError``: `IC_ERR_METHOD_EXISTS` if the class already has the
        ///   method, `IC_ERR_SIGNATURE_MISMATCH` for a type whose layout does not match its
        ///   encoding, `IC_ERR_INVALID_ARGUMENT` for `dealloc` (use ``dealloc(_:)``), `retain`
        ///   and `release` (a closure's `this` is itself retained and released).
        public func method<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
        ) throws(RuntimeError) {
            try add(to: cls, selector, body)
        }

        /// Adds a class method implemented by `body`, which returns a value: a method of the
        /// class's metaclass, sent to the class (``RuntimeClass/send(_:_:)->_``), inherited by
        /// subclasses' class objects. `this` is the class object.
        ///
        /// ```swift
        /// try c.classMethod("withValue:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
        /// ```
        ///
        /// - Throws: as `method(_:_:)`.
        public func classMethod<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
        ) throws(RuntimeError) {
            try add(to: ic_class_metaclass(cls), selector, body)
        }

        /// Adds a class method implemented by `body`, which returns nothing (`v`).
        ///
        /// - Throws: as `method(_:_:)`.
        public func classMethod<each A: RuntimeValue>(
            _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> Void
        ) throws(RuntimeError) {
            try add(to: ic_class_metaclass(cls), selector, body)
        }

        /// Adds a value-returning method closure to `target` (the class or its metaclass).
        private func add<each A: RuntimeValue, R: RuntimeValue>(
            to target: OpaquePointer, _ selector: Selector,
            _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> R
        ) throws(RuntimeError) {
            let returnsObject = R.runtimeEncoding == "@"
            try add(
                to: target, selector, result: R.self, repeat (each A).self,
                body: SwiftMethodBody(definingClass: target, body)
            ) { this, frame in
                var index = 2
                let result = body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
                MethodFrame.setResult(result, frame, returnsObject: returnsObject)
            }
        }

        /// Adds a method to the class whose thunk `invoke` reads the arguments from the frame,
        /// calls the user's closure with `this` and sets the result: the entry of the
        /// fixed-arity `method` overloads, whose thunks are specialized in the caller's module.
        /// `body` is the user's closure, which sends from Swift call directly
        /// (``SwiftMethodBody``); `registers` is the same thunk reading the saved argument
        /// registers (``MethodRegisters``), which calls from C take when the signature fits.
        @usableFromInline
        func addMethod<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, body: @escaping @Sendable (RuntimeObject, repeat each A) -> R,
            invoke: @escaping @Sendable (RuntimeObject, OpaquePointer) -> Void,
            registers: @escaping @Sendable (RuntimeObject, UnsafePointer<UInt64>) -> UInt64
        ) throws(RuntimeError) {
            try add(
                to: cls, selector, result: R.self, repeat (each A).self,
                body: SwiftMethodBody(definingClass: cls, body), invoke: invoke, registers: registers,
                readsRegisters: true)
        }

        /// Adds a closure IMP of the Swift signature to `target` that gives `invoke` a handle to
        /// the receiver (`this`) and the call's frame; `body`, if any, is the same method, typed.
        func add<each A: RuntimeValue, R: RuntimeValue>(
            to target: OpaquePointer, _ selector: Selector, result: R.Type, _ arguments: repeat (each A).Type,
            body: SwiftMethodBody<repeat each A, R>?,
            invoke: @escaping @Sendable (RuntimeObject, OpaquePointer) -> Void,
            registers: @escaping @Sendable (RuntimeObject, UnsafePointer<UInt64>) -> UInt64 = MethodRegisters
                .unavailable,
            readsRegisters: Bool = false
        ) throws(RuntimeError) {
            let readsRegisters = readsRegisters && MethodRegisters.agree(result: R.self, repeat (each A).self)
            try addClosure(to: target, selector, result: R.self, repeat (each A).self) {
                signature throws(RuntimeError) in
                let imp = try MethodClosure.makeIMP(
                    signature: signature, definingClass: target, invoke: invoke, registers: registers,
                    readsRegisters: readsRegisters)
                if let body {
                    SwiftMethodBodies.register(imp, body)
                }
                return imp
            }
        }

        /// Adds a method implemented by `body`, which returns nothing (`v`).
        ///
        /// ```swift
        /// try c.method("reset") { (this: RuntimeObject) in }   // v@:
        /// ```
        ///
        /// - Throws: as the value-returning `method(_:_:)`.
        public func method<each A: RuntimeValue>(
            _ selector: Selector, _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> Void
        ) throws(RuntimeError) {
            try add(to: cls, selector, body)
        }

        /// Adds a method closure that returns nothing to `target` (the class or its metaclass).
        private func add<each A: RuntimeValue>(
            to target: OpaquePointer, _ selector: Selector,
            _ body: @escaping @Sendable (RuntimeObject, repeat each A) -> Void
        ) throws(RuntimeError) {
            // No typed body (a closure literal cannot take a pack): the fixed-arity overloads,
            // which take every call of up to four arguments, give theirs.
            try add(to: target, selector, result: NoResult.self, repeat (each A).self, body: nil) {
                this, frame in
                var index = 2
                body(this, repeat MethodFrame.argument(frame, &index, as: (each A).self))
            }
        }

        /// Overrides `dealloc`: runs `body`, then the superclass's `dealloc`.
        ///
        /// The object is deallocating while `body` runs: still whole (its storage, associated
        /// objects and methods are usable) but weak references to it already read `nil`, and
        /// retaining it cannot keep it alive. The superclass's `dealloc` always runs after
        /// `body`, so an override cannot forget it; the root's `dealloc` releases associated
        /// objects, clears weak references and frees the memory.
        ///
        /// - Precondition: `body` does not let `this` escape (it would outlive the object):
        ///   this is checked when `body` returns, and traps.
        public func dealloc(_ body: @escaping @Sendable (RuntimeObject) -> Void) throws(RuntimeError) {
            let definingClass = UInt(bitPattern: cls)
            let superclass = UInt(bitPattern: self.superclass.pointer)
            let dealloc = KnownSelectors.shared.dealloc
            try addClosure(to: cls, dealloc, result: NoResult.self, allowReservedSelector: true) {
                signature throws(RuntimeError) in
                try MethodClosure.makeIMP(signature: signature) { frame in
                    let receiver = MethodFrame.receiver(frame)
                    MethodFrame.runDeallocBody(
                        receiver, methodClass: OpaquePointer(bitPattern: definingClass)!, body)
                    var target = ic_super(
                        receiver: receiver, super_class: OpaquePointer(bitPattern: superclass))
                    let superDealloc = unsafeBitCast(
                        ic_msg_lookup_super(&target, dealloc.pointer), to: VoidIMP.self)
                    superDealloc(receiver, dealloc.pointer)
                }
            }
        }

        /// Adds a method implemented by a C function, with an explicit type encoding: the escape
        /// hatch for what typed closures cannot express.
        ///
        /// ```swift
        /// try c.method("origin", encoding: "{Point=dd}@:", imp: someCFunctionPointer)
        /// ```
        ///
        /// - Parameters:
        ///   - selector: the method's name.
        ///   - encoding: the method's type encoding, which must describe `imp`'s real C type
        ///     (nothing can check that).
        ///   - imp: a `@convention(c)` function taking the receiver and the selector first. A
        ///     `dealloc` implemented this way must call the superclass's `dealloc` last itself.
        /// - Throws: ``RuntimeError``: `IC_ERR_INVALID_ARGUMENT` if `imp` is not a C function
        ///   pointer; the runtime's errors for the encoding or an existing method.
        public func method<F>(_ selector: Selector, encoding: String, imp: F) throws(RuntimeError) {
            try add(to: cls, selector, encoding: encoding, imp: imp)
        }

        /// `method(_:encoding:imp:)` for a class method: `imp` takes the class object first.
        public func classMethod<F>(_ selector: Selector, encoding: String, imp: F) throws(RuntimeError) {
            try add(to: ic_class_metaclass(cls), selector, encoding: encoding, imp: imp)
        }

        private func add<F>(to target: OpaquePointer, _ selector: Selector, encoding: String, imp: F)
            throws(RuntimeError)
        {
            try checkUsable()
            let typeName = String(describing: F.self)
            guard typeName.hasPrefix("@convention(c)"), MemoryLayout<F>.size == MemoryLayout<ic_imp>.size
            else {
                throw RuntimeError(
                    IC_ERR_INVALID_ARGUMENT,
                    "the implementation of \(selector.name) must be a @convention(c) function, not \(typeName)"
                )
            }
            try RuntimeError.check(
                ic_class_add_method(target, selector.pointer, unsafeBitCast(imp, to: ic_imp.self), encoding))
        }

        /// `method(_:encoding:imp:)` for an optional C function pointer (as C APIs
        /// import them); `nil` throws `IC_ERR_INVALID_ARGUMENT`.
        public func method<F>(_ selector: Selector, encoding: String, imp: F?) throws(RuntimeError) {
            guard let imp else {
                throw RuntimeError(IC_ERR_INVALID_ARGUMENT, "the implementation of \(selector.name) is nil")
            }
            try method(selector, encoding: encoding, imp: imp)
        }

        /// Makes a closure IMP for a Swift signature and adds it as the method `selector`.
        private func addClosure<each A: RuntimeValue, R: RuntimeValue>(
            to target: OpaquePointer, _ selector: Selector, result: R.Type, _ arguments: repeat (each A).Type,
            allowReservedSelector: Bool = false,
            makeIMP: (_ signature: OpaquePointer) throws(RuntimeError) -> ic_imp
        ) throws(RuntimeError) {
            try checkUsable()
            let known = KnownSelectors.shared
            if !allowReservedSelector, [known.dealloc, known.retain, known.release].contains(selector) {
                throw RuntimeError(
                    IC_ERR_INVALID_ARGUMENT,
                    selector == known.dealloc
                        ? "override dealloc with the builder's dealloc { } (it calls super for you)"
                        : "\(selector.name) cannot be a Swift closure: the closure's `this` would "
                            + "\(selector.name) the object again")
            }
            try TypeEncoding.checkLayouts(result: R.self, repeat (each A).self)
            let encoding = TypeEncoding.methodEncoding(result: R.runtimeEncoding, repeat (each A).self)
            guard let signature = ic_signature_parse(encoding) else {
                throw RuntimeError.lastCError()
            }
            let imp = try makeIMP(signature)
            let status = ic_class_add_method(target, selector.pointer, imp, encoding)
            guard status == IC_OK else {
                let error = RuntimeError.lastCError()
                MethodClosure.destroy(imp)
                throw error
            }
            closures.append(imp)
        }

        func checkUsable() throws(RuntimeError) {
            if sealed {
                throw RuntimeError(
                    IC_ERR_CLASS_ALREADY_REGISTERED,
                    "the builder of \(name) was used after define returned")
            }
        }

        /// The definition failed: frees the unregistered class, then the closures it used
        /// (no longer installed anywhere, never called: the class never had instances).
        func discard() {
            sealed = true
            ic_class_dispose(cls)
            for closure in closures {
                MethodClosure.destroy(closure)
            }
            closures.removeAll()
        }

        /// The class is registered: its closures now live as long as it does (forever).
        func seal() {
            sealed = true
            closures.removeAll()
        }
    }
}

extension MethodFrame {
    /// Runs a `dealloc` body with a handle to the deallocating receiver, and makes sure the
    /// handle is gone before the superclass's `dealloc` frees the object. Not inlined, so the
    /// handle's release is over when this returns.
    @inline(never)
    static func runDeallocBody(
        _ receiver: OpaquePointer, methodClass: OpaquePointer, _ body: @Sendable (RuntimeObject) -> Void
    ) {
        // Retaining a deallocating object has no effect on its lifetime, nor does the release
        // when this handle dies: the object is not resurrected, nor deallocated twice.
        var this = RuntimeObject(retaining: receiver, methodClass: methodClass)
        body(this)
        precondition(
            isKnownUniquelyReferenced(&this),
            "a RuntimeObject for a deallocating \(String(cString: ic_object_class_name(receiver))) "
                + "escaped its dealloc closure; it would outlive the object")
    }
}
