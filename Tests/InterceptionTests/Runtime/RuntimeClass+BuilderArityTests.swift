import CInterception
import Testing

@testable import Interception

// The builder's `method` has fixed-arity overloads (0 to 4 arguments) whose thunks are
// specialized in the caller's module; five or more arguments take the parameter-pack `method`.
// These tests call every arity, value-returning and void, from Swift and from C (the IMP called
// through its C type, as IC_MSG does), and check the arguments arrive in order with their types.

/// What the void methods received, in order (written and read on the test's thread). `Locked`,
/// a pthread mutex, rather than `Synchronization.Mutex`, which ThreadSanitizer does not see on
/// Linux.
private final class Received: Sendable {
    let values = Locked<[String]>([])
    func record(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

private typealias IMP0 = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
private typealias IMP1 = @convention(c) (OpaquePointer?, OpaquePointer?, Double) -> Double
private typealias IMP2 = @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Double) -> Int
private typealias IMP3 = @convention(c) (OpaquePointer?, OpaquePointer?, Int8, Bool, UInt64) -> UInt64
private typealias IMP4 =
    @convention(c) (OpaquePointer?, OpaquePointer?, Int16, Float, Int32, Double) -> Double
private typealias IMP5 = @convention(c) (OpaquePointer?, OpaquePointer?, Int, Int, Int, Int, Int) -> Int
private typealias VoidIMP4 =
    @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Int32, Int32, Int32) -> Void

/// `selector`'s IMP on `object`, as the C function type `F`.
private func imp<F>(_ object: RuntimeObject, _ selector: Selector, as type: F.Type) -> F {
    unsafeBitCast(ic_msg_lookup(object.pointer, selector.pointer), to: F.self)
}

@Suite("Builder: Swift closure methods of every arity")
struct RuntimeClassBuilderArityTests {
    private static func defineClass(_ received: Received) throws -> RuntimeClass {
        try RuntimeClass.define(uniqueName("Arity")) { c in
            try c.method("zero") { (this: RuntimeObject) -> Int32 in 7 }
            try c.method("half:") { (this: RuntimeObject, x: Double) -> Double in x / 2 }
            try c.method("mix:d:") { (this: RuntimeObject, a: Int32, b: Double) -> Int in Int(a) * 10 + Int(b)
            }
            try c.method("pick:b:q:") { (this: RuntimeObject, a: Int8, b: Bool, q: UInt64) -> UInt64 in
                b ? UInt64(bitPattern: Int64(a)) : q
            }
            try c.method("four:f:i:d:") {
                (this: RuntimeObject, s: Int16, f: Float, i: Int32, d: Double) -> Double in
                Double(s) * 1000 + Double(f) * 100 + Double(i) * 10 + d
            }
            try c.method("five:b:c:d:e:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int) -> Int in
                a * 10_000 + b * 1000 + c * 100 + d * 10 + e
            }
            try c.method("touch") { (this: RuntimeObject) in received.record("touch") }
            try c.method("one:") { (this: RuntimeObject, a: Int32) in received.record("one \(a)") }
            try c.method("two:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                received.record("two \(a) \(b)")
            }
            try c.method("three:b:c:") { (this: RuntimeObject, a: Bool, b: Int8, c: UInt16) in
                received.record("three \(a) \(b) \(c)")
            }
            try c.method("four:b:c:d:") { (this: RuntimeObject, a: Int32, b: Int32, c: Int32, d: Int32) in
                received.record("four \(a) \(b) \(c) \(d)")
            }
        }
    }

    @Test(
        "value-returning closure methods of 0 to 5 arguments get their arguments in order, from Swift and from C"
    )
    func valueMethodsOfEveryArity() throws {
        let object = try Self.defineClass(Received()).new()
        #expect(try object.send("zero") as Int32 == 7)
        #expect(try object.send("half:", 5.0) as Double == 2.5)
        #expect(try object.send("mix:d:", Int32(4), 2.0) as Int == 42)
        #expect(try object.send("pick:b:q:", Int8(-1), true, UInt64(9)) as UInt64 == UInt64.max)
        #expect(try object.send("pick:b:q:", Int8(-1), false, UInt64(9)) as UInt64 == 9)
        #expect(try object.send("four:f:i:d:", Int16(1), Float(2), Int32(3), 4.0) as Double == 1234)
        #expect(try object.send("five:b:c:d:e:", 1, 2, 3, 4, 5) as Int == 12345)
        #expect(object.actualClass.methodEncoding(for: "four:f:i:d:") == "d@:sfid")

        let p = object.pointer
        #expect(imp(object, "zero", as: IMP0.self)(p, Selector("zero").pointer) == 7)
        #expect(imp(object, "half:", as: IMP1.self)(p, Selector("half:").pointer, 5) == 2.5)
        #expect(imp(object, "mix:d:", as: IMP2.self)(p, Selector("mix:d:").pointer, 4, 2) == 42)
        #expect(
            imp(object, "pick:b:q:", as: IMP3.self)(p, Selector("pick:b:q:").pointer, -1, true, 9)
                == UInt64.max)
        #expect(
            imp(object, "four:f:i:d:", as: IMP4.self)(p, Selector("four:f:i:d:").pointer, 1, 2, 3, 4) == 1234)
        #expect(
            imp(object, "five:b:c:d:e:", as: IMP5.self)(p, Selector("five:b:c:d:e:").pointer, 1, 2, 3, 4, 5)
                == 12345)
    }

    @Test("closure methods returning nothing, of 0 to 4 arguments, get their arguments in order")
    func voidMethodsOfEveryArity() throws {
        let received = Received()
        let object = try Self.defineClass(received).new()
        try object.send("touch")
        try object.send("one:", Int32(1))
        try object.send("two:b:", Int32(2), 0.5)
        try object.send("three:b:c:", true, Int8(-3), UInt16(65535))
        try object.send("four:b:c:d:", Int32(1), Int32(2), Int32(3), Int32(4))
        imp(object, "four:b:c:d:", as: VoidIMP4.self)(
            object.pointer, Selector("four:b:c:d:").pointer, 5, 6, 7, 8)
        #expect(
            received.all == [
                "touch", "one 1", "two 2 0.5", "three true -3 65535", "four 1 2 3 4", "four 5 6 7 8",
            ])
        #expect(object.actualClass.methodEncoding(for: "three:b:c:") == "v@:BcS")
    }

    @Test("an object made and returned by a fixed-arity closure method outlives the closure's handles")
    func returnedObjectSurvives() throws {
        let cls = try RuntimeClass.define(uniqueName("ArityMaker")) { c in
            try c.method("make:") { (this: RuntimeObject, x: Int32) -> RuntimeObject in
                RuntimeClass.root.new()
            }
        }
        let object = cls.new()
        let made: RuntimeObject = try object.send("make:", Int32(1))
        #expect(made.retainCount == 1)
        #expect(made.actualClass == RuntimeClass.root)
        #expect(ReturnedObjects.count == 0)
    }
}
