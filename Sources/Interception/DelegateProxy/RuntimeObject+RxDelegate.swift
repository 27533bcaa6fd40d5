// parent.rx.delegate: the delegate proxy of a runtime object.
import RxCore

extension Reactive where Base: RuntimeObject {
    /// The delegate proxy of this object (RxCocoa's `rx.delegate`): of the ``DelegateProxyType``
    /// registered (``DelegateProxyType/register(_:make:)``) for the object's class or its closest
    /// superclass, installed as the object's delegate if it is not yet.
    ///
    /// ```swift
    /// downloader.rx.delegate.methodInvoked("downloader:didFinish:")
    /// ```
    ///
    /// - Precondition: a proxy type was registered for the class or a superclass (registration
    ///   happens in `registerKnownImplementations()`, which runs when a proxy of the type is
    ///   first made: call it at startup, or use ``delegate(_:)``).
    public var delegate: DelegateProxy<RuntimeObject, RuntimeObject> {
        guard let proxy = DelegateProxyRegistry.defaultProxy(for: base) else {
            preconditionFailure("no delegate proxy type is registered for \(base.runtimeClass.name)")
        }
        return proxy
    }

    /// The proxy of type `proxyType` of this object, installed as its delegate if it is not
    /// yet (``DelegateProxyType/proxy(for:)``).
    public func delegate<Proxy: DelegateProxyType>(_ proxyType: Proxy.Type) -> Proxy
    where Proxy.ParentObject == RuntimeObject {
        Proxy.proxy(for: base)
    }
}
