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
/// - Requesting a stream changes nothing; its first subscription and its last disposal each
///   *reset* the parent's slot (set it to nil, then to the proxy again, if the proxy is
///   installed) so that a parent caching `respondsToSelector:` answers asks again, as does
///   ``setForwardToDelegate(_:retainDelegate:)`` (RxCocoa's `reset()`).
/// - Protocol methods the proxy type implements in Swift (``DelegateProxyType/implementMethods(_:)``)
///   run instead of forwarding; they can be observed the same way.
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
    /// The proxy type's slot accessors, for `reset()`.
    private let currentDelegate: @Sendable (RuntimeObject) -> RuntimeObject?
    private let setCurrentDelegate: @Sendable (RuntimeObject?, RuntimeObject) -> Void
    /// Subscriptions per observed (selector, phase): the first and the last reset the parent.
    private let subscriptions = Locked<[ObservedCall: Int]>([:])

    private struct ObservedCall: Hashable {
        let selector: Selector
        let after: Bool
    }

    /// Makes the proxy of `parentObject` for the proxy type `delegateProxy` (a subclass of this
    /// class conforming to ``DelegateProxyType``), implementing `delegateProtocol`.
    ///
    /// - Precondition: the proxy's runtime class can be made (its name,
    ///   `DelegateProxy<Module.Type>`, is free) and each proxy type uses one protocol.
    public init<Proxy: DelegateProxyType>(
        parentObject: ParentObject, delegateProxy: Proxy.Type, delegateProtocol: RuntimeProtocol
    ) {
        do {
            proxyClass = try DelegateProxyClass.of(Proxy.self, delegateProtocol: delegateProtocol) {
                methods in
                try Proxy.implementMethods(methods)
            }
        } catch {
            preconditionFailure("cannot make the runtime class of \(Proxy.self): \(error)")
        }
        self.delegateProtocol = delegateProtocol
        object = proxyClass.runtimeClass.new()
        parent = WeakRuntimeObject(parentObject)
        parentDeallocated = parentObject.rx.deallocated
        currentDelegate = { Proxy.currentDelegate(for: $0 as! Proxy.ParentObject) }
        setCurrentDelegate = {
            Proxy.setCurrentDelegate($0.map { $0 as! Proxy.Delegate }, to: $1 as! Proxy.ParentObject)
        }
        do {
            try DelegateProxyBackReference.attach(self, to: object, key: proxyClass.backReferenceKey)
        } catch {
            preconditionFailure("cannot attach \(Proxy.self) to its runtime object: \(error)")
        }
    }

    /// The parent object, while it lives.
    public var parentObject: ParentObject? { parent.object.map { $0 as! P } }

    /// The forward delegate: where delegate calls are forwarded, or `nil`.
    public func forwardToDelegate() -> Delegate? {
        ic_weak_load_retained(slot).map { RuntimeObject(adopting: $0) as! D }
    }

    /// Sends `selector` with `arguments` to the forward delegate if it implements it (for
    /// protocol methods implemented in Swift, ``DelegateProxyMethods``): its result, or `nil`
    /// when there is no forward delegate, it does not respond, or the send fails (the types are
    /// not the method's).
    public func forward<each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ arguments: repeat each A
    )
        -> R?
    {
        guard let delegate = forwardToDelegate(), delegate.responds(to: selector) else { return nil }
        return try? delegate.send(selector, repeat each arguments)
    }

    /// As the value-returning `forward(_:_:)`, for a method that returns nothing:
    /// whether the forward delegate ran it.
    @discardableResult
    public func forward<each A: RuntimeValue>(_ selector: Selector, _ arguments: repeat each A) -> Bool {
        guard let delegate = forwardToDelegate(), delegate.responds(to: selector) else { return false }
        do {
            try delegate.send(selector, repeat each arguments)
            return true
        } catch {
            return false
        }
    }

    /// Sets the forward delegate, held weakly unless `retainDelegate`, and resets the parent's
    /// slot if the proxy is installed there (the answers to `respondsToSelector:` change).
    public func setForwardToDelegate(_ delegate: Delegate?, retainDelegate: Bool) {
        let previous = retainedDelegate.withLock { retained in
            ic_weak_store(slot, delegate?.pointer)
            let previous = retained
            retained = retainDelegate ? delegate : nil
            return previous
        }
        _ = previous  // released here, outside the lock (it may run a dealloc)
        reset()
    }

    /// Sets the parent's slot to nil and back to the proxy, if the proxy is installed there, so
    /// that a parent that caches `respondsToSelector:` answers asks again (RxCocoa's `reset()`).
    private func reset() {
        guard let parent = parent.object else { return }
        // The pool: accessors written in Swift park what they return on this thread, which
        // would keep this proxy's object alive past its parent.
        Runtime.autoreleasepool {
            guard currentDelegate(parent)?.pointer == object.pointer else { return }
            setCurrentDelegate(nil, parent)
            setCurrentDelegate(object, parent)
        }
    }

    /// The arguments of every call of the protocol method `selector`, before the forward
    /// delegate runs (see `RuntimeObject`'s `rx.sentMessage(_:)` for the boxing). A selector
    /// outside the protocol gives an error.
    open func sentMessage(_ selector: Selector) -> Observable<[Any]> {
        observable(selector, after: false) { object.rx.sentMessage($0) }
    }

    /// The arguments of every call of the protocol method `selector`, after the forward
    /// delegate returned.
    open func methodInvoked(_ selector: Selector) -> Observable<[Any]> {
        observable(selector, after: true) { object.rx.methodInvoked($0) }
    }

    /// As ``sentMessage(_:)``, typed (see `rx.sentMessage(_:as:)`).
    public func sentMessage<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        observable(selector, after: false) { object.rx.sentMessage($0, as: types) }
    }

    /// As ``methodInvoked(_:)``, typed (see `rx.methodInvoked(_:as:)`).
    public func methodInvoked<each T: RuntimeValue>(_ selector: Selector, as types: (repeat each T).Type)
        -> Observable<(repeat each T)>
    {
        observable(selector, after: true) { object.rx.methodInvoked($0, as: types) }
    }

    private var slot: UnsafeMutablePointer<OpaquePointer?> {
        DelegateProxyClass.slot(object.pointer, offset: proxyClass.slotOffset)
    }

    /// The stream of `selector`'s calls, completing with the parent; its subscriptions are
    /// counted per (selector, phase), and the first and the last reset the parent. The reset
    /// comes after the interception is installed (the re-installed proxy answers YES for the
    /// method) and after it is removed (NO again).
    private func observable<E>(_ selector: Selector, after: Bool, _ make: (Selector) -> Observable<E>)
        -> Observable<E>
    {
        guard proxyClass.protocolSelectors.contains(selector) else {
            return .error(
                InterceptionError.selectorNotImplemented(
                    className: proxyClass.runtimeClass.name, selector: selector))
        }
        let calls = make(selector).take(until: parentDeallocated)
        let key = ObservedCall(selector: selector, after: after)
        return Observable.create { [weak self] observer in
            let subscription = calls.subscribe(observer)
            guard let self else { return subscription }
            self.counted(key, by: 1)
            return Disposables.create { [weak self] in
                subscription.dispose()
                self?.counted(key, by: -1)
            }
        }
    }

    private func counted(_ key: ObservedCall, by change: Int) {
        let edge = subscriptions.withLock { counts in
            let before = counts[key, default: 0]
            counts[key] = before + change == 0 ? nil : before + change
            return (before == 0) != (before + change == 0)
        }
        if edge { reset() }
    }
}
