// Subscriptions and disposals of proxy streams and of property observations racing the parent's
// (or the observed object's) deallocation on another thread: no crash, no leak (run under TSan).
import Foundation
@testable import Interception
import RxCore
import Testing

private let raceProtocol = try! RuntimeProtocol.define(uniqueName("RaceDelegate")) { p in
    try p.optional("racer:tick:", (RuntimeObject?, Int).self)
}

private final class RaceDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegate, @unchecked Sendable
{
    static let parentClass = try! RuntimeClass.define(uniqueName("Racer")) { c in
        try c.property("delegate", RuntimeObject?.self, .weak)
        try c.property("next", RuntimeObject?.self, .weak)
        try c.property("count", Int.self)
    }
    init(racer: RuntimeObject) {
        super.init(parentObject: racer, delegateProxy: RaceDelegateProxy.self, delegateProtocol: raceProtocol)
    }
    static func registerKnownImplementations() throws {
        try register(parentClass) { RaceDelegateProxy(racer: $0) }
    }
}

/// Runs `work` on a new thread and waits for it.
private func onThread(_ work: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        work()
        done.signal()
    }
    thread.start()
    return { done.wait() }
}

@Suite("DelegateProxy and observation: subscriptions racing deallocation")
struct DelegateProxyConcurrencyTests {
    init() { _ = try? RaceDelegateProxy.registerKnownImplementations() }

    @Test("proxy streams subscribed and disposed while the parent is released on another thread")
    func proxyStreamsRaceParentDeath() throws {
        for _ in 0..<100 {
            let proxy: RaceDelegateProxy
            let racerClass = RaceDelegateProxy.parentClass
            do {
                // Only the box holds the parent: the releasing thread empties it.
                let box = Locked<RuntimeObject?>(racerClass.new())
                proxy = RaceDelegateProxy.proxy(for: box.withLock { $0! })
                let release = onThread { box.withLock { $0 = nil } }
                let wait = onThread { [proxy] in
                    for _ in 0..<20 {
                        let a = proxy.sentMessage("racer:tick:").subscribe()
                        let b = proxy.methodInvoked("racer:tick:", as: (RuntimeObject?, Int).self).subscribe()
                        a.dispose()
                        b.dispose()
                    }
                }
                release()
                wait()
            }
            #expect(proxy.parentObject == nil)
        }
        #expect(RaceDelegateProxy.parentClass.liveInstanceCount == 0)
    }

    @Test("observeWeakly along a weak path subscribed and disposed while its objects die on another thread")
    func observationRacesDeath() throws {
        let cls = try RuntimeClass.define(uniqueName("RaceNode")) { c in
            try c.property("next", RuntimeObject?.self, .weak)
            try c.property("count", Int.self)
        }
        for _ in 0..<100 {
            var root: RuntimeObject? = cls.new()
            var child: RuntimeObject? = cls.new()
            try root!.setValue(child, forKey: "next")
            let observed = WeakRuntimeObject(root)
            let wait = onThread {
                for _ in 0..<20 {
                    guard let root = observed.object else { return }
                    let a = root.rx.observeWeakly(Int.self, "next.count").subscribe()
                    let b = root.rx.observeWeakly(RuntimeObject.self, "next").subscribe()
                    a.dispose()
                    b.dispose()
                }
            }
            child = nil
            root = nil
            wait()
        }
        #expect(cls.liveInstanceCount == 0)
    }
}
