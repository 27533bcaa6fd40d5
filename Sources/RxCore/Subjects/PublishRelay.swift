/// A wrapper around ``PublishSubject`` that never terminates: it only accepts elements.
public final class PublishRelay<Element>: SubjectRelay {
    let subject = PublishSubject<Element>()

    /// Creates a relay.
    public init() {}

    /// Emits `event` to the current observers.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }
}
