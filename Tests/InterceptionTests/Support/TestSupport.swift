// Helpers shared by the Interception suites: unique class names (all suites run in parallel in
// one process and class names are global), a thread-safe log, and a deinit counter.
import CInterception
@testable import Interception
import Synchronization
import Testing

private let nameCounter = Atomic<Int>(0)

/// A class name no other test uses. The "Swift" prefix keeps these apart from the names the C
/// runtime's suites make with the same counter scheme in the same process.
func uniqueName(_ base: String) -> String {
    "Swift\(base)_\(nameCounter.add(1, ordering: .relaxed).newValue)"
}

/// An ordered record of events, safe to append to from any thread (method closures are
/// `@Sendable` and may run anywhere).
final class EventLog: Sendable {
    private let entries = Locked<[String]>([])

    func append(_ entry: String) {
        entries.withLock { $0.append(entry) }
    }

    var all: [String] { entries.withLock { $0 } }
}

/// A counter of deinits of ``Counted`` objects: captured by a method closure, a `Counted`
/// shows whether the closure's context is alive or was released.
final class DeinitCounter: Sendable {
    private let value = Atomic<Int>(0)

    var count: Int { value.load(ordering: .acquiring) }

    /// A Swift object that increments this counter when it deinitializes.
    final class Counted: Sendable {
        let counter: DeinitCounter
        init(_ counter: DeinitCounter) { self.counter = counter }
        deinit { counter.value.add(1, ordering: .releasing) }
    }

    func make() -> Counted { Counted(self) }
}

/// A class with no methods of its own, with a unique name.
func plainClass(_ base: String, superclass: RuntimeClass = .root) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base), superclass: superclass) { _ in }
}
