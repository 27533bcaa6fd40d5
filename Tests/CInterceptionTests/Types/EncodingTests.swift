import CInterception
import Testing

/// Size and alignment of one type, or the error status.
private func layout(_ type: String) -> (size: Int, align: Int)? {
    var size = 0
    var align = 0
    guard ic_encoding_size_and_alignment(type, &size, &align, nil) == IC_OK else { return nil }
    return (size, align)
}

private func normalized(_ types: String) -> String? {
    ic_signature_parse(types).map { String(cString: ic_signature_types($0)) }
}

@Suite("Type encodings and signatures")
struct EncodingTests {
    @Test(
        "every scalar code has the size and alignment of its C type",
        arguments: [
            ("c", 1, 1), ("i", 4, 4), ("s", 2, 2), ("l", 4, 4), ("q", 8, 8), ("C", 1, 1),
            ("I", 4, 4), ("S", 2, 2), ("L", 4, 4), ("Q", 8, 8), ("f", 4, 4), ("d", 8, 8),
            ("D", 16, 16), ("B", 1, 1), ("*", 8, 8), ("@", 8, 8), ("#", 8, 8), (":", 8, 8),
        ])
    func scalarLayout(code: String, size: Int, align: Int) throws {
        let l = try #require(layout(code))
        #expect(l.size == size)
        #expect(l.align == align)
    }

    @Test(
        "compound types are laid out as C lays them out",
        arguments: [
            ("^i", 8, 8), ("^?", 8, 8), ("^v", 8, 8), ("^{opaque}", 8, 8), ("^^{x=ii}", 8, 8),
            ("[4i]", 16, 4), ("[2[3s]]", 12, 2), ("{P=dd}", 16, 8), ("{?=ci}", 8, 4),
            ("{S=c{T=sd}[3c]}", 32, 8), ("{P=\"x\"d\"y\"d}", 16, 8), ("(U=id)", 8, 8),
            ("@\"NSString\"", 8, 8), ("@?", 8, 8), ("{b=[17C]}", 17, 1), ("v", 0, 1),
        ])
    func compoundLayout(type: String, size: Int, align: Int) throws {
        let l = try #require(layout(type), "\(type): \(lastErrorMessage)")
        #expect(l.size == size)
        #expect(l.align == align)
    }

    @Test("size_and_alignment reports where the type ends, offsets included")
    func sizeAndAlignmentEnd() throws {
        let text = "{P=dd}16i"
        try text.withCString { base in
            var end: UnsafePointer<CChar>? = nil
            var size = 0
            #expect(ic_encoding_size_and_alignment(base, &size, nil, &end) == IC_OK)
            #expect(size == 16)
            let endPointer = try #require(end)
            #expect(endPointer - base == 8)
        }
    }

    @Test(
        "encodings that mean the same normalize to the same signature",
        arguments: [
            ("i24@0:8i16", "i@:i"), ("ri@:ni", "i@:i"), ("Vv@:", "v@:"), ("v@:r*", "v@:*"),
            ("@\"Foo\"@:@\"Bar\"", "@@:@"), ("v@:{P=\"x\"d\"y\"d}", "v@:{P=dd}"),
            ("v@:{S=\"o\"@\"Foo\"\"n\"i}", "v@:{S=@i}"), ("v@:{S=\"o\"@\"n\"i}", "v@:{S=@i}"),
            ("v-8@0:8", "v@:"), ("v@:@?", "v@:@?"), ("v@:^?", "v@:^?"),
        ])
    func normalization(raw: String, expected: String) throws {
        let n = try #require(normalized(raw), "\(raw): \(lastErrorMessage)")
        #expect(n == expected)
        #expect(ic_signature_parse(raw) == ic_signature_parse(expected))
    }

    @Test("a signature describes its return type and each argument")
    func signatureAccessors() throws {
        let sig = try #require(ic_signature_parse("{P=dd}@:i[4s]^v"))
        #expect(ic_signature_is_method(sig))
        #expect(ic_signature_argument_count(sig) == 5)
        #expect(String(cString: ic_signature_return_type(sig)) == "{P=dd}")
        #expect(ic_signature_return_size(sig) == 16)
        #expect(ic_signature_return_alignment(sig) == 8)
        #expect(String(cString: ic_signature_argument_type(sig, 2)) == "i")
        #expect(ic_signature_argument_size(sig, 2) == 4)
        // An array argument decays to a pointer.
        #expect(String(cString: ic_signature_argument_type(sig, 3)) == "[4s]")
        #expect(ic_signature_argument_size(sig, 3) == 8)
        #expect(ic_signature_argument_alignment(sig, 3) == 8)
        #expect(ic_signature_argument_type(sig, 5) == nil)
        #expect(ic_signature_argument_size(sig, 9) == 0)
        let function = try #require(ic_signature_parse("dd"))
        #expect(!ic_signature_is_method(function))
        #expect(ic_signature_argument_count(function) == 1)
        let void = try #require(ic_signature_parse("v"))
        #expect(ic_signature_return_size(void) == 0)
        #expect(ic_signature_argument_count(void) == 0)
    }

    @Test(
        "malformed encodings are refused with the offending position",
        arguments: [
            ("", 0), ("x", 0), ("i@:x", 3), ("i@:{P=ii", 8), ("{P=i", 4), ("[i]", 1),
            ("[4i", 3), ("^", 1), ("@\"Foo", 1), ("{P=\"x\"}", 6), ("(U=i", 4),
            ("{P=\"a\"i\"b\"}", 10), ("b", 1), ("{P=\"a\"ii}", 7), ("{P=i\"a\"i}", 4),
            ("i@:\u{01}", 3), ("{a{b=i}}", 2),
        ])
    func malformed(encoding: String, position: Int) {
        #expect(ic_signature_parse(encoding) == nil)
        #expect(ic_error_status() == IC_ERR_MALFORMED_ENCODING, "\(encoding): \(lastErrorMessage)")
        #expect(ic_error_position() == position, "\(encoding): \(lastErrorMessage)")
        #expect(lastErrorMessage.contains("malformed type encoding"))
        #expect(ic_encoding_validate(encoding) == IC_ERR_MALFORMED_ENCODING)
    }

    @Test(
        "well-formed encodings that cannot be called are refused as unsupported",
        arguments: [
            ("v@:v", 3), ("v@:?", 3), ("v@:{opaque}", 3), ("[4i]@:", 0), ("v@:(U=if)", 3),
            ("v@:{B=b3b5}", 6), ("v@:{E=}", 3), ("v@:{Z=[0i]}", 6), ("v@:j", 3),
            ("v@:{W=v}", 6), ("(U=if)@:", 0), ("?@:", 0),
        ])
    func unsupported(encoding: String, position: Int) {
        #expect(ic_signature_parse(encoding) == nil)
        #expect(ic_error_status() == IC_ERR_UNSUPPORTED_ENCODING, "\(encoding): \(lastErrorMessage)")
        #expect(ic_error_position() == position, "\(encoding): \(lastErrorMessage)")
    }

    @Test("syntax validation accepts unions and bit-fields")
    func validateAcceptsUncallableButWellFormed() {
        #expect(ic_encoding_validate("v@:(U=if){B=b3b5}") == IC_OK)
        #expect(ic_encoding_validate(nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("nesting, length and argument-count limits give IC_ERR_LIMIT, not a crash")
    func limits() {
        let deep = String(repeating: "^", count: 100) + "i"
        #expect(ic_signature_parse(deep) == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        let deepStruct = String(repeating: "{a=", count: 80) + "i" + String(repeating: "}", count: 80)
        #expect(ic_signature_parse(deepStruct) == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        let long = "v@:" + String(repeating: "i", count: 70_000)
        #expect(ic_signature_parse(long) == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        let manyArgs = "v@:" + String(repeating: "i", count: 200)
        #expect(ic_signature_parse(manyArgs) == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        #expect(ic_signature_parse("v@:[99999999999i]") == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        #expect(ic_signature_parse("v@:[1000000000{a=[1000000000i]}]") == nil)
        #expect(ic_error_status() == IC_ERR_LIMIT)
        #expect(ic_signature_parse(nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("the maximum argument count is accepted")
    func maximumArguments() {
        let types = "v" + String(repeating: "i", count: Int(IC_ENCODING_MAX_ARGUMENTS))
        let sig = ic_signature_parse(types)
        #expect(sig != nil)
        #expect(ic_signature_argument_count(sig) == Int(IC_ENCODING_MAX_ARGUMENTS))
    }

    @Test("the same encoding parsed from many threads gives one signature")
    func concurrentParsingInterns() async {
        let results = await withTaskGroup(of: UInt.self) { group in
            for _ in 0..<16 {
                group.addTask { UInt(bitPattern: ic_signature_parse("{Conc=dqf}@:{Conc=dqf}i")) }
            }
            var all: [UInt] = []
            for await r in group { all.append(r) }
            return all
        }
        #expect(Set(results).count == 1)
        #expect(results[0] != 0)
    }
}
