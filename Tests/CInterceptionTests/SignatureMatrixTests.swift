// The signature matrix of SPEC section 9 (issue #8): a few hundred method signatures generated
// from the runtime's type table (Tests/CInterceptionTestSupport/matrix_cases.c: both ABIs' struct
// shapes and the edges of their argument registers, issue #26), each called directly,
// unintercepted, through an invocation, through the forward path and through an optimized
// trampoline where the runtime has one, with identical results; observers see exactly the
// arguments passed and the value returned. The C matrix program (Tests/CMatrix) runs the same
// cases from C, on AArch64 under qemu too.
import CInterception
import CInterceptionTestSupport
import Testing

/// One signature of the generated matrix.
struct MatrixCase: CustomTestStringConvertible, Sendable {
    let index: Int
    var raw: ict_matrix_case { MatrixCase.table[index] }
    var encoding: String { String(cString: raw.encoding) }
    var arity: Int { raw.arg_count }
    var testDescription: String { "\(index): \(encoding)" }

    nonisolated(unsafe) static let table: UnsafePointer<ict_matrix_case> = {
        var count = 0
        return ict_matrix_cases(&count)
    }()

    static let all: [MatrixCase] = {
        var count = 0
        _ = ict_matrix_cases(&count)
        return (0..<count).map { MatrixCase(index: $0) }
    }()

    private static let typesByName: [String: TypeCase] = Dictionary(
        uniqueKeysWithValues: TypeCase.all.map { ($0.name, $0) })

    /// The type case of argument `i` (after self and _cmd).
    func argumentType(_ i: Int) -> TypeCase {
        withUnsafeBytes(of: raw.arg_types) {
            MatrixCase.typesByName[
                String(cString: $0.load(fromByteOffset: i * 8, as: UnsafePointer<CChar>.self))]!
        }
    }

    /// The value passed at argument `i`.
    func argument(_ i: Int) -> UnsafeRawPointer {
        withUnsafeBytes(of: raw.args) { $0.load(fromByteOffset: i * 8, as: UnsafeRawPointer.self) }
    }

    /// The return type's case, or nil for void.
    var returnType: TypeCase? { MatrixCase.typesByName[String(cString: raw.return_type)] }
}

/// Records each argument after self and _cmd under "argN", with its bytes.
private let recordEachArgument: ObserverCallback = { call, context in
    let sig = ic_invocation_signature(call)
    let recorder = Recorder.from(context)
    for i in 2..<ic_signature_argument_count(sig) {
        recorder.record(
            "arg\(i - 2)", bytes: ic_invocation_argument_pointer(call, i),
            count: ic_signature_argument_size(sig, i))
    }
}

@Suite("Signature matrix")
struct SignatureMatrixTests {
    @Test("the matrix has every type as return at every arity from 0 to 6, and as argument at every position")
    func coverage() {
        let types = Set(TypeCase.all.prefix(ict_scalar_case_count()).map(\.name)).union(
            [
                "struct_ff", "struct_dd", "struct_fi", "struct_id", "struct_dq", "struct_ddd", "struct_17",
                "struct_32", "struct_cfc", "struct_f1", "struct_fff", "struct_ffff", "struct_dddd",
                "struct_fa4", "struct_DD", "struct_d5", "struct_fd", "struct_iii", "struct_c3",
            ])
        var returns = Set<String>()
        var positions = Set<String>()
        for m in MatrixCase.all {
            returns.insert("\(m.returnType?.name ?? "void")/\(m.arity)")
            for i in 0..<m.arity { positions.insert("\(m.argumentType(i).name)@\(i)") }
        }
        for name in types.union(["void"]) {
            for arity in 0...6 {
                #expect(returns.contains("\(name)/\(arity)"), "\(name) returned at arity \(arity)")
            }
        }
        for name in types {
            for i in 0..<6 { #expect(positions.contains("\(name)@\(i)"), "\(name) at argument \(i)") }
        }
        #expect(MatrixCase.all.count >= 250)
        #expect(MatrixCase.all.filter { $0.raw.optimized }.count >= 100)
    }

    @Test(
        "each signature gives the same result directly, unintercepted, through an invocation, forwarded and optimized; observers see exactly what was passed and returned",
        arguments: MatrixCase.all)
    func everyPath(_ m: MatrixCase) throws {
        let s = sel("m")
        let forwardClass = try makeClass("MatrixForward", methods: [("m", m.raw.imp, m.encoding)])
        let defaultClass = try makeClass("MatrixDefault", methods: [("m", m.raw.imp, m.encoding)])
        let sig = try #require(ic_signature_parse(m.encoding), "\(lastErrorMessage)")
        let out = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { out.deallocate() }

        /// Checks one path's result, what the method received, and that it ran exactly once.
        func check(_ path: String, callsBefore: Int, result: UnsafeRawPointer?) {
            #expect(ict_matrix_calls() == callsBefore + 1, "\(path): the method ran once")
            for i in 0..<m.arity {
                #expect(
                    m.argumentType(i).equal(ict_matrix_received(i), m.argument(i)),
                    "\(path): argument \(i) received")
            }
            if let type = m.returnType, let result {
                #expect(type.equal(result, m.raw.ret), "\(path): result")
            }
        }
        func fresh() { out.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 64) }

        // Directly, through a function pointer of the method's type.
        fresh()
        var calls = ict_matrix_calls()
        m.raw.call_direct(out)
        check("direct", callsBefore: calls, result: out)

        // A plain send and an invocation to an object nobody intercepts.
        let plain = try #require(ic_class_create_instance(defaultClass))
        defer { ic_release(plain) }
        fresh()
        calls = ict_matrix_calls()
        m.raw.send(plain, s, out)
        check("unintercepted send", callsBefore: calls, result: out)
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        #expect(ic_invocation_set_target(inv, plain) == IC_OK)
        #expect(ic_invocation_set_selector(inv, s) == IC_OK)
        for i in 0..<m.arity { #expect(ic_invocation_set_argument(inv, 2 + i, m.argument(i)) == IC_OK) }
        calls = ict_matrix_calls()
        #expect(ic_invocation_invoke(inv) == IC_OK)
        check("invocation", callsBefore: calls, result: ic_invocation_return_pointer(inv))

        // Intercepted: forced onto the forward path, and the path the runtime picks by default.
        for (cls, options, expected) in [
            (forwardClass, UInt32(IC_INTERCEPT_FORCE_FORWARDING), IC_PATH_FORWARDED),
            (defaultClass, UInt32(0), m.raw.optimized ? IC_PATH_OPTIMIZED : IC_PATH_FORWARDED),
        ] {
            let path =
                expected == IC_PATH_OPTIMIZED ? "optimized" : options != 0 ? "forced forward" : "forward"
            let obj = try #require(ic_class_create_instance(cls))
            defer { ic_release(obj) }
            #expect(ic_intercept_prepare_with_options(obj, s, options) == IC_OK)
            #expect(ic_intercept_path_of(obj, s) == expected, "\(path)")
            let recorder = Recorder()
            try observe(obj, "m", IC_OBSERVE_BEFORE, recordEachArgument, recorder)
            try observe(obj, "m", IC_OBSERVE_AFTER, recordReturnValue, recorder)

            fresh()
            calls = ict_matrix_calls()
            m.raw.send(obj, s, out)
            check("\(path) send", callsBefore: calls, result: out)
            // Invoked through libffi, the trampoline or forward closure is reached the same way.
            #expect(ic_invocation_set_target(inv, obj) == IC_OK)
            calls = ict_matrix_calls()
            #expect(ic_invocation_invoke(inv) == IC_OK)
            check("\(path) invocation", callsBefore: calls, result: ic_invocation_return_pointer(inv))

            // Each call was seen once before and once after, with the values passed and returned.
            #expect(recorder.values("after").count == 2, "\(path)")
            for i in 0..<m.arity {
                let seen = recorder.values("arg\(i)")
                #expect(seen.count == 2, "\(path): argument \(i) observed")
                for bytes in seen {
                    bytes.withUnsafeBytes {
                        #expect(
                            m.argumentType(i).equal($0.baseAddress!, m.argument(i)),
                            "\(path): argument \(i) observed")
                    }
                }
            }
            if let type = m.returnType {
                for bytes in recorder.values("after") {
                    bytes.withUnsafeBytes {
                        #expect(type.equal($0.baseAddress!, m.raw.ret), "\(path): result observed")
                    }
                }
            }
        }
        #expect(
            ClassCounters(forwardClass) == ClassCounters(subclasses: 1, forwardingClasses: 1, forwarded: 1))
        #expect(
            ClassCounters(defaultClass)
                == (m.raw.optimized
                    ? ClassCounters(subclasses: 1, optimized: 1, liveObjects: 1)
                    : ClassCounters(subclasses: 1, forwardingClasses: 1, forwarded: 1, liveObjects: 1)))
    }

    @Test(
        "each signature gives the same result through an instead hook that calls the original: optimized, forwarded and class-wide",
        arguments: MatrixCase.all)
    func insteadHookCallingOriginal(_ m: MatrixCase) throws {
        let s = sel("m")
        let forwardClass = try makeClass("MatrixInsteadForward", methods: [("m", m.raw.imp, m.encoding)])
        let defaultClass = try makeClass("MatrixInsteadDefault", methods: [("m", m.raw.imp, m.encoding)])
        let hookedClass = try makeClass("MatrixInsteadClass", methods: [("m", m.raw.imp, m.encoding)])
        let out = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        defer { out.deallocate() }
        func check(_ path: String, _ obj: ID) {
            out.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 64)
            let calls = ict_matrix_calls()
            m.raw.send(obj, s, out)
            #expect(ict_matrix_calls() == calls + 1, "\(path): the method ran once")
            for i in 0..<m.arity {
                #expect(
                    m.argumentType(i).equal(ict_matrix_received(i), m.argument(i)),
                    "\(path): argument \(i) received")
            }
            if let type = m.returnType {
                #expect(type.equal(out, m.raw.ret), "\(path): result")
            }
        }
        var token: ic_observer_token = 0
        for (cls, options) in [
            (forwardClass, UInt32(IC_INTERCEPT_FORCE_FORWARDING)), (defaultClass, UInt32(0)),
        ] {
            let obj = try #require(ic_class_create_instance(cls))
            defer { ic_release(obj) }
            #expect(ic_intercept_prepare_with_options(obj, s, options) == IC_OK)
            #expect(ic_hook_object(obj, s, IC_HOOK_INSTEAD, 0, callOriginal, nil, nil, &token) == IC_OK)
            check(options != 0 ? "forwarded instead" : "default-path instead", obj)
        }
        #expect(ic_hook_class(hookedClass, s, IC_HOOK_INSTEAD, 0, callOriginal, nil, nil, &token) == IC_OK)
        let obj = try #require(ic_class_create_instance(hookedClass))
        defer { ic_release(obj) }
        check("class-wide instead", obj)
        #expect(ic_hook_remove(token) == IC_OK)
    }
}

/// An instead hook that only calls the original.
private let callOriginal: ObserverCallback = { call, _ in ic_hook_call_original(call) }
