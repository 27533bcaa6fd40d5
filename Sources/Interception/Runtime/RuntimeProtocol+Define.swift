// Defining protocols from Swift: method descriptions from typed signatures.
import CInterception

extension RuntimeProtocol {
    /// Defines and registers a protocol named `name`, whose method descriptions `build` adds.
    ///
    /// ```swift
    /// let Downloading = try RuntimeProtocol.define("Downloading") { p in
    ///     try p.required("download:didFinish:", (RuntimeObject?, Bool).self)        // v@:@B
    ///     try p.optional("download:progress:", (RuntimeObject?, Double).self)       // v@:@d
    ///     try p.optional("shouldRetry:", RuntimeObject?.self, returns: Bool.self)   // B@:@
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the protocol name, unique among protocols in the process.
    ///   - incorporating: protocols this one incorporates (`@protocol Name <Other>`).
    ///   - build: adds method descriptions through the ``Builder``; runs before registration.
    /// - Returns: the registered protocol, immutable and immortal.
    /// - Throws: ``RuntimeError`` (`IC_ERR_DUPLICATE_CLASS` for a name in use, an encoding
    ///   error, `IC_ERR_METHOD_EXISTS` for a selector described twice) or whatever `build`
    ///   throws. Nothing is registered then.
    public static func define(
        _ name: String, incorporating: [RuntimeProtocol] = [], _ build: (Builder) throws -> Void = { _ in }
    ) throws -> RuntimeProtocol {
        guard let p = ic_protocol_allocate(name) else { throw RuntimeError.lastCError() }
        let builder = Builder(pointer: p)
        do {
            for other in incorporating {
                try RuntimeError.check(ic_protocol_add_protocol(p, other.pointer))
            }
            try build(builder)
            try RuntimeError.check(ic_protocol_register(p))
        } catch {
            builder.sealed = true
            ic_protocol_dispose(p)
            throw error
        }
        builder.sealed = true
        return RuntimeProtocol(unchecked: p)
    }

    /// Adds method descriptions to a protocol while ``RuntimeProtocol/define(_:incorporating:_:)``
    /// runs. Encodings come from Swift types as ``RuntimeClass/Builder``'s do (see
    /// ``RuntimeValue``): the argument types are given as a tuple type, `Void.self` for none, a
    /// single type for one.
    ///
    /// The builder is usable only during `define`'s closure; afterwards every method throws.
    public final class Builder {
        let pointer: OpaquePointer
        var sealed = false

        init(pointer: OpaquePointer) {
            self.pointer = pointer
        }

        /// Describes a required method returning nothing.
        public func required<each A: RuntimeValue>(
            _ selector: Selector, _ arguments: (repeat each A).Type, returns: Void.Type = Void.self,
            classMethod: Bool = false
        ) throws(RuntimeError) {
            try add(
                selector, result: NoResult.self, repeat (each A).self, required: true,
                classMethod: classMethod)
        }

        /// Describes a required method returning `R`.
        public func required<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, _ arguments: (repeat each A).Type, returns: R.Type,
            classMethod: Bool = false
        ) throws(RuntimeError) {
            try add(selector, result: R.self, repeat (each A).self, required: true, classMethod: classMethod)
        }

        /// Describes an optional method returning nothing.
        public func optional<each A: RuntimeValue>(
            _ selector: Selector, _ arguments: (repeat each A).Type, returns: Void.Type = Void.self,
            classMethod: Bool = false
        ) throws(RuntimeError) {
            try add(
                selector, result: NoResult.self, repeat (each A).self, required: false,
                classMethod: classMethod)
        }

        /// Describes an optional method returning `R`.
        public func optional<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, _ arguments: (repeat each A).Type, returns: R.Type,
            classMethod: Bool = false
        ) throws(RuntimeError) {
            try add(selector, result: R.self, repeat (each A).self, required: false, classMethod: classMethod)
        }

        /// Describes a method with an explicit type encoding (return type, `@`, `:`, arguments):
        /// the escape hatch for what Swift types cannot express.
        public func method(
            _ selector: Selector, encoding: String, required: Bool, classMethod: Bool = false
        ) throws(RuntimeError) {
            try checkUsable()
            try RuntimeError.check(
                ic_protocol_add_method_description(
                    pointer, selector.pointer, encoding, required, !classMethod))
        }

        /// Makes this protocol incorporate `other` (registered).
        public func incorporate(_ other: RuntimeProtocol) throws(RuntimeError) {
            try checkUsable()
            try RuntimeError.check(ic_protocol_add_protocol(pointer, other.pointer))
        }

        private func add<each A: RuntimeValue, R: RuntimeValue>(
            _ selector: Selector, result: R.Type, _ arguments: repeat (each A).Type, required: Bool,
            classMethod: Bool
        ) throws(RuntimeError) {
            try TypeEncoding.checkLayouts(result: R.self, repeat (each A).self)
            let encoding = TypeEncoding.methodEncoding(result: R.runtimeEncoding, repeat (each A).self)
            try method(selector, encoding: encoding, required: required, classMethod: classMethod)
        }

        private func checkUsable() throws(RuntimeError) {
            if sealed {
                throw RuntimeError(
                    IC_ERR_CLASS_ALREADY_REGISTERED,
                    "the builder of protocol \(String(cString: ic_protocol_name(pointer))) was used after define returned"
                )
            }
        }
    }
}
