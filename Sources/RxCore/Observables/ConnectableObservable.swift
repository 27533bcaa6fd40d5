/// A sequence whose subscribers share one subscription to its source, made by ``connect()``
/// rather than by the first subscriber (RxSwift's `ConnectableObservableType`).
public protocol ConnectableObservableType: ObservableType {
    /// Subscribes the shared subject to the source. Disposing the result disconnects it; calling
    /// `connect()` while connected returns the current connection.
    func connect() -> Disposable
}

/// The base class of the connectable sequences returned by ``ObservableType/multicast(_:)``,
/// `publish()`, `replay(_:)` and `replayAll()`.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType {
    /// Subscribes the shared subject to the source (see ``ConnectableObservableType/connect()``).
    public func connect() -> Disposable {
        rxAbstractMethod()
    }
}
