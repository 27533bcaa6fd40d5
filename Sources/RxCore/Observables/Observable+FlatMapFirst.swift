extension ObservableType {
    /// Maps an element to a sequence and emits its elements; elements that arrive while that
    /// sequence is still active are ignored.
    public func flatMapFirst<Source: ObservableConvertibleType>(
        _ selector: @escaping (Element) throws -> Source
    )
        -> Observable<Source.Element>
    {
        Merge(asObservable(), (selector: selector, policy: .dropWhileActive))
    }
}
