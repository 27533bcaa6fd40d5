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

/// Hook errors for the suites. `Runtime.hookErrorHandler` is process-wide, and suites run in
/// parallel: two tests that each set it and restore the previous one on exit can leave the
/// other's handler replaced, and its errors lost (seen under AddressSanitizer). So the handler
/// is set once, to one that hands each error to every handler registered here.
enum HookErrorHandlers {
    private static let handlers = Locked<[Int: @Sendable (HookError) -> Void]>([:])
    private static let nextID = Atomic<Int>(0)
    private static let installed: Void = {
        Runtime.hookErrorHandler = { error in
            for handler in HookErrorHandlers.handlers.withLock({ Array($0.values) }) { handler(error) }
        }
    }()

    /// Registers `handler` until the returned registration is cancelled.
    static func add(_ handler: @escaping @Sendable (HookError) -> Void) -> Registration {
        _ = installed
        let id = nextID.add(1, ordering: .relaxed).newValue
        handlers.withLock { $0[id] = handler }
        return Registration(id: id)
    }

    struct Registration {
        let id: Int
        func cancel() { _ = HookErrorHandlers.handlers.withLock { $0.removeValue(forKey: id) } }
    }
}
