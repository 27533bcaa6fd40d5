extension ObservableType {
    /// This sequence as a ``Maybe``: emits its element, if any, when it completes. Fails with
    /// `RxError.moreThanOneElement` as soon as a second element arrives. (Shares the sink of
    /// `asSingle()`, which differs only for an empty source.)
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsSingle(asObservable(), false))
    }
}
