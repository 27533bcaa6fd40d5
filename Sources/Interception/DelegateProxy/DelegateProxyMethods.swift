// DelegateProxyMethods: protocol methods a delegate proxy type implements in Swift (SPEC 17.3).
import CInterception

/// Where a proxy type adds the protocol methods it implements itself, in Swift, with the proxy
/// as its first parameter (RxCocoa's proxies implement methods such as
/// `tableView(_:heightForRowAt:)` or feed hand-made subjects this way).
///
/// ```swift
/// final class DownloaderDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>,
///     DelegateProxyType, HasDelegate, @unchecked Sendable
/// {
///     let retries = PublishSubject<Int32>()
///
///     static func implementMethods(_ methods: DelegateProxyMethods) throws {
///         try methods.implement("downloader:shouldRetry:") {
///             (proxy: DownloaderDelegateProxy, downloader: RuntimeObject?, attempt: Int32) -> Bool in
///             proxy.retries.onNext(attempt)
///             // Ask the real delegate if it implements the method, else answer for it.
///             return proxy.forward("downloader:shouldRetry:", downloader, attempt) ?? (attempt < 3)
///         }
///     }
///     // init, registerKnownImplementations
/// }
/// ```
///
/// - The method replaces the proxy's forwarding of that selector: forward yourself when you
///   want the forward delegate to run (`DelegateProxy.forward(_:_:)`).
/// - The proxy answers `respondsToSelector:` YES for it, like a required method.
/// - `sentMessage` / `methodInvoked` observe it as any other protocol method (before / after
///   the Swift body).
/// - The body runs on the caller's thread. The proxy is reached through a weak reference: if
///   the Swift proxy is gone (its parent died, someone kept the runtime object), the method
///   returns zero without running the body.
public final class DelegateProxyMethods {
    private let builder: RuntimeClass.Builder
    private let protocolMethods: [Selector: String]
    private let protocolName: String
    private let backReferenceKey: AssociationKey
    private let proxyType: String
    /// The selectors implemented so far.
    private(set) var implemented: Set<Selector> = []

    init(
        builder: RuntimeClass.Builder, protocolMethods: [Selector: String], protocolName: String,
        backReferenceKey: AssociationKey, proxyType: String
    ) {
        self.proxyType = proxyType
        self.builder = builder
        self.protocolMethods = protocolMethods
        self.protocolName = protocolName
        self.backReferenceKey = backReferenceKey
    }

    /// Implements the protocol method `selector` with `body`, which returns a value. `Proxy` is
    /// the proxy type (or a superclass of it): `body` gets the Swift proxy as it.
    ///
    /// - Throws: ``RuntimeError``: `IC_ERR_METHOD_NOT_FOUND` (not an instance method of the
    ///   protocol), `IC_ERR_SIGNATURE_MISMATCH` (the closure's types are not the protocol's
    ///   signature), `IC_ERR_METHOD_EXISTS` (implemented twice).
    public func implement<Proxy: AnyObject, each A: RuntimeValue, R: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (Proxy, repeat each A) -> R
    ) throws(RuntimeError) {
        try check(selector, TypeEncoding.methodEncoding(result: R.runtimeEncoding, repeat (each A).self))
        let key = backReferenceKey
        try builder.method(selector) { (this: RuntimeObject, arguments: repeat each A) -> R in
            guard let proxy = DelegateProxyBackReference.proxy(of: this, key: key) as? Proxy else {
                return R._zero
            }
            return body(proxy, repeat each arguments)
        }
        implemented.insert(selector)
    }

    /// Implements the protocol method `selector` with `body`, which returns nothing.
    ///
    /// - Throws: as the value-returning `implement(_:_:)`.
    public func implement<Proxy: AnyObject, each A: RuntimeValue>(
        _ selector: Selector, _ body: @escaping @Sendable (Proxy, repeat each A) -> Void
    ) throws(RuntimeError) {
        try check(selector, TypeEncoding.methodEncoding(result: "v", repeat (each A).self))
        let key = backReferenceKey
        try builder.method(selector) { (this: RuntimeObject, arguments: repeat each A) in
            guard let proxy = DelegateProxyBackReference.proxy(of: this, key: key) as? Proxy else { return }
            body(proxy, repeat each arguments)
        }
        implemented.insert(selector)
    }

    private func check(_ selector: Selector, _ encoding: String) throws(RuntimeError) {
        guard let declared = protocolMethods[selector] else {
            throw RuntimeError(
                IC_ERR_METHOD_NOT_FOUND, "\(selector.name) is not an instance method of \(protocolName)")
        }
        guard let given = ic_signature_parse(encoding), let expected = ic_signature_parse(declared),
            TypeEncoding.compatible(swiftSignature: given, methodSignature: expected)
        else {
            throw RuntimeError(
                IC_ERR_SIGNATURE_MISMATCH,
                "\(proxyType) implements \(selector.name) as \(encoding); \(protocolName) declares \(declared)"
            )
        }
    }
}

/// The weak reference from a proxy's runtime object to its Swift proxy.
final class DelegateProxyBackReference: @unchecked Sendable {
    // @unchecked: `proxy` is a Swift weak reference, read and cleared atomically by the runtime.
    weak var proxy: AnyObject?

    private init(_ proxy: AnyObject) { self.proxy = proxy }

    static func attach(_ proxy: AnyObject, to object: RuntimeObject, key: AssociationKey) throws {
        try object.setAssociatedValue(DelegateProxyBackReference(proxy), forKey: key)
    }

    static func proxy(of object: RuntimeObject, key: AssociationKey) -> AnyObject? {
        (object.associatedValue(forKey: key) as? DelegateProxyBackReference)?.proxy
    }
}

extension RuntimeValue {
    /// The value whose C representation is all zero bits (what an unimplemented method returns).
    static var _zero: Self {
        let size = max(MemoryLayout<RuntimeRepresentation>.size, 1)
        return withUnsafeTemporaryAllocation(
            byteCount: size, alignment: MemoryLayout<RuntimeRepresentation>.alignment
        ) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            return Self(runtimeRepresentation: buffer.baseAddress!.load(as: RuntimeRepresentation.self))
        }
    }
}
