import CInterception
import Interception
import Testing

@Suite("Errors")
struct RuntimeErrorTests {
    @Test("an error prints its message, status name and, for encodings, the position")
    func description() {
        let plain = RuntimeError(
            statusName: "IC_ERR_METHOD_NOT_FOUND", message: "unrecognized selector -[A b]")
        #expect("\(plain)" == "unrecognized selector -[A b] (IC_ERR_METHOD_NOT_FOUND)")
        let positioned = RuntimeError(statusName: "IC_ERR_MALFORMED_ENCODING", message: "bad", position: 4)
        #expect("\(positioned)" == "bad (IC_ERR_MALFORMED_ENCODING at position 4)")
        #expect(plain != positioned)
    }

    @Test("errors from the C runtime carry its status name, message and encoding position")
    func fromTheCRuntime() throws {
        let f: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, _ in }
        let error = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(uniqueName("Malformed")) { c in
                try c.method("m", encoding: "v@:{P=ii", imp: f)
            }
        }
        #expect(error.statusName == "IC_ERR_MALFORMED_ENCODING")
        #expect(error.position == 8)
        #expect(error.message.contains("{P=ii"))
        #expect(error.message == String(cString: ic_error_message()))
    }
}
