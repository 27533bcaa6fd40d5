/// A resource that can be released, typically a subscription.
public protocol Disposable {
    /// Releases the resource. Calling it more than once has no further effect.
    func dispose()
}

/// A ``Disposable`` that can tell whether it was disposed.
public protocol Cancelable: Disposable {
    /// Whether ``Disposable/dispose()`` was called.
    var isDisposed: Bool { get }
}

/// Base class of the disposables of this module; counts them in `Resources.total` in debug
/// builds.
public class DisposeBase {
    #if TRACE_RESOURCES
        private let resourceCount = ResourceCount()
    #endif

    init() {}
}
