extension ObservableType {
    /// Maps each element to a sequence, subscribes to each as it arrives, and emits the elements
    /// of all of them as they come.
    ///
    /// With synchronous sources the order follows RxSwift's ``CurrentThreadScheduler``
    /// trampoline: `Observable.of(1, 2, 3).flatMap { Observable.of($0, $0 * 10) }` emits
    /// `1, 10, 2, 20, 3, 30`, because each element of `of` is emitted by its own queued action, so
    /// the outer and inner emissions alternate in the order they were queued.
    public func flatMap<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source)
        -> Observable<Source.Element>
    {
        Merge(asObservable(), (selector: selector, policy: .all))
    }
}
