// The registry of delegate proxy factories, walked along the parent's class hierarchy, and the
// association of each parent with its proxies.
import CInterception

/// A proxy as an associated value (proxies are used from any thread, as their parents are).
private struct ProxyBox: @unchecked Sendable {
    let proxy: AnyObject
    init(_ proxy: AnyObject) { self.proxy = proxy }
}

/// Factories per proxy type and parent class, each proxy type's association key, and per
/// (parent class, slot) the proxy type that `rx.delegate` / `rx.delegateProxy(slot:)` return
/// (SPEC 17.2: a data-source proxy type registered for a subclass never hides the `delegate`
/// slot's proxy type registered for its superclass).
///
/// Locking: `state` guards the tables and is never held while a factory or
/// `registerKnownImplementations` runs; `registration` is held while one runs (taken before
/// `state`); `assignment` serializes get-or-create of a parent's proxy.
enum DelegateProxyRegistry {
    typealias AnyProxy = DelegateProxy<RuntimeObject, RuntimeObject>

    private struct Entry {
        let key = AssociationKey()
        /// `registerKnownImplementations` has run (or was not needed): factories are final.
        var knownImplementationsRegistered = false
        /// `registerKnownImplementations` is running (under `registration`).
        var registering = false
        var factories: [RuntimeClass: @Sendable (RuntimeObject) -> AnyObject] = [:]
    }

    private struct SlotKey: Hashable {
        let parentClass: RuntimeClass
        let slot: String
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// (parent class, slot) → the proxy of the type most recently registered for them.
        var slots: [SlotKey: @Sendable (RuntimeObject) -> AnyProxy?] = [:]
    }

    private static let state = Locked(State())
    /// Serializes get-or-create of a parent's proxy (not held while factories run).
    private static let assignment = Lock()
    /// Held while a proxy type's `registerKnownImplementations` runs (recursive: see
    /// `ensureRegistered`).
    private static let registration = Lock(recursive: true)

    /// Registers `make` for `parentClass`; a second factory for the same pair is refused (the
    /// first stays).
    static func register(
        proxyType: Any.Type, parentClass: RuntimeClass, slot: String,
        make: @escaping @Sendable (RuntimeObject) -> AnyObject,
        proxy: @escaping @Sendable (RuntimeObject) -> AnyProxy?
    ) throws(DelegateProxyError) {
        let registered = state.withLock { state in
            let id = ObjectIdentifier(proxyType)
            if state.entries[id]?.factories[parentClass] != nil { return false }
            state.entries[id, default: Entry()].factories[parentClass] = make
            state.slots[SlotKey(parentClass: parentClass, slot: slot)] = proxy
            return true
        }
        guard registered else {
            throw .factoryAlreadyRegistered(
                proxyType: String(reflecting: proxyType), parentClass: parentClass.name)
        }
    }

    /// Runs the proxy type's `registerKnownImplementations` once, unless factories of the type
    /// were registered already (by the user calling it at startup), and returns only once it has
    /// run: a thread that asks while another registers waits for it, or it would find no
    /// factory (seen in the parallel tests). The registration runs outside `state`'s lock, under
    /// `registration`, which is recursive so that a `registerKnownImplementations` reaching the
    /// registry again on its own thread does not deadlock (it sees the type in progress and goes
    /// on). Its error (a duplicate factory, a class without the slot) is what it registered
    /// before failing; the proxy type's factories tell the rest.
    private static func ensureRegistered<Proxy: DelegateProxyType>(_ proxyType: Proxy.Type) {
        let id = ObjectIdentifier(proxyType)
        if state.withLock({ $0.entries[id]?.knownImplementationsRegistered ?? false }) { return }
        registration.withLock {
            let first = state.withLock { state in
                if state.entries[id] == nil { state.entries[id] = Entry() }
                let entry = state.entries[id]!
                guard !entry.knownImplementationsRegistered, !entry.registering else { return false }
                if !entry.factories.isEmpty {
                    state.entries[id]!.knownImplementationsRegistered = true
                    return false
                }
                state.entries[id]!.registering = true
                return true
            }
            guard first else { return }
            try? Proxy.registerKnownImplementations()
            state.withLock { state in
                state.entries[id]!.registering = false
                state.entries[id]!.knownImplementationsRegistered = true
            }
        }
    }

    /// A new proxy from the factory registered for `object`'s class or its closest superclass.
    ///
    /// - Precondition: there is one (a programmer error, as in RxCocoa; `rx.delegate` checks
    ///   first and reports ``DelegateProxyError/noProxyType(className:slot:)`` instead).
    static func makeProxy<Proxy: DelegateProxyType>(proxyType: Proxy.Type, for object: RuntimeObject)
        -> AnyObject
    {
        ensureRegistered(proxyType)
        var cls: RuntimeClass? = object.runtimeClass
        while let c = cls {
            let factory = state.withLock { $0.entries[ObjectIdentifier(proxyType)]?.factories[c] }
            if let factory { return factory(object) }
            cls = c.superclass
        }
        preconditionFailure(
            "no \(proxyType) factory is registered for \(object.runtimeClass.name) or its superclasses: "
                + "register one in registerKnownImplementations()")
    }

    /// The proxy of `proxyType` associated with `object`, made with `make` and associated the
    /// first time. Two threads racing both make one; the first associated wins.
    static func assignedProxy<Proxy: DelegateProxyType>(
        proxyType: Proxy.Type, for object: RuntimeObject, make: () -> Proxy
    ) -> Proxy {
        ensureRegistered(proxyType)
        let key = state.withLock { $0.entries[ObjectIdentifier(proxyType), default: Entry()].key }
        func assigned() -> Proxy? { (object.associatedValue(forKey: key) as? ProxyBox)?.proxy as? Proxy }
        if let existing = assignment.withLock(assigned) {
            return existing
        }
        let made = make()
        return assignment.withLock {
            if let existing = assigned() { return existing }
            do {
                try object.setAssociatedValue(ProxyBox(made), forKey: key)
            } catch {
                preconditionFailure("cannot associate \(Proxy.self) with \(object): \(error)")
            }
            return made
        }
    }

    /// The proxy installed for `slot` of `object`: of the type registered last for that slot
    /// of its class or the closest superclass that has one.
    static func proxy(for object: RuntimeObject, slot: String) throws(DelegateProxyError) -> AnyProxy {
        var cls: RuntimeClass? = object.runtimeClass
        while let c = cls {
            if let proxy = state.withLock({ $0.slots[SlotKey(parentClass: c, slot: slot)] }) {
                guard let made = proxy(object) else { break }
                return made
            }
            cls = c.superclass
        }
        throw .noProxyType(className: object.runtimeClass.name, slot: slot)
    }
}
