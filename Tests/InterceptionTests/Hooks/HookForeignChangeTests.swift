import CInterception
@testable import Interception
import Testing

@Suite("Foreign changes under hooks (SPEC 16.3)")
struct HookForeignChangeTests {
    @Test("a method exchange after a class-wide hook runs the hooked method's hooks, then its original")
    func exchangeAfterClassHook() throws {
        let log = EventLog()
        let vc = try RuntimeClass.define(uniqueName("VC")) { c in
            try c.method("viewDidAppear:") { (this: RuntimeObject, a: Bool) in log.append("original \(a)") }
            try c.method("hook_viewDidAppear:") { (this: RuntimeObject, a: Bool) in
                log.append("swizzled \(a)")
                try? this.send("hook_viewDidAppear:", a)
            }
        }
        let token = try vc.hookBefore("viewDidAppear:") { (this: RuntimeObject, a: Bool) in log.append("hook \(a)") }
        #expect(
            ic_method_exchange_imps(
                ic_class_get_own_method(vc.pointer, Selector("viewDidAppear:").pointer),
                ic_class_get_own_method(vc.pointer, Selector("hook_viewDidAppear:").pointer)) == IC_OK)
        try vc.new().send("viewDidAppear:", true)
        #expect(log.all == ["swizzled true", "hook true", "original true"])
        token.cancel()
    }

    @Test("a foreign IMP set on the interception subclass keeps working when the hooks go")
    func foreignIMPOnInterceptionSubclass() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("FI")) { c in
            try c.method("ping") { (this: RuntimeObject) in log.append("original") }
        }
        let obj = cls.new()
        let token = try obj.hookInstead("ping") { (original: () -> Void, this: RuntimeObject) in
            log.append("instead")
            original()
        }
        let foreign: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, _ in foreignLog.append("foreign") }
        _ = ic_method_set_imp(ic_class_get_own_method(obj.actualClass.pointer, Selector("ping").pointer), unsafeBitCast(foreign, to: ic_imp.self))
        try obj.send("ping")
        token.cancel()
        try obj.send("ping")
        #expect(foreignLog.all == ["foreign", "foreign"])
    }

    @Test("a user class named like an interception subclass does not stop interception")
    func nameCollision() throws {
        let name = uniqueName("Foo")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("ping") { (this: RuntimeObject) in }
        }
        _ = try RuntimeClass.define("_ICIntercepted_" + name) { _ in }
        let obj = cls.new()
        let token = try obj.hookBefore("ping") { (this: RuntimeObject) in }
        try obj.send("ping")
        token.cancel()
    }
}

private let foreignLog = EventLog()
