// The forwarding stub's register path: protocol methods whose values all travel in registers
// reach the forward delegate from the saved argument registers (no libffi), every register class
// intact; the others keep the frame path, with the same results.
import CInterception
@testable import Interception
import Testing

/// A protocol whose methods cover the register classes: narrow integers, a float result, the
/// most integer and vector registers a register call has, and one method past them.
private let registerShapesProtocol: RuntimeProtocol = {
    do {
        return try RuntimeProtocol.define(uniqueName("RegisterShapes")) { p in
            try p.optional("narrow:short:flag:", (Int8, Int16, Bool).self, returns: Int64.self)
            try p.optional("scale:by:", (Float, Double).self, returns: Float.self)
            // Integer and vector arguments interleaved: the ABIs assign each class in order.
            try p.optional(
                "mix:a:b:c:d:e:f:g:h:i:j:k:",
                (Double, Int64, Double, Int64, Double, Int64, Double, Int64, Double, Double, Double, Double)
                    .self,
                returns: Double.self)
            // Seven integer arguments: past every ABI's integer registers, so a frame call.
            try p.optional(
                "seven:b:c:d:e:f:g:", (Int64, Int64, Int64, Int64, Int64, Int64, Int64).self,
                returns: Int64.self)
            try p.optional("note:", Int32.self)
        }
    } catch {
        fatalError("\(error)")
    }
}()

private let registerShapesParent: RuntimeClass = {
    do { return try defineDownloader("RegisterShapesParent") } catch { fatalError("\(error)") }
}()

private final class RegisterShapesProxy: DelegateProxy<RuntimeObject, RuntimeObject>, DelegateProxyType,
    HasDelegate, @unchecked Sendable
{
    init(parent: RuntimeObject) {
        super.init(
            parentObject: parent, delegateProxy: RegisterShapesProxy.self,
            delegateProtocol: registerShapesProtocol)
    }

    static func registerKnownImplementations() throws {
        try register(registerShapesParent) { RegisterShapesProxy(parent: $0) }
    }
}

/// What the delegate computes from each method's arguments: every argument weighs in, so a
/// value in the wrong register, or wrongly extended, changes the result.
private enum Expected {
    static func narrow(_ a: Int8, _ b: Int16, _ flag: Bool) -> Int64 {
        Int64(a) * 1_000_000 + Int64(b) * 10 + (flag ? 1 : 0)
    }
    static func scale(_ a: Float, _ b: Double) -> Float { Float(Double(a) * b) }
    static func mix(_ v: [Double], _ n: [Int64]) -> Double {
        var sum = 0.0
        for (i, x) in v.enumerated() { sum += x * Double(i + 1) }
        for (i, x) in n.enumerated() { sum += Double(x) * Double(100 * (i + 1)) }
        return sum
    }
    static func seven(_ n: [Int64]) -> Int64 {
        n.enumerated().reduce(0) { $0 + $1.element * Int64($1.offset + 1) }
    }
}

private func defineRegisterShapesDelegate(log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("RegisterShapesDelegate"), conformsTo: [registerShapesProtocol]) { c in
        try c.method("narrow:short:flag:") { (this: RuntimeObject, a: Int8, b: Int16, flag: Bool) -> Int64 in
            Expected.narrow(a, b, flag)
        }
        try c.method("scale:by:") { (this: RuntimeObject, a: Float, b: Double) -> Float in
            Expected.scale(a, b)
        }
        try c.method("mix:a:b:c:d:e:f:g:h:i:j:k:") {
            (
                this: RuntimeObject, v0: Double, n0: Int64, v1: Double, n1: Int64, v2: Double, n2: Int64,
                v3: Double, n3: Int64, v4: Double, v5: Double, v6: Double, v7: Double
            ) -> Double in
            Expected.mix([v0, v1, v2, v3, v4, v5, v6, v7], [n0, n1, n2, n3])
        }
        try c.method("seven:b:c:d:e:f:g:") {
            (this: RuntimeObject, a: Int64, b: Int64, c: Int64, d: Int64, e: Int64, f: Int64, g: Int64)
                -> Int64 in
            Expected.seven([a, b, c, d, e, f, g])
        }
        try c.method("note:") { (this: RuntimeObject, n: Int32) in log.append("note \(n)") }
    }
}

/// How calls to the proxy class's own implementation of `selector` run.
private func stubKind(_ proxy: RegisterShapesProxy, _ selector: Selector) -> ic_closure_kind {
    ic_closure_imp_kind(ic_class_get_imp(ic_object_get_class(proxy.object.pointer), selector.pointer))
}

/// Whether a closure IMP of `encoding` made now gets a register entry: false once the runtime's
/// register entries of its result class are all taken (the whole test process shares them), when
/// stubs keep the frame path by design.
private func registerEntryFree(_ encoding: String) -> Bool {
    guard let signature = ic_signature_parse(encoding),
        let probe = ic_closure_imp_create_with_registers(signature, { _, _ in }, { _, _ in 0 }, nil, nil)
    else { return false }
    defer { ic_closure_imp_destroy(probe) }
    return ic_closure_imp_kind(probe) == IC_CLOSURE_KIND_REGISTERS
}

@Suite("DelegateProxy: forwarding from the saved argument registers")
struct DelegateProxyRegisterForwardingTests {
    @Test("register-shaped protocol methods get register stubs; a method past the registers does not")
    func registerShapedMethodsGetRegisterStubs() throws {
        let parent = registerShapesParent.new()
        let proxy = RegisterShapesProxy.proxy(for: parent)
        let registerShaped = [
            "narrow:short:flag:": "q@:csB", "scale:by:": "f@:fd",
            "mix:a:b:c:d:e:f:g:h:i:j:k:": "d@:dqdqdqdqdddd",
            "note:": "v@:i",
        ]
        for (selector, encoding) in registerShaped {
            let kind = stubKind(proxy, Selector(selector))
            #expect(kind == IC_CLOSURE_KIND_REGISTERS || !registerEntryFree(encoding), "\(selector): \(kind)")
            #expect(kind != IC_CLOSURE_KIND_NONE)
        }
        #expect(stubKind(proxy, "seven:b:c:d:e:f:g:") != IC_CLOSURE_KIND_REGISTERS)
    }

    @Test("every register class reaches the forward delegate, and its result comes back")
    func everyRegisterClassIsForwarded() throws {
        let log = EventLog()
        let parent = registerShapesParent.new()
        let delegate = try defineRegisterShapesDelegate(log: log).new()
        try parent.send("setDelegate:", delegate)
        let proxy = RegisterShapesProxy.proxy(for: parent)
        let target = proxy.object

        for (a, b, flag) in [
            (Int8(-3), Int16(-300), true), (Int8.max, Int16.min, false), (Int8.min, Int16.max, true),
        ] {
            let result: Int64 = try target.send("narrow:short:flag:", a, b, flag)
            #expect(result == Expected.narrow(a, b, flag))
        }
        let scaled: Float = try target.send("scale:by:", Float(1.5), 2.25)
        #expect(scaled == Expected.scale(1.5, 2.25))

        let v = [0.5, -1.25, 2.0, 3.5, -4.75, 5.0, 6.125, -7.5]
        let n: [Int64] = [-1, 2, 1 << 40, -4]  // every sum exact in a Double
        let mixed: Double = try target.send(
            "mix:a:b:c:d:e:f:g:h:i:j:k:", v[0], n[0], v[1], n[1], v[2], n[2], v[3], n[3], v[4], v[5], v[6],
            v[7])
        #expect(mixed == Expected.mix(v, n))

        let seven: [Int64] = [1, -2, 3, -4, 5, -6, 7]
        let sevenResult: Int64 = try target.send(
            "seven:b:c:d:e:f:g:", seven[0], seven[1], seven[2], seven[3], seven[4], seven[5], seven[6])
        #expect(sevenResult == Expected.seven(seven))

        try target.send("note:", Int32(-9))
        #expect(log.all == ["note -9"])
        withExtendedLifetime(delegate) {}
    }

    @Test("without a forward delegate, or one that lacks the method, register stubs return zero")
    func missingDelegateOrMethodReturnsZero() throws {
        let parent = registerShapesParent.new()
        let proxy = RegisterShapesProxy.proxy(for: parent)
        let target = proxy.object
        #expect(proxy.forwardToDelegate() == nil)
        let narrow: Int64 = try target.send("narrow:short:flag:", Int8(1), Int16(2), true)
        let scaled: Float = try target.send("scale:by:", Float(3), 4.0)
        #expect(narrow == 0 && scaled == 0)

        // A forward delegate implementing none of the protocol's optional methods.
        let bare = try RuntimeClass.define(uniqueName("BareDelegate"), conformsTo: [registerShapesProtocol]) {
            _ in
        }
        .new()
        proxy.setForwardToDelegate(bare, retainDelegate: false)
        let mixed: Double = try target.send(
            "mix:a:b:c:d:e:f:g:h:i:j:k:", 1.0, Int64(2), 3.0, Int64(4), 5.0, Int64(6), 7.0, Int64(8), 9.0,
            10.0,
            11.0, 12.0)
        #expect(mixed == 0)
        withExtendedLifetime(bare) {}
    }

    @Test("an observed register-shaped method is seen with its arguments and still forwarded")
    func observedRegisterStubIsSeenAndForwarded() throws {
        let log = EventLog()
        let parent = registerShapesParent.new()
        let delegate = try defineRegisterShapesDelegate(log: log).new()
        try parent.send("setDelegate:", delegate)
        let proxy = RegisterShapesProxy.proxy(for: parent)
        let seen = EventLog()
        let subscription = proxy.methodInvoked("scale:by:", as: (Float, Double).self).subscribe(onNext: {
            seen.append("\($0.0) \($0.1)")
        })
        defer { subscription.dispose() }
        let scaled: Float = try proxy.object.send("scale:by:", Float(2), 0.5)
        #expect(scaled == Expected.scale(2, 0.5))
        #expect(seen.all == ["2.0 0.5"])
        withExtendedLifetime(delegate) {}
    }
}
