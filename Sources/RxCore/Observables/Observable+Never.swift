extension ObservableType {
    /// A sequence that never emits and never terminates.
    public static func never() -> Observable<Element> {
        SilentProducer(completes: false)
    }
}
