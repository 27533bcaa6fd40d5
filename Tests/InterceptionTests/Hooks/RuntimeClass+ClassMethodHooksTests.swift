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
}
