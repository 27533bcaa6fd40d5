// DelegateProxyType: how a proxy type is found, created and installed for a parent object.
import CInterception
import RxCore

/// A delegate proxy type (RxCocoa's `DelegateProxyType`): a subclass of ``DelegateProxy`` that
/// says which delegate *slot* of its parents it takes (``delegateSlot``: `delegate`,
/// `dataSource`, ...), how to read and write it, and which factory makes proxies for which
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
///     static func registerKnownImplementations() throws {
///         try register(downloaderClass) { DownloaderDelegateProxy(downloader: $0) }
///     }
/// }
/// let proxy = DownloaderDelegateProxy.proxy(for: downloader)
/// ```
public protocol DelegateProxyType: AnyObject, SendableMetatype {
    /// The parent object's type.
    associatedtype ParentObject: RuntimeObject
    /// The delegate's type.
    associatedtype Delegate: RuntimeObject

    /// The parents' slot this proxy type takes, as a key (`"delegate"` unless a protocol such as
    /// ``HasDataSource`` or the type itself says otherwise). `rx.delegate` is the `delegate`
    /// slot's proxy; `rx.delegateProxy(slot:)` any slot's.
    static var delegateSlot: String { get }

    /// Registers the factories of this proxy type (``register(_:make:)``). Called once, the
    /// first time a proxy of this type is made, unless it was called before; call it at startup
    /// so that `rx.delegate` knows the type before any proxy of it exists.
    static func registerKnownImplementations() throws

    /// Adds the protocol methods this proxy type implements in Swift (SPEC 17.3): see
    /// ``DelegateProxyMethods``. Called once, when the proxy type's runtime class is made. The
    /// default implements none (every method is forwarded).
    static func implementMethods(_ methods: DelegateProxyMethods) throws

    /// The parent's current delegate (the value of its slot).
    static func currentDelegate(for object: ParentObject) -> Delegate?

    /// Sets the parent's delegate (its slot).
    static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject)

    /// The runtime object installed as the delegate.
    var object: RuntimeObject { get }

    /// The forward delegate.
    func forwardToDelegate() -> Delegate?

    /// Sets the forward delegate, retained or not.
    func setForwardToDelegate(_ forwardToDelegate: Delegate?, retainDelegate: Bool)
}

extension DelegateProxyType {
    /// `"delegate"`.
    public static var delegateSlot: String { "delegate" }

    /// None: every protocol method is forwarded.
    public static func implementMethods(_ methods: DelegateProxyMethods) throws {}
}

/// The getter and setter of any slot, by key-value coding on ``DelegateProxyType/delegateSlot``
/// (a property of that name, or `slot` / `setSlot:` methods): RxCocoa's `HasDelegate` /
/// `HasDataSource`, declared by the proxy type because runtime classes are not Swift types.
///
/// ```swift
/// final class PrefetchProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
///     HasDelegateSlot, @unchecked Sendable
/// {
///     static var delegateSlot: String { "prefetchDataSource" }
///     // init, registerKnownImplementations
/// }
/// ```
public protocol HasDelegateSlot: DelegateProxyType {}

extension HasDelegateSlot {
    /// The value of the parent's slot.
    ///
    /// - Precondition: the parent has a getter for the slot returning an object (checked when
    ///   the factory is registered: ``DelegateProxyError/slotNotFound(parentClass:slot:)``).
    public static func currentDelegate(for object: ParentObject) -> Delegate? {
        do {
            // The pool: a getter written in Swift (or a weak one) parks its result on this
            // thread; key-value coding hands this read its own reference.
            return try Runtime.autoreleasepool { () throws(RuntimeError) in
                try object.value(forKey: delegateSlot, as: RuntimeObject?.self)
            }.map { $0 as! Delegate }
        } catch {
            preconditionFailure("cannot read the \(delegateSlot) of \(object): \(error)")
        }
    }

    /// Sets the parent's slot through its setter (so observers of the slot see it).
    public static func setCurrentDelegate(_ delegate: Delegate?, to object: ParentObject) {
        do {
            try Runtime.autoreleasepool { () throws(RuntimeError) in
                try object.setValue(delegate as RuntimeObject?, forKey: delegateSlot)
            }
        } catch {
            preconditionFailure("cannot set the \(delegateSlot) of \(object): \(error)")
        }
    }
}

/// The `delegate` slot (`delegate` / `setDelegate:`, or a property `delegate`).
public protocol HasDelegate: HasDelegateSlot {}

/// The `dataSource` slot (`dataSource` / `setDataSource:`, or a property `dataSource`).
public protocol HasDataSource: HasDelegateSlot {}

extension HasDataSource {
    /// `"dataSource"`.
    public static var delegateSlot: String { "dataSource" }
}

extension DelegateProxyType {
    /// Registers `make` as the factory of proxies for parents of `parentClass` and its
    /// subclasses (unless a subclass has its own factory: the closest class wins). Also makes
    /// this type the proxy of the ``delegateSlot`` slot of those parents (`rx.delegate` for the
    /// `delegate` slot), whatever other slots' proxy types are registered for them.
    ///
    /// - Throws: ``DelegateProxyError/factoryAlreadyRegistered(proxyType:parentClass:)`` for a
    ///   second factory of this type for `parentClass` (the first stays);
    ///   ``DelegateProxyError/slotNotFound(parentClass:slot:)`` when the class has no getter and
    ///   setter for a ``HasDelegateSlot`` type's slot.
    public static func register(
        _ parentClass: RuntimeClass, make: @escaping @Sendable (ParentObject) -> Self
    ) throws(DelegateProxyError) {
        if Self.self is any HasDelegateSlot.Type, !DelegateSlotAccessors.exist(delegateSlot, in: parentClass)
        {
            throw .slotNotFound(parentClass: parentClass.name, slot: delegateSlot)
        }
        try DelegateProxyRegistry.register(
            proxyType: Self.self, parentClass: parentClass, slot: delegateSlot,
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

    /// The proxy of `object` for this proxy type, created and installed in its slot the first
    /// time. If the slot holds something else (set directly since: the proxy's streams saw
    /// nothing from then on), that becomes the forward delegate (not retained) and the proxy is
    /// installed again, as in RxCocoa.
    public static func proxy(for object: ParentObject) -> Self {
        let proxy: Self = DelegateProxyRegistry.assignedProxy(proxyType: Self.self, for: object) {
            createProxy(for: object)
        }
        Runtime.autoreleasepool {
            let current = currentDelegate(for: object)
            if current?.pointer != proxy.object.pointer {
                proxy.setForwardToDelegate(current, retainDelegate: false)
                setCurrentDelegate((proxy.object as! Delegate), to: object)
            }
        }
        return proxy
    }

    /// Makes `forwardDelegate` the forward delegate of `object`'s proxy (installing the proxy if
    /// needed). Disposing the result undoes only what it did: if `forwardDelegate` (or nothing,
    /// once it died) is still the forward delegate, the one it replaced comes back (none unless
    /// `replacingExisting`).
    ///
    /// - Throws: ``DelegateProxyError/forwardDelegateAlreadySet(parentClass:slot:)`` if the
    ///   proxy has a forward delegate and `replacingExisting` is false (RxCocoa asserts).
    public static func installForwardDelegate(
        _ forwardDelegate: Delegate, retainDelegate: Bool, onProxyForObject object: ParentObject,
        replacingExisting: Bool = false
    ) throws(DelegateProxyError) -> Disposable {
        let proxy = proxy(for: object)
        let existing = proxy.forwardToDelegate()
        if existing != nil && !replacingExisting {
            throw .forwardDelegateAlreadySet(parentClass: object.runtimeClass.name, slot: delegateSlot)
        }
        let previous = WeakRuntimeObject(existing)
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

/// Whether a class has what key-value coding needs to read and write a slot.
enum DelegateSlotAccessors {
    static func exist(_ slot: String, in cls: RuntimeClass) -> Bool {
        if let property = cls.property(named: slot) {
            return property.setter != nil && property.typeEncoding == "@"
        }
        guard let first = slot.first else { return false }
        let setter = "set" + first.uppercased() + slot.dropFirst() + ":"
        return ic_class_responds_to(cls.pointer, Selector(slot).pointer)
            && ic_class_responds_to(cls.pointer, Selector(setter).pointer)
    }
}
