import CInterception
@testable import Interception
import Testing

// Area: class methods from Swift (RuntimeClass+Metaclass, RuntimeClass+Send, the builder's
// classMethod). Purpose: a class defined in Swift has class methods, sent to the class with typed
// sends, inherited and overridden (super included), listed, replaced; protocols' required class
// methods are checked at definition.

@Suite("Swift class methods: metaclasses, define, send")
struct RuntimeClassMetaclassTests {
    @Test("a class defines class methods; typed sends to the class run them with the class object as this")
    func defineAndSend() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("SCMCounter")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
            try c.classMethod("ping") { (this: RuntimeObject) in
                log.append("ping \(this.asClass?.name ?? "?")")
            }
            try c.classMethod("make") { (this: RuntimeObject) -> RuntimeObject? in this.asClass?.new() }
        }
        #expect(try cls.send("scale:", Int32(3)) as Int32 == 300)
        try cls.send("ping")
        #expect(log.all == ["ping \(cls.name)"])
        let made: RuntimeObject? = try cls.send("make")
        #expect(made?.runtimeClass == cls)
        #expect(try made?.send("add:", Int32(1)) as Int32? == 2)
        // Instances do not answer class methods, nor the class instance methods.
        #expect(throws: RuntimeError.self) { try cls.send("add:", Int32(1)) as Int32 }
        #expect(throws: RuntimeError.self) { try cls.new().send("scale:", Int32(1)) as Int32 }
        #expect(throws: RuntimeError.self) { try cls.send("scale:", 1) as Int }  // q is not i
    }

    @Test("the metaclass is a RuntimeClass: chain, class object, introspection")
    func metaclass() throws {
        let base = try RuntimeClass.define(uniqueName("SCMBase")) { c in
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
        }
        let sub = try RuntimeClass.define(uniqueName("SCMSub"), superclass: base) { _ in }
        #expect(base.metaclass.isMetaclass && !base.isMetaclass)
        #expect(sub.metaclass.superclass == base.metaclass)
        #expect(RuntimeClass.root.metaclass.superclass == .root)
        #expect(base.metaclass.metaclass == RuntimeClass.root.metaclass)
        #expect(base.metaclass.name == base.name)
        let object = base.asObject
        #expect(object.runtimeClass == base)  // +class answers the class
        #expect(object.actualClass == base.metaclass)
        #expect(object.asClass == base && base.new().asClass == nil)
        #expect(object.responds(to: "scale:") && object.responds(to: "respondsToSelector:"))
        #expect(object.isKind(of: .root))
        #expect(base.classMethods.map(\.selector) == ["scale:"])
        #expect(base.classMethods.first?.description == "+[\(base.name) scale:] i@:i")
        #expect(sub.metaclass.method(for: "scale:")?.definingClass == base.metaclass)
        #expect(base.metaclass.instancesRespond(to: "scale:") && !base.instancesRespond(to: "scale:"))
        // Immortal: handles come and go, the class object stays.
        for _ in 0..<3 { _ = sub.asObject }
        #expect(object.retainCount == 1)
    }

    @Test("subclasses inherit class methods, override them and call super; replacing one reaches them")
    func inheritance() throws {
        let base = try RuntimeClass.define(uniqueName("SCMInheritBase")) { c in
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
        }
        let plain = try RuntimeClass.define(uniqueName("SCMInheritPlain"), superclass: base) { _ in }
        let over = try RuntimeClass.define(uniqueName("SCMInheritOver"), superclass: base) { c in
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in
                ((try? this.sendSuper("scale:", x) as Int32) ?? -1) + 1
            }
        }
        #expect(try plain.send("scale:", Int32(2)) as Int32 == 200)
        #expect(try over.send("scale:", Int32(2)) as Int32 == 201)
        try base.metaclass.replaceMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 3 }
        #expect(try plain.send("scale:", Int32(2)) as Int32 == 6)
        #expect(try over.send("scale:", Int32(2)) as Int32 == 7)
    }

    @Test("a class adopting a protocol with a required class method must define it")
    func requiredClassMethods() throws {
        let p = try RuntimeProtocol.define(uniqueName("SCMShared")) { p in
            try p.required("shared", Void.self, returns: RuntimeObject?.self, classMethod: true)
        }
        let name = uniqueName("SCMMissing")
        let missing = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(name, conformsTo: [p]) { c in
                // an instance method of that name does not count
                try c.method("shared") { (this: RuntimeObject) -> RuntimeObject? in nil }
            }
        }
        #expect(missing.statusName == "IC_ERR_METHOD_NOT_FOUND")
        #expect(missing.message.contains("+shared"))
        #expect(RuntimeClass.named(name) == nil)
        let wrong = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(uniqueName("SCMWrong"), conformsTo: [p]) { c in
                try c.classMethod("shared") { (this: RuntimeObject) -> Int32 in 0 }
            }
        }
        #expect(wrong.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        let adopter = try RuntimeClass.define(uniqueName("SCMAdopter"), conformsTo: [p]) { c in
            try c.classMethod("shared") { (this: RuntimeObject) -> RuntimeObject? in nil }
        }
        #expect(adopter.conforms(to: p))
        // A subclass inherits the class method and conforms by inheritance.
        _ = try RuntimeClass.define(uniqueName("SCMAdopterSub"), superclass: adopter, conformsTo: [p]) { _ in
        }
    }
}
