// Closure IMPs on the universal trampoline's stubs (ic_closure.h): a method signature without a
// register shape (structs, long double, stack arguments) gets a stub while one is free, and its
// frame callback runs with no libffi on the call.
//
// The stubs are shared by the whole test process (classes that tests define keep their method
// closures forever), so a closure made here may get libffi instead; what a call does must not
// differ. Which kind a closure gets while stubs are free is checked in a process of its own.
import CInterception
import CInterceptionTestSupport
import Glibc
import Testing

/// A frame callback that makes the call the method's: re-targets the frame at the object in the
/// context (which implements the matrix method) and invokes it.
private let forwardToContext: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, context in
    ic_invocation_set_target(invocation, OpaquePointer(context))
    ic_invocation_invoke(invocation)
}

/// A frame callback that sets nothing.
private let setNothing: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }

/// q@:qqqqqqqqqq through a frame: the ten arguments weighted by their position (1…10), so that
/// a misplaced stack argument shows.
private let weightedSum: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, _ in
    var sum: Int64 = 0
    for i in 2..<12 {
        var x: Int64 = 0
        ic_invocation_get_argument(invocation, i, &x)
        sum &+= x &* Int64(i - 1)
    }
    ic_invocation_set_return_value(invocation, &sum)
}
private typealias TenInt64IMP =
    @convention(c) (
        OpaquePointer?, OpaquePointer?, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64,
        Int64
    ) -> Int64

/// c@:{P=dd}: the struct's first member, truncated to a char (a narrow result).
private let narrowFromStruct: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
    invocation, _ in
    var pair: (Double, Double) = (0, 0)
    ic_invocation_get_argument(invocation, 2, &pair)
    var r = Int8(pair.0 + pair.1)
    ic_invocation_set_return_value(invocation, &r)
}

/// Runs `body` with a 16-aligned buffer large enough for any matrix result, filled with a
/// pattern that a result must overwrite.
private func withResultBuffer(_ body: (UnsafeMutableRawPointer) -> Void) {
    let out = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    defer { out.deallocate() }
    out.initializeMemory(as: UInt8.self, repeating: 0xA5, count: 64)
    body(out)
}

@Suite("Closure IMPs on the universal trampoline")
struct ClosureUniversalTests {
    @Test(
        "a closure IMP of each matrix signature behaves as the method it forwards to: same arguments, same result",
        arguments: MatrixCase.all)
    func everySignatureForwards(_ m: MatrixCase) throws {
        let s = sel("m")
        let targetClass = try makeClass("ClosureUniversalTarget", methods: [("m", m.raw.imp, m.encoding)])
        let target = try #require(ic_class_create_instance(targetClass))
        defer { ic_release(target) }
        let sig = try #require(ic_signature_parse(m.encoding))
        let closure = try #require(
            ic_closure_imp_create(sig, forwardToContext, UnsafeMutableRawPointer(target), nil))
        defer { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
        let kind = ic_closure_imp_kind(closure)
        #expect(
            [IC_CLOSURE_KIND_REGISTER_FRAME, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(kind)
        )
        let closureClass = try makeClass("ClosureUniversal", methods: [("m", closure, m.encoding)])
        let receiver = try #require(ic_class_create_instance(closureClass))
        defer { ic_release(receiver) }
        let calls = ict_matrix_calls()
        withResultBuffer { out in
            m.raw.send(receiver, s, out)
            if let type = m.returnType { #expect(type.equal(out, m.raw.ret), "result") }
        }
        #expect(ict_matrix_calls() == calls + 1, "the method ran once")
        for i in 0..<m.arity {
            #expect(m.argumentType(i).equal(ict_matrix_received(i), m.argument(i)), "argument \(i)")
        }
    }

    @Test(
        "a closure IMP whose callback sets no result returns zero, for every matrix result type",
        arguments: MatrixCase.all.filter { $0.returnType != nil && $0.arity == 1 })
    func unsetResultIsZero(_ m: MatrixCase) throws {
        let sig = try #require(ic_signature_parse(m.encoding))
        let closure = try #require(ic_closure_imp_create(sig, setNothing, nil, nil))
        defer { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
        let cls = try makeClass("ClosureUnset", methods: [("m", closure, m.encoding)])
        let receiver = try #require(ic_class_create_instance(cls))
        defer { ic_release(receiver) }
        let type = try #require(m.returnType)
        withResultBuffer { out in
            m.raw.send(receiver, sel("m"), out)
            let zero = SIMD64<UInt8>(repeating: 0)  // 64 zero bytes, aligned for any matrix type
            withUnsafeBytes(of: zero) { #expect(type.equal(out, $0.baseAddress!)) }
        }
    }

    @Test("stack arguments and a narrow result reach and leave a closure IMP as in a direct call")
    func stackArgumentsAndNarrowResult() throws {
        let ten = try #require(ic_signature_parse("q@:qqqqqqqqqq"))
        let sum = try #require(ic_closure_imp_create(ten, weightedSum, nil, nil))
        defer { #expect(ic_closure_imp_destroy(sum) == IC_OK) }
        let f = unsafeBitCast(sum, to: TenInt64IMP.self)
        // 1·1 + 2·2 + … + 10·10, and again with the sign of every other argument flipped.
        #expect(f(nil, nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 385)
        #expect(f(nil, nil, -1, 2, -3, 4, -5, 6, -7, 8, -9, 10) == 55)

        let narrow = try #require(ic_signature_parse("c@:{P=dd}"))
        let closure = try #require(ic_closure_imp_create(narrow, narrowFromStruct, nil, nil))
        defer { #expect(ic_closure_imp_destroy(closure) == IC_OK) }
        // Called as returning a whole int: the char's upper bytes must not be noise.
        typealias WideIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double) -> Int32
        typealias CharIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Double, Double) -> Int8
        #expect(unsafeBitCast(closure, to: CharIMP.self)(nil, nil, -5, 2) == -3)
        #expect(unsafeBitCast(closure, to: WideIMP.self)(nil, nil, 5, 2) & ~0xFF == 0)
    }

    @Test(
        "in a process whose stubs are free, closures without a register shape take stubs until none is left, then libffi; a destroyed closure's stub is taken again"
    )
    func stubsRunOutAndComeBack() async {
        await #expect(processExitsWith: .success) {
            for encoding in ["{V4=dddd}@:d", "i@:{P=dd}", "q@:qqqqqqqqqq", "D@:D", "v@:{S=iiiiiiiiii}"] {
                let closure = ic_closure_imp_create(ic_signature_parse(encoding), setNothing, nil, nil)
                guard ic_closure_imp_kind(closure) == IC_CLOSURE_KIND_UNIVERSAL else { exit(1) }
                guard ic_closure_imp_destroy(closure) == IC_OK else { exit(2) }
            }
            let sig = ic_signature_parse("q@:qqqqqqqqqq")
            let closures = (0..<1100).map { _ in ic_closure_imp_create(sig, weightedSum, nil, nil)! }
            let kinds = closures.map { ic_closure_imp_kind($0) }
            let stubs = kinds.prefix { $0 == IC_CLOSURE_KIND_UNIVERSAL }.count
            // The stubs first, then libffi for every one made once they are taken.
            guard stubs >= 1000, kinds.dropFirst(stubs).allSatisfy({ $0 == IC_CLOSURE_KIND_LIBFFI }),
                stubs < closures.count
            else { exit(3) }
            for closure in [closures[0], closures[stubs - 1], closures[stubs], closures[1099]] {
                guard
                    unsafeBitCast(closure, to: TenInt64IMP.self)(nil, nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
                        == 385
                else { exit(4) }
            }
            guard ic_closure_imp_destroy(closures[7]) == IC_OK else { exit(5) }
            let again = ic_closure_imp_create(sig, weightedSum, nil, nil)
            guard ic_closure_imp_kind(again) == IC_CLOSURE_KIND_UNIVERSAL,
                unsafeBitCast(again, to: TenInt64IMP.self)(nil, nil, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10) == 385
            else { exit(6) }
            exit(0)
        }
    }
}
