// delegate_proxy_forward_1_observer: a delegate call through a DelegateProxy to a forward
// delegate implementing it, with one C observer on the proxy (compare: forwarded_1_observer, the
// same add: and observer on the engine's forward path).
import CInterception
import CInterceptionBench
import Interception

/// Calls the observer saw (the benchmark runs on one thread).
nonisolated(unsafe) private var delegateCalls: UInt64 = 0

private let countCall: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in
    delegateCalls &+= 1
}

private let benchDelegateKey = AssociationKey()

final class BenchDelegateProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType, HasDelegate,
    @unchecked Sendable
{
    static let delegateProtocol = try! RuntimeProtocol.define("BenchAdding") { p in
        try p.required("add:", Int32.self, returns: Int32.self)
    }
    static let parentClass = try! RuntimeClass.define("BenchDelegating") { c in
        try c.method("delegate") { (this: RuntimeObject) -> RuntimeObject? in
            (this.associatedValue(forKey: benchDelegateKey) as? WeakRuntimeObject)?.object
        }
        try c.method("setDelegate:") { (this: RuntimeObject, delegate: RuntimeObject?) in
            try? this.setAssociatedValue(WeakRuntimeObject(delegate), forKey: benchDelegateKey)
        }
    }

    init(parent: RuntimeObject) {
        super.init(
            parentObject: parent, delegateProxy: BenchDelegateProxy.self,
            delegateProtocol: Self.delegateProtocol)
    }

    static func registerKnownImplementations() throws {
        try register(parentClass) { BenchDelegateProxy(parent: $0) }
    }
}

/// The parent, its delegate (add: is the C function the C cases call) and the installed proxy.
private final class DelegateProxyBench: @unchecked Sendable {
    // @unchecked: built once, then used on the benchmark's one thread.
    static let shared = DelegateProxyBench()
    let parent: RuntimeObject
    let delegate: RuntimeObject
    let proxy: BenchDelegateProxy

    private init() {
        let add: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = icb_swift_add
        let delegateClass = try! RuntimeClass.define(
            "BenchAdder", conformsTo: [BenchDelegateProxy.delegateProtocol]
        ) {
            c in
            try c.method("add:", encoding: "i@:i", imp: add)
        }
        parent = BenchDelegateProxy.parentClass.new()
        delegate = delegateClass.new()
        try! parent.send("setDelegate:", delegate)
        proxy = BenchDelegateProxy.proxy(for: parent)
        var token: ic_observer_token = 0
        precondition(
            ic_intercept_add_observer(
                proxy.object.pointer, Selector("add:").pointer, IC_OBSERVE_AFTER, countCall, nil, nil, &token)
                == IC_OK)
    }
}

typealias AddIMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32

/// Times `ops` calls of add: on the proxy object, as the parent would make them (lookup, call),
/// checking each result and that the observer saw each call.
private func timeDelegateProxy(ops: UInt64) -> Double {
    let bench = DelegateProxyBench.shared
    let target = bench.proxy.object.pointer
    let selector = Selector("add:").pointer
    let before = delegateCalls
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<ops {
        let x = Int32(truncatingIfNeeded: i & 0xffffff)
        let r = unsafeBitCast(ic_msg_lookup(target, selector), to: AddIMP.self)(target, selector, x)
        if r != x &+ 1 { bad += 1 }
    }
    let t1 = icb_now_ns()
    if delegateCalls &- before != ops { bad += 1 }
    return bad == 0 ? t1 - t0 : -1
}

func delegateProxyCases() -> [BenchCase] {
    [
        BenchCase(
            name: "delegate_proxy_forward_1_observer",
            description:
                "add: sent to a DelegateProxy, forwarded to its delegate, one C observer on the proxy",
            prepare: {
                _ = DelegateProxyBench.shared
                return true
            }, run: timeDelegateProxy)
    ]
}
