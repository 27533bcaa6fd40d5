import CInterception
import Testing

@Suite("Errors")
struct ErrorTests {
    @Test("every status has its enumerator's name")
    func statusNames() {
        let all: [ic_status] = [
            IC_OK, IC_ERR_INVALID_ARGUMENT, IC_ERR_OUT_OF_MEMORY, IC_ERR_MALFORMED_ENCODING,
            IC_ERR_UNSUPPORTED_ENCODING, IC_ERR_DUPLICATE_CLASS, IC_ERR_CLASS_NOT_REGISTERED,
            IC_ERR_CLASS_ALREADY_REGISTERED, IC_ERR_METHOD_EXISTS, IC_ERR_METHOD_NOT_FOUND,
            IC_ERR_INDEX_OUT_OF_RANGE, IC_ERR_SIGNATURE_MISMATCH, IC_ERR_NOT_A_CLOSURE,
            IC_ERR_DEALLOCATING, IC_ERR_INCOMPATIBLE_CLASS, IC_ERR_FFI, IC_ERR_LIMIT,
            IC_ERR_FORBIDDEN_SELECTOR, IC_ERR_UNSUPPORTED_SIGNATURE, IC_ERR_CLASS_SWAPPED,
            IC_ERR_COLLISION, IC_ERR_OBSERVER_NOT_FOUND, IC_ERR_PROPERTY_EXISTS, IC_ERR_UNKNOWN_KEY,
            IC_ERR_READONLY_KEY,
        ]
        let names = all.map { String(cString: ic_status_name($0)) }
        #expect(names.first == "IC_OK")
        #expect(names.last == "IC_ERR_READONLY_KEY")
        #expect(Set(names).count == all.count)
        #expect(String(cString: ic_status_name(ic_status(rawValue: 999))) == "IC_ERR_UNKNOWN")
    }

    @Test("a failure records status, message and position; success leaves them; clear resets")
    func lastErrorLifecycle() {
        ic_error_clear()
        #expect(ic_error_status() == IC_OK)
        #expect(lastErrorMessage == "")
        #expect(ic_error_position() == -1)
        #expect(ic_signature_parse("i@:[") == nil)
        #expect(ic_error_status() == IC_ERR_MALFORMED_ENCODING)
        #expect(ic_error_position() == 4)
        let message = lastErrorMessage
        #expect(message.contains("\"i@:[\""))
        // A successful call leaves the last error untouched.
        #expect(ic_signature_parse("v@:") != nil)
        #expect(ic_error_status() == IC_ERR_MALFORMED_ENCODING)
        #expect(lastErrorMessage == message)
        // A failure without a position resets the position.
        #expect(ic_sel_register("") == nil)
        #expect(ic_error_position() == -1)
        ic_error_clear()
        #expect(ic_error_status() == IC_OK)
    }

    @Test("the last error is per thread")
    func perThread() async {
        ic_error_clear()
        await Task.detached {
            _ = ic_sel_register("")
            #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        }.value
        // Task.detached ran on another thread of the pool; this one may be reused, so only
        // check the other side's view above, and that our own call sets ours.
        _ = ic_signature_parse("x")
        #expect(ic_error_status() == IC_ERR_MALFORMED_ENCODING)
    }

    @Test("the runtime reports its version")
    func version() {
        #expect(String(cString: ic_runtime_version()).split(separator: ".").count == 3)
    }
}
