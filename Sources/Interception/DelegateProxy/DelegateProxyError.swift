// DelegateProxyError: misuse of the delegate-proxy registry and slots, reported instead of trapped.

/// Why a delegate-proxy operation was refused.
public enum DelegateProxyError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `rx.delegate` (or `rx.delegateProxy(slot:)`) on an object whose class and
    /// superclasses have no proxy type registered for `slot`; registration happens in the proxy
    /// type's `registerKnownImplementations()`, which must have run.
    case noProxyType(className: String, slot: String)
    /// A second factory for the same proxy type and parent class; the first stays registered.
    case factoryAlreadyRegistered(proxyType: String, parentClass: String)
    /// The parent class has no getter and setter for the proxy type's slot (its
    /// ``DelegateProxyType/delegateSlot``): neither a property of that name nor `slot` /
    /// `setSlot:` methods.
    case slotNotFound(parentClass: String, slot: String)
    /// `installForwardDelegate` on a proxy that already has a forward delegate, without asking
    /// to replace it.
    case forwardDelegateAlreadySet(parentClass: String, slot: String)

    public var description: String {
        switch self {
        case .noProxyType(let className, let slot):
            return
                "no delegate proxy type is registered for the \(slot) slot of \(className) or its superclasses "
                + "(call the proxy type's registerKnownImplementations() first)"
        case .factoryAlreadyRegistered(let proxyType, let parentClass):
            return "\(proxyType) already has a factory for \(parentClass); the first one stays"
        case .slotNotFound(let parentClass, let slot):
            return "\(parentClass) has no \(slot) getter and setter for a delegate proxy"
        case .forwardDelegateAlreadySet(let parentClass, let slot):
            return "the \(slot) proxy of this \(parentClass) already has a forward delegate; "
                + "pass replacingExisting: true to replace it"
        }
    }
}
