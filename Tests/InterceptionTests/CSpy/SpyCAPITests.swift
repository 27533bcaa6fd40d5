import CInterception
import CInterceptionTestSupport
import Glibc
import Testing

// Area: the C spy essentials (ic_hook_every.h, ic_describe.h, SPEC 20). Purpose: every method of
// an object is hooked at once (those that cannot be are reported, with why), removed at once;
// a value of any type encoding and a call are described as text with snprintf's contract.

/// `value` formatted as `type` by ic_format_value, with a buffer of `length` bytes; nil on error.
private func format<T>(_ type: String, _ value: T, length: Int = 256) -> (String, Int32)? {
    var value = value
    var buffer = [CChar](repeating: 0x55, count: max(length, 1))
    let n = withUnsafePointer(to: &value) { ic_format_value(type, $0, &buffer, length) }
    guard n >= 0 else { return nil }
    let text = length > 0 ? buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } : ""
    return (text, n)
}

@Suite("The C spy API (ic_hook_every.h, ic_describe.h)")
struct SpyCAPITests {
    @Test("scalars: integers, bools, the shortest round-tripping decimals, strings with escapes")
    func formatsScalars() {
        #expect(format("i", Int32(-42))?.0 == "-42")
        #expect(format("Q", UInt64.max)?.0 == "18446744073709551615")
        #expect(format("c", Int8(1))?.0 == "1")
        #expect(format("B", true)?.0 == "true")
        #expect(format("d", 25.5)?.0 == "25.5")
        #expect(format("d", 0.1)?.0 == "0.1")
        #expect(format("d", 1e100)?.0 == "1e+100")
        #expect(format("f", Float(0.1))?.0 == "0.1")
        #expect(format("d", Double.infinity)?.0 == "inf")
        #expect(format("rd", 2.0)?.0 == "2")  // a qualifier is skipped
        "say \"hi\"\n\u{1}".withCString { hello in
            #expect(format("*", hello)?.0 == #""say \"hi\"\n\x01""#)
        }
        #expect(format("*", UnsafePointer<CChar>?.none)?.0 == "NULL")
        #expect(format("^v", UnsafeRawPointer?.none)?.0 == "NULL")
        #expect(format(":", ic_sel_register("deposit:"))?.0 == "@selector(deposit:)")
    }

    @Test("objects, classes, structs and arrays")
    func formatsCompositeValues() {
        let account = ict_account_new(1, nil)!
        let text = format("@", account)?.0 ?? ""
        #expect(text.hasPrefix("<ICTAccount: 0x") && text.hasSuffix(">"))
        #expect(format("@", OpaquePointer?.none)?.0 == "nil")
        #expect(format("#", ict_account_class())?.0 == "ICTAccount")
        struct Flags {
            var a: Int32
            var b: Bool
        }
        #expect(format("{ICTFlags=iB}", Flags(a: 3, b: true))?.0 == "{3, true}")
        struct Nested {
            var x: Double
            var inner: (Int8, Double)
        }
        #expect(format("{N=d{I=cd}}", Nested(x: 1.5, inner: (2, 3.25)))?.0 == "{1.5, {2, 3.25}}")
        #expect(format("[3i]", (Int32(1), Int32(2), Int32(3)))?.0 == "[1, 2, 3]")
        #expect(format("{Opaque}", Int32(0))?.0 == "{Opaque}")
        ic_release(account)
    }

    @Test("snprintf's contract: cut to the buffer, NUL-terminated, the whole length returned")
    func truncates() {
        let cut = format("d", 12345.5, length: 4)
        #expect(cut?.0 == "123" && cut?.1 == 7)
        #expect(format("d", 12345.5, length: 0)?.1 == 7)  // nothing written
        var value = 1.0
        #expect(ic_format_value("d", &value, nil, 0) == 1)  // "1"
        #expect(ic_format_value("d", &value, nil, 8) == -1 && ic_error_status() == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("bad encodings are errors, and the buffer holds the empty string")
    func refusesBadEncodings() {
        #expect(format("(U=id)", 0.0) == nil && ic_error_status() == IC_ERR_UNSUPPORTED_ENCODING)
        #expect(format("{", 0.0) == nil && ic_error_status() == IC_ERR_MALFORMED_ENCODING)
        #expect(format("ii", Int64(0)) == nil && ic_error_status() == IC_ERR_UNSUPPORTED_ENCODING)
        var buffer = [CChar](repeating: 0x41, count: 8)
        var value = 0.0
        #expect(ic_format_value("(U=id)", &value, &buffer, 8) == -1)
        #expect(buffer[0] == 0)
    }

    @Test(
        "every method of an object is hooked, described per call, skipped ones reported; all removed at once")
    func hooksEveryMethod() throws {
        let log = ict_call_log_create()!
        defer { ict_call_log_destroy(log) }
        let owner = ict_person_new("Ann", nil)!
        let account = ict_account_new(10, owner)!
        let sibling = ict_account_new(0, nil)!
        var hooked = 0
        let status = ic_object_hook_every_method(
            account, IC_HOOK_BEFORE, 0, ict_call_log_hook, UnsafeMutableRawPointer(log),
            ict_call_log_skipped, UnsafeMutableRawPointer(log), &hooked)
        try #require(status == IC_OK, "\(String(cString: ic_error_message()))")
        #expect(hooked > 5)
        let skips = String(cString: ict_call_log_skips(log))
        #expect(skips.contains("skip weird: IC_ERR_UNSUPPORTED_SIGNATURE"))
        #expect(skips.contains("skip retain IC_ERR_FORBIDDEN_SELECTOR"))
        #expect(!skips.contains("deposit:"))
        ict_account_deposit(account, 25.5)
        ict_account_deposit(sibling, 1)  // another instance: not hooked
        ict_account_describe_to(account, owner, "Bob", 3)
        let calls = String(cString: ict_call_log_calls(log))
        #expect(
            calls.hasPrefix(
                "-[ICTAccount deposit:] (25.5); -[ICTAccount balance]; -[ICTAccount setBalance:] (35.5)"))
        #expect(calls.contains(#"-[ICTAccount describeTo:named:count:] (<ICTPerson: 0x"#))
        #expect(calls.hasSuffix(#">, "Bob", 3)"#))
        var listed = 0
        let list = ic_hook_object_copy_list(account, &listed)
        free(list)
        #expect(listed == hooked)
        var removed = 0
        #expect(ic_hook_object_remove_all(account, nil, &removed) == IC_OK)
        #expect(removed == hooked)
        #expect(ic_intercept_original_class(account) == ic_object_get_class(account))
        for object in [account, sibling, owner] { ic_release(object) }
        ic_intercept_quiesce()
    }

    @Test("hooking every method refuses what ic_hook_object refuses for all of them")
    func hookEveryRefuses() {
        let account = ict_account_new(0, nil)!
        var hooked = 99
        #expect(
            ic_object_hook_every_method(
                account, ic_hook_position(rawValue: 9), 0, ict_call_log_hook, nil, nil, nil, &hooked)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(hooked == 0)
        #expect(
            ic_object_hook_every_method(
                ict_account_class(), IC_HOOK_BEFORE, 0, ict_call_log_hook, nil, nil, nil, nil)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_object_hook_every_method(account, IC_HOOK_BEFORE, 0, nil, nil, nil, nil, nil)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_hook_object_copy_list(account, nil) == nil)
        ic_release(account)
    }
}
