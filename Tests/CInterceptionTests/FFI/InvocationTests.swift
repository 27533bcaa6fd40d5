import CInterception
import CInterceptionTestSupport
import Testing

@Suite("Invocations")
struct InvocationTests {
    @Test("the matrix covers every scalar code of the runtime's type table")
    func matrixCoversTypeTable() {
        #expect(ict_scalar_case_count() == 18)
        #expect(TypeCase.all.count > ict_scalar_case_count())
    }

    @Test("invoking an explicit IMP passes the argument and returns the result", arguments: TypeCase.all)
    func invokeImpEcho(_ t: TypeCase) throws {
        let sig = try #require(ic_signature_parse("\(t.encoding)@:\(t.encoding)"), "\(lastErrorMessage)")
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        for value in [t.raw.sample, t.raw.other] {
            #expect(ic_invocation_set_argument(inv, 2, value) == IC_OK)
            #expect(ic_invocation_invoke_imp(inv, t.raw.echo_imp) == IC_OK)
            t.withBuffer { out in
                #expect(ic_invocation_get_return_value(inv, out) == IC_OK)
                #expect(t.equal(out, value!))
                // The return pointer points at the same value.
                #expect(t.equal(ic_invocation_return_pointer(inv), value!))
            }
        }
    }

    @Test("invoking on a target sends the selector to it", arguments: TypeCase.all)
    func invokeOnTarget(_ t: TypeCase) throws {
        let cls = try t.makeTargetClass()
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        // T make
        let makeInv = try #require(ic_invocation_create(ic_signature_parse("\(t.encoding)@:")))
        defer { ic_invocation_destroy(makeInv) }
        #expect(ic_invocation_set_target(makeInv, obj) == IC_OK)
        #expect(ic_invocation_set_selector(makeInv, sel("make")) == IC_OK)
        #expect(ic_invocation_target(makeInv) == obj)
        #expect(ic_invocation_selector(makeInv) == sel("make"))
        #expect(ic_invocation_invoke(makeInv) == IC_OK)
        t.withBuffer { out in
            ic_invocation_get_return_value(makeInv, out)
            #expect(t.isSample(out))
        }
        // void take:(T)
        let takeInv = try #require(ic_invocation_create(ic_signature_parse("v@:\(t.encoding)")))
        defer { ic_invocation_destroy(takeInv) }
        ic_invocation_set_target(takeInv, obj)
        ic_invocation_set_selector(takeInv, sel("take:"))
        ic_invocation_set_argument(takeInv, 2, t.raw.other)
        #expect(ic_invocation_invoke(takeInv) == IC_OK)
        #expect(t.isOther(ict_taken()))
        #expect(ic_invocation_return_pointer(takeInv) == nil)
    }

    @Test("arguments read back as written, and a copy carries them", arguments: TypeCase.all)
    func argumentsRoundTrip(_ t: TypeCase) throws {
        let sig = try #require(ic_signature_parse("v@:\(t.encoding)\(t.encoding)"))
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        ic_invocation_set_argument(inv, 2, t.raw.sample)
        ic_invocation_set_argument(inv, 3, t.raw.other)
        let copy = try #require(ic_invocation_copy(inv))
        defer { ic_invocation_destroy(copy) }
        for i in [inv, copy] {
            t.withBuffer { out in
                #expect(ic_invocation_get_argument(i, 2, out) == IC_OK)
                #expect(t.isSample(out))
                #expect(ic_invocation_get_argument(i, 3, out) == IC_OK)
                #expect(t.isOther(out))
                #expect(t.isSample(ic_invocation_argument_pointer(i, 2)!))
            }
        }
        #expect(ic_invocation_signature(copy) == sig)
        #expect(!ic_invocation_is_frame(copy))
    }

    @Test("an invocation can live in caller memory, with no allocation")
    func invocationInBuffer() throws {
        let sig = try #require(ic_signature_parse("i@:i"))
        let size = ic_invocation_size(sig)
        #expect(size > 0)
        #expect(ic_invocation_size(nil) == 0)
        let cls = try makeClass("InvBuffer", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        try withUnsafeTemporaryAllocation(byteCount: size, alignment: 16) { buffer in
            let inv = try #require(ic_invocation_init_in(buffer.baseAddress, size, sig))
            #expect(ic_invocation_target(inv) == nil)
            ic_invocation_set_target(inv, obj)
            ic_invocation_set_selector(inv, sel("add:"))
            var x: Int32 = 9
            ic_invocation_set_argument(inv, 2, &x)
            #expect(ic_invocation_retain_arguments(inv) == IC_OK)
            #expect(ic_object_retain_count(obj) == 2)
            #expect(ic_invocation_invoke(inv) == IC_OK)
            var r: Int32 = 0
            ic_invocation_get_return_value(inv, &r)
            #expect(r == 10)
            #expect(!ic_invocation_is_frame(inv))
            ic_invocation_destroy(inv)  // releases the retained target, frees nothing
            #expect(ic_object_retain_count(obj) == 1)
            #expect(ic_invocation_init_in(buffer.baseAddress, size - 1, sig) == nil)
            #expect(ic_invocation_init_in(buffer.baseAddress! + 8, size - 8, sig) == nil)
            #expect(ic_invocation_init_in(nil, size, sig) == nil)
            #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        }
    }

    @Test("a new invocation is zeroed, and invoking with a NULL target returns zero")
    func nilTargetReturnsZero() throws {
        let sig = try #require(ic_signature_parse("{q4=qqqq}@:"))
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        #expect(ic_invocation_target(inv) == nil)
        let bigValue: [Int64] = [9, 9, 9, 9]
        bigValue.withUnsafeBytes { _ = ic_invocation_set_return_value(inv, $0.baseAddress) }
        ic_invocation_set_selector(inv, sel("anything"))
        #expect(ic_invocation_invoke(inv) == IC_OK)
        var out: [Int64] = [1, 1, 1, 1]
        out.withUnsafeMutableBytes { _ = ic_invocation_get_return_value(inv, $0.baseAddress) }
        #expect(out == [0, 0, 0, 0])
    }

    @Test("the inline argument accessor answers what ic_invocation_argument_pointer answers, in range or not")
    func inlineArgumentAccessorMatches() throws {
        #expect(ic_invocation_argument_pointer_inline(nil, 0) == nil)
        for types in ["v@:", "q@:q", "{q4=qqqq}@:qqd{q4=qqqq}", "v@:cCsSiIlLqQfdB*:#^v@"] {
            let sig = try #require(ic_signature_parse(types))
            let invocation = try #require(ic_invocation_create(sig))
            defer { ic_invocation_destroy(invocation) }
            let count = ic_signature_argument_count(sig)
            for index in 0..<(count + 3) {
                #expect(
                    ic_invocation_argument_pointer_inline(invocation, index)
                        == ic_invocation_argument_pointer(invocation, index))
            }
            #expect(ic_invocation_argument_pointer_inline(invocation, count) == nil)
            #expect(ic_invocation_argument_pointer_inline(invocation, Int.max) == nil)
        }
    }

    @Test("the inline return setter stores a value of exactly the return size, and refuses anything else")
    func inlineReturnSetter() throws {
        var value: Int64 = -42
        #expect(ic_invocation_set_return_value_inline(nil, &value, 8) == 0)
        let sig = try #require(ic_signature_parse("q@:"))
        let invocation = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(invocation) }
        #expect(ic_invocation_set_return_value_inline(invocation, nil, 8) == 0)
        #expect(ic_invocation_set_return_value_inline(invocation, &value, 4) == 0)
        #expect(ic_invocation_set_return_value_inline(invocation, &value, 16) == 0)
        var out: Int64 = 0
        ic_invocation_get_return_value(invocation, &out)
        #expect(out == 0)  // nothing stored by a refusal
        #expect(ic_invocation_set_return_value_inline(invocation, &value, 8) == 1)
        ic_invocation_get_return_value(invocation, &out)
        #expect(out == -42)

        let void = try #require(ic_signature_parse("v@:"))
        let voidInvocation = try #require(ic_invocation_create(void))
        defer { ic_invocation_destroy(voidInvocation) }
        #expect(ic_invocation_set_return_value_inline(voidInvocation, &value, 0) == 0)
        #expect(ic_invocation_set_return_value_inline(voidInvocation, &value, 8) == 0)
    }

    @Test(
        "memory of a destroyed invocation that the next one reuses comes back zeroed, whatever the signatures"
    )
    func reusedMemoryIsZeroed() throws {
        // Each thread keeps one freed block for the next create: a destroy/create pair must not
        // leak the old arguments, even into a smaller signature laid out differently.
        let big = try #require(ic_signature_parse("{q4=qqqq}@:qqd{q4=qqqq}"))
        let small = try #require(ic_signature_parse("q@:q"))
        for _ in 0..<3 {
            let first = try #require(ic_invocation_create(big))
            for index in 2..<ic_signature_argument_count(big) {
                let pointer = try #require(ic_invocation_argument_pointer(first, index))
                pointer.initializeMemory(
                    as: UInt8.self, repeating: 0xA5, count: ic_signature_argument_size(big, index))
            }
            let pattern = [UInt8](repeating: 0xA5, count: 32)
            pattern.withUnsafeBytes { _ = ic_invocation_set_return_value(first, $0.baseAddress) }
            ic_invocation_destroy(first)
            for sig in [small, big] {
                let next = try #require(ic_invocation_create(sig))
                defer { ic_invocation_destroy(next) }
                for index in 2..<ic_signature_argument_count(sig) {
                    let pointer = try #require(ic_invocation_argument_pointer(next, index))
                    let size = ic_signature_argument_size(sig, index)
                    #expect((0..<size).allSatisfy { pointer.load(fromByteOffset: $0, as: UInt8.self) == 0 })
                }
                var returned = [UInt8](repeating: 1, count: 32)
                returned.withUnsafeMutableBytes { _ = ic_invocation_get_return_value(next, $0.baseAddress) }
                let returnSize = sig == big ? 32 : 8
                #expect(returned.prefix(returnSize).allSatisfy { $0 == 0 })
            }
        }
    }

    @Test("argument indexes beyond the signature are refused")
    func indexOutOfRange() throws {
        let inv = try #require(ic_invocation_create(ic_signature_parse("i@:i")))
        defer { ic_invocation_destroy(inv) }
        var x: Int32 = 0
        #expect(ic_invocation_set_argument(inv, 3, &x) == IC_ERR_INDEX_OUT_OF_RANGE)
        #expect(lastErrorMessage.contains("out of range"))
        #expect(ic_invocation_get_argument(inv, 99, &x) == IC_ERR_INDEX_OUT_OF_RANGE)
        #expect(ic_invocation_argument_pointer(inv, 3) == nil)
        #expect(ic_invocation_get_argument(inv, 0, nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_invocation_set_argument(nil, 0, &x) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("target and selector need a method signature")
    func targetNeedsMethodSignature() throws {
        let inv = try #require(ic_invocation_create(ic_signature_parse("ii")))
        defer { ic_invocation_destroy(inv) }
        #expect(ic_invocation_target(inv) == nil)
        #expect(ic_error_status() == IC_ERR_SIGNATURE_MISMATCH)
        #expect(ic_invocation_set_selector(inv, sel("x")) == IC_ERR_SIGNATURE_MISMATCH)
        #expect(ic_invocation_invoke(inv) == IC_ERR_SIGNATURE_MISMATCH)
        #expect(ic_invocation_create(nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_invocation_invoke_imp(inv, nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("a plain C function can be invoked through a non-method signature")
    func invokePlainFunction() throws {
        typealias Fn = @convention(c) (Double, Int32) -> Double
        let scale: Fn = { x, n in x * Double(n) }
        let inv = try #require(ic_invocation_create(ic_signature_parse("ddi")))
        defer { ic_invocation_destroy(inv) }
        var x = 1.5
        var n: Int32 = 4
        ic_invocation_set_argument(inv, 0, &x)
        ic_invocation_set_argument(inv, 1, &n)
        #expect(ic_invocation_invoke_imp(inv, imp(scale)) == IC_OK)
        var r = 0.0
        ic_invocation_get_return_value(inv, &r)
        #expect(r == 6.0)
    }

    @Test("retained arguments are released when the invocation is destroyed")
    func retainArguments() throws {
        let cls = try makeClass("InvRetained")
        let obj = try #require(ic_class_create_instance(cls))
        let other = try #require(ic_class_create_instance(cls))
        let inv = try #require(ic_invocation_create(ic_signature_parse("v@:@")))
        var arg: ID? = obj
        ic_invocation_set_argument(inv, 2, &arg)
        #expect(ic_invocation_retain_arguments(inv) == IC_OK)
        #expect(ic_object_retain_count(obj) == 2)
        arg = other
        ic_invocation_set_argument(inv, 2, &arg)  // releases obj, retains other
        #expect(ic_object_retain_count(obj) == 1)
        #expect(ic_object_retain_count(other) == 2)
        ic_invocation_destroy(inv)
        #expect(ic_object_retain_count(other) == 1)
        ic_release(obj)
        ic_release(other)
        #expect(ic_class_live_instance_count(cls) == 0)
    }

    @Test(
        "an invocation passes narrow integer arguments extended as their types, whatever bytes lie beside them"
    )
    func narrowArgumentsReachTheCalleeExtended() throws {
        let sig = try #require(ic_signature_parse("i@:cSB"), "\(lastErrorMessage)")
        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        // Each case: (a, b, c) and a + b + c. The arguments' slots in the invocation are 1, 2 and
        // 1 bytes: a call loading 32 bits from one without widening it reads its neighbours.
        let cases: [(Int8, UInt16, Bool, Int32)] = [
            (-5, 65_535, true, 65_531), (-128, 1, false, -127), (127, 32_768, true, 32_896),
            (-1, 0, false, -1),
        ]
        for (a, b, c, sum) in cases {
            var a = a
            var b = b
            var c = c
            #expect(ic_invocation_set_argument(inv, 2, &a) == IC_OK)
            #expect(ic_invocation_set_argument(inv, 3, &b) == IC_OK)
            #expect(ic_invocation_set_argument(inv, 4, &c) == IC_OK)
            #expect(ic_invocation_invoke_imp(inv, ict_narrow_sum_imp()) == IC_OK)
            var result: Int32 = 0
            #expect(ic_invocation_get_return_value(inv, &result) == IC_OK)
            #expect(result == sum, "\(a) + \(b) + \(c)")
        }
    }
}
