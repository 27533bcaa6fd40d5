// parent.rx.delegate: the delegate proxy of a runtime object, per slot.
import RxCore

extension Reactive where Base: RuntimeObject {
    /// The proxy of this object's `delegate` slot (RxCocoa's `rx.delegate`): of the
    /// ``DelegateProxyType`` registered (``DelegateProxyType/register(_:make:)``) for that slot of
    /// the object's class or its closest superclass, installed as the object's delegate if it is
    /// not yet. Proxy types registered for other slots (a data source) never answer here.
    ///
    /// ```swift
    /// try downloader.rx.delegate.methodInvoked("downloader:didFinish:")
    /// ```
    ///
    /// Registration happens in the proxy type's `registerKnownImplementations()`, which runs
    /// when a proxy of the type is first made: call it at startup so that this accessor knows
    /// the type before.
    ///
    /// - Throws: ``DelegateProxyError/noProxyType(className:slot:)`` when no proxy type is
    ///   registered for the slot (every runtime object has this accessor, delegates included).
    public var delegate: DelegateProxy<RuntimeObject, RuntimeObject> {
        get throws(DelegateProxyError) { try delegateProxy(slot: "delegate") }
    }

    /// The proxy of this object's `dataSource` slot (as ``delegate``; RxCocoa's `rx.dataSource`).
    public var dataSource: DelegateProxy<RuntimeObject, RuntimeObject> {
        get throws(DelegateProxyError) { try delegateProxy(slot: "dataSource") }
    }

    /// The proxy of this object's slot `slot` (``DelegateProxyType/delegateSlot``): as
    /// ``delegate``, for any slot.
    ///
    /// - Throws: ``DelegateProxyError/noProxyType(className:slot:)``.
    public func delegateProxy(slot: String) throws(DelegateProxyError) -> DelegateProxy<
        RuntimeObject, RuntimeObject
    > {
        try DelegateProxyRegistry.proxy(for: base, slot: slot)
    }

    /// The proxy of type `proxyType` of this object, installed in its slot if it is not yet
    /// (``DelegateProxyType/proxy(for:)``).
    public func delegate<Proxy: DelegateProxyType>(_ proxyType: Proxy.Type) -> Proxy
    where Proxy.ParentObject == RuntimeObject {
        Proxy.proxy(for: base)
    }
}
