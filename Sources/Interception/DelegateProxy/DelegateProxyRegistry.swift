// The registry of delegate proxy factories, walked along the parent's class hierarchy, and the
// association of each parent with its proxies.
import CInterception

/// A proxy as an associated value (proxies are used from any thread, as their parents are).
private struct ProxyBox: @unchecked Sendable {
    let proxy: AnyObject
    init(_ proxy: AnyObject) { self.proxy = proxy }
}

/// Factories per proxy type and parent class, and each proxy type's association key.
enum DelegateProxyRegistry {
    private struct Entry {
        let key = AssociationKey()
        var knownImplementationsRegistered = false
        var factories: [RuntimeClass: @Sendable (RuntimeObject) -> AnyObject] = [:]
    }

    private struct State {
        var entries: [ObjectIdentifier: Entry] = [:]
        /// Parent class → the proxy of the type most recently registered for it (`rx.delegate`).
        var defaults:
            [RuntimeClass: @Sendable (RuntimeObject) -> DelegateProxy<RuntimeObject, RuntimeObject>?] = [:]
    }

    private static let state = Locked(State())
    /// Serializes get-or-create of a parent's proxy (not held while factories run).
    private static let assignment = Lock()

    static func register(
        proxyType: Any.Type, parentClass: RuntimeClass,
        make: @escaping @Sendable (RuntimeObject) -> AnyObject,
        proxy: @escaping @Sendable (RuntimeObject) -> DelegateProxy<RuntimeObject, RuntimeObject>?
    ) {
        state.withLock { state in
            state.entries[ObjectIdentifier(proxyType), default: Entry()].factories[parentClass] = make
            state.defaults[parentClass] = proxy
        }
    }

    /// Runs the proxy type's `registerKnownImplementations` once, outside the lock.
    private static func ensureRegistered<Proxy: DelegateProxyType>(_ proxyType: Proxy.Type) {
        let first = state.withLock { state in
            let id = ObjectIdentifier(proxyType)
            let first = !(state.entries[id]?.knownImplementationsRegistered ?? false)
            state.entries[id, default: Entry()].knownImplementationsRegistered = true
            return first
        }
        if first { Proxy.registerKnownImplementations() }
    }

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

    /// The proxy `rx.delegate` returns for `object`: of the type registered last for its class or
    /// the closest superclass.
    static func defaultProxy(for object: RuntimeObject) -> DelegateProxy<RuntimeObject, RuntimeObject>? {
        var cls: RuntimeClass? = object.runtimeClass
        while let c = cls {
            if let proxy = state.withLock({ $0.defaults[c] }) { return proxy(object) }
            cls = c.superclass
        }
        return nil
    }
}
