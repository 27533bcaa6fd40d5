import CInterception
import Interception
import Testing

/// An IMP's address, to compare IMPs (C function pointers are not Equatable).
private func address(_ imp: ic_imp?) -> UnsafeRawPointer? {
    imp.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
}

@Suite("Class introspection: methods")
struct RuntimeClassIntrospectionTests {
    @Test("a class lists its own methods in the order they were added, with selectors and encodings")
    func ownMethods() throws {
        let counter = try RuntimeClass.define(uniqueName("Listed")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
            try c.method("reset") { (this: RuntimeObject) in }
            try c.method("scale:by:") { (this: RuntimeObject, x: Double, y: Double) -> Double in x * y }
        }
        let methods = counter.methods
        #expect(methods.map(\.selector.name) == ["add:", "reset", "scale:by:"])
        #expect(methods.map(\.encoding) == ["i@:i", "v@:", "d@:dd"])
        #expect(methods.allSatisfy { $0.definingClass == counter })
        #expect("\(methods[0])" == "-[\(counter.name) add:] i@:i")
    }

    @Test("a class without methods of its own lists none, though it inherits the root's")
    func noOwnMethods() throws {
        let plain = try plainClass("Empty")
        #expect(plain.methods.isEmpty)
        #expect(plain.methods(includingInherited: false).isEmpty)
        let inherited = plain.methods(includingInherited: true)
        #expect(inherited.map(\.selector) == RuntimeClass.root.methods.map(\.selector))
        #expect(inherited.allSatisfy { $0.definingClass == .root })
    }

    @Test("inherited methods come after the class's own, each selector once, with the override that runs")
    func inheritedMethods() throws {
        let base = try RuntimeClass.define(uniqueName("IntroBase")) { c in
            try c.method("value") { (this: RuntimeObject) -> Int64 in 1 }
            try c.method("baseOnly") { (this: RuntimeObject) in }
        }
        let sub = try RuntimeClass.define(uniqueName("IntroSub"), superclass: base) { c in
            try c.method("value") { (this: RuntimeObject) -> Int64 in 2 }
        }
        let all = sub.methods(includingInherited: true)
        let names = all.map(\.selector.name)
        #expect(Array(names.prefix(2)) == ["value", "baseOnly"])
        #expect(names.filter { $0 == "value" }.count == 1)
        #expect(all[0].definingClass == sub)
        #expect(all[1].definingClass == base)
        #expect(names.contains("respondsToSelector:"))
        #expect(all.count == 2 + RuntimeClass.root.methods.count)
    }

    @Test("method(for:) finds the method that runs, in the class or the nearest superclass")
    func methodForSelector() throws {
        let base = try RuntimeClass.define(uniqueName("FindBase")) { c in
            try c.method("shared:") { (this: RuntimeObject, x: UInt8) -> Bool in x > 0 }
        }
        let sub = try plainClass("FindSub", superclass: base)
        let found = try #require(sub.method(for: "shared:"))
        #expect(found.definingClass == base)
        #expect(found.encoding == "B@:C")
        #expect(found.selector == "shared:")
        #expect(found == base.methods[0])
        #expect(sub.method(for: "release")?.definingClass == .root)
        #expect(sub.method(for: "nobodyImplementsThis") == nil)
    }

    @Test("a method's implementation is the IMP lookups run")
    func implementation() throws {
        let cls = try RuntimeClass.define(uniqueName("Imp")) { c in
            try c.method("one") { (this: RuntimeObject) -> Int32 in 1 }
        }
        let method = try #require(cls.method(for: "one"))
        #expect(
            address(method.implementation) == address(ic_class_get_imp(cls.pointer, Selector("one").pointer)))
    }
}
