// Protocol methods a proxy type implements in Swift (SPEC 17.3, issue 28 item 9): the proxy as
// the first parameter, values returned, forwarding, observation.
@testable import Interception
import RxCore
import Testing

private let heightDelegateProtocol = try! RuntimeProtocol.define(uniqueName("HeightDelegate")) { p in
    try p.required("view:heightOf:", (RuntimeObject?, Int).self, returns: Double.self)
    try p.optional("view:didSelect:", (RuntimeObject?, Int).self)
    try p.optional("view:titleOf:", (RuntimeObject?, Int).self, returns: Int32.self)
}

private let heightView = try! RuntimeClass.define(uniqueName("HeightView")) { c in
    try c.property("delegate", RuntimeObject?.self, .weak)
}

/// Implements two methods in Swift: a height (its own answer unless the forward delegate has
/// one) and selection (fed to a subject, then forwarded).
private class HeightDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegate,
    @unchecked Sendable
{
    let selections = PublishSubject<Int>()

    init(view: RuntimeObject) {
        super.init(
            parentObject: view, delegateProxy: HeightDelegateProxy.self,
            delegateProtocol: heightDelegateProtocol)
    }

    init<Proxy: DelegateProxyType>(view: RuntimeObject, proxyType: Proxy.Type) {
        super.init(parentObject: view, delegateProxy: proxyType, delegateProtocol: heightDelegateProtocol)
    }

    static func registerKnownImplementations() throws {
        try register(heightView) { HeightDelegateProxy(view: $0) }
    }

    static func implementMethods(_ methods: DelegateProxyMethods) throws {
        try methods.implement("view:heightOf:") {
            (proxy: HeightDelegateProxy, view: RuntimeObject?, row: Int) -> Double in
            proxy.forward("view:heightOf:", view, row) ?? 1.5 * Double(row)
        }
        try methods.implement("view:didSelect:") {
            (proxy: HeightDelegateProxy, view: RuntimeObject?, row: Int) in
            proxy.selections.onNext(row)
            proxy.forward("view:didSelect:", view, row)
        }
    }
}

/// A subclass proxy type: inherits the Swift methods, has its own runtime class.
private final class TallDelegateProxy: HeightDelegateProxy, @unchecked Sendable {
    init(tall: RuntimeObject) { super.init(view: tall, proxyType: TallDelegateProxy.self) }
}

@Suite("DelegateProxy: protocol methods implemented in Swift")
struct DelegateProxyMethodTests {
    init() { _ = try? HeightDelegateProxy.registerKnownImplementations() }

    @Test("a Swift method returns its value with the proxy as its first parameter, or forwards")
    func returnsAndForwards() throws {
        let log = EventLog()
        let view = heightView.new()
        let proxy = HeightDelegateProxy.proxy(for: view)
        #expect(proxy.object.responds(to: "view:didSelect:"))  // implemented: always answered
        let own: Double = try proxy.object.send("view:heightOf:", view, 4)
        #expect(own == 6)
        let delegate = try RuntimeClass.define(uniqueName("HeightMock"), conformsTo: [heightDelegateProtocol])
        { c in
            try c.method("view:heightOf:") { (this: RuntimeObject, v: RuntimeObject?, row: Int) -> Double in
                100
            }
            try c.method("view:didSelect:") { (this: RuntimeObject, v: RuntimeObject?, row: Int) in
                log.append("delegate selected \(row)")
            }
        }.new()
        proxy.setForwardToDelegate(delegate, retainDelegate: false)
        let forwarded: Double = try proxy.object.send("view:heightOf:", view, 4)
        #expect(forwarded == 100)
        let bag = DisposeBag()
        proxy.selections.subscribe(onNext: { log.append("subject \($0)") }).disposed(by: bag)
        try proxy.object.send("view:didSelect:", view, 2)
        #expect(log.all == ["subject 2", "delegate selected 2"])
        withExtendedLifetime(delegate) {}
    }

    @Test("a Swift method is observed by sentMessage before and methodInvoked after its body")
    func observed() throws {
        let log = EventLog()
        let view = heightView.new()
        let proxy = HeightDelegateProxy.proxy(for: view)
        let bag = DisposeBag()
        proxy.selections.subscribe(onNext: { log.append("body \($0)") }).disposed(by: bag)
        proxy.sentMessage("view:didSelect:").subscribe(onNext: { log.append("sent \($0[1])") }).disposed(
            by: bag)
        proxy.methodInvoked("view:heightOf:", as: (RuntimeObject?, Int).self)
            .subscribe(onNext: { log.append("height asked \($0.1)") }).disposed(by: bag)
        try proxy.object.send("view:didSelect:", view, 3)
        let height: Double = try proxy.object.send("view:heightOf:", view, 2)
        #expect(height == 3)
        #expect(log.all == ["sent 3", "body 3", "height asked 2"])
    }

    @Test("a proxy subclass has the superclass's Swift methods on its own runtime class")
    func inheritedBySubclass() throws {
        let tall = TallDelegateProxy(tall: heightView.new())
        let height: Double = try tall.object.send("view:heightOf:", RuntimeObject?.none, 2)
        #expect(height == 3)
        #expect(
            tall.object.runtimeClass != HeightDelegateProxy.proxy(for: heightView.new()).object.runtimeClass)
    }

    @Test("a Swift method of the wrong signature, or outside the protocol, is refused with an error")
    func wrongSignatureIsRefused() throws {
        let builder = try RuntimeClass.define(uniqueName("HeightCheck")) { c in
            let methods = DelegateProxyMethods(
                builder: c,
                protocolMethods: Dictionary(
                    heightDelegateProtocol.allInstanceMethods.map { ($0.selector, $0.encoding) }
                ) { a, _ in a },
                protocolName: heightDelegateProtocol.name, backReferenceKey: AssociationKey(),
                proxyType: "Check")
            #expect(throws: RuntimeError.self) {
                try methods.implement("view:heightOf:") {
                    (proxy: HeightDelegateProxy, view: RuntimeObject?) -> Double in 0
                }
            }
            #expect(throws: RuntimeError.self) {
                try methods.implement("notInProtocol") { (proxy: HeightDelegateProxy) in }
            }
        }
        _ = builder
    }
}
