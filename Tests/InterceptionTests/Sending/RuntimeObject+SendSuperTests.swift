import CInterception
import Interception
import Testing

@Suite("Super sends")
struct RuntimeObjectSendSuperTests {
    /// A ← B ← C, each `describe` adding its digit to its superclass's answer.
    private func hierarchy() throws -> (a: RuntimeClass, b: RuntimeClass, c: RuntimeClass) {
        let a = try RuntimeClass.define(uniqueName("SuperA")) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in 1 }
            try c.method("scale:") { (this: RuntimeObject, x: Double) -> Double in x }
        }
        let b = try RuntimeClass.define(uniqueName("SuperB"), superclass: a) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in
                try! this.sendSuper("describe") + 10
            }
            try c.method("scale:") { (this: RuntimeObject, x: Double) -> Double in
                try! this.sendSuper("scale:", x * 2)
            }
        }
        let c = try RuntimeClass.define(uniqueName("SuperC"), superclass: b) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in
                try! this.sendSuper("describe") + 100
            }
        }
        return (a, b, c)
    }

    @Test("an override calls its superclass's method, resolved from the defining class, at any depth")
    func overridesCallSuper() throws {
        let (a, b, c) = try hierarchy()
        // If super were resolved from the object's dynamic class, B's override, run for a C,
        // would call itself forever.
        #expect(try c.new().send("describe") as Int == 111)
        #expect(try b.new().send("describe") as Int == 11)
        #expect(try a.new().send("describe") as Int == 1)
        // C inherits B's scale:, whose super send reaches A's.
        #expect(try c.new().send("scale:", 1.5) as Double == 3)
    }

    @Test("a Void super send runs the superclass's method before the override's own work")
    func voidSuperSend() throws {
        let log = EventLog()
        let base = try RuntimeClass.define(uniqueName("VoidBase")) { c in
            try c.method("setUp:") { (this: RuntimeObject, n: Int32) in log.append("base \(n)") }
        }
        let sub = try RuntimeClass.define(uniqueName("VoidSub"), superclass: base) { c in
            try c.method("setUp:") { (this: RuntimeObject, n: Int32) in
                try! this.sendSuper("setUp:", n + 1)
                log.append("sub \(n)")
            }
        }
        try sub.new().send("setUp:", Int32(1))
        #expect(log.all == ["base 2", "sub 1"])
    }

    @Test("an override of a root-class method can defer to the root's implementation")
    func overrideRootMethod() throws {
        let cls = try RuntimeClass.define(uniqueName("Responder")) { c in
            try c.method("respondsToSelector:") { (this: RuntimeObject, sel: Selector) -> Bool in
                sel == "forwarded:" ? true : try! this.sendSuper("respondsToSelector:", sel)
            }
        }
        let object = cls.new()
        #expect(object.responds(to: "forwarded:"))
        #expect(object.responds(to: "hash"))
        #expect(!object.responds(to: "unknown"))
        #expect(!cls.instancesRespond(to: "forwarded:"))
    }

    @Test("sendSuper outside a method closure throws; sendSuper(from:) names the class instead")
    func sendSuperFrom() throws {
        let (a, b, c) = try hierarchy()
        let object = c.new()
        let error = try #require(throws: RuntimeError.self) { let _: Int = try object.sendSuper("describe") }
        #expect(error.statusName == "IC_ERR_INVALID_ARGUMENT")
        #expect(try object.sendSuper(from: c, "describe") as Int == 11)
        #expect(try object.sendSuper(from: b, "describe") as Int == 1)
        let fromRoot = try #require(throws: RuntimeError.self) {
            try object.sendSuper(from: .root, "describe")
        }
        #expect(fromRoot.statusName == "IC_ERR_INVALID_ARGUMENT")
        let unrelated = try plainClass("Unrelated")
        #expect(throws: RuntimeError.self) { let _: Int = try object.sendSuper(from: unrelated, "describe") }
        let missing = try #require(throws: RuntimeError.self) { try object.sendSuper(from: a, "describe") }
        #expect(missing.statusName == "IC_ERR_METHOD_NOT_FOUND")
    }
}
