/// A group of disposables that are disposed together.
///
/// Disposables can be added and removed while the group is alive; after ``dispose()`` every
/// disposable added is disposed immediately.
public final class CompositeDisposable: DisposeBase, Cancelable {
    /// Identifies a disposable inserted in a ``CompositeDisposable``.
    public struct DisposeKey: Hashable, Sendable {
        fileprivate let value: UInt64
    }

    // Guards `entries` (nil once disposed) and `nextKey`. Entries stay in insertion order, which
    // is also the order in which they are disposed. The lock makes Swift's dynamic exclusivity
    // checks redundant; unchecked, they no longer cost an access-set insertion per access (a
    // `flatMap` inserts and removes an entry per inner sequence).
    private let lock = RxLock()
    @exclusivity(unchecked) private var entries: [(key: DisposeKey, disposable: Disposable)]? = []
    @exclusivity(unchecked) private var nextKey: UInt64 = 0

    /// Creates an empty group.
    public override init() {
        super.init()
    }

    /// Creates a group of two disposables.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable) {
        self.init(disposables: [disposable1, disposable2])
    }

    /// Creates a group of three disposables.
    public convenience init(_ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable) {
        self.init(disposables: [disposable1, disposable2, disposable3])
    }

    /// Creates a group of disposables.
    public convenience init(
        _ disposable1: Disposable, _ disposable2: Disposable, _ disposable3: Disposable,
        _ disposable4: Disposable, _ disposables: Disposable...
    ) {
        self.init(disposables: [disposable1, disposable2, disposable3, disposable4] + disposables)
    }

    /// Creates a group of disposables.
    public init(disposables: [Disposable]) {
        super.init()
        for disposable in disposables {
            _ = insert(disposable)
        }
    }

    /// Whether ``dispose()`` was called.
    public var isDisposed: Bool {
        lock.withLock { entries == nil }
    }

    /// The number of disposables in the group.
    public var count: Int {
        lock.withLock { entries?.count ?? 0 }
    }

    /// Adds a disposable. Returns the key to remove it with, or `nil` if the group was already
    /// disposed, in which case `disposable` is disposed immediately.
    public func insert(_ disposable: Disposable) -> DisposeKey? {
        let key = lock.withLock { () -> DisposeKey? in
            guard entries != nil else { return nil }
            let key = DisposeKey(value: nextKey)
            nextKey += 1
            entries!.append((key, disposable))
            return key
        }
        if key == nil {
            disposable.dispose()
        }
        return key
    }

    /// Removes the disposable with `disposeKey` from the group and disposes it.
    public func remove(for disposeKey: DisposeKey) {
        let removed = lock.withLock { () -> Disposable? in
            // From the end: the entry removed is usually the latest one (an inner sequence of
            // `flatMap` that completed); keys are unique, so the search order changes nothing else.
            guard let index = entries?.lastIndex(where: { $0.key == disposeKey }) else { return nil }
            return entries!.remove(at: index).disposable
        }
        removed?.dispose()
    }

    /// Disposes every disposable of the group, in insertion order.
    public func dispose() {
        let all = lock.withLock { () -> [(key: DisposeKey, disposable: Disposable)]? in
            defer { entries = nil }
            return entries
        }
        for entry in all ?? [] {
            entry.disposable.dispose()
        }
    }
}
