// RuntimeError: every failure of the Swift API, thrown with the C runtime's status name.
import CInterception

/// An error of the Interception runtime, as thrown by the Swift API.
///
/// Failures reported by the C runtime carry its status name (for example
/// `"IC_ERR_MALFORMED_ENCODING"`), its message and, for type encodings, the offending byte
/// offset. Failures detected on the Swift side (an unrecognized selector, a Swift signature that
/// does not match a method's encoding) use the C status that describes them best:
/// `IC_ERR_METHOD_NOT_FOUND` and `IC_ERR_SIGNATURE_MISMATCH`.
///
/// Printing an error gives one readable line, for example
/// `signature mismatch: -[Counter add:] is i@:i, Swift call is q@:q (IC_ERR_SIGNATURE_MISMATCH)`.
public struct RuntimeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The name of the C status code, for example `"IC_ERR_SIGNATURE_MISMATCH"`.
    public let statusName: String
    /// What went wrong, in words.
    public let message: String
    /// The offending byte offset in a type encoding, for encoding errors; `nil` otherwise.
    public let position: Int?

    /// Makes an error from its parts.
    public init(statusName: String, message: String, position: Int? = nil) {
        self.statusName = statusName
        self.message = message
        self.position = position
    }

    /// The message followed by the status name and, if any, the position.
    public var description: String {
        if let position {
            return "\(message) (\(statusName) at position \(position))"
        }
        return "\(message) (\(statusName))"
    }
}

extension RuntimeError {
    /// The error with the name of `status` and `message`.
    init(_ status: ic_status, _ message: String, position: Int? = nil) {
        self.init(statusName: String(cString: ic_status_name(status)), message: message, position: position)
    }

    /// The calling thread's last C error. Call it right after the failing C call, on the same
    /// thread: the C runtime keeps one last error per thread and successful calls leave it as is.
    static func lastCError() -> RuntimeError {
        let position = ic_error_position()
        return RuntimeError(
            ic_error_status(), String(cString: ic_error_message()),
            position: position >= 0 ? Int(position) : nil)
    }

    /// Throws the last C error unless `status` is `IC_OK`.
    static func check(_ status: ic_status) throws(RuntimeError) {
        if status != IC_OK {
            throw lastCError()
        }
    }

    /// `-[Class selector] is <method encoding>, Swift call is <swift encoding>` (`+[…]` for a class
    /// method: the receiver is a class object, or the class a metaclass).
    static func signatureMismatch(
        className: String, selector: Selector, isClassMethod: Bool, methodEncoding: String,
        swiftEncoding: String, hint: String? = nil
    ) -> RuntimeError {
        RuntimeError(
            IC_ERR_SIGNATURE_MISMATCH,
            "signature mismatch: \(methodName(className, selector, isClassMethod)) is \(methodEncoding), "
                + "Swift call is \(swiftEncoding)" + (hint.map { "; \($0)" } ?? ""))
    }

    /// `unrecognized selector -[Class selector]` (`+[…]` for a class object).
    static func unrecognizedSelector(className: String, selector: Selector, isClassMethod: Bool)
        -> RuntimeError
    {
        RuntimeError(
            IC_ERR_METHOD_NOT_FOUND, "unrecognized selector \(methodName(className, selector, isClassMethod))"
        )
    }

    /// `-[Class selector]`, or `+[Class selector]` for a class method, as Objective-C writes them.
    static func methodName(_ className: String, _ selector: Selector, _ isClassMethod: Bool) -> String {
        "\(isClassMethod ? "+" : "-")[\(className) \(selector.name)]"
    }
}
