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
    }
#endif
