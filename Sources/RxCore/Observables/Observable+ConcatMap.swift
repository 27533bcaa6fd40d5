extension ObservableType {
    /// Maps each element to a sequence and emits the elements of these sequences one sequence
    /// after the other, in order: a sequence is subscribed when the previous one has completed.
    public func concatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element>
    {
        Merge(asObservable(), (selector: selector, policy: .limited(1)))
    }
}
