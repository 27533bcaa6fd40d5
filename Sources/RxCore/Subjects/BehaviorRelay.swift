/// A wrapper around ``BehaviorSubject`` that never terminates: it only accepts elements, and its
/// current ``value`` can always be read.
public final class BehaviorRelay<Element>: SubjectRelay {
    let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // The subject is never terminated nor disposed, so `value()` cannot throw.
        try! subject.value()
    }

    /// Makes `event` the current value and emits it.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }
}
