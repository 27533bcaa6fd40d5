// Defining classes from Swift.
import CInterception

extension RuntimeClass {
    /// Defines and registers a class named `name`, whose methods `build` adds.
    ///
    /// ```swift
    /// let Counter = try RuntimeClass.define("Counter") { c in
    ///     try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
    ///     try c.method("reset") { (this: RuntimeObject) in }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: the class name, unique in the process.
    ///   - superclass: the superclass; the root class by default.
    ///   - storageSize: bytes of per-instance storage this class adds (see
    ///     ``RuntimeObject/storage(for:)``).
    ///   - build: adds methods through the ``Builder``; runs before the class is registered.
    /// - Returns: the registered class. Registered classes, their methods and the closures
    ///   backing them live as long as the process.
    /// - Throws: ``RuntimeError`` (`IC_ERR_DUPLICATE_CLASS`, an encoding error…) or whatever
    ///   `build` throws. Nothing is registered then: the class and the closures made for it
    ///   are freed.
    public static func define(
        _ name: String, superclass: RuntimeClass = .root, storageSize: Int = 0,
        _ build: (Builder) throws -> Void
    ) throws -> RuntimeClass {
        guard let cls = ic_class_allocate(name, superclass.pointer, storageSize) else {
            throw RuntimeError.lastCError()
        }
        let builder = Builder(cls: cls, superclass: superclass)
        do {
            try build(builder)
            try RuntimeError.check(ic_class_register(cls))
        } catch {
            builder.discard()
            throw error
        }
        builder.seal()
        return RuntimeClass(unchecked: cls)
    }
}
