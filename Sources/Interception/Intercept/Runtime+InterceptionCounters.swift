// The interception engine's counters (SPEC 4.9), from Swift.
import CInterception

/// A snapshot of the interception engine's counters, for the whole runtime or one class.
public struct InterceptionCounters: Equatable, Sendable, CustomStringConvertible {
    /// Interception subclasses created ("_ICIntercepted_…", one per original class).
    public var dynamicSubclasses: Int
    /// Interception subclasses with at least one method on the libffi forward path.
    public var forwardingClasses: Int
    /// (class, selector) pairs given an optimized typed trampoline.
    public var optimizedMethods: Int
    /// (class, selector) pairs given the libffi forward path.
    public var forwardedMethods: Int
    /// Objects alive.
    public var liveObjects: Int
    /// Observers registered (the rx bindings register one per observed selector and phase).
    public var liveObservers: Int
    /// Objects currently moved into an interception subclass.
    public var interceptedObjects: Int

    public init(
        dynamicSubclasses: Int = 0, forwardingClasses: Int = 0, optimizedMethods: Int = 0,
        forwardedMethods: Int = 0, liveObjects: Int = 0, liveObservers: Int = 0, interceptedObjects: Int = 0
    ) {
        self.dynamicSubclasses = dynamicSubclasses
        self.forwardingClasses = forwardingClasses
        self.optimizedMethods = optimizedMethods
        self.forwardedMethods = forwardedMethods
        self.liveObjects = liveObjects
        self.liveObservers = liveObservers
        self.interceptedObjects = interceptedObjects
    }

    init(_ c: ic_intercept_counters) {
        self.init(
            dynamicSubclasses: c.dynamic_subclasses, forwardingClasses: c.forwarding_classes,
            optimizedMethods: c.optimized_methods, forwardedMethods: c.forwarded_methods,
            liveObjects: c.live_objects, liveObservers: c.live_observers,
            interceptedObjects: c.intercepted_objects)
    }

    public var description: String {
        "subclasses \(dynamicSubclasses), forwarding classes \(forwardingClasses), optimized methods "
            + "\(optimizedMethods), forwarded methods \(forwardedMethods), live objects \(liveObjects), "
            + "live observers \(liveObservers), intercepted objects \(interceptedObjects)"
    }
}

extension Runtime {
    /// The engine's counters for the whole runtime.
    public static var interceptionCounters: InterceptionCounters {
        var c = ic_intercept_counters()
        ic_intercept_get_counters(&c)
        return InterceptionCounters(c)
    }

    /// The engine's counters for one original class: its interception subclass and methods, its
    /// live instances, the observers on them and how many are moved into the subclass. (Tests
    /// that run in parallel assert on their own classes' counters.)
    public static func interceptionCounters(for cls: RuntimeClass) -> InterceptionCounters {
        var c = ic_intercept_counters()
        ic_intercept_get_class_counters(cls.pointer, &c)
        return InterceptionCounters(c)
    }

    /// Waits until no observer call is running on another thread and frees what removed
    /// observers left (their contexts are released then). For tests and leak checks.
    public static func quiesceInterception() {
        ic_intercept_quiesce()
    }
}
