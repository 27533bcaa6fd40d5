// DelegateProxy: RxCocoa's delegate proxy, on the runtime's forwarding and interception.
import CInterception
import RxCore

/// An object installed as a parent object's delegate that forwards every delegate call to the
/// real delegate (the *forward delegate*) and lets observers see the calls (RxCocoa's
/// `DelegateProxy`).
///
/// Subclass it once per delegate protocol and conform the subclass to ``DelegateProxyType``;
/// get the proxy of a parent with ``DelegateProxyType/proxy(for:)`` (or `parent.rx.delegate`).
/// The runtime object installed as the delegate is ``object``, an instance of a runtime class
/// made once per proxy type (its design: `docs/ARCHITECTURE.md`).
///
/// - One proxy per (parent, proxy type), kept alive by the parent (an associated value).
/// - The forward delegate is held weakly unless set with `retainDelegate: true`.
/// - Delegate calls reach the forward delegate when it implements them; methods that return a
///   value are forwarded and their result returned (zero when nobody implements them).
/// - ``sentMessage(_:)`` / ``methodInvoked(_:)`` see each call of a protocol method before /
///   after the forward delegate runs, whether or not it implements the method; observing a
///   method the forward delegate does not implement makes the proxy answer YES to
///   `respondsToSelector:` for it while observed. Methods returning a value can be observed
///   too (RxCocoa refuses them).
/// - The streams complete when the parent is deallocated.
///
/// `ParentObject` and `Delegate` are `RuntimeObject` (runtime objects are all one Swift type);
/// they keep RxCocoa's shape and document the roles.
open class DelegateProxy<P: RuntimeObject, D: RuntimeObject>: @unchecked Sendable {
    // @unchecked Sendable: the immutable properties are Sendable; the retained forward delegate
    // is guarded by its lock; the weak slot is the runtime's zeroing weak reference.

    /// The parent object's type.
    public typealias ParentObject = P
    /// The delegate's type.
    public typealias Delegate = D

    /// The runtime object installed as the parent's delegate.
    public let object: RuntimeObject
    /// The delegate protocol.
    public let delegateProtocol: RuntimeProtocol

    private let proxyClass: DelegateProxyClass
    private let parent: WeakRuntimeObject
    private let parentDeallocated: Observable<Void>
    /// The forward delegate when it is retained.
    private let retainedDelegate = Locked<RuntimeObject?>(nil)

    /// Makes the proxy of `parentObject` for the proxy type `delegateProxy` (a subclass of this
    /// class conforming to ``DelegateProxyType``), implementing `delegateProtocol`.
    ///
    /// - Precondition: the proxy's runtime class can be made (its name,
    ///   `DelegateProxy<Module.Type>`, is free) and each proxy type uses one protocol.
    public init<Proxy: DelegateProxyType>(
        parentObject: ParentObject, delegateProxy: Proxy.Type, delegateProtocol: RuntimeProtocol
    ) {
        do {
            proxyClass = try DelegateProxyClass.of(Proxy.self, delegateProtocol: delegateProtocol)
        } catch {
            preconditionFailure("cannot make the runtime class of \(Proxy.self): \(error)")
        }
        self.delegateProtocol = delegateProtocol
        object = proxyClass.runtimeClass.new()
        parent = WeakRuntimeObject(parentObject)
        parentDeallocated = parentObject.rx.deallocated
    }

    /// The parent object, while it lives.
    public var parentObject: ParentObject? { parent.object.map { $0 as! P } }

    /// The forward delegate: where delegate calls are forwarded, or `nil`.
    public func forwardToDelegate() -> Delegate? {
        ic_weak_load_retained(slot).map { RuntimeObject(adopting: $0) as! D }
    }

    /// Sets the forward delegate, held weakly unless `retainDelegate`.
    public func setForwardToDelegate(_ delegate: Delegate?, retainDelegate: Bool) {
        let previous = retainedDelegate.withLock { retained in
            ic_weak_store(slot, delegate?.pointer)
            let previous = retained
            retained = retainDelegate ? delegate : nil
            return previous
        }
        _ = previous  // released here, outside the lock (it may run a dealloc)
    }

    /// The arguments of every call of the protocol method `selector`, before the forward
    /// delegate runs (see `RuntimeObject`'s `rx.sentMessage(_:)` for the boxing). A selector
    /// outside the protocol gives an error.
    open func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        observable(selector) { object.rx.sentMessage($0) }
    }

    /// The arguments of every call of the protocol method `selector`, after the forward
    /// delegate returned.
    open func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        observable(selector) { object.rx.methodInvoked($0) }
    }

    /// As ``sentMessage(_:)``, typed (see `rx.sentMessage(_:as:)`).
    public func sentMessage<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        observable(selector) { object.rx.sentMessage($0, as: types) }
    }

    /// As ``methodInvoked(_:)``, typed (see `rx.methodInvoked(_:as:)`).
    public func methodInvoked<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        observable(selector) { object.rx.methodInvoked($0, as: types) }
    }

    private var slot: UnsafeMutablePointer<OpaquePointer?> {
        DelegateProxyClass.slot(object.pointer, offset: proxyClass.slotOffset)
    }

    private func observable<E>(_ selector: Selector, _ make: (Selector) -> Observable<E>) -> Observable<E> {
        guard proxyClass.protocolSelectors.contains(selector) else {
            return .error(
                InterceptionError.selectorNotImplemented(
                    className: proxyClass.runtimeClass.name, selector: selector))
        }
        return make(selector).take(until: parentDeallocated)
    }
}
