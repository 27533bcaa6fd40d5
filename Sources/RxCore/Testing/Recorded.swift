/// A value recorded at a virtual time (RxTest's `Recorded`).
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// The virtual time of the record.
    public let time: TestTime
    /// The recorded value, usually an ``Event``.
    public let value: Value

    /// Creates a record.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value @ time`.
    public var debugDescription: String {
        "\(value) @ \(time)"
    }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded {
    /// The records given, as an array: `Recorded.events(.next(210, 1), .completed(220))`.
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...)
        -> [Recorded<Event<Element>>] where Value == Event<Element>
    {
        recordedEvents
    }

    /// The records given, as an array (the array form of the variadic `events(_:)`).
    public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>])
        -> [Recorded<Event<Element>>] where Value == Event<Element>
    {
        recordedEvents
    }

    /// A `next(element)` event at `time`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>>
    where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A `completed` event at `time`.
    public static func completed<Element>(_ time: TestTime, _ type: Element.Type = Element.self)
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .completed)
    }

    /// An `error` event at `time`.
    public static func error<Element>(
        _ time: TestTime, _ error: Swift.Error, _ type: Element.Type = Element.self
    )
        -> Recorded<Event<Element>> where Value == Event<Element>
    {
        Recorded(time: time, value: .error(error))
    }
}

/// The virtual times at which a testable sequence was subscribed and unsubscribed (RxTest's
/// `Subscription`). `unsubscribe` is `Int.max` while the subscription lasts.
public struct Subscription: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// When the subscription was made.
    public let subscribe: TestTime
    /// When it was disposed, or `Int.max`.
    public let unsubscribe: TestTime

    /// A subscription that is still active.
    public init(_ subscribe: TestTime) {
        self.init(subscribe, Int.max)
    }

    /// A subscription made at `subscribe` and disposed at `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe: unsubscribe)`, `infinity` while active.
    public var debugDescription: String {
        let end = unsubscribe == Int.max ? "Infinity" : String(unsubscribe)
        return "(\(subscribe): \(end))"
    }
}

extension Event: Equatable where Element: Equatable {
    /// Events are equal when they are the same kind with equal elements; errors are equal when
    /// they have the same type and the same description (as RxTest compares them).
    public static func == (lhs: Event<Element>, rhs: Event<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed):
            return true
        case (.next(let left), .next(let right)):
            return left == right
        case (.error(let left), .error(let right)):
            return errorsMatch(left, right)
        default:
            return false
        }
    }
}

/// Whether two errors count as equal in event comparisons: same type and same description (as
/// RxTest compares them on Linux, where errors have no `NSError` domain and code to compare).
func errorsMatch(_ left: Swift.Error, _ right: Swift.Error) -> Bool {
    type(of: left) == type(of: right) && String(reflecting: left) == String(reflecting: right)
}
