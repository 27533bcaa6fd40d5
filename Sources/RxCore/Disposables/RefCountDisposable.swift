import Synchronization

/// A disposable whose underlying disposable is disposed only when it has been disposed itself
/// and every dependent disposable made by ``retain()`` has been disposed too (RxSwift's
/// `RefCountDisposable`).
public final class RefCountDisposable: DisposeBase, Cancelable {
    // Guards the three fields below.
    private let lock = RxLock()
    // The underlying disposable; nil once it has been handed out for disposal.
    private var disposable: Disposable?
    private var primaryDisposed = false
    private var count = 0

    /// Wraps `disposable`.
    public init(disposable: Disposable) {
        self.disposable = disposable
        super.init()
    }

    /// Whether the underlying disposable has been disposed.
    public var isDisposed: Bool {
        lock.withLock { disposable == nil }
    }

    /// Returns a dependent disposable; the underlying disposable outlives it. After the
    /// underlying disposable is gone, returns a disposable that does nothing.
    public func retain() -> Disposable {
        lock.withLock { () -> Disposable in
            guard disposable != nil else { return Disposables.create() }
            count += 1
            return RefCountInnerDisposable(self)
        }
    }

    /// Disposes the underlying disposable now if no dependent one is alive, otherwise when the
    /// last one is disposed.
    public func dispose() {
        let disposing = lock.withLock { () -> Disposable? in
            guard let disposable, !primaryDisposed else { return nil }
            primaryDisposed = true
            guard count == 0 else { return nil }
            self.disposable = nil
            return disposable
        }
        disposing?.dispose()
    }

    fileprivate func release() {
        let disposing = lock.withLock { () -> Disposable? in
            guard let disposable else { return nil }
            precondition(count > 0, "RefCountDisposable released more than retained")
            count -= 1
            guard primaryDisposed && count == 0 else { return nil }
            self.disposable = nil
            return disposable
        }
        disposing?.dispose()
    }
}

/// A dependent disposable of a ``RefCountDisposable``: releases its parent once.
private final class RefCountInnerDisposable: DisposeBase, Disposable {
    private let parent: RefCountDisposable
    private let disposed = Atomic<Bool>(false)

    init(_ parent: RefCountDisposable) {
        self.parent = parent
        super.init()
    }

    func dispose() {
        if disposed.exchange(true, ordering: .acquiringAndReleasing) { return }
        parent.release()
    }
}
