// Typed sends of class methods: `Counter.send("make:", Int32(3))`, the class object as receiver.
import CInterception

extension RuntimeClass {
    /// Sends the class method `selector` with `arguments` and returns its result as `R`: a send
    /// to ``asObject``, checked and cached as ``RuntimeObject/send(_:_:)->_`` is (the receiver's
    /// class is the metaclass).
    ///
    /// ```swift
    /// let Counter = try RuntimeClass.define("Counter") { c in
    ///     try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
    /// }
    /// let r: Int32 = try Counter.send("scale:", Int32(3))   // 300
    /// ```
    ///
    /// - Throws: as ``RuntimeObject/send(_:_:)->_``: `IC_ERR_METHOD_NOT_FOUND` if neither the
    ///   class nor a superclass has the class method (and the metaclass does not forward it),
    ///   `IC_ERR_SIGNATURE_MISMATCH` if the Swift types do not match its encoding.
    public func send<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    ) throws(RuntimeError) -> R {
        try asObject.send(selector, repeat each arguments)
    }

    /// Sends the class method `selector`, which returns nothing (`v`).
    ///
    /// - Throws: as the value-returning `send(_:_:)`.
    public func send<each A: RuntimeValue>(_ selector: Selector, _ arguments: repeat each A)
        throws(RuntimeError)
    {
        try asObject.send(selector, repeat each arguments) as Void
    }
}
