/// Collects disposables and disposes them when the bag is deallocated.
///
/// The usual pattern is a `let disposeBag = DisposeBag()` property and
/// `observable.subscribe(...).disposed(by: disposeBag)`; releasing the owner releases the bag and
/// ends the subscriptions. To end them earlier, replace the bag with a new one.
public final class DisposeBag: DisposeBase {
    // Guards `disposables` and `isDisposed`.
    private let lock = RxLock()
    private var disposables: [Disposable] = []
    private var isDisposed = false

    /// Creates an empty bag.
    public override init() {
        super.init()
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: Disposable...) {
        self.init()
        insert(disposables)
    }

    /// Creates a bag holding `disposables`.
    public convenience init(disposing disposables: [Disposable]) {
        self.init()
        insert(disposables)
    }

    /// Creates a bag holding the disposables listed in `builder`.
    public convenience init(@DisposableBuilder builder: () -> [Disposable]) {
        self.init(disposing: builder())
    }

    /// Adds a disposable, disposed with the bag. (A bag that is already disposed disposes it now.)
    public func insert(_ disposable: Disposable) {
        insert([disposable])
    }

    /// Adds disposables, disposed with the bag.
    public func insert(_ disposables: Disposable...) {
        insert(disposables)
    }

    /// Adds the disposables listed in `builder`.
    public func insert(@DisposableBuilder builder: () -> [Disposable]) {
        insert(builder())
    }

    /// Adds disposables, disposed with the bag.
    public func insert(_ disposables: [Disposable]) {
        let disposeNow = lock.withLock { () -> Bool in
            if isDisposed { return true }
            self.disposables.append(contentsOf: disposables)
            return false
        }
        if disposeNow {
            for disposable in disposables {
                disposable.dispose()
            }
        }
    }

    private func dispose() {
        let all = lock.withLock { () -> [Disposable] in
            defer {
                disposables = []
                isDisposed = true
            }
            return disposables
        }
        for disposable in all {
            disposable.dispose()
        }
    }

    deinit {
        dispose()
    }

    /// Builds a list of disposables: `bag.insert { a; b; c }`.
    @resultBuilder
    public enum DisposableBuilder {
        /// Collects the disposables of the block.
        public static func buildBlock(_ disposables: Disposable...) -> [Disposable] {
            disposables
        }
    }
}

extension Disposable {
    /// Adds this disposable to `bag`, which disposes it when the bag is deallocated.
    public func disposed(by bag: DisposeBag) {
        bag.insert(self)
    }
}
