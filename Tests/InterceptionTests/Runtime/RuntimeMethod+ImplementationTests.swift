import CInterception
@testable import Interception
import Testing

// Area: changing implementations from Swift (SPEC 16.5). Purpose: exchange two methods'
// implementations, set one from a closure or a C function, read a method's IMP and encoding,
// without the C API; mismatched encodings are refused.

private let tripleIMP: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in x * 3 }

@Suite("RuntimeMethod: implementations from Swift (SPEC 16.5)")
struct RuntimeMethodImplementationTests {
    private func counter(_ base: String) throws -> RuntimeClass {
        try RuntimeClass.define(uniqueName(base)) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
            try c.method("double:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 2 }
            try c.method("scale:") { (this: RuntimeObject, x: Double) -> Double in x * 10 }
        }
    }

    @Test("exchanging implementations swaps what two selectors run, and swaps back")
    func exchange() throws {
        let cls = try counter("MethodExchange")
        let object = cls.new()
        let add = try #require(cls.method(for: "add:"))
        let double = try #require(cls.method(for: "double:"))
        let (addIMP, doubleIMP) = (add.implementationAddress, double.implementationAddress)
        try add.exchangeImplementation(with: double)
        #expect(try object.send("add:", Int32(5)) as Int32 == 10)
        #expect(try object.send("double:", Int32(5)) as Int32 == 6)
        #expect(add.implementationAddress == doubleIMP && double.implementationAddress == addIMP)
        try cls.exchangeImplementations("add:", "double:")
        #expect(try object.send("add:", Int32(5)) as Int32 == 6)
        #expect(add.encoding == "i@:i")
    }

    @Test("exchanging methods of different encodings, or a missing one, is refused")
    func exchangeRefusals() throws {
        let cls = try counter("MethodExchangeRefused")
        let add = try #require(cls.method(for: "add:"))
        let scale = try #require(cls.method(for: "scale:"))
        let mismatch = try #require(throws: RuntimeError.self) { try add.exchangeImplementation(with: scale) }
        #expect(mismatch.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        #expect(mismatch.message.contains("add:") && mismatch.message.contains("scale:"))
        let missing = try #require(throws: RuntimeError.self) {
            try cls.exchangeImplementations("add:", "nope:")
        }
        #expect(missing.statusName == "IC_ERR_METHOD_NOT_FOUND")
        #expect(try cls.new().send("add:", Int32(1)) as Int32 == 2)
    }

    @Test("setting an implementation from a closure or a C function returns the previous one")
    func setImplementation() throws {
        let cls = try counter("MethodSet")
        let object = cls.new()
        let add = try #require(cls.method(for: "add:"))
        let original = add.implementation
        let previous = try add.setImplementation { (this: RuntimeObject, x: Int32) -> Int32 in x + 100 }
        #expect(unsafeBitCast(previous, to: UInt.self) == unsafeBitCast(original, to: UInt.self))
        #expect(try object.send("add:", Int32(1)) as Int32 == 101)
        try add.setImplementation(tripleIMP)
        #expect(try object.send("add:", Int32(2)) as Int32 == 6)
        try add.setImplementation(original)
        #expect(try object.send("add:", Int32(2)) as Int32 == 3)
        #expect(throws: RuntimeError.self) {
            try add.setImplementation { (this: RuntimeObject, x: Double) -> Double in x }
        }
        #expect(throws: RuntimeError.self) { try add.setImplementation(tripleIMP, encoding: "d@:d") }
        #expect(throws: RuntimeError.self) { try add.setImplementation(42) }
    }
}
