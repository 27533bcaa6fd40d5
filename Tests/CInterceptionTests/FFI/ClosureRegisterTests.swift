import CInterception
import Glibc
import Testing

// Closure IMPs with a register callback (ic_closure_imp_create_with_registers).
//
// The register entries are shared by the whole test process (the classes that tests define keep
// theirs forever), so a closure made here may find them all taken and run its frame callback
// on a universal trampoline stub or through libffi instead: each test checks that the callback
// which ran is the one its kind says.
// The exact kind of a closure made while entries are free is checked in a process of its own.

/// What a frame callback adds to its result, so that a test sees which callback ran.
private let frameMark = 1000.0

/// d@:idqf through the saved registers: argument 2 (i) and 3 (q) in integer registers 2 and 3,
/// argument 4 (d) and 5 (f) in vector registers 0 and 1; plus the context's address.
private let mixRegisters: @convention(c) (UnsafePointer<UInt64>?, UnsafeMutableRawPointer?) -> UInt64 = {
    registers, context in
    let r = registers!
    let vectors = Int(IC_CLOSURE_INTEGER_REGISTERS)
    let i = Int32(truncatingIfNeeded: r[2])
    let q = Int64(bitPattern: r[3])
    let d = Double(bitPattern: r[vectors])
    let f = Float(bitPattern: UInt32(truncatingIfNeeded: r[vectors + 1]))
    precondition(OpaquePointer(bitPattern: UInt(r[1])) == ic_sel_register("mix:q:d:f:"))
    return (Double(i) + Double(q) + d + Double(f) + Double(Int(bitPattern: context))).bitPattern
}

/// The same method through a frame, plus `frameMark`.
private let mixFrame: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    var i: Int32 = 0
    var q: Int64 = 0
    var d = 0.0
    var f: Float = 0
    ic_invocation_get_argument(invocation, 2, &i)
    ic_invocation_get_argument(invocation, 3, &q)
    ic_invocation_get_argument(invocation, 4, &d)
    ic_invocation_get_argument(invocation, 5, &f)
    var r = Double(i) + Double(q) + d + Double(f) + Double(Int(bitPattern: context)) + frameMark
    ic_invocation_set_return_value(invocation, &r)
}

private typealias MixIMP =
    @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Int64, Double, Float) -> Double

/// c@:c (a narrow integer result) and f@:f (a float result in the low 32 bits): argument + 1.
private let incrementCharRegisters:
    @convention(c) (UnsafePointer<UInt64>?, UnsafeMutableRawPointer?) -> UInt64 =
        { registers, _ in
            // Noise in the upper bytes: the caller reads the low byte only.
            UInt64(UInt8(bitPattern: Int8(truncatingIfNeeded: registers![2]) &+ 1)) | 0xFFFF_FF00
        }
private let incrementFloatRegisters:
    @convention(c) (UnsafePointer<UInt64>?, UnsafeMutableRawPointer?) -> UInt64 =
        { registers, _ in
            let x = Float(
                bitPattern: UInt32(truncatingIfNeeded: registers![Int(IC_CLOSURE_INTEGER_REGISTERS)]))
            return UInt64((x + 1).bitPattern)
        }
private let unusedFrame: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, _ in
    // The libffi fallback of the two above: the argument plus 1, through the frame.
    let sig = ic_invocation_signature(invocation)
    if ic_signature_return_size(sig) == 1 {
        var x: Int8 = 0
        ic_invocation_get_argument(invocation, 2, &x)
        var r = x &+ 1
        ic_invocation_set_return_value(invocation, &r)
    } else {
        var x: Float = 0
        ic_invocation_get_argument(invocation, 2, &x)
        var r = x + 1
        ic_invocation_set_return_value(invocation, &r)
    }
}

/// i@:i through registers: the argument plus the context's address.
private let addContextRegisters: @convention(c) (UnsafePointer<UInt64>?, UnsafeMutableRawPointer?) -> UInt64 =
    {
        registers, context in
        UInt64(
            UInt32(bitPattern: Int32(truncatingIfNeeded: registers![2]) &+ Int32(Int(bitPattern: context))))
    }
/// The same through a frame, plus 1000.
private let addContextFrame: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    var x: Int32 = 0
    ic_invocation_get_argument(invocation, 2, &x)
    var r = x &+ Int32(Int(bitPattern: context)) &+ 1000
    ic_invocation_set_return_value(invocation, &r)
}

@Suite("Closure IMPs with a register callback")
struct ClosureRegisterTests {
    @Test(
        "a register callback finds integer-class and floating-point arguments in their own register sequences"
    )
    func registerCallbackReadsTheSaveArea() throws {
        let sig = try #require(ic_signature_parse("d@:iqdf"))
        let context = UnsafeMutableRawPointer(bitPattern: 7)
        let closure = try #require(
            ic_closure_imp_create_with_registers(sig, mixFrame, mixRegisters, context, nil))
        defer { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
        let kind = ic_closure_imp_kind(closure)
        #expect(
            [IC_CLOSURE_KIND_REGISTERS, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(kind))
        let mark = kind == IC_CLOSURE_KIND_REGISTERS ? 0 : frameMark
        let f = unsafeBitCast(closure, to: MixIMP.self)
        #expect(
            f(nil, ic_sel_register("mix:q:d:f:"), -3, 1 << 40, 0.5, 0.25) == -3 + Double(1 << 40) + 0.75 + 7
                + mark)
        #expect(ic_closure_imp_context(closure) == context)
        #expect(ic_closure_imp_signature(closure) == sig)
    }

    @Test("a narrow integer result is its low bytes, a float result its low 32 bits")
    func narrowResults() throws {
        let charSig = try #require(ic_signature_parse("c@:c"))
        let floatSig = try #require(ic_signature_parse("f@:f"))
        let char = try #require(
            ic_closure_imp_create_with_registers(charSig, unusedFrame, incrementCharRegisters, nil, nil))
        defer { ic_closure_imp_destroy(char) }
        let float = try #require(
            ic_closure_imp_create_with_registers(floatSig, unusedFrame, incrementFloatRegisters, nil, nil))
        defer { ic_closure_imp_destroy(float) }
        typealias CharIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int8) -> Int8
        typealias FloatIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Float) -> Float
        #expect(unsafeBitCast(char, to: CharIMP.self)(nil, nil, -5) == -4)
        #expect(unsafeBitCast(char, to: CharIMP.self)(nil, nil, 127) == -128)
        #expect(unsafeBitCast(float, to: FloatIMP.self)(nil, nil, 1.5) == 2.5)
    }

    @Test(
        "a signature without a register shape runs the frame callback, on a universal trampoline stub or libffi"
    )
    func otherSignaturesRunTheFrameCallback() throws {
        // A struct argument, and a seventh integer-class argument: no register entry.
        for encoding in ["i@:{dd=dd}", "i@:iiiii"] {
            let sig = try #require(ic_signature_parse(encoding))
            let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
                invocation, _ in
                var r: Int32 = 42
                ic_invocation_set_return_value(invocation, &r)
            }
            let closure = try #require(
                ic_closure_imp_create_with_registers(sig, callback, mixRegisters, nil, nil))
            defer { ic_closure_imp_destroy(closure) }
            let kind = ic_closure_imp_kind(closure)
            #expect(kind == IC_CLOSURE_KIND_UNIVERSAL || kind == IC_CLOSURE_KIND_LIBFFI, "\(encoding)")
            if encoding == "i@:iiiii" {
                typealias IMP =
                    @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Int32, Int32, Int32, Int32)
                    -> Int32
                #expect(unsafeBitCast(closure, to: IMP.self)(nil, nil, 1, 2, 3, 4, 5) == 42)
            }
        }
    }

    @Test("without a register callback, a register entry runs the frame callback")
    func noRegisterCallback() throws {
        let sig = try #require(ic_signature_parse("i@:i"))
        let context = UnsafeMutableRawPointer(bitPattern: 3)
        let closure = try #require(
            ic_closure_imp_create_with_registers(sig, addContextFrame, nil, context, nil))
        defer { ic_closure_imp_destroy(closure) }
        let kind = ic_closure_imp_kind(closure)
        #expect(
            [IC_CLOSURE_KIND_REGISTER_FRAME, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(kind)
        )
        #expect(unsafeBitCast(closure, to: Int32Int32IMP.self)(nil, nil, 4) == 1007)
    }

    @Test(
        "closures made while register entries are free read registers; once none is left, they run their frame callback"
    )
    func registerEntriesRunOut() throws {
        let sig = try #require(ic_signature_parse("i@:i"))
        let count = Int(IC_CLOSURE_REGISTER_ENTRIES) + 44
        let closures = try (0..<count).map { k in
            try #require(
                ic_closure_imp_create_with_registers(
                    sig, addContextFrame, addContextRegisters, UnsafeMutableRawPointer(bitPattern: k + 1), nil
                ))
        }
        var frames = 0
        for (k, closure) in closures.enumerated() {
            let kind = ic_closure_imp_kind(closure)
            #expect(
                kind == IC_CLOSURE_KIND_REGISTERS || kind == IC_CLOSURE_KIND_UNIVERSAL
                    || kind == IC_CLOSURE_KIND_LIBFFI)
            if kind != IC_CLOSURE_KIND_REGISTERS { frames += 1 }
            let mark: Int32 = kind == IC_CLOSURE_KIND_REGISTERS ? 0 : 1000
            #expect(unsafeBitCast(closure, to: Int32Int32IMP.self)(nil, nil, 10) == 10 + Int32(k + 1) + mark)
        }
        #expect(frames >= 44)  // past the register entries of the class: a stub or libffi
        for closure in closures { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
    }

    @Test("in a process whose register entries are free, a register closure takes one and reads registers")
    func freshClosureReadsRegisters() async {
        await #expect(processExitsWith: .success) {
            let sig = ic_signature_parse("d@:iqdf")
            let closure = ic_closure_imp_create_with_registers(
                sig, mixFrame, mixRegisters, UnsafeMutableRawPointer(bitPattern: 1), nil)
            guard ic_closure_imp_kind(closure) == IC_CLOSURE_KIND_REGISTERS else { exit(1) }
            let f = unsafeBitCast(closure, to: MixIMP.self)
            guard f(nil, ic_sel_register("mix:q:d:f:"), 2, 3, 0.5, 0.5) == 7 else { exit(2) }
            let plain = ic_closure_imp_create(ic_signature_parse("i@:i"), addContextFrame, nil, nil)
            guard ic_closure_imp_kind(plain) == IC_CLOSURE_KIND_REGISTER_FRAME else { exit(3) }
            guard ic_closure_imp_destroy(closure) == IC_OK, ic_closure_imp_destroy(plain) == IC_OK else {
                exit(4)
            }
            exit(0)
        }
    }

    @Test("the kind of something that is not a live closure IMP is none, with an error")
    func kindOfSomethingElse() {
        let plain: Int32IMP = { _, _ in 0 }
        #expect(ic_closure_imp_kind(imp(plain)) == IC_CLOSURE_KIND_NONE)
        #expect(ic_error_status() == IC_ERR_NOT_A_CLOSURE)
        #expect(ic_closure_imp_kind(nil) == IC_CLOSURE_KIND_NONE)
    }
}
