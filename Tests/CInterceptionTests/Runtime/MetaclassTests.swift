import CInterception
import CInterceptionTestSupport
import Testing

// Area: metaclasses and class methods (ic_class.h, "Metaclasses and class objects"). Purpose:
// classes are objects whose class is their metaclass; class methods are added, sent with the
// same lookup as instance methods, inherited through the metaclass chain, replaced and forwarded;
// the root metaclass's superclass is the root class; class objects are immortal.

private let scaleIMP: Int32Int32IMP = { _, _, x in x &* 100 }
private let selfIMP: ObjectIMP = { this, _ in this }
private let subScaleIMP: Int32Int32IMP = { this, cmd, x in
    var target = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    return fn(ic_msg_lookup_super(&target, cmd), as: Int32Int32IMP.self)(this, cmd, x) &+ 1
}

private typealias UInt64IMP = @convention(c) (ID?, SEL?) -> UInt64
private typealias SignatureIMP = @convention(c) (ID?, SEL?, SEL?) -> OpaquePointer?
private typealias ForwardIMP = @convention(c) (ID?, SEL?, OpaquePointer?) -> Void

/// `+methodSignatureForSelector:` answering `i@:i` for `forwarded:` only.
private let classSignature: SignatureIMP = { _, _, s in
    s == sel("forwarded:") ? ic_signature_parse("i@:i") : nil
}

/// `+forwardInvocation:` answering 7 × the argument, plus 1 if the target is a class object.
private let classForward: ForwardIMP = { _, _, invocation in
    var x: Int32 = 0
    ic_invocation_get_argument(invocation, 2, &x)
    var result = x &* 7 &+ (ic_object_as_class(ic_invocation_target(invocation)) != nil ? 1 : 0)
    ic_invocation_set_return_value(invocation, &result)
}

/// Sends an `i@:i` message to `receiver` (an object or a class object).
private func send(_ receiver: ID?, _ name: String, _ x: Int32) -> Int32 {
    fn(ic_msg_lookup(receiver, sel(name)), as: Int32Int32IMP.self)(receiver, sel(name), x)
}

private func responds(_ receiver: ID?, _ name: String) -> Bool {
    let s = sel("respondsToSelector:")
    return fn(ic_msg_lookup(receiver, s), as: BoolSelIMP.self)(receiver, s, sel(name))
}

@Suite("Metaclasses and class methods")
struct MetaclassTests {
    @Test("every class has a metaclass: the class object's class, with the Objective-C superclass chain")
    func metaclassChain() throws {
        let root = try #require(ic_class_root())
        let rootMeta = try #require(ic_class_metaclass(root))
        let count = ic_class_count()
        let base = try makeClass("MetaBase")
        let sub = try makeClass("MetaSub", superclass: base)
        #expect(ic_class_count() >= count + 2)
        // Metaclasses are not counted: two registrations add exactly two. Other suites register
        // classes in parallel, so retry until one pair of registrations ran undisturbed.
        var exactlyTwo = false
        for _ in 0..<50 where !exactlyTwo {
            let before = ic_class_count()
            let pairBase = try makeClass("MetaCountBase")
            _ = try makeClass("MetaCountSub", superclass: pairBase)
            exactlyTwo = ic_class_count() == before + 2
        }
        #expect(exactlyTwo)
        let baseMeta = try #require(ic_class_metaclass(base))
        let subMeta = try #require(ic_class_metaclass(sub))
        #expect(ic_class_is_metaclass(baseMeta) && ic_class_is_metaclass(rootMeta))
        #expect(!ic_class_is_metaclass(base) && !ic_class_is_metaclass(nil))
        #expect(String(cString: ic_class_name(baseMeta)) == String(cString: ic_class_name(base)))
        #expect(ic_class_lookup(ic_class_name(base)) == base)
        #expect(ic_class_is_registered(baseMeta))
        // superclass: the superclass's metaclass; the root metaclass's is the root class.
        #expect(ic_class_superclass(subMeta) == baseMeta)
        #expect(ic_class_superclass(baseMeta) == rootMeta)
        #expect(ic_class_superclass(rootMeta) == root)
        // isa: every metaclass's is the root metaclass, the root metaclass's is itself.
        #expect(ic_class_metaclass(subMeta) == rootMeta)
        #expect(ic_class_metaclass(rootMeta) == rootMeta)
        // A class pointer is an object pointer whose class is the metaclass.
        #expect(ic_object_get_class(ic_class_object(base)) == baseMeta)
        #expect(ic_object_as_class(ic_class_object(base)) == base)
        #expect(ic_object_as_class(ic_class_object(baseMeta)) == baseMeta)
        let obj = try #require(ic_class_create_instance(base))
        defer { ic_release(obj) }
        #expect(ic_object_as_class(obj) == nil)
        #expect(ic_object_as_class(nil) == nil)
        #expect(ic_class_metaclass(nil) == nil)
    }

    @Test("a class method is sent to the class object through the cached lookup; instances do not see it")
    func classMethodSend() throws {
        let cls = try makeClass(
            "MetaSend", methods: [("add:", imp(addOneIMP), "i@:i")],
            classMethods: [("scale:", imp(scaleIMP), "i@:i"), ("me", imp(selfIMP), "@@:")])
        let classObject = ic_class_object(cls)
        #expect(send(classObject, "scale:", 3) == 300)
        #expect(send(classObject, "scale:", 4) == 400)  // cached now
        #expect(
            fn(ic_msg_lookup(classObject, sel("me")), as: ObjectIMP.self)(classObject, sel("me"))
                == classObject)
        #expect(ic_class_get_class_method(cls, sel("scale:")) != nil)
        #expect(ic_class_get_method(cls, sel("scale:")) == nil)
        #expect(ic_class_get_class_method(cls, sel("add:")) == nil)
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(responds(classObject, "scale:") && !responds(classObject, "add:"))
        #expect(responds(obj, "add:") && !responds(obj, "scale:"))
        #expect(ic_class_responds_to(ic_class_metaclass(cls), sel("scale:")))
        // Added after registration: caches of the metaclass are invalidated like any class's.
        #expect(ic_class_add_class_method(cls, sel("scale2:"), imp(scaleIMP), "i@:i") == IC_OK)
        #expect(send(classObject, "scale2:", 5) == 500)
        #expect(
            statusName(ic_class_add_class_method(cls, sel("scale:"), imp(scaleIMP), "i@:i"))
                == "IC_ERR_METHOD_EXISTS")
        #expect(lastErrorMessage.contains("+["))
    }

    @Test("subclasses inherit class methods through their metaclasses, override them and call super")
    func inheritance() throws {
        let base = try makeClass("MetaInheritBase", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let plain = try makeClass("MetaInheritPlain", superclass: base)
        let over = try makeClass(
            "MetaInheritOver", superclass: base, classMethods: [("scale:", imp(subScaleIMP), "i@:i")])
        #expect(send(ic_class_object(plain), "scale:", 2) == 200)
        #expect(send(ic_class_object(over), "scale:", 2) == 201)
        #expect(send(ic_class_object(base), "scale:", 2) == 200)
        // A class method added to the superclass later reaches the subclass (cache invalidated).
        _ = send(ic_class_object(plain), "scale:", 1)
        let triple: Int32Int32IMP = { _, _, x in x &* 3 }
        #expect(
            ic_class_replace_method(ic_class_metaclass(base), sel("scale:"), imp(triple), nil, nil) == IC_OK)
        #expect(send(ic_class_object(plain), "scale:", 2) == 6)
        #expect(send(ic_class_object(over), "scale:", 2) == 7)
    }

    @Test("replacing a class method returns the old IMP and takes effect on the next send")
    func replace() throws {
        let cls = try makeClass("MetaReplace", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        #expect(send(ic_class_object(cls), "scale:", 1) == 100)
        let negate: Int32Int32IMP = { _, _, x in -x }
        var old: ic_imp?
        #expect(
            ic_class_replace_method(ic_class_metaclass(cls), sel("scale:"), imp(negate), nil, &old) == IC_OK)
        #expect(unsafeBitCast(old, to: UInt.self) == unsafeBitCast(imp(scaleIMP), to: UInt.self))
        #expect(send(ic_class_object(cls), "scale:", 1) == -1)
        let method = try #require(ic_class_get_class_method(cls, sel("scale:")))
        _ = ic_method_set_imp(method, imp(scaleIMP))
        #expect(send(ic_class_object(cls), "scale:", 1) == 100)
    }

    @Test(
        "class objects answer the root's instance methods; class answers the class, isMemberOfClass: the metaclass"
    )
    func rootInstanceMethods() throws {
        let root = try #require(ic_class_root())
        let cls = try makeClass("MetaRoot")
        let sub = try makeClass("MetaRootSub", superclass: cls)
        let classObject = ic_class_object(sub)
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        let classSel = sel("class")
        #expect(fn(ic_msg_lookup(classObject, classSel), as: ClassIMP.self)(classObject, classSel) == sub)
        #expect(fn(ic_msg_lookup(obj, classSel), as: ClassIMP.self)(obj, classSel) == sub)
        #expect(responds(classObject, "respondsToSelector:") && responds(classObject, "hash"))
        let kind = sel("isKindOfClass:")
        let isKind = fn(ic_msg_lookup(classObject, kind), as: BoolClassIMP.self)
        #expect(isKind(classObject, kind, root))  // objc4: [Sub isKindOfClass:[NSObject class]]
        #expect(isKind(classObject, kind, ic_class_metaclass(cls)))
        #expect(!isKind(classObject, kind, cls))
        let member = sel("isMemberOfClass:")
        let isMember = fn(ic_msg_lookup(classObject, member), as: BoolClassIMP.self)
        #expect(isMember(classObject, member, ic_class_metaclass(sub)))
        #expect(!isMember(classObject, member, sub))
        // The class object's class methods are what the root answers for: the metaclass's.
        #expect(ic_class_get_class_method(sub, sel("respondsToSelector:")) != nil)
    }

    @Test("class objects are immortal: retain and release do nothing, nothing is deallocated")
    func immortal() throws {
        let cls = try makeClass("MetaImmortal", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let classObject = ic_class_object(cls)
        let live = ClassCounters(cls)
        for _ in 0..<10 { #expect(ic_retain(classObject) == classObject) }
        for _ in 0..<20 { ic_release(classObject) }
        let release = sel("release")
        fn(ic_msg_lookup(classObject, release), as: VoidIMP.self)(classObject, release)
        let dealloc = sel("dealloc")
        fn(ic_msg_lookup(classObject, dealloc), as: VoidIMP.self)(classObject, dealloc)
        #expect(ic_object_retain_count(classObject) == 1)
        let count = sel("retainCount")
        #expect(fn(ic_msg_lookup(classObject, count), as: UInt64IMP.self)(classObject, count) == 1)
        // A weak reference loads it without counting.
        var weak: ID? = nil
        #expect(ic_weak_store(&weak, classObject) == IC_OK)
        #expect(ic_weak_load_retained(&weak) == classObject)
        ic_release(classObject)
        ic_weak_destroy(&weak)
        #expect(ic_object_retain_count(classObject) == 1)
        #expect(!ic_object_is_deallocating(classObject))
        #expect(send(classObject, "scale:", 2) == 200)
        #expect(ClassCounters(cls) == live)
        // The root class object too.
        ic_release(ic_class_object(ic_class_root()))
        #expect(ic_class_root() != nil && send(ic_class_object(cls), "scale:", 1) == 100)
    }

    @Test(
        "an unknown class method is forwarded by the metaclass's methodSignatureForSelector: and forwardInvocation:"
    )
    func forwarding() throws {
        let cls = try makeClass(
            "MetaForward",
            classMethods: [
                ("methodSignatureForSelector:", imp(classSignature), "^v@::"),
                ("forwardInvocation:", imp(classForward), "v@:^v"),
            ])
        let sub = try makeClass("MetaForwardSub", superclass: cls)
        #expect(send(ic_class_object(cls), "forwarded:", 6) == 43)
        #expect(send(ic_class_object(cls), "forwarded:", 1) == 8)  // cached forwarder
        #expect(send(ic_class_object(sub), "forwarded:", 2) == 15)
        // Instances do not forward: only the class object's class has these methods.
        #expect(!ic_class_forwards_invocations(cls))
        #expect(ic_class_forwards_invocations(ic_class_metaclass(cls)))
    }

    @Test(
        "refusals: instances of metaclasses, subclassing them, registering or disposing them alone, moving class objects"
    )
    func refusals() throws {
        let cls = try makeClass("MetaRefuse", classMethods: [("scale:", imp(scaleIMP), "i@:i")])
        let meta = try #require(ic_class_metaclass(cls))
        #expect(ic_class_create_instance(meta) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
        #expect(ic_class_allocate(uniqueName("MetaRefuseSub"), meta, 0) == nil)
        #expect(statusName(ic_error_status()) == "IC_ERR_INVALID_ARGUMENT")
        #expect(statusName(ic_class_register(meta)) == "IC_ERR_INVALID_ARGUMENT")
        #expect(statusName(ic_class_dispose(meta)) == "IC_ERR_INVALID_ARGUMENT")
        let other = try makeClass("MetaRefuseOther")
        #expect(ic_object_set_class(ic_class_object(cls), other) == nil)
        let obj = try #require(ic_class_create_instance(other))
        defer { ic_release(obj) }
        #expect(ic_object_set_class(obj, meta) == nil)
        #expect(ic_object_get_class(obj) == other && ic_object_get_class(ic_class_object(cls)) == meta)
        // Per-object interception of a class object: refused, pointing at ic_hook_class.
        #expect(
            statusName(ic_intercept_prepare(ic_class_object(cls), sel("scale:"))) == "IC_ERR_INVALID_ARGUMENT"
        )
        #expect(lastErrorMessage.contains("ic_hook_class"))
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        #expect(
            statusName(
                ic_hook_object(ic_class_object(cls), sel("scale:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
            )
                == "IC_ERR_INVALID_ARGUMENT")
        #expect(
            statusName(
                ic_intercept_add_dealloc_observer(
                    ic_class_object(cls), IC_OBSERVE_AFTER, { _, _ in }, nil, nil, &token))
                == "IC_ERR_INVALID_ARGUMENT")
        #expect(ClassCounters(meta) == ClassCounters())
        #expect(send(ic_class_object(cls), "scale:", 1) == 100)
    }

    @Test("an unregistered class and its class methods are disposed together")
    func dispose() throws {
        let cls = try #require(ic_class_allocate(uniqueName("MetaDispose"), nil, 0))
        #expect(ic_class_add_class_method(cls, sel("scale:"), imp(scaleIMP), "i@:i") == IC_OK)
        #expect(!ic_class_is_registered(ic_class_metaclass(cls)))
        #expect(ic_class_dispose(cls) == IC_OK)
    }
}
