import Synchronization

/// A disposable that only records whether it was disposed.
public final class BooleanDisposable: DisposeBase, Cancelable {
    private let disposed: Atomic<Bool>

    /// Creates a disposable, already disposed if `isDisposed` is `true`.
    public init(isDisposed: Bool = false) {
        self.disposed = Atomic(isDisposed)
        super.init()
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    /// Marks the disposable as disposed.
    public func dispose() {
        disposed.store(true, ordering: .releasing)
    }
}
