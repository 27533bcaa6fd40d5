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
///
/// Lock-free: the first `dispose()` wins the exchange of `disposed` and is then the only one to
/// touch `disposeAction`, which nobody writes after `init`. (A lock here cost a heap-allocated
/// mutex and two atomic operations per subscription that used it.)
final class AnonymousDisposable: DisposeBase, Cancelable {
    @exclusivity(unchecked) private var disposeAction: (() -> Void)?
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
        let action = disposeAction
        disposeAction = nil  // released as soon as it has run
        action?()
    }
}

/// Disposes two disposables; cheaper than a ``CompositeDisposable``.
///
/// Lock-free for the same reason as ``AnonymousDisposable``: the winner of the exchange of
/// `disposed` is the only one to take the two disposables out.
final class BinaryDisposable: DisposeBase, Cancelable {
    @exclusivity(unchecked) private var disposable1: Disposable?
    @exclusivity(unchecked) private var disposable2: Disposable?
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
        let first = disposable1
        let second = disposable2
        disposable1 = nil
        disposable2 = nil
        first?.dispose()
        second?.dispose()
    }
}
