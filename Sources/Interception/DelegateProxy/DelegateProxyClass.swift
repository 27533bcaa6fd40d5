// The runtime class behind a delegate proxy type: forwarding stubs for every method of the
// delegate protocol, and respondsToSelector: / methodSignatureForSelector: / forwardInvocation:.
import CInterception

/// The runtime class of one ``DelegateProxyType``, made once per proxy type.
///
/// Instances are the objects installed as delegates. Their storage holds one zeroing weak slot:
/// the forward delegate (a retained forward delegate is also held by the Swift proxy, so the slot
/// is the only thing calls read). The class:
/// - adopts the delegate protocol and implements each of its instance methods (its own and those
///   of the protocols it incorporates) with a *forwarding stub*, a closure IMP that loads the
///   forward delegate (a retained load, so a delegate released on another thread mid-call stays
///   alive until the call returns) and, if it responds to the selector, calls it: straight from
///   the saved argument registers when every value travels in one, else by invoking the call's
///   frame on it (arguments, structs and the return value go through untouched; see
///   ``makeForwardingStub(_:slotOffset:)``). Because the
///   stubs are real methods, observing a delegate call is ordinary interception of the proxy
///   object: `sentMessage` sees it before the forward delegate runs, `methodInvoked` after.
/// - implements the protocol methods its proxy type implements in Swift
///   (``DelegateProxyMethods``) with those, instead of stubs; they reach the Swift proxy through
///   a weak back reference associated with the object (``DelegateProxyBackReference``).
/// - answers `respondsToSelector:` YES for required protocol methods, for the methods implemented
///   in Swift, for what the forward
///   delegate responds to, and for optional protocol methods that are observed on the proxy
///   (intercepted: someone requested `sentMessage`/`methodInvoked` for them); otherwise as the
///   root does.
/// - answers `methodSignatureForSelector:` and `forwardInvocation:` for selectors outside the
///   protocol by asking and invoking the forward delegate.
final class DelegateProxyClass: Sendable {
    let runtimeClass: RuntimeClass
    let delegateProtocol: RuntimeProtocol
    /// Instance methods of the protocol (incorporated ones included).
    let protocolSelectors: Set<Selector>
    /// Byte offset of the weak forward-delegate slot in an instance.
    let slotOffset: Int
    /// Where an instance keeps its weak reference to its Swift proxy.
    let backReferenceKey: AssociationKey

    private init(
        runtimeClass: RuntimeClass, delegateProtocol: RuntimeProtocol, protocolSelectors: Set<Selector>,
        slotOffset: Int, backReferenceKey: AssociationKey
    ) {
        self.runtimeClass = runtimeClass
        self.delegateProtocol = delegateProtocol
        self.protocolSelectors = protocolSelectors
        self.slotOffset = slotOffset
        self.backReferenceKey = backReferenceKey
    }

    private static let classes = Locked<[ObjectIdentifier: DelegateProxyClass]>([:])

    /// The class of `proxyType`, made on first use; `implement` adds the methods the proxy type
    /// implements in Swift (then only).
    static func of<Proxy: DelegateProxyType>(
        _ proxyType: Proxy.Type, delegateProtocol: RuntimeProtocol,
        implement: (DelegateProxyMethods) throws -> Void
    ) throws -> DelegateProxyClass {
        try classes.withLock { classes in
            if let made = classes[ObjectIdentifier(proxyType)] {
                precondition(
                    made.delegateProtocol == delegateProtocol,
                    "\(proxyType) was made for \(made.delegateProtocol), not \(delegateProtocol)")
                return made
            }
            let made = try make(
                name: "DelegateProxy<\(String(reflecting: proxyType))>",
                proxyType: String(reflecting: proxyType),
                delegateProtocol, implement: implement)
            classes[ObjectIdentifier(proxyType)] = made
            return made
        }
    }

    /// The forward delegate's slot in `object`.
    static func slot(_ object: OpaquePointer, offset: Int) -> UnsafeMutablePointer<OpaquePointer?> {
        UnsafeMutableRawPointer(object).advanced(by: offset).assumingMemoryBound(to: OpaquePointer?.self)
    }

    private static func make(
        name: String, proxyType: String, _ delegateProtocol: RuntimeProtocol,
        implement: (DelegateProxyMethods) throws -> Void
    ) throws -> DelegateProxyClass {
        let methods = delegateProtocol.allInstanceMethods
        let all = Set(methods.map(\.selector))
        let backReferenceKey = AssociationKey()
        var offset = 0
        var inSwift: Set<Selector> = []
        let cls = try RuntimeClass.define(
            name, storageSize: MemoryLayout<OpaquePointer?>.stride, conformsTo: [delegateProtocol]
        ) { c in
            offset = ic_class_storage_offset(c.cls)
            let slotOffset = offset
            let swiftMethods = DelegateProxyMethods(
                builder: c,
                protocolMethods: Dictionary(methods.map { ($0.selector, $0.encoding) }) { a, _ in a },
                protocolName: delegateProtocol.name, backReferenceKey: backReferenceKey,
                proxyType: proxyType)
            try implement(swiftMethods)
            inSwift = swiftMethods.implemented
            // Answered YES whatever the forward delegate does: required, or implemented here.
            let required = Set(methods.filter(\.isRequired).map(\.selector)).union(inSwift)
            for method in methods where !inSwift.contains(method.selector) {
                guard let signature = ic_signature_parse(method.encoding) else {
                    throw RuntimeError.lastCError()
                }
                // The stub reads its receiver and selector as arguments 0 and 1.
                guard ic_signature_is_method(signature) else {
                    throw RuntimeError(
                        IC_ERR_SIGNATURE_MISMATCH,
                        "\(method.selector.name): \"\(method.encoding)\" is not a method encoding")
                }
                let imp = try makeForwardingStub(signature, slotOffset: slotOffset)
                try c.method(method.selector, encoding: method.encoding, imp: imp)
            }
            try c.method("respondsToSelector:") { (this: RuntimeObject, selector: Selector?) -> Bool in
                guard let selector else { return false }
                if required.contains(selector) { return true }
                if let delegate = ic_weak_load_retained(slot(this.pointer, offset: slotOffset)) {
                    defer { ic_release(delegate) }
                    if responds(delegate, selector.pointer) { return true }
                }
                if all.contains(selector) {
                    return ic_intercept_path_of(this.pointer, selector.pointer) != IC_PATH_NONE
                }
                return ic_class_responds_to(ic_object_get_class(this.pointer), selector.pointer)
            }
            try c.method("methodSignatureForSelector:") {
                (this: RuntimeObject, selector: Selector?) -> UnsafeRawPointer? in
                guard let selector else { return nil }
                if let method = ic_class_get_method(ic_object_get_class(this.pointer), selector.pointer) {
                    return ic_method_signature(method).map { UnsafeRawPointer($0) }
                }
                guard let delegate = ic_weak_load_retained(slot(this.pointer, offset: slotOffset)) else {
                    return nil
                }
                defer { ic_release(delegate) }
                let sel = KnownSelectors.shared.methodSignatureForSelector.pointer
                let answer = unsafeBitCast(ic_msg_lookup(delegate, sel), to: SignatureIMP.self)(
                    delegate, sel, selector.pointer)
                return answer.map { UnsafeRawPointer($0) }
            }
            try c.method("forwardInvocation:") {
                (this: RuntimeObject, invocation: UnsafeMutableRawPointer?) in
                guard let invocation else { return }
                let inv = OpaquePointer(invocation)
                let selector = ic_invocation_selector(inv)
                if let delegate = ic_weak_load_retained(slot(this.pointer, offset: slotOffset)) {
                    defer { ic_release(delegate) }
                    if responds(delegate, selector) {
                        invoke(inv, on: delegate, restoring: this.pointer)
                        return
                    }
                }
                let unrecognized = Selector("doesNotRecognizeSelector:").pointer
                unsafeBitCast(ic_msg_lookup(this.pointer, unrecognized), to: VoidSelectorIMP.self)(
                    this.pointer, unrecognized, selector)
            }
            try c.dealloc { this in
                ic_weak_destroy(slot(this.pointer, offset: slotOffset))
            }
        }
        return DelegateProxyClass(
            runtimeClass: cls, delegateProtocol: delegateProtocol, protocolSelectors: all, slotOffset: offset,
            backReferenceKey: backReferenceKey)
    }
}

typealias VoidSelectorIMP = @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?) -> Void

/// Whether `object` answers `selector` (its `respondsToSelector:`).
private func responds(_ object: OpaquePointer, _ selector: OpaquePointer?) -> Bool {
    let sel = KnownSelectors.shared.respondsToSelector.pointer
    return unsafeBitCast(ic_msg_lookup(object, sel), to: BoolSelectorIMP.self)(object, sel, selector)
}

/// Runs the call in `invocation` on `target`, then makes `original` its target again (the
/// invocation is the stub's frame: its return buffer is what the stub returns).
///
/// The target is argument 0 of the method signature every stub and forwarded invocation has,
/// written through its storage pointer (the C setters were two calls each per forward, perf).
func invoke(_ invocation: OpaquePointer, on target: OpaquePointer, restoring original: OpaquePointer) {
    let receiver = ic_invocation_argument_pointer_inline(invocation, 0).unsafelyUnwrapped
    receiver.storeBytes(of: target, as: OpaquePointer.self)
    ic_invocation_invoke(invocation)
    receiver.storeBytes(of: original, as: OpaquePointer.self)
}
