import CInterception
import Interception
import Testing

/// An IMP's address, to compare IMPs (C function pointers are not Equatable).
private func address(_ imp: ic_imp?) -> UnsafeRawPointer? {
    imp.map { unsafeBitCast($0, to: UnsafeRawPointer.self) }
}

private typealias AddIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
/// `add:` in C: x + 100.
private let addHundred: AddIMP = { _, _, x in x + 100 }

@Suite("Replacing methods from Swift")
struct RuntimeClassReplaceMethodTests {
    private func counterClass(_ base: String) throws -> RuntimeClass {
        try RuntimeClass.define(uniqueName(base)) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
    }

    @Test("a typed closure replaces a method, for existing objects too, and the old IMP is returned")
    func replaceWithClosure() throws {
        let cls = try counterClass("ReplaceClosure")
        let counter = cls.new()
        let before: Int32 = try counter.send("add:", Int32(1))
        #expect(before == 2)
        let originalIMP = try #require(cls.method(for: "add:")).implementation
        let previous = try cls.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 10 }
        #expect(address(previous) == address(originalIMP))
        let after: Int32 = try counter.send("add:", Int32(4))
        #expect(after == 40)
        #expect(cls.method(for: "add:")?.encoding == "i@:i")
        #expect(cls.methods.count == 1)
    }

    @Test("the previous implementation can still be called through the returned IMP")
    func previousStillCallable() throws {
        let cls = try counterClass("ReplacePrevious")
        let previous = try #require(
            try cls.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x - 1 })
        let counter = cls.new()
        let old = unsafeBitCast(previous, to: AddIMP.self)
        #expect(old(counter.pointer, Selector("add:").pointer, 5) == 6)
        let now: Int32 = try counter.send("add:", Int32(5))
        #expect(now == 4)
    }

    @Test("replacing an inherited method adds it to the subclass only and returns nil")
    func replaceInherited() throws {
        let base = try counterClass("ReplaceBase")
        let sub = try plainClass("ReplaceSub", superclass: base)
        let previous = try sub.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 2 }
        #expect(previous == nil)
        #expect(sub.method(for: "add:")?.definingClass == sub)
        let fromSub: Int32 = try sub.new().send("add:", Int32(1))
        let fromBase: Int32 = try base.new().send("add:", Int32(1))
        #expect(fromSub == 3)
        #expect(fromBase == 2)
    }

    @Test("a void closure replaces a void method")
    func replaceVoid() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("ReplaceVoid")) { c in
            try c.method("ping") { (this: RuntimeObject) in log.append("old") }
        }
        try cls.replaceMethod("ping") { (this: RuntimeObject) in log.append("new") }
        try cls.new().send("ping") as Void
        #expect(log.all == ["new"])
    }

    @Test("a C function with its encoding replaces a method")
    func replaceWithCFunction() throws {
        let cls = try counterClass("ReplaceC")
        let previous = try cls.replaceMethod("add:", encoding: "i@:i", imp: addHundred)
        #expect(previous != nil)
        let r: Int32 = try cls.new().send("add:", Int32(1))
        #expect(r == 101)
    }

    @Test("a C function adds a method no class had, with the encoding given")
    func addWithCFunction() throws {
        let cls = try plainClass("ReplaceAdd")
        #expect(try cls.replaceMethod("plus:", encoding: "i@:i", imp: addHundred) == nil)
        #expect(cls.method(for: "plus:")?.encoding == "i@:i")
        let r: Int32 = try cls.new().send("plus:", Int32(2))
        #expect(r == 102)
    }

    @Test("a closure or C function whose signature differs from the method's is refused, and nothing changes")
    func signatureMismatch() throws {
        let cls = try counterClass("ReplaceMismatch")
        let imp = try #require(cls.method(for: "add:")).implementation
        #expect {
            try cls.replaceMethod("add:") { (this: RuntimeObject, x: Double) -> Double in x }
        } throws: { ($0 as? RuntimeError)?.statusName == "IC_ERR_SIGNATURE_MISMATCH" }
        #expect {
            try cls.replaceMethod("add:", encoding: "d@:d", imp: addHundred)
        } throws: { ($0 as? RuntimeError)?.statusName == "IC_ERR_SIGNATURE_MISMATCH" }
        #expect(address(cls.method(for: "add:")?.implementation) == address(imp))
    }

    @Test("dealloc, retain and release cannot be replaced by closures; a non-C function is refused")
    func refusedReplacements() throws {
        let cls = try counterClass("ReplaceRefused")
        for selector: Selector in ["dealloc", "retain", "release"] {
            #expect {
                try cls.replaceMethod(selector) { (this: RuntimeObject) in }
            } throws: { ($0 as? RuntimeError)?.statusName == "IC_ERR_INVALID_ARGUMENT" }
        }
        let swiftFunction: (Int32) -> Int32 = { $0 }
        #expect {
            try cls.replaceMethod("add:", encoding: "i@:i", imp: swiftFunction)
        } throws: { ($0 as? RuntimeError)?.statusName == "IC_ERR_INVALID_ARGUMENT" }
    }

    @Test("an intercepted object runs the replacement, and its observers still see the call")
    func replaceUnderInterception() throws {
        let cls = try counterClass("ReplaceIntercepted")
        let counter = cls.new()
        let log = EventLog()
        let bag = DisposeBag()
        counter.rx.methodInvoked("add:", as: Int32.self)
            .subscribe(onNext: { x in log.append("add: \(x)") })
            .disposed(by: bag)
        try cls.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1000 }
        let r: Int32 = try counter.send("add:", Int32(1))
        #expect(r == 1001)
        #expect(log.all == ["add: 1"])
    }
}
