// Classes and protocols: defining a class that adopts protocols, conformance, listing.
import CInterception
import Glibc

extension RuntimeClass {
    /// Defines and registers a class that adopts `protocols`, checking that it implements (itself
    /// or through its superclasses) every required instance method and every required class
    /// method (the builder's `classMethod`) of each protocol and of the protocols they
    /// incorporate, with the protocol's encoding.
    ///
    /// ```swift
    /// let Logger = try RuntimeClass.define("Logger", conformsTo: [Downloading]) { c in
    ///     try c.method("download:didFinish:") { (this: RuntimeObject, d: RuntimeObject?, ok: Bool) in }
    /// }
    /// ```
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_METHOD_NOT_FOUND` naming the first required method
    ///   missing (`-name` for an instance method, `+name` for a class method) and its protocol, `IC_ERR_SIGNATURE_MISMATCH` for a method whose encoding
    ///   differs from the protocol's; anything ``define(_:superclass:storageSize:_:)`` throws.
    ///   Nothing is registered then.
    public static func define(
        _ name: String, superclass: RuntimeClass = .root, storageSize: Int = 0,
        conformsTo protocols: [RuntimeProtocol],
        _ build: (Builder) throws -> Void
    ) throws -> RuntimeClass {
        guard let cls = ic_class_allocate(name, superclass.pointer, storageSize) else {
            throw RuntimeError.lastCError()
        }
        let builder = Builder(cls: cls, superclass: superclass)
        do {
            try build(builder)
            for p in protocols {
                try checkRequiredMethods(of: p, in: cls, name: name)
                try RuntimeError.check(ic_class_add_protocol(cls, p.pointer))
            }
            try RuntimeError.check(ic_class_register(cls))
        } catch {
            builder.discard()
            throw error
        }
        builder.seal()
        return RuntimeClass(unchecked: cls)
    }

    private static func checkRequiredMethods(of p: RuntimeProtocol, in cls: OpaquePointer, name: String)
        throws(RuntimeError)
    {
        var pending = [p]
        var visited = Set<RuntimeProtocol>()
        while let current = pending.popLast() {
            guard visited.insert(current).inserted else { continue }
            for d in current.methods(required: true) + current.methods(required: true, instance: false) {
                // Class methods are the metaclass's.
                let sign = d.isInstanceMethod ? "-" : "+"
                let owner = d.isInstanceMethod ? cls : ic_class_metaclass(cls)
                guard let types = ic_class_method_types(owner, d.selector.pointer) else {
                    throw RuntimeError(
                        IC_ERR_METHOD_NOT_FOUND,
                        "class \(name) does not implement \(sign)\(d.selector.name) (\(d.encoding)), required "
                            + "by protocol \(current.name)")
                }
                let implemented = String(cString: types)
                if ic_signature_parse(implemented) != ic_signature_parse(d.encoding) {
                    throw RuntimeError(
                        IC_ERR_SIGNATURE_MISMATCH,
                        "class \(name) implements \(sign)\(d.selector.name) as \(implemented), but protocol "
                            + "\(current.name) describes it as \(d.encoding)")
                }
            }
            pending += current.incorporatedProtocols
        }
    }

    /// Whether this class or a superclass adopted `p` or a protocol incorporating it.
    public func conforms(to p: RuntimeProtocol) -> Bool {
        ic_class_conforms_to_protocol(pointer, p.pointer)
    }

    /// The protocols this class itself adopted (not its superclasses'), in adoption order.
    public var protocols: [RuntimeProtocol] {
        var count = 0
        guard let list = ic_class_copy_protocol_list(pointer, &count) else { return [] }
        defer { free(list) }
        return (0..<count).map { RuntimeProtocol(unchecked: list[$0]!) }
    }
}

extension RuntimeObject {
    /// Whether the object conforms to `p`, as its `conformsToProtocol:` method answers (the root
    /// class's follows superclasses and incorporated protocols).
    public func conforms(to p: RuntimeProtocol) -> Bool {
        let sel = KnownProtocolSelectors.conformsToProtocol.pointer
        let imp = unsafeBitCast(ic_msg_lookup(pointer, sel), to: BoolPointerIMP.self)
        return imp(pointer, sel, p.pointer)
    }
}

typealias BoolPointerIMP = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Bool

enum KnownProtocolSelectors {
    static let conformsToProtocol = Selector("conformsToProtocol:")
}
