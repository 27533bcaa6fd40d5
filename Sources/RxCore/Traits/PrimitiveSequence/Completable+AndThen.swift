extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs `second` after this completable completes; fails if this one fails.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: andThenSource(second.source))
    }

    /// Runs `second` after this completable completes; fails if this one fails.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: andThenSource(second.source))
    }

    /// Runs `second` after this completable completes; fails if this one fails.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: andThenSource(second.source))
    }

    /// Subscribes to `second` after this completable completes; fails if this one fails.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        andThenSource(second)
    }

    /// This completable's completion (it has no element) followed by `second`.
    private func andThenSource<Element>(_ second: Observable<Element>) -> Observable<Element> {
        primitiveSequence.source.map(absurd).concat(second)
    }
}

/// The function from `Never`: lets a sequence without elements take any element type.
private func absurd<Element>(_ never: Swift.Never) -> Element {
}
