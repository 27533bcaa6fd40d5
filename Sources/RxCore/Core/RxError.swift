/// The errors produced by this module, with RxSwift's cases and descriptions.
//
// `@unchecked Sendable` because `disposed(object:)` carries the disposed object, as RxSwift's does;
// the object is only used to describe the error.
public enum RxError: Swift.Error, @unchecked Sendable {
    /// Unknown error.
    case unknown
    /// A subject or other object was used after it was disposed.
    case disposed(object: AnyObject)
    /// Arithmetic overflow.
    case overflow
    /// An argument was out of range.
    case argumentOutOfRange
    /// The sequence contained no elements.
    case noElements
    /// The sequence contained more than one element.
    case moreThanOneElement
    /// The sequence timed out.
    case timeout
}

extension RxError: CustomStringConvertible, CustomDebugStringConvertible {
    /// A human-readable description, as RxSwift words it.
    public var debugDescription: String {
        switch self {
        case .unknown: return "Unknown error occurred."
        case .disposed(let object): return "Object `\(object)` was already disposed."
        case .overflow: return "Arithmetic overflow occurred."
        case .argumentOutOfRange: return "Argument out of range."
        case .noElements: return "Sequence doesn't contain any elements."
        case .moreThanOneElement: return "Sequence contains more than one element."
        case .timeout: return "Sequence timeout."
        }
    }

    /// Same text as ``debugDescription``.
    public var description: String { debugDescription }
}
