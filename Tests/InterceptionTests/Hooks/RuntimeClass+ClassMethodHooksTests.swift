import CInterception
@testable import Interception
import Testing

// Area: Swift hooks on class methods (HookTarget on a metaclass). Purpose: before / instead /
// after on a class method, typed, on the class and its subclasses; cancelling restores the
// method; a class object cannot be hooked as an object.

@Suite("Swift class-method hooks")
struct RuntimeClassClassMethodHooksTests {
    @Test("before, instead and after hooks on a class method, through the metaclass; cancelling restores it")
    func positions() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("SCMHook")) { c in
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("original \(x)")
                return x * 100
            }
        }
        let sub = try RuntimeClass.define(uniqueName("SCMHookSub"), superclass: cls) { _ in }
        let original = cls.metaclass.method(for: "scale:")!.implementation
        let before = try cls.metaclass.hookBeforeReplacingArguments("scale:") {
            (this: RuntimeObject, x: Int32) in
            log.append("before \(this.asClass?.name == sub.name ? "sub" : "base")")
            return x + 1
        }
        let instead = try cls.metaclass.hookInstead("scale:") {
            (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
            original(x) + 5
        }
        let after = try cls.metaclass.hookAfter("scale:") { (result: Int32, this: RuntimeObject, x: Int32) in
            log.append("after \(result)")
            return -result
        }
        #expect(try sub.send("scale:", Int32(1)) as Int32 == -205)
        #expect(log.all == ["before sub", "original 2", "after 205"])
        for token in [after, before, instead] { token.cancel() }
        #expect(try cls.send("scale:", Int32(1)) as Int32 == 100)
        #expect(
            unsafeBitCast(cls.metaclass.method(for: "scale:")!.implementation, to: UInt.self)
                == unsafeBitCast(original, to: UInt.self))
    }

    @Test("a class object cannot be hooked as one object; the error points at the metaclass")
    func classObjectRefused() throws {
        let cls = try RuntimeClass.define(uniqueName("SCMHookRefuse")) { c in
            try c.classMethod("ping") { (this: RuntimeObject) in }
        }
        #expect(throws: InterceptionError.self) {
            try cls.asObject.hookBefore("ping") { (this: RuntimeObject) in }
        }
        #expect(throws: InterceptionError.self) {
            try cls.metaclass.hookBefore("ping") { (this: RuntimeObject, x: Int32) in }
        }
        try cls.send("ping")
    }

    @Test("refusals of class-method hooks name the method +[Class selector], instance ones -[Class selector]")
    func refusalsNameClassMethodsWithPlus() throws {
        let cls = try RuntimeClass.define(uniqueName("SCMHookText")) { c in
            try c.classMethod("ping") { (this: RuntimeObject) in }
            try c.method("pong") { (this: RuntimeObject) in }
        }
        let name = cls.name
        let missing = try #require(throws: InterceptionError.self) {
            try cls.metaclass.hookBefore("nope") { (this: RuntimeObject) in }
        }
        #expect(missing == .selectorNotImplemented(className: name, selector: "nope", isClassMethod: true))
        #expect(missing.isClassMethod)
        #expect(
            "\(missing)" == "cannot add a before hook to +[\(name) nope]: the class does not implement it")
        let mismatch = try #require(throws: InterceptionError.self) {
            try cls.metaclass.hookBefore("ping") { (this: RuntimeObject, x: Int32) in }
        }
        #expect(
            "\(mismatch)"
                == "cannot add a before hook to +[\(name) ping]: the closure takes 1 argument after the receiver, the method 0"
        )
        // Refused by the C engine (a forbidden selector): the same sign, in Swift and in C's text.
        let forbidden = try #require(throws: InterceptionError.self) {
            try cls.metaclass.hookBefore("retain") { (this: RuntimeObject) in }
        }
        #expect("\(forbidden)".hasPrefix("cannot add a before hook to +[\(name) retain]"))
        #expect(
            String(cString: ic_error_message())
                == "cannot add a before hook to +[\(name) retain]: the runtime and the engine rely on it")
        // A class object hooked as an object (refused): its methods are class methods too.
        let asObject = try #require(throws: InterceptionError.self) {
            try cls.asObject.hookBefore("ping") { (this: RuntimeObject) in }
        }
        #expect(asObject.isClassMethod)
        #expect("\(asObject)".contains("+[\(name) ping]"))
        // Instance methods keep the minus.
        let instance = try #require(throws: InterceptionError.self) {
            try cls.hookBefore("nope") { (this: RuntimeObject) in }
        }
        #expect(!instance.isClassMethod)
        #expect(
            "\(instance)" == "cannot add a before hook to -[\(name) nope]: the class does not implement it")
    }

    @Test("the error a class-method hook throws is described as +[Class selector]")
    func hookErrorNamesClassMethodWithPlus() {
        struct Oops: Error {}
        // Made directly: the handler is process-wide, and swapping it here would race with the
        // one test that does (RuntimeObject+HooksTests).
        let classMethod = HookError(
            className: "Counter", selector: "limit", isClassMethod: true, error: Oops())
        let instanceMethod = HookError(
            className: "Counter", selector: "add:", isClassMethod: false, error: Oops())
        #expect("\(classMethod)" == "hook of +[Counter limit] threw: Oops()")
        #expect("\(instanceMethod)" == "hook of -[Counter add:] threw: Oops()")
    }
}
