/// Holds a disposable that is assigned once, possibly after this container was disposed (in which
/// case the assigned disposable is disposed immediately).
public final class SingleAssignmentDisposable: DisposeBase, Cancelable {
    // Guards `state`.
    private let lock = RxLock()
    private var state = State.empty

    private enum State {
        case empty
        case assigned(Disposable)
        case disposed
    }

    /// Creates an empty container.
    public override init() {
        super.init()
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        lock.withLock {
            if case .disposed = state { return true }
            return false
        }
    }

    /// Assigns the disposable. Assigning twice is a programming error.
    public func setDisposable(_ disposable: Disposable) {
        let disposeNow = lock.withLock { () -> Bool in
            switch state {
            case .empty:
                state = .assigned(disposable)
                return false
            case .assigned:
                preconditionFailure("SingleAssignmentDisposable.setDisposable called twice")
            case .disposed:
                return true
            }
        }
        if disposeNow {
            disposable.dispose()
        }
    }

    /// Disposes the assigned disposable, or the one assigned later.
    public func dispose() {
        let previous = lock.withLock { () -> Disposable? in
            defer { state = .disposed }
            if case .assigned(let disposable) = state { return disposable }
            return nil
        }
        previous?.dispose()
    }
}
