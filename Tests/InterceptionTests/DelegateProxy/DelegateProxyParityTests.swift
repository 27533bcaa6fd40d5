// RxCocoa's DelegateProxyTest.performDelegateTest and test_setDelegateUsesWeakReference, on the
// downloader, plus what proxy(for:) does to the forward delegate when asked again.
@testable import Interception
import RxCore
import Testing

/// A proxy type of its own runtime class, for the extension tests.
private final class ExtendedDownloaderProxy: DownloaderDelegateProxy, @unchecked Sendable {
    override init(downloader: RuntimeObject) {
        super.init(downloader: downloader, proxyType: ExtendedDownloaderProxy.self)
    }
}

@Suite("DelegateProxy: RxCocoa parity")
struct DelegateProxyParityTests {
    init() throws { _ = try? DownloaderDelegateProxy.registerKnownImplementations() }

    @Test(
        "performDelegateTest: observed without a delegate, a forward delegate installed then disposed, completion at the parent's death"
    )
    func performDelegateTest() throws {
        let calls = EventLog()
        let streams = EventLog()
        let bag = DisposeBag()
        let delegateClass = try defineDelegate(implementing: ["downloader:didFinish:"], log: calls)
        do {
            let parent = downloaderClass.new()
            let proxy = DownloaderDelegateProxy.proxy(for: parent)
            #expect(proxy.forwardToDelegate() == nil)
            proxy.sentMessage("downloader:didFinish:").map { $0[1] as! Bool }
                .subscribe { streams.append("sent \($0)") }.disposed(by: bag)
            proxy.methodInvoked("downloader:didFinish:").map { $0[1] as! Bool }
                .subscribe { streams.append("invoked \($0)") }.disposed(by: bag)
            parent.rx.deallocated.subscribe(onNext: { streams.append("parent deallocated") }).disposed(
                by: bag)
            let _: Bool = try parent.send("download:", Int32(0))
            #expect(streams.all == ["sent next(true)", "invoked next(true)"])
            #expect(calls.all.isEmpty)
            do {
                let mine = delegateClass.new()
                let installation = try DownloaderDelegateProxy.installForwardDelegate(
                    mine, retainDelegate: false, onProxyForObject: parent)
                #expect(proxy.forwardToDelegate() == mine)
                let _: Bool = try parent.send("download:", Int32(0))
                #expect(calls.all == ["delegate start", "delegate finish true"])
                installation.dispose()
                #expect(proxy.forwardToDelegate() == nil)
                let _: Bool = try parent.send("download:", Int32(0))
                #expect(calls.all == ["delegate start", "delegate finish true"])
            }
            #expect(streams.all.count == 6)
        }
        #expect(
            Array(streams.all.dropFirst(6)).sorted() == [
                "invoked completed", "parent deallocated", "sent completed",
            ])
        #expect(delegateClass.liveInstanceCount == 0)
    }

    @Test("a forward delegate installed without retaining it is deallocated with its last handle")
    func installedDelegateIsWeak() throws {
        let log = EventLog()
        let parent = downloaderClass.new()
        let bag = DisposeBag()
        var installation: Disposable?
        do {
            let delegate = try defineDelegate(implementing: [], log: log).new()
            installation = try DownloaderDelegateProxy.installForwardDelegate(
                delegate, retainDelegate: false, onProxyForObject: parent)
            delegate.rx.deallocated.subscribe(onNext: { log.append("delegate deallocated") }).disposed(
                by: bag)
            #expect(log.all.isEmpty)
        }
        #expect(log.all == ["delegate deallocated"])
        #expect(DownloaderDelegateProxy.proxy(for: parent).forwardToDelegate() == nil)
        installation?.dispose()
    }

    @Test("proxy(for:) asked again keeps the forward delegate: the proxy never forwards to itself")
    func proxyAskedAgainKeepsTheForwardDelegate() throws {
        let log = EventLog()
        let parent = downloaderClass.new()
        let delegate = try defineDelegate(implementing: allDelegateMethods, log: log).new()
        try parent.send("setDelegate:", delegate)
        let proxy = DownloaderDelegateProxy.proxy(for: parent)
        #expect(DownloaderDelegateProxy.proxy(for: parent) === proxy)
        #expect(try parent.rx.delegate === proxy)
        #expect(proxy.forwardToDelegate() == delegate)
        let _: Bool = try parent.send("download:", Int32(0))
        #expect(log.all == ["delegate start", "delegate shouldRetry 0", "delegate finish true"])
    }

    @Test(
        "the parent's delegate set to nil directly: proxy(for:) installs the proxy again with no forward delegate"
    )
    func delegateClearedDirectly() throws {
        let log = EventLog()
        let parent = downloaderClass.new()
        let delegate = try defineDelegate(implementing: allDelegateMethods, log: log).new()
        try parent.send("setDelegate:", delegate)
        let proxy = DownloaderDelegateProxy.proxy(for: parent)
        try parent.send("setDelegate:", nil as RuntimeObject?)
        #expect(DownloaderDelegateProxy.proxy(for: parent) === proxy)
        #expect(proxy.forwardToDelegate() == nil)
        let current: RuntimeObject? = try parent.send("delegate")
        #expect(current == proxy.object)
        let _: Bool = try parent.send("download:", Int32(0))
        #expect(log.all.isEmpty)
        withExtendedLifetime(delegate) {}
    }

    @Test("a retained forward delegate is released when replaced and when the parent dies")
    func retainedForwardDelegateIsReleased() throws {
        let log = EventLog()
        let delegateClass = try defineDelegate(implementing: [], log: log)
        do {
            let parent = downloaderClass.new()
            let proxy = DownloaderDelegateProxy.proxy(for: parent)
            proxy.setForwardToDelegate(delegateClass.new(), retainDelegate: true)
            #expect(delegateClass.liveInstanceCount == 1)
            proxy.setForwardToDelegate(delegateClass.new(), retainDelegate: true)
            #expect(delegateClass.liveInstanceCount == 1)
        }
        #expect(delegateClass.liveInstanceCount == 0)
    }

    @Test("respondsToSelector: follows the forward delegate as it changes, and observation on top of it")
    func respondsFollowsTheForwardDelegate() throws {
        let log = EventLog()
        let parent = downloaderClass.new()
        let proxy = DownloaderDelegateProxy.proxy(for: parent)
        let progress = Selector("downloader:progress:")
        #expect(!proxy.object.responds(to: progress))
        let full = try defineDelegate(implementing: allDelegateMethods, log: log).new()
        let bare = try defineDelegate(implementing: [], log: log).new()
        proxy.setForwardToDelegate(full, retainDelegate: false)
        #expect(proxy.object.responds(to: progress))
        #expect(proxy.object.responds(to: "extra"))
        proxy.setForwardToDelegate(bare, retainDelegate: false)
        #expect(!proxy.object.responds(to: progress))
        #expect(!proxy.object.responds(to: "extra"))
        let seen = proxy.methodInvoked(progress).subscribe()
        #expect(proxy.object.responds(to: progress))
        proxy.setForwardToDelegate(full, retainDelegate: false)
        seen.dispose()
        #expect(proxy.object.responds(to: progress))
        proxy.setForwardToDelegate(nil, retainDelegate: false)
        #expect(!proxy.object.responds(to: progress))
        withExtendedLifetime((full, bare)) {}
    }

    @Test(
        "a factory registered later for a subclass is used from then on by it and its subclasses (test_delegateProxyTypeExtend_a/_b)",
        arguments: [1, 2])
    func extendingLater(extendedLevel: Int) throws {
        let base = try defineDownloader("ExtBase")
        let level1 = try defineDownloader("ExtLevel1", superclass: base)
        let level2 = try defineDownloader("ExtLevel2", superclass: level1)
        try DownloaderDelegateProxy.register(base) { DownloaderDelegateProxy(downloader: $0) }
        #expect(!(DownloaderDelegateProxy.createProxy(for: level1.new()) is ExtendedDownloaderProxy))
        #expect(!(DownloaderDelegateProxy.createProxy(for: level2.new()) is ExtendedDownloaderProxy))
        try DownloaderDelegateProxy.register(extendedLevel == 1 ? level1 : level2) {
            ExtendedDownloaderProxy(downloader: $0)
        }
        #expect(!(DownloaderDelegateProxy.createProxy(for: base.new()) is ExtendedDownloaderProxy))
        #expect(
            (DownloaderDelegateProxy.createProxy(for: level1.new()) is ExtendedDownloaderProxy)
                == (extendedLevel == 1))
        #expect(DownloaderDelegateProxy.createProxy(for: level2.new()) is ExtendedDownloaderProxy)
        let parent = level2.new()
        #expect(try parent.rx.delegate is ExtendedDownloaderProxy)
    }

    @Test(
        "an observed value-returning optional method nobody implements is answered while observed (SPEC 11.2; RxCocoa answers void methods only)"
    )
    func observedValueMethodResponds() throws {
        let log = EventLog()
        let parent = downloaderClass.new()
        let delegate = try defineDelegate(implementing: [], log: log).new()
        try parent.send("setDelegate:", delegate)
        let proxy = DownloaderDelegateProxy.proxy(for: parent)
        let retry = Selector("downloader:shouldRetry:")
        #expect(!proxy.object.responds(to: retry))
        let seen = proxy.methodInvoked(retry).subscribe(onNext: { log.append("asked \($0[1])") })
        #expect(proxy.object.responds(to: retry))
        // The parent now asks, and gets zero (false) where it would have used its default.
        let retried: Bool = try parent.send("download:", Int32(5))
        #expect(!retried)
        #expect(log.all == ["delegate start", "asked 5"])
        seen.dispose()
        #expect(!proxy.object.responds(to: retry))
    }

    @Test(
        "an installation disposed after the parent died does nothing, and the retained delegate went with the proxy"
    )
    func installationDisposedAfterTheParentDied() throws {
        let log = EventLog()
        let delegateClass = try defineDelegate(implementing: [], log: log)
        var installation: Disposable?
        let proxyObject = WeakRuntimeObject(nil)
        do {
            let parent = downloaderClass.new()
            installation = try DownloaderDelegateProxy.installForwardDelegate(
                delegateClass.new(), retainDelegate: true, onProxyForObject: parent)
            proxyObject.object = DownloaderDelegateProxy.proxy(for: parent).object
            #expect(delegateClass.liveInstanceCount == 1)
        }
        #expect(proxyObject.object == nil)
        #expect(delegateClass.liveInstanceCount == 0)
        installation?.dispose()
        installation?.dispose()
        #expect(log.all.isEmpty)
    }
}
