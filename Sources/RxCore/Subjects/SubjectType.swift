/// A sequence that is also an observer: what it receives, it emits to its own observers.
public protocol SubjectType: ObservableType {
    /// The observer side of the subject.
    associatedtype Observer: ObserverType

    /// The subject as an observer.
    func asObserver() -> Observer
}
