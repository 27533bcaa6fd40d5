// Bad input, part 3: programmer errors the runtime traps on (ic_fatal: a message naming the class
// and selector on stderr, then abort), pinned down as exit tests. Each body runs in a child
// process, so it builds what it needs itself and captures nothing.
import CInterception
import Glibc
import Testing

/// Registers a class named `name` with the given methods (exit-test bodies start from nothing).
private func trapClass(_ name: String, _ methods: [(String, ic_imp, String)]) -> CLS? {
    let cls = ic_class_allocate(name, nil, 0)
    for (selector, implementation, types) in methods {
        _ = ic_class_add_method(cls, sel(selector), implementation, types)
    }
    _ = ic_class_register(cls)
    return cls
}

private typealias SignatureIMP = @convention(c) (ID?, SEL?, SEL?) -> OpaquePointer?
private typealias ForwardIMP = @convention(c) (ID?, SEL?, OpaquePointer?) -> Void

/// methodSignatureForSelector: that knows no signature for anything.
private let noSignature: SignatureIMP = { _, _, _ in nil }
/// methodSignatureForSelector: that answers "i@:i" for everything.
private let intSignature: SignatureIMP = { _, _, _ in ic_signature_parse("i@:i") }
/// forwardInvocation: that says it was reached (it must not be, without a signature).
private let reportingForward: ForwardIMP = { _, _, _ in
    let text = "forwardInvocation: reached\n"
    _ = text.withCString { write(2, $0, strlen($0)) }
}

private func standardError(_ result: ExitTest.Result?) -> String {
    result.map { String(decoding: $0.standardErrorContent, as: UTF8.self) } ?? ""
}

@Suite("Bad input: programmer errors trap")
struct TrapTests {
    @Test(
        "an unknown selector sent to a class whose forwarding gives no signature traps, naming class and selector, without reaching forwardInvocation:"
    )
    func forwardingWithoutSignatureTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cls = trapClass(
                "TrapNoSignature",
                [
                    ("methodSignatureForSelector:", imp(noSignature), "^v@::"),
                    ("forwardInvocation:", imp(reportingForward), "v@:^v"),
                ])
            let obj = ic_class_create_instance(cls)
            _ = lookup(obj, "missing:", as: Int32Int32IMP.self)(obj, sel("missing:"), 1)
        }
        let text = standardError(result)
        #expect(text.contains("-[TrapNoSignature missing:]: unrecognized selector"))
        #expect(!text.contains("forwardInvocation: reached"))
    }

    @Test(
        "a typed synthesized accessor moved by hand to a class that declares no such property traps, naming class and selector"
    )
    func movedTypedAccessorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let owner = ic_class_allocate("TrapAccessorOwner", nil, 0)
            _ = ic_class_add_property(owner, "count", "q", 0, nil, nil)
            _ = ic_class_register(owner)
            let stranger = trapClass(
                "TrapAccessorStranger", [("count", ic_class_get_imp(owner, sel("count"))!, "q@:")])
            let obj = ic_class_create_instance(stranger)
            typealias Getter = @convention(c) (ID?, SEL?) -> Int64
            _ = lookup(obj, "count", as: Getter.self)(obj, sel("count"))
        }
        let text = standardError(result)
        #expect(text.contains("selector \"count\""))
        #expect(text.contains("\"TrapAccessorStranger\""))
    }

    @Test("an unknown class method traps, naming the class as +[Class selector] and the receiver as a class")
    func unknownClassMethodTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cls = trapClass("TrapClassMethod", [])
            let classObject = ic_class_object(cls)
            _ = lookup(classObject, "missing:", as: Int32Int32IMP.self)(classObject, sel("missing:"), 1)
        }
        #expect(
            standardError(result).contains("+[TrapClassMethod missing:]: unrecognized selector sent to class")
        )
    }

    @Test(
        "an unknown selector forwarded with a signature to the root's forwardInvocation: traps, naming class and selector"
    )
    func rootForwardInvocationTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cls = trapClass(
                "TrapRootForward", [("methodSignatureForSelector:", imp(intSignature), "^v@::")])
            let obj = ic_class_create_instance(cls)
            _ = lookup(obj, "missing:", as: Int32Int32IMP.self)(obj, sel("missing:"), 1)
        }
        #expect(standardError(result).contains("-[TrapRootForward missing:]: unrecognized selector"))
    }

    @Test("invoking an invocation whose target does not implement its selector traps")
    func invocationOfUnknownSelectorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let cls = trapClass("TrapInvoke", [])
            let obj = ic_class_create_instance(cls)
            let inv = ic_invocation_create(ic_signature_parse("i@:i"))
            _ = ic_invocation_set_target(inv, obj)
            _ = ic_invocation_set_selector(inv, sel("missing:"))
            _ = ic_invocation_invoke(inv)
        }
        #expect(standardError(result).contains("-[TrapInvoke missing:]: unrecognized selector"))
    }

    @Test("a message with a NULL selector traps, naming the receiver's class")
    func nullSelectorTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let obj = ic_class_create_instance(trapClass("TrapNullSelector", []))
            _ = ic_msg_lookup(obj, nil)
        }
        #expect(standardError(result).contains("message sent to TrapNullSelector"))
        #expect(standardError(result).contains("NULL selector"))
    }

    @Test("a super send with a NULL superclass or selector traps")
    func nullSuperSendTraps() async {
        let superclass = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var sup = ic_super(
                receiver: ic_class_create_instance(trapClass("TrapNullSuper", [])), super_class: nil)
            _ = ic_msg_lookup_super(&sup, sel("self"))
        }
        #expect(standardError(superclass).contains("NULL superclass"))
        let selector = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var sup = ic_super(
                receiver: ic_class_create_instance(trapClass("TrapNullSuperSel", [])),
                super_class: ic_class_root())
            _ = ic_msg_lookup_super(&sup, nil)
        }
        #expect(standardError(selector).contains("NULL selector"))
    }
}
