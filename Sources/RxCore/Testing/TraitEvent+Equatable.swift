// Equality of the results the traits deliver, so that tests compare them as they compare
// `Event`s (RxTest's `Event+Equatable`). Errors compare with `errorsMatch`.

/// Whether two ``SingleEvent``s are equal: both successes with equal elements, or both failures
/// with matching errors.
///
/// A function rather than an `Equatable` conformance: `SingleEvent` is `Result<Element, Error>`,
/// which the standard library already makes `Equatable` when its failure type is, and a type
/// cannot conform twice.
public func == <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    switch (lhs, rhs) {
    case (.success(let left), .success(let right)): return left == right
    case (.failure(let left), .failure(let right)): return errorsMatch(left, right)
    default: return false
    }
}

/// Whether two ``SingleEvent``s differ (see `==`).
public func != <Element: Equatable>(lhs: SingleEvent<Element>, rhs: SingleEvent<Element>) -> Bool {
    !(lhs == rhs)
}

/// Whether two arrays of ``SingleEvent``s are equal element by element (see `==`).
public func == <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>]) -> Bool {
    lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0 == $1 }
}

/// Whether two arrays of ``SingleEvent``s differ (see `==`).
public func != <Element: Equatable>(lhs: [SingleEvent<Element>], rhs: [SingleEvent<Element>]) -> Bool {
    !(lhs == rhs)
}

extension CompletableEvent: Equatable {
    /// Both completions, or both errors with matching errors.
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.error(let left), .error(let right)): return errorsMatch(left, right)
        default: return false
        }
    }
}

extension MaybeEvent: Equatable where Element: Equatable {
    /// Results are equal when they are the same case with equal elements; errors are equal when
    /// they have the same type and description (as `Event` compares them).
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.success(let left), .success(let right)): return left == right
        case (.error(let left), .error(let right)): return errorsMatch(left, right)
        default: return false
        }
    }
}
