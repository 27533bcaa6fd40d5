import CInterception
import CInterceptionTestSupport
import Testing

/// One optimized trampoline of the runtime's generated table.
struct TrampolineKey: CustomTestStringConvertible, Sendable {
    let key: String  // "<return class>:<argument classes>"
    var returnClass: Character { key.first! }
    var argumentClasses: [Character] { Array(key.split(separator: ":", omittingEmptySubsequences: false)[1]) }
    var encoding: String { "\(returnClass)@:" + String(argumentClasses) }
    var testDescription: String { encoding }

    static let all: [TrampolineKey] = {
        var count = 0
        let keys = ict_trampoline_keys(&count)!
        return (0..<count).map { TrampolineKey(key: String(cString: keys[$0]!)) }
    }()
}

/// A distinctive value of ABI class `code` for position `position`, as bytes of the class's size.
func sampleBytes(_ code: Character, position: Int) -> [UInt8] {
    func bytes<T>(_ v: T) -> [UInt8] { withUnsafeBytes(of: v) { Array($0) } }
    let p = position
    switch code {
    case "c": return bytes(Int8(-7 - p))
    case "C": return bytes(UInt8(200 + p))
    case "s": return bytes(Int16(-300 - p))
    case "S": return bytes(UInt16(60000 + p))
    case "i": return bytes(Int32(-100_000 - p))
    case "q": return bytes(UInt64(0x1234_5678_9ABC_DEF0) &+ UInt64(p))
    case "f": return bytes(Float(1.5) + Float(p))
    case "d": return bytes(Double(-2.25) - Double(p))
    default: return []
    }
}

/// The original method of the generic signature tests: records its arguments, returns the
/// sample return value for the signature's return class (position 9).
let genericOriginal: ObserverCallback = { call, context in
    let recorder = Recorder.from(context)
    let sig = ic_invocation_signature(call)
    var all: [UInt8] = []
    for i in 2..<ic_signature_argument_count(sig) {
        all += Array(
            UnsafeRawBufferPointer(
                start: ic_invocation_argument_pointer(call, i), count: ic_signature_argument_size(sig, i)))
    }
    recorder.record("original", bytes: all, count: all.count)
    let returnType = Character(UnicodeScalar(UInt8(bitPattern: ic_signature_return_type(sig)![0])))
    let value = sampleBytes(returnType, position: 9)
    if !value.isEmpty {
        value.withUnsafeBytes { _ = ic_invocation_set_return_value(call, $0.baseAddress) }
    }
}

/// Records every argument's bytes (before) or the return value's (after).
let recordAllArguments: ObserverCallback = { call, context in
    let sig = ic_invocation_signature(call)
    var all: [UInt8] = []
    for i in 2..<ic_signature_argument_count(sig) {
        all += Array(
            UnsafeRawBufferPointer(
                start: ic_invocation_argument_pointer(call, i), count: ic_signature_argument_size(sig, i)))
    }
    Recorder.from(context).record("before", bytes: all, count: all.count)
}

extension Recorder {
    func record(_ tag: String, bytes: [UInt8], count: Int) {
        bytes.withUnsafeBytes { record(tag, bytes: $0.baseAddress, count: count) }
    }
}

@Suite("Interception: every signature")
struct InterceptSignatureTests {
    @Test("the table has every return class crossed with every list of up to 3 arguments, and 4 over i q")
    func tableShape() {
        #expect(TrampolineKey.all.count == 5 * (1 + 4 + 16 + 64) + 5 * 16)
        #expect(TrampolineKey.all.contains { $0.key == "v:" })
        #expect(TrampolineKey.all.contains { $0.key == "d:fq" })
        #expect(TrampolineKey.all.contains { $0.key == "i:qdf" })
        #expect(TrampolineKey.all.contains { $0.key == "q:iqqi" })
        #expect(!TrampolineKey.all.contains { $0.key == "q:iqqd" })
    }

    @Test("observers that rewrite a narrow argument or result leave it extended as compilers expect")
    func narrowValuesStayExtended() throws {
        let setArgument: ObserverCallback = { call, _ in
            let sig = ic_invocation_signature(call)
            if ic_signature_argument_size(sig, 2) == 1 {
                var x: Int8 = -5
                ic_invocation_set_argument(call, 2, &x)
            } else {
                var x: UInt16 = 65_000
                ic_invocation_set_argument(call, 2, &x)
            }
        }
        let setResult: ObserverCallback = { call, _ in
            if ic_signature_return_size(ic_invocation_signature(call)) == 1 {
                var r: Int8 = -7
                ic_invocation_set_return_value(call, &r)
            } else {
                var r: UInt16 = 65_001
                ic_invocation_set_return_value(call, &r)
            }
        }
        // The original returns the raw 32-bit register it received, and the test reads the raw
        // 32-bit result: both show whether the rewritten byte was re-extended.
        let raw: Int32Int32IMP = { _, _, x in x }
        let cls = try makeClass("Narrow", methods: [("c:", imp(raw), "c@:c"), ("s:", imp(raw), "S@:S")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(obj, sel("c:"), IC_OBSERVE_BEFORE, setArgument, nil, nil, &token)
                == IC_OK)
        #expect(
            ic_intercept_add_observer(obj, sel("s:"), IC_OBSERVE_BEFORE, setArgument, nil, nil, &token)
                == IC_OK)
        let c = lookup(obj, "c:", as: Int32Int32IMP.self)
        let s = lookup(obj, "s:", as: Int32Int32IMP.self)
        #expect(c(obj, sel("c:"), 3) == -5)
        #expect(s(obj, sel("s:"), 3) == 65_000)
        #expect(ict_send_schar_widened(obj, sel("c:"), 3) == -5)
        #expect(ict_send_ushort_widened(obj, sel("s:"), 3) == 65_000)
        #expect(
            ic_intercept_add_observer(obj, sel("c:"), IC_OBSERVE_AFTER, setResult, nil, nil, &token) == IC_OK)
        #expect(
            ic_intercept_add_observer(obj, sel("s:"), IC_OBSERVE_AFTER, setResult, nil, nil, &token) == IC_OK)
        #expect(c(obj, sel("c:"), -100) == -7)
        #expect(s(obj, sel("s:"), 3) == 65_001)
        #expect(ict_send_schar_widened(obj, sel("c:"), 3) == -7)
        #expect(ict_send_ushort_widened(obj, sel("s:"), 3) == 65_001)
    }

    @Test(
        "each optimized trampoline passes arguments, keeps the result, and orders before → original → after",
        arguments: TrampolineKey.all)
    func optimizedTrampoline(_ k: TrampolineKey) throws {
        let recorder = Recorder()
        let sig = try #require(ic_signature_parse(k.encoding))
        let original = ic_closure_imp_create(
            sig, genericOriginal, recorder.retainedContext(), recorderRelease)
        try #require(original != nil)
        let cls = try makeClass("Tramp", methods: [("m", original!, k.encoding)])
        let obj = try #require(ic_class_create_instance(cls))
        try observe(obj, "m", IC_OBSERVE_BEFORE, recordAllArguments, recorder)
        try observe(obj, "m", IC_OBSERVE_AFTER, recordReturnValue, recorder)
        #expect(ic_intercept_path_of(obj, sel("m")) == IC_PATH_OPTIMIZED)

        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        ic_invocation_set_target(inv, obj)
        ic_invocation_set_selector(inv, sel("m"))
        var expectedArguments: [UInt8] = []
        for (i, code) in k.argumentClasses.enumerated() {
            let value = sampleBytes(code, position: i)
            expectedArguments += value
            value.withUnsafeBytes { _ = ic_invocation_set_argument(inv, 2 + i, $0.baseAddress) }
        }
        #expect(ic_invocation_invoke(inv) == IC_OK)
        let expectedReturn = sampleBytes(k.returnClass, position: 9)
        let returned = Array(
            UnsafeRawBufferPointer(start: ic_invocation_return_pointer(inv), count: expectedReturn.count))
        #expect(returned == expectedReturn)
        #expect(recorder.events == ["before", "original", "after"])
        #expect(recorder.values("before") == [expectedArguments])
        #expect(recorder.values("original") == [expectedArguments])
        #expect(recorder.values("after") == [expectedReturn])
        ic_release(obj)
        ic_intercept_quiesce()
        #expect(ic_closure_imp_destroy(original) == IC_OK)
    }

    @Test(
        "every type of the matrix goes through interception unchanged, optimized or forwarded",
        arguments: TypeCase.all, [false, true])
    func everyTypeIntercepted(_ t: TypeCase, forceForward: Bool) throws {
        let cls = try t.makeTargetClass()
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let options = forceForward ? UInt32(IC_INTERCEPT_FORCE_FORWARDING) : 0
        for name in ["echo:", "make", "take:"] {
            #expect(ic_intercept_prepare_with_options(obj, sel(name), options) == IC_OK)
        }
        let isScalar = !t.encoding.hasPrefix("{") && t.encoding != "D"
        let expectedPath = isScalar && !forceForward ? IC_PATH_OPTIMIZED : IC_PATH_FORWARDED
        #expect(ic_intercept_path_of(obj, sel("echo:")) == expectedPath)
        let recorder = Recorder()
        try observe(obj, "echo:", IC_OBSERVE_BEFORE, recordFirstArgument, recorder)
        try observe(obj, "echo:", IC_OBSERVE_AFTER, recordReturnValue, recorder)
        try observe(obj, "make", IC_OBSERVE_AFTER, recordReturnValue, recorder)
        try observe(obj, "take:", IC_OBSERVE_BEFORE, recordFirstArgument, recorder)

        try t.withBuffer { out in
            t.raw.send_echo(obj, sel("echo:"), t.raw.other, out)
            #expect(t.isOther(out))
            let before = try #require(recorder.values("before").last)
            let after = try #require(recorder.values("after").last)
            before.withUnsafeBytes { #expect(t.isOther($0.baseAddress!)) }
            after.withUnsafeBytes { #expect(t.isOther($0.baseAddress!)) }

            t.raw.send_make(obj, sel("make"), out)
            #expect(t.isSample(out))
            let made = try #require(recorder.values("after").last)
            made.withUnsafeBytes { #expect(t.isSample($0.baseAddress!)) }

            t.raw.send_take(obj, sel("take:"), t.raw.sample)
            #expect(t.isSample(ict_taken()))
            let taken = try #require(recorder.values("before").last)
            taken.withUnsafeBytes { #expect(t.isSample($0.baseAddress!)) }
        }
        #expect(recorder.events == ["before", "after", "after", "before"])
    }
}
