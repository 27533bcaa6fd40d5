import CInterception
import CInterceptionTestSupport
import Testing

// Signatures outside the typed table (five or more arguments, a double among four, a struct) take
// the universal trampoline on both paths without any environment switch.
private typealias Void5IMP = @convention(c) (ID?, SEL?, Int64, Int64, Int64, Int64, Int64) -> Void
private typealias Void3DoubleIMP = @convention(c) (ID?, SEL?, Int64, Int64, Int64, Double) -> Void
private typealias Double5IMP = @convention(c) (ID?, SEL?, Int64, Int64, Int64, Int64, Int64) -> Double
private typealias Void8IMP =
    @convention(c) (ID?, SEL?, Int64, Int64, Int64, Int64, Int64, Int64, Int64, Int64) -> Void
private typealias Void9DoubleIMP =
    @convention(c) (
        ID?, SEL?, Double, Double, Double, Double, Double, Double, Double, Double, Double
    ) -> Void

private typealias Void2DoubleIMP = @convention(c) (ID?, SEL?, Int64, Int64, Double, Double) -> Void
private typealias Void3DoublesIMP = @convention(c) (ID?, SEL?, Int64, Double, Double, Double) -> Void

private let void2Double: Void2DoubleIMP = { _, _, _, _, _, _ in }
private let void3Doubles: Void3DoublesIMP = { _, _, _, _, _, _ in }
private let void5: Void5IMP = { _, _, _, _, _, _, _ in }
private let void3Double: Void3DoubleIMP = { _, _, _, _, _, _ in }
private let double5: Double5IMP = { _, _, a, b, c, d, e in Double(a + b + c + d + e) }
private let void8: Void8IMP = { _, _, _, _, _, _, _, _, _, _ in }
private let void9Double: Void9DoubleIMP = { _, _, _, _, _, _, _, _, _, _, _ in }

#if arch(x86_64)
    private let isX86 = true
#else
    private let isX86 = false
#endif

/// One signature and the entry the universal trampoline must give it.
struct UniversalEntryCase: CustomTestStringConvertible, Sendable {
    let name: String
    let types: String
    let method: @Sendable () -> ic_imp
    let expected: ict_universal_entry
    var testDescription: String { "\(name) \(types)" }

    static let all: [UniversalEntryCase] = {
        let ddd = TypeCase.all.first { $0.name == "struct_ddd" }!
        let longDouble = TypeCase.all.first { $0.name == "longdouble" }!
        return [
            UniversalEntryCase(
                name: "integers only", types: "v@:qqqqq", method: { imp(void5) },
                expected: ICT_UNIVERSAL_NOVEC
            ),
            UniversalEntryCase(
                name: "one double argument", types: "v@:qqqd", method: { imp(void3Double) },
                expected: ICT_UNIVERSAL_VEC2),
            UniversalEntryCase(
                name: "two double arguments", types: "v@:qqdd", method: { imp(void2Double) },
                expected: ICT_UNIVERSAL_VEC2),
            UniversalEntryCase(
                name: "three double arguments", types: "v@:qddd", method: { imp(void3Doubles) },
                expected: ICT_UNIVERSAL_FULL),
            UniversalEntryCase(
                name: "a double result, integer arguments", types: "d@:qqqqq", method: { imp(double5) },
                expected: ICT_UNIVERSAL_NOVEC),
            UniversalEntryCase(
                name: "integers on the stack", types: "v@:qqqqqqqq", method: { imp(void8) },
                expected: ICT_UNIVERSAL_NOVEC),
            UniversalEntryCase(
                name: "doubles past the vector registers", types: "v@:ddddddddd",
                method: { imp(void9Double) },
                expected: ICT_UNIVERSAL_FULL),
            // A 24-byte struct of doubles: on x86-64 passed in memory and returned through rdi (no
            // vector register either way); on AArch64 an HFA, passed in v0-v2, returned through x8.
            UniversalEntryCase(
                name: "struct of three doubles, argument and result",
                types: ddd.encoding + "@:" + ddd.encoding,
                method: { ddd.raw.echo_imp }, expected: isX86 ? ICT_UNIVERSAL_SRET_NOVEC : ICT_UNIVERSAL_FULL),
            UniversalEntryCase(
                name: "struct of three doubles, result only", types: ddd.encoding + "@:",
                method: { ddd.raw.make_imp }, expected: isX86 ? ICT_UNIVERSAL_SRET_NOVEC : ICT_UNIVERSAL_NOVEC
            ),
            // Returned on the x87 stack on x86-64 (an entry of its own: st(0) stored and loaded
            // back without a flag to test); in q0 on AArch64.
            UniversalEntryCase(
                name: "long double result only", types: longDouble.encoding + "@:",
                method: { longDouble.raw.make_imp },
                expected: isX86 ? ICT_UNIVERSAL_X87_NOVEC : ICT_UNIVERSAL_NOVEC),
        ]
    }()
}

@Suite(
    "The universal trampoline's entries: vector registers saved only as far as the arguments use them"
)
struct UniversalEntryTests {
    @Test(
        "an interception subclass's method gets the _novec entry with no argument in a vector register, _vec2 with two at most",
        arguments: UniversalEntryCase.all)
    func objectEntry(_ c: UniversalEntryCase) throws {
        let cls = try makeClass("UniversalEntryObject", methods: [("m", c.method(), c.types)])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(
            ic_intercept_prepare_with_options(obj, sel("m"), UInt32(IC_INTERCEPT_FORCE_FORWARDING)) == IC_OK)
        #expect(ic_intercept_entry_of(obj, sel("m")) == IC_ENTRY_UNIVERSAL)
        #expect(ict_universal_entry_kind(ic_msg_lookup(obj, sel("m")), false) == c.expected)
    }

    @Test(
        "a class-wide hook gets the _novec entry with no argument in a vector register, _vec2 with two at most",
        arguments: UniversalEntryCase.all)
    func classEntry(_ c: UniversalEntryCase) throws {
        let cls = try makeClass("UniversalEntryClass", methods: [("m", c.method(), c.types)])
        var token: ic_observer_token = 0
        #expect(ic_hook_class(cls, sel("m"), IC_HOOK_BEFORE, 0, { _, _ in }, nil, nil, &token) == IC_OK)
        defer { ic_hook_remove(token) }
        #expect(ic_hook_class_entry_of(cls, sel("m")) == IC_ENTRY_UNIVERSAL)
        #expect(ict_universal_entry_kind(ic_class_get_imp(cls, sel("m")), true) == c.expected)
    }
}
