extension ObservableType {
    /// A single of the first element of this sequence, or of `nil` when it completes without
    /// one; the subscription to this sequence ends with the first element. Errors pass through.
    public func first() -> Single<Element?> {
        Single(raw: asObservable().take(1).map { Optional($0) }.ifEmpty(default: nil))
    }
}
