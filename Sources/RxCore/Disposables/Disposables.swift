import Synchronization

/// Factory functions for disposables.
public enum Disposables {
    /// A disposable that does nothing when disposed.
    public static func create() -> Disposable {
        NopDisposable.noOp
    }

    /// A disposable that runs `dispose` once, the first time it is disposed.
    public static func create(with dispose: @escaping () -> Void) -> Cancelable {
        AnonymousDisposable(dispose)
    }

    /// A disposable that disposes both disposables.
    public static func create(_ disposable1: Disposable, _ disposable2: Disposable) -> Cancelable {
        BinaryDisposable(disposable1, disposable2)
    }

    /// A disposable that disposes the three disposables.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable
    ) -> Cancelable {
        CompositeDisposable(disposable1, disposable2, disposable3)
    }

    /// A disposable that disposes all the disposables.
    public static func create(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
        _ disposables: Disposable...
    ) -> Cancelable {
        CompositeDisposable(disposables: [disposable1, disposable2, disposable3] + disposables)
    }

    /// A disposable that disposes all the disposables.
    public static func create(_ disposables: [Disposable]) -> Cancelable {
        switch disposables.count {
        case 2: return BinaryDisposable(disposables[0], disposables[1])
        default: return CompositeDisposable(disposables: disposables)
        }
    }
}

/// The disposable returned by `Disposables.create()`: stateless, so one instance serves everyone.
struct NopDisposable: Disposable, Sendable {
    static let noOp = NopDisposable()

    func dispose() {}
}

/// Runs a closure once, on the first `dispose()`.
final class AnonymousDisposable: DisposeBase, Cancelable {
    // The closure is taken out under `lock` by the first `dispose()`, so it runs exactly once and
    // is released as soon as it has run.
    private let lock = RxLock()
    private var disposeAction: (() -> Void)?
    private let disposed = Atomic<Bool>(false)

    init(_ disposeAction: @escaping () -> Void) {
        self.disposeAction = disposeAction
        super.init()
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let action = lock.withLock { () -> (() -> Void)? in
            defer { disposeAction = nil }
            return disposeAction
        }
        action?()
    }
}

/// Disposes two disposables; cheaper than a ``CompositeDisposable``.
final class BinaryDisposable: DisposeBase, Cancelable {
    // The two disposables are taken out under `lock` by the first `dispose()`.
    private let lock = RxLock()
    private var disposable1: Disposable?
    private var disposable2: Disposable?
    private let disposed = Atomic<Bool>(false)

    init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.disposable1 = disposable1
        self.disposable2 = disposable2
        super.init()
    }

    var isDisposed: Bool {
        disposed.load(ordering: .acquiring)
    }

    func dispose() {
        guard !disposed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let (first, second) = lock.withLock { () -> (Disposable?, Disposable?) in
            defer {
                disposable1 = nil
                disposable2 = nil
            }
            return (disposable1, disposable2)
        }
        first?.dispose()
        second?.dispose()
    }
}
