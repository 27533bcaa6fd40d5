#if TRACE_RESOURCES
    import Synchronization

    /// Debug counter of live resources (observables, sinks, observers, disposables, scheduled items).
    ///
    /// Compiled only when `TRACE_RESOURCES` is defined (debug builds of this package). Tests record
    /// `total` before they run and check that it returns to that value, which catches subscriptions
    /// that are never released.
    public enum Resources {
        private static let counter = Atomic<Int32>(0)

        /// The number of live resources.
        public static var total: Int32 {
            counter.load(ordering: .sequentiallyConsistent)
        }

        private static let serialDispatchQueueObservables = Atomic<Int32>(0)

        /// The number of live `observe(on:)` sequences that deliver on a
        /// ``SerialDispatchQueueScheduler`` (``MainScheduler`` included), as RxSwift counts them.
        public static var numberOfSerialDispatchQueueObservables: Int32 {
            serialDispatchQueueObservables.load(ordering: .sequentiallyConsistent)
        }

        /// Counts one more or one less `observe(on:)` on a serial dispatch queue.
        static func countSerialDispatchQueueObservable(_ delta: Int32) {
            serialDispatchQueueObservables.wrappingAdd(delta, ordering: .sequentiallyConsistent)
        }

        /// Counts one more live resource and returns the new total.
        @discardableResult
        public static func incrementTotal() -> Int32 {
            counter.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        }

        /// Counts one less live resource and returns the new total.
        @discardableResult
        public static func decrementTotal() -> Int32 {
            counter.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
        }

        /// A group of resources counted on its own, besides the global total: tests run in
        /// parallel in one process, so each test counts what it creates in its own scope
        /// (`$currentScope.withValue(Scope()) { ... }`) rather than in the shared total.
        public final class Scope: Sendable {
            private let counter = Atomic<Int32>(0)

            public init() {}

            /// The live resources created while this scope was current.
            public var total: Int32 { counter.load(ordering: .sequentiallyConsistent) }

            fileprivate func add(_ delta: Int32) {
                counter.wrappingAdd(delta, ordering: .sequentiallyConsistent)
            }
        }

        /// The scope new resources are counted in, for the current task (and its children).
        @TaskLocal public static var currentScope: Scope?

        /// Counts a new resource in the total and in the current scope, which it returns: the
        /// resource gives it back to `untrack` when it goes away, on whatever thread.
        public static func track() -> Scope? {
            incrementTotal()
            let scope = currentScope
            scope?.add(1)
            return scope
        }

        /// Counts a resource that goes away, in the total and in the scope it was counted in.
        public static func untrack(_ scope: Scope?) {
            decrementTotal()
            scope?.add(-1)
        }
    }

    /// Counts its owner as a live resource from the owner's creation to its destruction, in the
    /// total and in the scope current at creation: the one stored property (declared under
    /// `#if TRACE_RESOURCES`) through which observables, sinks, observers and disposables are
    /// counted, so that none of them writes the counting into its own initializer and `deinit`.
    struct ResourceCount: ~Copyable {
        private let scope: Resources.Scope?

        init() {
            scope = Resources.track()
        }

        deinit {
            Resources.untrack(scope)
        }
    }
#endif
