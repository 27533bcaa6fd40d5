// The scenarios of RxCocoa's DelegateProxyTest, on runtime objects, plus struct forwarding,
// methods outside the protocol and a delegate released while calls run on another thread.
import CInterception
import Foundation
import Glibc
import Synchronization
@testable import Interception
import Testing

/// A downloader with a delegate implementing `implementing`, the proxy installed.
private func installedProxy(
    _ parentClass: RuntimeClass = downloaderClass, implementing: Set<String>, log: EventLog
) throws -> (parent: RuntimeObject, delegate: RuntimeObject, proxy: DownloaderDelegateProxy) {
    let parent = parentClass.new()
    let delegate = try defineDelegate(implementing: implementing, log: log).new()
    try parent.send("setDelegate:", delegate)
    let proxy = DownloaderDelegateProxy.proxy(for: parent)
    return (parent, delegate, proxy)
}

/// Calls of the method the responds test adds to a delegate class at run time.
private let addedProgressCalls = Atomic<Int>(0)

private func currentDelegate(_ parent: RuntimeObject) throws -> RuntimeObject? {
    try parent.send("delegate")
}

@Suite("DelegateProxy: forwarding and observing delegate calls")
struct DelegateProxyTests {
    @Test("the proxy becomes the delegate and the previous delegate its forward delegate")
    func proxyReplacesTheDelegate() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: allDelegateMethods, log: log)
        #expect(try currentDelegate(parent) == proxy.object)
        #expect(proxy.forwardToDelegate() == delegate)
        #expect(proxy.object.conforms(to: downloaderDelegateProtocol))
        #expect(DownloaderDelegateProxy.proxy(for: parent) === proxy)  // one per (parent, type)
        #expect(try parent.rx.delegate === proxy)
        #expect(proxy.parentObject == parent)
    }

    @Test("unobserved methods are forwarded; a value-returning method's result comes back")
    func unobservedMethodsAreForwarded() throws {
        let log = EventLog()
        let (parent, delegate, _) = try installedProxy(implementing: allDelegateMethods, log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let retry: Bool = try parent.send("download:", Int32(3))
        #expect(retry)
        #expect(
            log.all == [
                "delegate start", "delegate progress 0.3333333333333333",
                "delegate progress 0.6666666666666666",
                "delegate progress 1.0", "delegate shouldRetry 3", "delegate finish false",
            ])
    }

    @Test("observed methods are forwarded: sentMessage before the delegate, methodInvoked after")
    func observedMethodsAreForwardedAndSeen() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: allDelegateMethods, log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let bag = DisposeBag()
        proxy.sentMessage("downloader:didFinish:").subscribe(onNext: { log.append("sent \($0[1])") })
            .disposed(by: bag)
        proxy.methodInvoked("downloader:didFinish:").subscribe(onNext: { log.append("invoked \($0[1])") })
            .disposed(by: bag)
        proxy.methodInvoked("downloader:shouldRetry:", as: (RuntimeObject?, Int32).self)
            .subscribe(onNext: { log.append("retry asked \($0.1)") }).disposed(by: bag)
        let _: Bool = try parent.send("download:", Int32(1))
        #expect(
            log.all == [
                "delegate start", "delegate progress 1.0", "delegate shouldRetry 1", "retry asked 1",
                "sent true",
                "delegate finish true", "invoked true",
            ])
    }

    @Test("disposing an observer keeps forwarding")
    func disposingKeepsForwarding() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: allDelegateMethods, log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let subscription = proxy.methodInvoked("downloader:didFinish:").subscribe(onNext: { _ in
            log.append("seen")
        })
        let _: Bool = try parent.send("download:", Int32(0))
        subscription.dispose()
        let _: Bool = try parent.send("download:", Int32(0))
        #expect(
            log.all == [
                "delegate start", "delegate shouldRetry 0", "delegate finish true", "seen", "delegate start",
                "delegate shouldRetry 0", "delegate finish true",
            ])
        #expect(
            ic_intercept_path_of(proxy.object.pointer, Selector("downloader:didFinish:").pointer)
                == IC_PATH_NONE)
    }

    @Test("an optional method the delegate lacks: not answered, until observed; then seen, not forwarded")
    func unimplementedOptionalMethodsCanBeObserved() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: [], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        #expect(proxy.object.responds(to: "downloaderDidStart:"))  // required
        #expect(!proxy.object.responds(to: "downloader:progress:"))
        let subscription = proxy.sentMessage("downloader:progress:", as: (RuntimeObject?, Double).self)
            .subscribe(onNext: { log.append("progress \($0.1)") })
        #expect(proxy.object.responds(to: "downloader:progress:"))
        let _: Bool = try parent.send("download:", Int32(2))
        #expect(log.all == ["delegate start", "progress 0.5", "progress 1.0"])
        subscription.dispose()
        #expect(!proxy.object.responds(to: "downloader:progress:"))
    }

    @Test("a value-returning method nobody implements returns zero, and can be observed")
    func unimplementedValueMethodReturnsZero() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: [], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let bag = DisposeBag()
        proxy.methodInvoked("downloader:shouldRetry:").subscribe(onNext: { log.append("asked \($0[1])") })
            .disposed(by: bag)
        let retry: Bool = try proxy.object.send("downloader:shouldRetry:", proxy.object, Int32(9))
        #expect(!retry)
        #expect(log.all == ["asked 9"])
    }

    @Test("struct arguments and returns are forwarded, observed or not")
    func structsAreForwarded() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: allDelegateMethods, log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let rect = DownloadRect(x: 1, y: 2, width: 3, height: 4)
        let plain: DownloadRect = try proxy.object.send("frameFor:", rect)
        #expect(plain == DownloadRect(x: 1, y: 2, width: 6, height: 4))
        let bag = DisposeBag()
        proxy.sentMessage("frameFor:", as: DownloadRect.self).subscribe(onNext: {
            log.append("frame \($0.width)")
        })
        .disposed(by: bag)
        let observed: DownloadRect = try proxy.object.send("frameFor:", rect)
        #expect(observed == plain)
        #expect(log.all == ["frame 3.0"])
    }

    @Test("a method outside the protocol goes to the forward delegate through forwardInvocation:")
    func otherMethodsAreForwardedByInvocation() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: ["extra"], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        #expect(proxy.object.responds(to: "extra"))
        let r: Int32 = try proxy.object.send("extra")
        #expect(r == 7)
        proxy.sentMessage("extra").subscribe(onError: { _ in log.append("refused") }).dispose()
        #expect(log.all == ["refused"])  // not a protocol method: not observable through the proxy
    }

    @Test("the forward delegate is not retained unless asked; disposing restores the previous one")
    func retainedOrNotAsAsked() throws {
        let log = EventLog()
        let (parent, original, proxy) = try installedProxy(implementing: [], log: log)
        let delegateClass = try defineDelegate(implementing: [], log: log)
        do {
            let weakOne = delegateClass.new()
            let installation = try DownloaderDelegateProxy.installForwardDelegate(
                weakOne, retainDelegate: false, onProxyForObject: parent, replacingExisting: true)
            #expect(proxy.forwardToDelegate() == weakOne)
            _ = installation
        }
        #expect(proxy.forwardToDelegate() == nil)  // released with its last handle
        #expect(delegateClass.liveInstanceCount == 0)

        proxy.setForwardToDelegate(original, retainDelegate: false)
        var installation: Disposable?
        do {
            let strongOne = delegateClass.new()
            installation = try DownloaderDelegateProxy.installForwardDelegate(
                strongOne, retainDelegate: true, onProxyForObject: parent, replacingExisting: true)
        }
        #expect(delegateClass.liveInstanceCount == 1)  // kept alive by the proxy
        #expect(proxy.forwardToDelegate() != original)
        installation?.dispose()
        #expect(proxy.forwardToDelegate() == original)  // restored
        #expect(delegateClass.liveInstanceCount == 0)
    }

    @Test("streams complete when the parent is deallocated, and the proxy goes with it")
    func completesOnParentDealloc() throws {
        let log = EventLog()
        let delegate = try defineDelegate(implementing: allDelegateMethods, log: log).new()
        let bag = DisposeBag()
        let proxyObject = WeakRuntimeObject(nil)
        do {
            let parent = downloaderClass.new()
            try parent.send("setDelegate:", delegate)
            let proxy = DownloaderDelegateProxy.proxy(for: parent)
            proxyObject.object = proxy.object
            proxy.methodInvoked("downloader:didFinish:").subscribe { log.append("finish stream \($0)") }
                .disposed(by: bag)
            proxy.sentMessage("downloader:progress:").subscribe { log.append("progress stream \($0)") }
                .disposed(by: bag)
        }
        #expect(log.all.sorted() == ["finish stream completed", "progress stream completed"])
        #expect(proxyObject.object == nil)
    }

    @Test("registration walks the class hierarchy: a subclass uses its own proxy type or its superclass's")
    func proxyHierarchy() throws {
        let log = EventLog()
        let fast = try installedProxy(fastDownloaderClass, implementing: allDelegateMethods, log: log)
        #expect(fast.proxy is FastDownloaderDelegateProxy)
        #expect(try fast.proxy.object.runtimeClass != downloaderClass.new().rx.delegate.object.runtimeClass)
        let slow = try installedProxy(slowDownloaderClass, implementing: allDelegateMethods, log: log)
        #expect(!(slow.proxy is FastDownloaderDelegateProxy))
        #expect(try slow.parent.rx.delegate === slow.proxy)
        let _: Bool = try fast.parent.send("download:", Int32(0))
        #expect(log.all == ["delegate start", "delegate shouldRetry 0", "delegate finish true"])
    }

    @Test("setting the delegate directly while a proxy is installed bypasses it until proxy(for:) again")
    func settingTheDelegateDirectly() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: [], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let bag = DisposeBag()
        proxy.sentMessage("downloaderDidStart:").subscribe(onNext: { _ in log.append("observed start") })
            .disposed(by: bag)
        let other = try defineDelegate(implementing: [], log: log).new()
        try parent.send("setDelegate:", other)
        let _: Bool = try parent.send("download:", Int32(0))
        #expect(log.all == ["delegate start"])  // straight to `other`
        #expect(DownloaderDelegateProxy.proxy(for: parent) === proxy)
        #expect(proxy.forwardToDelegate() == other)
        let _: Bool = try parent.send("download:", Int32(0))
        #expect(log.all == ["delegate start", "observed start", "delegate start"])
    }

    @Test(
        "whether the delegate responds is asked per class: a method added later is forwarded, a class without it is not"
    )
    func respondsIsAskedPerClass() throws {
        let log = EventLog()
        let (parent, delegate, proxy) = try installedProxy(implementing: [], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let progress = Selector("downloader:progress:")
        func call() throws { try proxy.object.send(progress, proxy.object, 0.5) }
        try call()  // not implemented: not forwarded
        #expect(addedProgressCalls.load(ordering: .relaxed) == 0)
        let added: @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, Double) -> Void = {
            _, _, _, _ in
            addedProgressCalls.add(1, ordering: .relaxed)
        }
        try #require(
            ic_class_add_method(
                delegate.actualClass.pointer, progress.pointer, unsafeBitCast(added, to: ic_imp.self), "v@:@d"
            )
                == IC_OK)
        try call()
        try call()
        #expect(addedProgressCalls.load(ordering: .relaxed) == 2)
        // Another delegate, of a class without the method: not forwarded, whatever was cached.
        let other = try defineDelegate(implementing: [], log: log).new()
        proxy.setForwardToDelegate(other, retainDelegate: false)
        try call()
        #expect(addedProgressCalls.load(ordering: .relaxed) == 2)
        #expect(log.all == [])
    }

    @Test("a delegate released while calls run on another thread: calls finish or skip it, never crash")
    func delegateReleasedDuringCalls() throws {
        let log = EventLog()
        let delegateClass = try defineDelegate(implementing: [], log: EventLog())
        let (parent, delegate, proxy) = try installedProxy(implementing: [], log: log)
        defer { withExtendedLifetime((parent, delegate)) {} }
        let state = Locked<(stop: Bool, done: Bool, calls: Int)>((false, false, 0))
        let caller = Thread {
            while !state.withLock({ $0.stop }) {
                let _: Bool? = try? parent.send("download:", Int32(1))
                state.withLock { $0.calls += 1 }
            }
            state.withLock { $0.done = true }
        }
        caller.start()
        for i in 0..<200 {
            let delegate = delegateClass.new()
            proxy.setForwardToDelegate(delegate, retainDelegate: i % 2 == 0)
            proxy.setForwardToDelegate(nil, retainDelegate: false)
        }
        while state.withLock({ $0.calls }) < 10 { sched_yield() }
        state.withLock { $0.stop = true }
        while !state.withLock({ $0.done }) { sched_yield() }
        #expect(delegateClass.liveInstanceCount == 0)
    }
}
