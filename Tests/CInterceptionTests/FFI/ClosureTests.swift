import CInterception
import Glibc
import CInterceptionTestSupport
import Testing

/// Copies argument 2 to the return value: an echo for any type. The invocation is a frame.
private let echoCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, _ in
    precondition(ic_invocation_is_frame(invocation))
    precondition(ic_invocation_retain_arguments(invocation) == IC_ERR_INVALID_ARGUMENT)
    ic_invocation_destroy(invocation)  // ignored for frames
    // Frames (register entries and libffi closures alike) fill the head the inline accessor reads.
    for index in 0..<(ic_signature_argument_count(ic_invocation_signature(invocation)) + 2) {
        precondition(
            ic_invocation_argument_pointer_inline(invocation, index)
                == ic_invocation_argument_pointer(invocation, index))
    }
    if let argument = ic_invocation_argument_pointer(invocation, 2) {
        // The inline setter where the frame takes the bytes as they are (a register entry's),
        // else the runtime's (a libffi closure's narrow integer is widened): the matrix checks
        // both give the caller what a direct call would.
        let size = ic_signature_return_size(ic_invocation_signature(invocation))
        if ic_invocation_set_return_value_inline(invocation, argument, size) == 0 {
            ic_invocation_set_return_value(invocation, argument)
        }
    }
}

private final class Box {
    var calls = 0
}

private let countingCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
    box.calls += 1
    var x: Int32 = 0
    ic_invocation_get_argument(invocation, 2, &x)
    var r = x * 2
    ic_invocation_set_return_value(invocation, &r)
}

private let releaseBox: @convention(c) (UnsafeMutableRawPointer?) -> Void = { context in
    Unmanaged<Box>.fromOpaque(context!).release()
}

/// Returns argument 2 plus the context's address (a small integer) for i@:i.
private let addContextInt: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    var x: Int32 = 0
    ic_invocation_get_argument(invocation, 2, &x)
    var r = x &+ Int32(Int(bitPattern: context))
    ic_invocation_set_return_value(invocation, &r)
}

/// Returns argument 2 plus argument 3 plus the context's address for d@:id.
private let addContextDouble: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    var x: Int32 = 0
    var y: Double = 0
    ic_invocation_get_argument(invocation, 2, &x)
    ic_invocation_get_argument(invocation, 3, &y)
    var r = Double(x) + y + Double(Int(bitPattern: context))
    ic_invocation_set_return_value(invocation, &r)
}

/// Returns argument 2 plus the context's address for f@:f.
private let addContextFloat: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    var x: Float = 0
    ic_invocation_get_argument(invocation, 2, &x)
    var r = x + Float(Int(bitPattern: context))
    ic_invocation_set_return_value(invocation, &r)
}

@Suite("Closure IMPs")
struct ClosureTests {
    @Test("a closure IMP installed as a method echoes every type", arguments: TypeCase.all)
    func closureEchoesEveryType(_ t: TypeCase) throws {
        let sig = try #require(ic_signature_parse("\(t.encoding)@:\(t.encoding)"))
        let closure = try #require(ic_closure_imp_create(sig, echoCallback, nil, nil))
        defer { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
        let cls = try makeClass(
            "Closure_\(t.name)", methods: [("echo:", closure, "\(t.encoding)@:\(t.encoding)")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        t.withBuffer { out in
            t.raw.send_echo(obj, sel("echo:"), t.raw.sample, out)
            #expect(t.isSample(out))
            t.raw.send_echo(obj, sel("echo:"), t.raw.other, out)
            #expect(t.isOther(out))
        }
        #expect(ic_closure_imp_signature(closure) == sig)
    }

    @Test("the context reaches the callback and is released on destroy")
    func contextLifecycle() throws {
        weak var weakBox: Box?
        let sig = try #require(ic_signature_parse("i@:i"))
        var closure: ic_imp? = nil
        do {
            let box = Box()
            weakBox = box
            let context = Unmanaged.passRetained(box).toOpaque()
            closure = ic_closure_imp_create(sig, countingCallback, context, releaseBox)
            try #require(closure != nil)
            #expect(ic_closure_imp_context(closure) == context)
            let f = fn(closure, as: Int32Int32IMP.self)
            #expect(f(nil, nil, 21) == 42)
            #expect(f(nil, nil, 5) == 10)
            #expect(box.calls == 2)
        }
        #expect(weakBox != nil)  // the closure holds the context
        #expect(ic_closure_imp_destroy(closure) == IC_OK)
        #expect(weakBox == nil)  // released by destroy
    }

    @Test("an IMP that is not a closure, or NULL, is refused")
    func destroyErrors() throws {
        let sig = try #require(ic_signature_parse("v@:"))
        let plain: Int32IMP = { _, _ in 0 }
        #expect(ic_closure_imp_destroy(imp(plain)) == IC_ERR_NOT_A_CLOSURE)
        #expect(lastErrorMessage.contains("not a closure"))
        #expect(ic_closure_imp_context(imp(plain)) == nil)
        #expect(ic_error_status() == IC_ERR_NOT_A_CLOSURE)
        #expect(ic_closure_imp_signature(imp(plain)) == nil)
        #expect(ic_closure_imp_destroy(nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_closure_imp_create(nil, echoCallback, nil, nil) == nil)
        #expect(ic_closure_imp_create(sig, nil, nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("destroying a closure twice is refused")
    func destroyTwice() async {
        // In a process of its own: libffi reuses closure addresses, so in the shared test
        // process another suite's new closure could take the freed address between the two calls.
        await #expect(processExitsWith: .success) {
            let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
            let closure = ic_closure_imp_create(ic_signature_parse("v@:"), callback, nil, nil)
            guard ic_closure_imp_destroy(closure) == IC_OK,
                ic_closure_imp_destroy(closure) == IC_ERR_NOT_A_CLOSURE
            else { exit(1) }
        }
    }

    @Test("a closure with a plain function signature is callable as that function")
    func plainFunctionClosure() throws {
        let sig = try #require(ic_signature_parse("ff"))
        let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
            invocation, _ in
            var x: Float = 0
            ic_invocation_get_argument(invocation, 0, &x)
            var r = x + 0.5
            ic_invocation_set_return_value(invocation, &r)
        }
        let closure = try #require(ic_closure_imp_create(sig, callback, nil, nil))
        defer { ic_closure_imp_destroy(closure) }
        typealias F = @convention(c) (Float) -> Float
        #expect(fn(closure, as: F.self)(1.0) == 1.5)
    }

    @Test("an unset return value reads as zero")
    func unsetReturnIsZero() throws {
        let sig = try #require(ic_signature_parse("q@:"))
        let nothing: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
        let closure = try #require(ic_closure_imp_create(sig, nothing, nil, nil))
        defer { ic_closure_imp_destroy(closure) }
        typealias F = @convention(c) (ID?, SEL?) -> Int64
        #expect(fn(closure, as: F.self)(nil, nil) == 0)
    }

    @Test(
        "more closure IMPs of register signatures than there are register entries all reach their own context, and destroyed ones give their entry back"
    )
    func registerEntriesOverflowIntoLibffi() throws {
        // Integer result (i@:i) and vector results (d@:id, f@:f): the two entry classes.
        let intSig = try #require(ic_signature_parse("i@:i"))
        let doubleSig = try #require(ic_signature_parse("d@:id"))
        let floatSig = try #require(ic_signature_parse("f@:f"))
        typealias IntIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
        typealias DoubleIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32, Double) -> Double
        typealias FloatIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Float) -> Float
        func make(_ count: Int) throws -> [(Int, ic_imp, ic_imp, ic_imp)] {
            try (0..<count).map { k in
                let context = UnsafeMutableRawPointer(bitPattern: k + 1)
                return (
                    k, try #require(ic_closure_imp_create(intSig, addContextInt, context, nil)),
                    try #require(ic_closure_imp_create(doubleSig, addContextDouble, context, nil)),
                    try #require(ic_closure_imp_create(floatSig, addContextFloat, context, nil))
                )
            }
        }
        func check(_ closures: [(Int, ic_imp, ic_imp, ic_imp)]) {
            for (k, i, d, f) in closures {
                #expect(unsafeBitCast(i, to: IntIMP.self)(nil, nil, 10) == Int32(10 + k + 1))
                #expect(unsafeBitCast(d, to: DoubleIMP.self)(nil, nil, 2, 0.5) == 2.5 + Double(k + 1))
                #expect(unsafeBitCast(f, to: FloatIMP.self)(nil, nil, 0.25) == 0.25 + Float(k + 1))
            }
        }
        // More than the entries of a class, then half given back and made again.
        let count = 2 * Int(IC_CLOSURE_REGISTER_ENTRIES) + 88
        let half = count / 2
        let first = try make(count)
        check(first)
        for (_, i, d, f) in first.prefix(half) {
            #expect(ic_closure_imp_destroy(i) == IC_OK)
            #expect(ic_closure_imp_destroy(d) == IC_OK)
            #expect(ic_closure_imp_destroy(f) == IC_OK)
        }
        let second = try make(half)
        check(second)
        check(Array(first.suffix(half)))
        for (_, i, d, f) in second + first.suffix(half) {
            #expect(ic_closure_imp_destroy(i) == IC_OK)
            #expect(ic_closure_imp_destroy(d) == IC_OK)
            #expect(ic_closure_imp_destroy(f) == IC_OK)
        }
    }
}
