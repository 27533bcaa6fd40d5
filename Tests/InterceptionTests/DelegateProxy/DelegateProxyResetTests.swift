// Subscriptions, not observables, change a delegate proxy, and reset the parent's delegate
// (SPEC 17.1; issue 28 items 2 and 3): RxCocoa's DelegateProxyTest logs, entry by entry.
import CInterception
@testable import Interception
import RxCore
import Testing

private let sectionedDelegateProtocol = try! RuntimeProtocol.define(uniqueName("SectionedDelegate")) { p in
    try p.required("view:listenToMe:", (RuntimeObject?, Int).self)
    try p.optional("view:didGetUnimplemented:", (RuntimeObject?, Int).self)
    try p.optional("view:didLearnSomething:", (RuntimeObject?, Int).self)
}

/// The parent: a synthesized weak `delegate` (its setter is what the log observes).
private let sectionedView = try! RuntimeClass.define(uniqueName("SectionedView")) { c in
    try c.property("delegate", RuntimeObject?.self, .weak)
}

private final class SectionedViewDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>,
    DelegateProxyType,
    HasDelegate, @unchecked Sendable
{
    init(view: RuntimeObject) {
        super.init(
            parentObject: view, delegateProxy: SectionedViewDelegateProxy.self,
            delegateProtocol: sectionedDelegateProtocol)
    }
    static func registerKnownImplementations() throws {
        try register(sectionedView) { SectionedViewDelegateProxy(view: $0) }
    }
}

/// A delegate implementing the required method and `view:didLearnSomething:`, not `view:didGetUnimplemented:`.
private func makeMock(log: EventLog) throws -> RuntimeObject {
    try RuntimeClass.define(uniqueName("SectionedMock"), conformsTo: [sectionedDelegateProtocol]) { c in
        try c.method("view:listenToMe:") { (this: RuntimeObject, v: RuntimeObject?, n: Int) in
            log.append("listen")
        }
        try c.method("view:didLearnSomething:") { (this: RuntimeObject, v: RuntimeObject?, n: Int) in
            log.append("learn \(n)")
        }
    }.new()
}

/// The parent's delegate as each setter call leaves it (nil or the proxy, by name), and whether it
/// then answers `selector` (RxCocoa's `delegates` and `responds` arrays).
private final class DelegateLog: @unchecked Sendable {
    private let lock = Lock()
    private var storedDelegates: [String] = []
    private var storedResponds: [Bool] = []
    var delegates: [String] { lock.withLock { storedDelegates } }
    var responds: [Bool] { lock.withLock { storedResponds } }

    func watch(_ view: RuntimeObject, answering selector: Selector) -> Disposable {
        view.rx.observeWeakly(RuntimeObject.self, "delegate").skip(1).subscribe(onNext: { delegate in
            self.lock.withLock {
                self.storedDelegates.append(delegate.map { _ in "proxy" } ?? "nil")
                if let delegate { self.storedResponds.append(delegate.responds(to: selector)) }
            }
        })
    }
}

@Suite("DelegateProxy: subscriptions reset the parent's delegate")
struct DelegateProxyResetTests {
    init() throws { _ = try? SectionedViewDelegateProxy.registerKnownImplementations() }

    @Test(
        "an optional method the delegate lacks: each first subscription and last disposal resets the delegate"
    )
    func unimplementedOptionalMethodResets() throws {
        let log = EventLog()
        let view = sectionedView.new()
        let mock = try makeMock(log: log)
        try view.setValue(mock as RuntimeObject?, forKey: "delegate")
        let selector = Selector("view:didGetUnimplemented:")
        let delegates = DelegateLog()
        let watching = delegates.watch(view, answering: selector)
        defer { watching.dispose() }

        let proxy = SectionedViewDelegateProxy.proxy(for: view)
        let sentMessage = proxy.sentMessage(selector)
        let methodInvoked = proxy.methodInvoked(selector)
        #expect(delegates.delegates == ["proxy"])
        #expect(delegates.responds == [false])

        let d1 = sentMessage.subscribe(onNext: { log.append("sent \($0[1])") })
        #expect(delegates.delegates == ["proxy", "nil", "proxy"])
        #expect(delegates.responds == [false, true])

        let d2 = methodInvoked.subscribe(onNext: { log.append("invoked \($0[1])") })
        #expect(delegates.delegates == ["proxy", "nil", "proxy", "nil", "proxy"])
        #expect(delegates.responds == [false, true, true])

        try proxy.object.send(selector, view, 7)
        #expect(log.all == ["sent 7", "invoked 7"])  // seen, not forwarded (the mock lacks it)

        d1.dispose()
        #expect(delegates.delegates == ["proxy", "nil", "proxy", "nil", "proxy", "nil", "proxy"])
        #expect(delegates.responds == [false, true, true, true])

        d2.dispose()
        #expect(
            delegates.delegates == ["proxy", "nil", "proxy", "nil", "proxy", "nil", "proxy", "nil", "proxy"])
        #expect(delegates.responds == [false, true, true, true, false])
        withExtendedLifetime(mock) {}
    }

    @Test("a method the delegate implements: subscriptions reset too, and calls are seen around the delegate")
    func implementedMethodResets() throws {
        let log = EventLog()
        let view = sectionedView.new()
        let mock = try makeMock(log: log)
        try view.setValue(mock as RuntimeObject?, forKey: "delegate")
        let selector = Selector("view:didLearnSomething:")
        let delegates = DelegateLog()
        let watching = delegates.watch(view, answering: selector)
        defer { watching.dispose() }
        let proxy = SectionedViewDelegateProxy.proxy(for: view)
        let bag = DisposeBag()
        proxy.methodInvoked(selector).subscribe(onNext: { _ in log.append("invoked") }).disposed(by: bag)
        #expect(delegates.delegates == ["proxy", "nil", "proxy"])
        proxy.sentMessage(selector).subscribe(onNext: { _ in log.append("sent") }).disposed(by: bag)
        #expect(delegates.delegates == ["proxy", "nil", "proxy", "nil", "proxy"])
        #expect(delegates.responds == [true, true, true])
        try proxy.object.send(selector, view, 1)
        #expect(log.all == ["sent", "learn 1", "invoked"])
        withExtendedLifetime(mock) {}
    }

    @Test("creating sentMessage / methodInvoked without subscribing changes nothing on the proxy")
    func creatingChangesNothing() throws {
        let view = sectionedView.new()
        let proxy = SectionedViewDelegateProxy.proxy(for: view)
        let selector = Selector("view:didGetUnimplemented:")
        let proxyClass = proxy.object.actualClass
        #expect(!proxy.object.responds(to: selector))
        do {
            _ = proxy.sentMessage(selector)
            _ = proxy.methodInvoked(selector, as: (RuntimeObject?, Int).self)
        }
        #expect(!proxy.object.responds(to: selector))
        #expect(proxy.object.actualClass == proxyClass)
        #expect(ic_intercept_path_of(proxy.object.pointer, selector.pointer) == IC_PATH_NONE)
        // rx.sentMessage on a plain object, likewise.
        let plain = sectionedView.new()
        _ = plain.rx.sentMessage("setDelegate:")
        #expect(plain.actualClass == sectionedView)
    }

    @Test(
        "a new forward delegate resets the installed proxy; setting the delegate directly stops the streams until asked again"
    )
    func forwardDelegateAndDirectSet() throws {
        let log = EventLog()
        let view = sectionedView.new()
        let selector = Selector("view:didLearnSomething:")
        let delegates = DelegateLog()
        let watching = delegates.watch(view, answering: selector)
        defer { watching.dispose() }
        let proxy = SectionedViewDelegateProxy.proxy(for: view)
        #expect(delegates.delegates == ["proxy"])
        let mock = try makeMock(log: log)
        proxy.setForwardToDelegate(mock, retainDelegate: false)
        #expect(delegates.delegates == ["proxy", "nil", "proxy"])
        #expect(delegates.responds == [false, true])
        let seen = proxy.sentMessage(selector).subscribe(onNext: { _ in log.append("seen") })
        defer { seen.dispose() }
        // Set directly: the proxy is out of the loop until proxy(for:) (or rx.delegate) again.
        try view.setValue(mock as RuntimeObject?, forKey: "delegate")
        let delegate = try #require(try view.value(forKey: "delegate", as: RuntimeObject?.self))
        try delegate.send(selector, view, 1)
        #expect(log.all == ["learn 1"])
        #expect(try view.rx.delegate === proxy)
        try #require(try view.value(forKey: "delegate", as: RuntimeObject?.self)).send(selector, view, 2)
        #expect(log.all == ["learn 1", "seen", "learn 2"])
    }
}
