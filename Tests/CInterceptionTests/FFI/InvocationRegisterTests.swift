// Regression tests for the libffi register bug the signature matrix found (libffi before 3.4.7,
// PR #848): ffi_call copied a 9-to-16-byte struct whose first eightbyte is INTEGER and second SSE
// into the last integer register slot whole, overwriting the first SSE register. The runtime now
// passes such an argument as its two eightbytes (signature.h, split_argument).
//
// The callee here is a closure IMP: libffi's closure side reads the registers correctly, so what
// it receives is what the caller's registers held.
import CInterception
import CInterceptionTestSupport
import Testing

/// Copies every argument after self and _cmd into the recorder, under "argN".
private let recordArguments: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    call, context in
    let sig = ic_invocation_signature(call)
    for i in 2..<ic_signature_argument_count(sig) {
        Recorder.from(context).record(
            "arg\(i - 2)", bytes: ic_invocation_argument_pointer(call, i),
            count: ic_signature_argument_size(sig, i))
    }
}

@Suite("Invocations: arguments in the last registers")
struct InvocationRegisterTests {
    /// Signatures putting a 16-byte struct at every integer register, after a double (so the
    /// first SSE register is in use) or not: "v@:d" + k ints + the struct + a trailing double.
    /// The int-and-double struct is the one libffi got wrong; the pointer-and-int one (two
    /// INTEGER eightbytes, on the stack once a single register is left) is the control.
    static let layouts: [(struct: String, ints: Int, leadingDouble: Bool)] =
        ["struct_id", "struct_pi"].flatMap { s in (0...5).flatMap { k in [true, false].map { (s, k, $0) } } }

    @Test(
        "a 16-byte struct reaches the callee intact in whichever register it lands, through ffi_call and through the forward path",
        arguments: layouts)
    func mixedStructInEveryRegister(layout: (struct: String, ints: Int, leadingDouble: Bool)) throws {
        let mixed = TypeCase.all.first { $0.name == layout.struct }!
        let int = TypeCase.all.first { $0.name == "int" }!
        let double = TypeCase.all.first { $0.name == "double" }!
        let cases =
            (layout.leadingDouble ? [double] : []) + Array(repeating: int, count: layout.ints) + [
                mixed, double,
            ]
        let encoding = "v@:" + cases.map(\.encoding).joined()
        let sig = try #require(ic_signature_parse(encoding))
        let recorder = Recorder()
        let callee = try #require(
            ic_closure_imp_create(sig, recordArguments, recorder.retainedContext(), recorderRelease))
        defer { ic_closure_imp_destroy(callee) }

        // Distinct values: samples, and `other` for the last double so that a mix-up shows.
        let values = cases.enumerated().map { i, t in i == cases.count - 1 ? t.raw.other! : t.raw.sample! }
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        for (i, value) in values.enumerated() {
            #expect(ic_invocation_set_argument(inv, 2 + i, value) == IC_OK)
        }

        // 1. ffi_call straight into the closure.
        #expect(ic_invocation_invoke_imp(inv, callee) == IC_OK)
        // 2. The forward path: the forward closure receives the call, then calls the original
        //    (the recording closure) through ffi_call.
        let cls = try makeClass("Registers", methods: [("m", callee, encoding)])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(
            ic_intercept_prepare_with_options(obj, sel("m"), UInt32(IC_INTERCEPT_FORCE_FORWARDING)) == IC_OK)
        #expect(ic_invocation_set_target(inv, obj) == IC_OK)
        #expect(ic_invocation_set_selector(inv, sel("m")) == IC_OK)
        #expect(ic_invocation_invoke(inv) == IC_OK)

        for (i, t) in cases.enumerated() {
            let seen = recorder.values("arg\(i)")
            #expect(seen.count == 2)
            for bytes in seen {
                bytes.withUnsafeBytes {
                    #expect(t.equal($0.baseAddress!, values[i]), "argument \(i) (\(t.name)) of \(encoding)")
                }
            }
        }
    }
}
