import CInterception
import CInterceptionTestSupport
import Testing

// A proxy that forwards everything it does not implement to the object in its storage.
private typealias SignatureIMP = @convention(c) (ID?, SEL?, SEL?) -> OpaquePointer?
private typealias ForwardIMP = @convention(c) (ID?, SEL?, OpaquePointer?) -> Void

private func storedTarget(_ this: ID?) -> ID? {
    ic_object_storage(this)!.load(as: ID?.self)
}

private let proxySignature: SignatureIMP = { this, _, s in
    let target = storedTarget(this)
    return fn(ic_msg_lookup(target, sel("methodSignatureForSelector:")), as: SignatureIMP.self)(
        target, sel("methodSignatureForSelector:"), s)
}

private let proxyForward: ForwardIMP = { this, _, invocation in
    ic_invocation_set_target(invocation, storedTarget(this))
    ic_invocation_invoke(invocation)
}

/// A registered proxy class.
private func makeProxyClass() throws -> CLS {
    try makeClass(
        "Proxy", storage: 8,
        methods: [
            ("methodSignatureForSelector:", imp(proxySignature), "^v@::"),
            ("forwardInvocation:", imp(proxyForward), "v@:^v"),
        ])
}

private func makeProxy(_ cls: CLS, to target: ID?) throws -> ID {
    let proxy = try #require(ic_class_create_instance(cls))
    ic_object_storage(proxy)!.storeBytes(of: target, as: ID?.self)
    return proxy
}

// A responder that answers `answer:` for the type case whose index is in its storage, by setting
// the invocation's return value to the case's `other` value without calling anything.
private let responderSignature: SignatureIMP = { this, _, s in
    guard s == sel("answer:") else { return nil }
    let index = ic_object_storage(this)!.load(as: Int.self)
    let t = TypeCase.all[index]
    return ic_signature_parse("\(t.encoding)@:\(t.encoding)")
}

private let responderForward: ForwardIMP = { this, _, invocation in
    let index = ic_object_storage(this)!.load(as: Int.self)
    ic_invocation_set_return_value(invocation, TypeCase.all[index].raw.other)
}

// doesNotRecognizeSelector: that returns instead of trapping.
private let lenientDoesNotRecognize: @convention(c) (ID?, SEL?, SEL?) -> Void = { this, _, s in
    ic_object_storage(this)!.storeBytes(of: s, as: SEL?.self)
}

@Suite("Forwarding")
struct ForwardingTests {
    @Test("a proxy forwards every type as argument and return value", arguments: TypeCase.all)
    func proxyForwardsEveryType(_ t: TypeCase) throws {
        let target = try #require(ic_class_create_instance(try t.makeTargetClass()))
        defer { ic_release(target) }
        let proxy = try makeProxy(try makeProxyClass(), to: target)
        defer { ic_release(proxy) }
        try t.withBuffer { out in
            t.raw.send_echo(proxy, sel("echo:"), t.raw.other, out)
            #expect(t.isOther(out))
            t.raw.send_echo(proxy, sel("echo:"), t.raw.sample, out)  // cached forwarder
            #expect(t.isSample(out))
            t.raw.send_make(proxy, sel("make"), out)
            #expect(t.isSample(out))
            t.raw.send_take(proxy, sel("take:"), t.raw.other)
            #expect(t.isOther(ict_taken()))
            // The proxy itself does not respond; a direct send reaches the target.
            let responds = lookup(proxy, "respondsToSelector:", as: BoolSelIMP.self)
            #expect(!responds(proxy, sel("respondsToSelector:"), sel("echo:")))
            _ = try #require(Optional(out))
        }
    }

    @Test("forwardInvocation: can answer by setting the return value", arguments: TypeCase.all)
    func forwardInvocationSetsReturnValue(_ t: TypeCase) throws {
        let cls = try makeClass(
            "Responder", storage: 8,
            methods: [
                ("methodSignatureForSelector:", imp(responderSignature), "^v@::"),
                ("forwardInvocation:", imp(responderForward), "v@:^v"),
            ])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        ic_object_storage(obj)!.storeBytes(of: t.index, as: Int.self)
        t.withBuffer { out in
            t.raw.send_echo(obj, sel("answer:"), t.raw.sample, out)
            #expect(t.isOther(out))
        }
    }

    @Test("a selector added after forwarding began is sent directly")
    func addedMethodReplacesForwarder() throws {
        let t = TypeCase.all.first { $0.name == "int" }!
        let target = try #require(ic_class_create_instance(try t.makeTargetClass()))
        defer { ic_release(target) }
        let proxyClass = try makeProxyClass()
        let proxy = try makeProxy(proxyClass, to: target)
        defer { ic_release(proxy) }
        var input: Int32 = 41
        var output: Int32 = 0
        t.raw.send_echo(proxy, sel("echo:"), &input, &output)
        #expect(output == 41)
        let addOne: Int32Int32IMP = { _, _, x in x + 1 }
        #expect(ic_class_add_method(proxyClass, sel("echo:"), imp(addOne), "i@:i") == IC_OK)
        t.raw.send_echo(proxy, sel("echo:"), &input, &output)
        #expect(output == 42)
    }

    @Test("an unrecognized selector traps with the class and selector named")
    func unrecognizedSelectorTraps() async {
        await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cls = ic_class_allocate("TrapsOnUnknown", nil, 0)
            ic_class_register(cls)
            let obj = ic_class_create_instance(cls)
            _ = lookup(obj, "noSuchMethod:", as: Int32Int32IMP.self)(obj, sel("noSuchMethod:"), 1)
        }.map { result in
            let text = String(decoding: result.standardErrorContent, as: UTF8.self)
            #expect(text.contains("-[TrapsOnUnknown noSuchMethod:]: unrecognized selector"))
        }
    }

    @Test("a doesNotRecognizeSelector: override that returns makes the send return zero")
    func lenientOverrideReturnsZero() throws {
        let cls = try makeClass(
            "Lenient", storage: 8,
            methods: [("doesNotRecognizeSelector:", imp(lenientDoesNotRecognize), "v@::")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(lookup(obj, "missing:", as: Int32Int32IMP.self)(obj, sel("missing:"), 5) == 0)
        #expect(ic_object_storage(obj)!.load(as: SEL?.self) == sel("missing:"))
    }

    @Test("forwarding allocates no forwarder twice for the same class and selector")
    func forwarderIsReused() throws {
        let t = TypeCase.all.first { $0.name == "double" }!
        let target = try #require(ic_class_create_instance(try t.makeTargetClass()))
        defer { ic_release(target) }
        let proxyClass = try makeProxyClass()
        let a = try makeProxy(proxyClass, to: target)
        let b = try makeProxy(proxyClass, to: target)
        defer {
            ic_release(a)
            ic_release(b)
        }
        let first = ic_msg_lookup(a, sel("make"))
        let second = ic_msg_lookup(b, sel("make"))
        #expect(unsafeBitCast(first, to: UInt.self) == unsafeBitCast(second, to: UInt.self))
        #expect(ic_class_get_imp(proxyClass, sel("make")) == nil)  // not a real method
    }
}
