/// A wrapper around ``ReplaySubject`` that never terminates: it only accepts elements, and
/// replays the buffered ones to new subscribers (RxRelay's `ReplayRelay`).
public final class ReplayRelay<Element>: SubjectRelay {
    let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// A relay that replays the last `bufferSize` elements.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// A relay that replays every element it accepted.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Emits `event` to the current observers and buffers it.
    public func accept(_ event: Element) {
        subject.onNext(event)
    }
}
