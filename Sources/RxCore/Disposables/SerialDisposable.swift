/// Holds one disposable at a time: assigning a new one disposes the previous one, and after
/// ``dispose()`` every assigned disposable is disposed immediately.
public final class SerialDisposable: DisposeBase, Cancelable {
    // Guards `current` and `disposed`.
    private let lock = RxLock()
    private var current: Disposable?
    private var disposed = false

    /// Creates an empty container.
    public override init() {
        super.init()
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        lock.withLock { disposed }
    }

    /// The current disposable. Setting it disposes the previous one (outside the lock).
    public var disposable: Disposable {
        get {
            lock.withLock { current ?? Disposables.create() }
        }
        set {
            let (previous, disposeNew) = lock.withLock { () -> (Disposable?, Bool) in
                if disposed { return (nil, true) }
                defer { current = newValue }
                return (current, false)
            }
            previous?.dispose()
            if disposeNew {
                newValue.dispose()
            }
        }
    }

    /// Disposes the current disposable and every one assigned later.
    public func dispose() {
        let previous = lock.withLock { () -> Disposable? in
            if disposed { return nil }
            disposed = true
            defer { current = nil }
            return current
        }
        previous?.dispose()
    }
}

extension SerialDisposable {
    /// Makes the disposable that `start` returns (a subscription, a scheduled action) the current
    /// one, disposing the previous one first.
    ///
    /// Why not `disposable = start()`: what `start` sets off may run synchronously and replace the
    /// current disposable itself (a source that fails at once and is retried, a timer a scheduler
    /// runs at once); assigning the result afterwards would overwrite that newer one. A
    /// placeholder is made current before `start` runs and receives its result.
    func replace(startingWith start: () -> Disposable) {
        let placeholder = SingleAssignmentDisposable()
        disposable = placeholder
        placeholder.setDisposable(start())
    }
}
