/// A notification delivered to an observer.
///
/// Every sequence follows the grammar `next* (error | completed)?`: any number of `next` events,
/// then at most one terminal event, after which nothing more is delivered.
public enum Event<Element> {
    /// The next element of the sequence.
    case next(Element)
    /// The sequence terminated with an error.
    case error(Swift.Error)
    /// The sequence terminated successfully.
    case completed
}

extension Event: Sendable where Element: Sendable {}

extension Event: CustomStringConvertible, CustomDebugStringConvertible {
    /// `next(1)`, `error(<error>)` or `completed`, exactly as RxSwift prints events.
    public var description: String {
        switch self {
        case .next(let value): return "next(\(value))"
        case .error(let error): return "error(\(error))"
        case .completed: return "completed"
        }
    }

    /// Same text as ``description``.
    public var debugDescription: String { description }
}

extension Event {
    /// `true` for `error` and `completed`.
    public var isStopEvent: Bool {
        switch self {
        case .next: return false
        case .error, .completed: return true
        }
    }

    /// The element of a `next` event, otherwise `nil`.
    public var element: Element? {
        if case .next(let value) = self { return value }
        return nil
    }

    /// The error of an `error` event, otherwise `nil`.
    public var error: Swift.Error? {
        if case .error(let error) = self { return error }
        return nil
    }

    /// `true` for `completed`.
    public var isCompleted: Bool {
        if case .completed = self { return true }
        return false
    }

    /// Transforms the element of a `next` event; an error thrown by `transform` becomes an `error` event.
    public func map<Result>(_ transform: (Element) throws -> Result) -> Event<Result> {
        do {
            switch self {
            case .next(let element): return .next(try transform(element))
            case .error(let error): return .error(error)
            case .completed: return .completed
            }
        } catch let error {
            return .error(error)
        }
    }
}

/// A type that can be converted to an ``Event``.
public protocol EventConvertible {
    /// The element type of the event.
    associatedtype Element
    /// The event itself.
    var event: Event<Element> { get }
}

extension Event: EventConvertible {
    /// The event itself.
    public var event: Event<Element> { self }
}
