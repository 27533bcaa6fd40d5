import CInterception
import Glibc
import Testing

@testable import Interception

/// A value that says it is a `d` but is represented as an integer: its register class by
/// representation (integer) disagrees with its encoding's (floating-point).
private struct DoubleBits: RuntimeValue, Equatable {
    var bits: UInt64
    static var runtimeEncoding: String { "d" }
    init(bits: UInt64) { self.bits = bits }
    init(runtimeRepresentation: UInt64) { bits = runtimeRepresentation }
    var runtimeRepresentation: UInt64 { bits }
}

private typealias MixIMP =
    @convention(c) (
        OpaquePointer?, OpaquePointer?, Int8, Double, UInt32, Float
    ) -> Double
private typealias FlagsIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Bool, Float, Bool) -> Int16
private typealias PointerIMP =
    @convention(c) (OpaquePointer?, OpaquePointer?, UnsafeRawPointer?, OpaquePointer?) -> OpaquePointer?

/// The kind of `selector`'s closure IMP in `cls`.
private func kind(_ cls: RuntimeClass, _ selector: Selector) -> ic_closure_kind {
    ic_closure_imp_kind(ic_class_get_imp(cls.pointer, selector.pointer))
}

@Suite("Swift methods called from C through the saved argument registers")
struct MethodRegistersTests {
    @Test("arguments of mixed register classes reach a Swift method from C in order, with their results")
    func mixedArgumentsFromC() throws {
        let cls = try RuntimeClass.define(uniqueName("RegisterMix")) { c in
            try c.method("mix:b:c:d:") {
                (this: RuntimeObject, a: Int8, b: Double, c: UInt32, d: Float) -> Double in
                Double(a) * 1000 + b + Double(c) * 10 + Double(d)
            }
            try c.method("flags:b:c:") { (this: RuntimeObject, a: Bool, b: Float, c: Bool) -> Int16 in
                (a ? 1 : 0) + (c ? 2 : 0) + Int16(b)
            }
            try c.method("pick:b:") {
                (this: RuntimeObject, a: UnsafeRawPointer?, b: RuntimeObject?) -> RuntimeObject? in
                a == nil ? b : this
            }
        }
        let object = cls.new()
        let other = cls.new()
        // Called from C outside a Swift send: object results are parked in the thread's pool,
        // which this test drains (leaving the pool as it found it).
        let baseline = object.retainCount
        Runtime.autoreleasepool {
            for _ in 0..<2 {
                let mix = unsafeBitCast(
                    ic_msg_lookup(object.pointer, Selector("mix:b:c:d:").pointer), to: MixIMP.self)
                #expect(
                    mix(object.pointer, Selector("mix:b:c:d:").pointer, -2, 0.5, 7, 0.25) == -2000 + 0.5 + 70
                        + 0.25)
                let flags = unsafeBitCast(
                    ic_msg_lookup(object.pointer, Selector("flags:b:c:").pointer), to: FlagsIMP.self)
                #expect(flags(object.pointer, Selector("flags:b:c:").pointer, true, -40, true) == -37)
                #expect(flags(object.pointer, Selector("flags:b:c:").pointer, false, 100, true) == 102)
                let pick = unsafeBitCast(
                    ic_msg_lookup(object.pointer, Selector("pick:b:").pointer), to: PointerIMP.self)
                #expect(
                    pick(object.pointer, Selector("pick:b:").pointer, nil, other.pointer) == other.pointer)
                // An object result comes back retained and parked (the caller does not own it).
                let retainCount = object.retainCount
                #expect(
                    pick(object.pointer, Selector("pick:b:").pointer, UnsafeRawPointer(bitPattern: 8), nil)
                        == object.pointer)
                #expect(object.retainCount == retainCount + 1)
            }
        }
        #expect(object.retainCount == baseline)
        // The same through sends from Swift (the typed body), for comparison.
        #expect(
            try object.send("mix:b:c:d:", Int8(-2), 0.5, UInt32(7), Float(0.25)) as Double == -2000 + 0.5 + 70
                + 0.25)
        for selector in ["mix:b:c:d:", "flags:b:c:", "pick:b:"] {
            let k = kind(cls, Selector(selector))
            #expect(
                [IC_CLOSURE_KIND_REGISTERS, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(k),
                "\(selector)")
        }
    }

    @Test("a type whose representation disagrees with its encoding's register class keeps the frame")
    func disagreeingTypeKeepsTheFrame() throws {
        let cls = try RuntimeClass.define(uniqueName("RegisterDisagree")) { c in
            try c.method("bits:") { (this: RuntimeObject, x: DoubleBits) -> DoubleBits in
                DoubleBits(bits: x.bits ^ (1 << 63))  // negated, as a double
            }
        }
        let k = kind(cls, "bits:")
        #expect(
            [IC_CLOSURE_KIND_REGISTER_FRAME, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(k))
        typealias F = @convention(c) (OpaquePointer?, OpaquePointer?, Double) -> Double
        let object = cls.new()
        let f = unsafeBitCast(ic_msg_lookup(object.pointer, Selector("bits:").pointer), to: F.self)
        #expect(f(object.pointer, Selector("bits:").pointer, 2.5) == -2.5)
    }

    @Test(
        "in a process whose register entries are free, fixed-arity methods read registers and the others keep a frame"
    )
    func kindsInAFreshProcess() async {
        await #expect(processExitsWith: .success) {
            let cls = try? RuntimeClass.define("RegisterKinds") { c in
                try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
                try c.method("note:") { (this: RuntimeObject, x: Double) in }
                try c.method("five:b:c:d:e:") {
                    (this: RuntimeObject, a: Double, b: Double, c: Double, d: Double, e: Double) -> Double in
                    a + b + c + d + e
                }
                try c.method("bits:") { (this: RuntimeObject, x: DoubleBits) -> DoubleBits in x }
                try c.method("pair:") { (this: RuntimeObject, x: CGPointLike) -> Double in x.x + x.y }
            }
            guard let cls else { exit(1) }
            guard kind(cls, "add:") == IC_CLOSURE_KIND_REGISTERS else { exit(2) }
            guard kind(cls, "note:") == IC_CLOSURE_KIND_REGISTERS else { exit(3) }
            // The pack `method` (five arguments) has no register thunk.
            guard kind(cls, "five:b:c:d:e:") == IC_CLOSURE_KIND_REGISTER_FRAME else { exit(4) }
            guard kind(cls, "bits:") == IC_CLOSURE_KIND_REGISTER_FRAME else { exit(5) }
            // A struct: no register entry, a universal trampoline stub (no libffi either).
            guard kind(cls, "pair:") == IC_CLOSURE_KIND_UNIVERSAL else { exit(6) }
            let object = cls.new()
            guard
                (try? object.sendChecked("add:", SwiftSignature(Int32.self).appending(Int32.self), Int32(4)))
                    == Int32(5)
            else { exit(7) }
            exit(0)
        }
    }
}

/// Two doubles: a struct, which never travels in registers here.
private struct CGPointLike: RuntimeStruct {
    var x, y: Double
    static let runtimeEncoding = "{CGPointLike=dd}"
}
