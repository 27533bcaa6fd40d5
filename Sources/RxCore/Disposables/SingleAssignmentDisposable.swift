import Synchronization

/// Holds a disposable that is assigned once, possibly after this container was disposed (in which
/// case the assigned disposable is disposed immediately).
///
/// Lock-free (RxSwift's design): `state` holds two flags. `setDisposable` writes `disposable`
/// before raising `assignedFlag` (release); `dispose` raises `disposedFlag`. Whoever raises the
/// second of the two flags sees the first (acquire) and disposes the assigned disposable, so it
/// is disposed exactly once, and `disposable` is read only after both flags are up. A lock here
/// cost a heap-allocated mutex per container and two lock round trips per subscription.
public final class SingleAssignmentDisposable: DisposeBase, Cancelable {
    private static let assignedFlag = 1
    private static let disposedFlag = 2

    private let state = Atomic<Int>(0)
    @exclusivity(unchecked) private var disposable: Disposable?

    /// Creates an empty container.
    public override init() {
        super.init()
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        state.load(ordering: .acquiring) & Self.disposedFlag != 0
    }

    /// Assigns the disposable. Assigning twice is a programming error.
    public func setDisposable(_ disposable: Disposable) {
        self.disposable = disposable
        let previous = state.bitwiseOr(Self.assignedFlag, ordering: .acquiringAndReleasing).oldValue
        precondition(
            previous & Self.assignedFlag == 0, "SingleAssignmentDisposable.setDisposable called twice")
        if previous & Self.disposedFlag != 0 {
            disposeAssigned()
        }
    }

    /// Disposes the assigned disposable, or the one assigned later.
    public func dispose() {
        let previous = state.bitwiseOr(Self.disposedFlag, ordering: .acquiringAndReleasing).oldValue
        if previous & Self.disposedFlag != 0 { return }
        if previous & Self.assignedFlag != 0 {
            disposeAssigned()
        }
    }

    private func disposeAssigned() {
        let assigned = disposable
        disposable = nil
        assigned?.dispose()
    }
}
