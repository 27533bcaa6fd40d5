// DelegateProxyType: how a proxy type is found, created and installed for a parent object.
import CInterception
import RxCore

/// A delegate proxy type (RxCocoa's `DelegateProxyType`): a subclass of ``DelegateProxy`` that
/// says how to read and write its parents' delegate and which factory makes proxies for which
/// parent classes.
///
/// ```swift
/// final class DownloaderDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>,
///     DelegateProxyType, HasDelegate, @unchecked Sendable
/// {
///     init(downloader: RuntimeObject) {
///         super.init(parentObject: downloader, delegateProxy: DownloaderDelegateProxy.self,
///                    delegateProtocol: downloaderDelegate)
///     }
///     static func registerKnownImplementations() {
///         register(downloaderClass) { DownloaderDelegateProxy(downloader: $0) }
///     }
/// }
/// let proxy = DownloaderDelegateProxy.proxy(for: downloader)
/// ```
public protocol DelegateProxyType: AnyObject, SendableMetatype {
    /// The parent object's type.
    associatedtype ParentObject: RuntimeObject
    /// The delegate's type.
    associatedtype Delegate: RuntimeObject

    /// Registers the factories of this proxy type (``register(_:make:)``); called once, the first
    /// time a proxy of this type is created.
    static func registerKnownImplementations()

    /// The parent's current delegate.
    static func currentDelegate(for object: ParentObject) -> Delegate?

    /// Sets the parent's delegate.
    static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject)

    /// The runtime object installed as the delegate.
    var object: RuntimeObject { get }

    /// The forward delegate.
    func forwardToDelegate() -> Delegate?

    /// Sets the forward delegate, retained or not.
    func setForwardToDelegate(_ forwardToDelegate: Delegate?, retainDelegate: Bool)
}

/// A ``DelegateProxyType`` default for parents whose delegate is the property `delegate` /
/// `setDelegate:` (encodings `@@:` and `v@:@`): RxCocoa's `HasDelegate`, declared by the proxy
/// type here because runtime classes are not Swift types.
public protocol HasDelegate: DelegateProxyType {}

extension HasDelegate {
    /// What the parent's `delegate` answers.
    public static func currentDelegate(for object: ParentObject) -> Delegate? {
        do {
            let delegate: RuntimeObject? = try object.send("delegate")
            return delegate.map { $0 as! Delegate }
        } catch {
            preconditionFailure("cannot read the delegate of \(object): \(error)")
        }
    }

    /// Sends `setDelegate:` to the parent.
    public static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject) {
        do {
            try object.send("setDelegate:", delegate as RuntimeObject?)
        } catch {
            preconditionFailure("cannot set the delegate of \(object): \(error)")
        }
    }
}

extension DelegateProxyType {
    /// Registers `make` as the factory of proxies for parents of `parentClass` and its
    /// subclasses (unless a subclass has its own factory: the closest class wins). Also makes
    /// this type what `rx.delegate` returns for those parents.
    public static func register(_ parentClass: RuntimeClass, make: @escaping @Sendable (ParentObject) -> Self)
    {
        DelegateProxyRegistry.register(
            proxyType: Self.self, parentClass: parentClass,
            make: { make($0 as! ParentObject) },
            proxy: { proxy(for: $0 as! ParentObject) as? DelegateProxy<RuntimeObject, RuntimeObject> })
    }

    /// A new proxy for `object`, from the factory registered for its class or the closest
    /// superclass.
    ///
    /// - Precondition: a factory is registered for the class or a superclass.
    public static func createProxy(for object: ParentObject) -> Self {
        DelegateProxyRegistry.makeProxy(proxyType: Self.self, for: object) as! Self
    }

    /// The proxy of `object` for this proxy type, created and installed as its delegate the
    /// first time. If the parent's delegate is something else (set directly since), that
    /// becomes the forward delegate (not retained) and the proxy is installed again.
    public static func proxy(for object: ParentObject) -> Self {
        let proxy: Self = DelegateProxyRegistry.assignedProxy(proxyType: Self.self, for: object) {
            createProxy(for: object)
        }
        let current = currentDelegate(for: object)
        if current?.pointer != proxy.object.pointer {
            proxy.setForwardToDelegate(current, retainDelegate: false)
            setCurrentDelegate((proxy.object as! Delegate), to: object)
        }
        return proxy
    }

    /// Makes `forwardDelegate` the forward delegate of `object`'s proxy (installing the proxy if
    /// needed). Disposing the result restores the forward delegate that was there before, unless
    /// another one was set since.
    public static func installForwardDelegate(
        _ forwardDelegate: Delegate, retainDelegate: Bool, onProxyForObject object: ParentObject
    ) -> Disposable {
        let proxy = proxy(for: object)
        let previous = WeakRuntimeObject(proxy.forwardToDelegate())
        let installed = WeakRuntimeObject(forwardDelegate)
        proxy.setForwardToDelegate(forwardDelegate, retainDelegate: retainDelegate)
        return Disposables.create { [weak proxy] in
            guard let proxy else { return }
            let current = proxy.forwardToDelegate()
            if current == nil || current == installed.object {
                proxy.setForwardToDelegate(previous.object.map { $0 as! Delegate }, retainDelegate: false)
            }
        }
    }
}
