import CInterception
import Interception
import Testing

@Suite("Classes")
struct RuntimeClassTests {
    @Test("the root class is Object, has no superclass, and implements the root methods")
    func root() {
        let root = RuntimeClass.root
        #expect(root.name == "Object")
        #expect(root.superclass == nil)
        #expect(RuntimeClass.named("Object") == root)
        #expect(root.instancesRespond(to: "respondsToSelector:"))
        #expect(root.methodEncoding(for: "methodSignatureForSelector:") == "^v@::")
        #expect(root.methodEncoding(for: "noSuchMethod") == nil)
        #expect("\(root)" == "Object")
    }

    @Test("a class is found by name, knows its superclass chain, and inherits methods")
    func lookupAndChain() throws {
        let base = try RuntimeClass.define(uniqueName("Base")) { c in
            try c.method("inherited:") { (this: RuntimeObject, x: UInt16) -> Bool in x > 0 }
        }
        let sub = try plainClass("Sub", superclass: base)
        #expect(RuntimeClass.named(sub.name) == sub)
        #expect(RuntimeClass.named(uniqueName("Nobody")) == nil)
        #expect(sub.superclass == base)
        #expect(base.superclass == .root)
        #expect(sub.isSubclass(of: base))
        #expect(sub.isSubclass(of: .root))
        #expect(!base.isSubclass(of: sub))
        #expect(sub.instancesRespond(to: "inherited:"))
        #expect(sub.methodEncoding(for: "inherited:") == "B@:S")
        #expect(!sub.instancesRespond(to: "missing"))
        #expect(RuntimeClass(pointer: sub.pointer) == sub)
    }

    @Test("new() makes instances counted per class until they are freed")
    func instancesAreCounted() throws {
        let base = try plainClass("Counted")
        let sub = try plainClass("CountedSub", superclass: base)
        var objects = (0..<10).map { _ in base.new() }
        let subObject = sub.new()
        #expect(base.liveInstanceCount == 10)
        #expect(sub.liveInstanceCount == 1)  // not counted for its superclass
        #expect(objects.allSatisfy { $0.retainCount == 1 && $0.actualClass == base })
        objects.removeAll()
        #expect(base.liveInstanceCount == 0)
        _ = consume subObject
        #expect(sub.liveInstanceCount == 0)
    }
}
