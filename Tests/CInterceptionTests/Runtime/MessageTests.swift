import CInterception
import CInterceptionTestSupport
import Testing

private let returns1: Int32IMP = { _, _ in 1 }
private let returns2: Int32IMP = { _, _ in 2 }
private let returns7: Int32IMP = { _, _ in 7 }
private let addOne: Int32Int32IMP = { _, _, x in x &+ 1 }
private let doubleValue: DoubleIMP = { _, _ in 2.5 }
private let selfIMP: ObjectIMP = { this, _ in this }

@Suite("Message lookup and send")
struct MessageTests {
    @Test("a send runs the method with the receiver, selector and arguments")
    func sendRunsMethod() throws {
        let cls = try makeClass("Msg", methods: [("add:", imp(addOne), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 41) == 42)
        // Cached path gives the same.
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
    }

    @Test("messaging NULL returns zero in integer and floating-point registers")
    func messagingNilReturnsZero() {
        let nilIMP = ic_msg_lookup(nil, sel("anything"))
        #expect(fn(nilIMP, as: Int32Int32IMP.self)(nil, sel("anything"), 5) == 0)
        #expect(fn(nilIMP, as: DoubleIMP.self)(nil, sel("anything")) == 0)
        #expect(fn(nilIMP, as: ObjectIMP.self)(nil, sel("anything")) == nil)
        var sup = ic_super(receiver: nil, super_class: ic_class_root())
        #expect(fn(ic_msg_lookup_super(&sup, sel("x")), as: Int32IMP.self)(nil, sel("x")) == 0)
    }

    @Test("the root class answers class, self, isKindOfClass:, respondsToSelector:")
    func rootMethods() throws {
        let base = try makeClass("MsgRootBase", methods: [("value", imp(returns1), "i@:")])
        let sub = try makeClass("MsgRootSub", superclass: base)
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        #expect(lookup(obj, "class", as: ClassIMP.self)(obj, sel("class")) == sub)
        #expect(lookup(obj, "self", as: ObjectIMP.self)(obj, sel("self")) == obj)
        #expect(lookup(obj, "init", as: ObjectIMP.self)(obj, sel("init")) == obj)
        let kind = lookup(obj, "isKindOfClass:", as: BoolClassIMP.self)
        #expect(kind(obj, sel("isKindOfClass:"), base))
        #expect(kind(obj, sel("isKindOfClass:"), ic_class_root()))
        #expect(!kind(obj, sel("isKindOfClass:"), try makeClass("MsgUnrelated")))
        let member = lookup(obj, "isMemberOfClass:", as: BoolClassIMP.self)
        #expect(member(obj, sel("isMemberOfClass:"), sub))
        #expect(!member(obj, sel("isMemberOfClass:"), base))
        let responds = lookup(obj, "respondsToSelector:", as: BoolSelIMP.self)
        #expect(responds(obj, sel("respondsToSelector:"), sel("value")))
        #expect(!responds(obj, sel("respondsToSelector:"), sel("missing")))
        typealias EqIMP = @convention(c) (ID?, SEL?, ID?) -> Bool
        #expect(lookup(obj, "isEqual:", as: EqIMP.self)(obj, sel("isEqual:"), obj))
        typealias HashIMP = @convention(c) (ID?, SEL?) -> UInt64
        #expect(lookup(obj, "hash", as: HashIMP.self)(obj, sel("hash")) == UInt64(UInt(bitPattern: obj)))
    }

    @Test("replacing a method in a superclass invalidates the subclass's cache")
    func superclassReplacementInvalidatesSubclassCache() throws {
        let base = try makeClass("CacheBase", methods: [("value", imp(returns1), "i@:")])
        let mid = try makeClass("CacheMid", superclass: base)
        let leaf = try makeClass("CacheLeaf", superclass: mid)
        let obj = try #require(ic_class_create_instance(leaf))
        defer { ic_release(obj) }
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 1)  // fills leaf's cache
        #expect(ic_class_replace_method(base, sel("value"), imp(returns2), nil, nil) == IC_OK)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 2)
        // Setting the IMP of the method record invalidates too.
        ic_method_set_imp(ic_class_get_method(base, sel("value")), imp(returns7))
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 7)
    }

    @Test("adding an override to an intermediate class invalidates the leaf's cache")
    func addingOverrideInvalidates() throws {
        let base = try makeClass("OverrideBase", methods: [("value", imp(returns1), "i@:")])
        let mid = try makeClass("OverrideMid", superclass: base)
        let leaf = try makeClass("OverrideLeaf", superclass: mid)
        let obj = try #require(ic_class_create_instance(leaf))
        defer { ic_release(obj) }
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 1)
        #expect(ic_class_add_method(mid, sel("value"), imp(returns2), "i@:") == IC_OK)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 2)
    }

    @Test("an object moved to another class answers with that class's methods")
    func setClassChangesLookup() throws {
        let a = try makeClass("MoveA", methods: [("value", imp(returns1), "i@:")])
        let b = try makeClass("MoveB", methods: [("value", imp(returns2), "i@:")])
        let obj = try #require(ic_class_create_instance(a))
        defer { ic_release(obj) }
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 1)
        #expect(ic_object_set_class(obj, b) == a)
        #expect(ic_object_get_class(obj) == b)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 2)
        #expect(ic_object_set_class(obj, a) == b)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 1)
    }

    @Test("an object moved to another class counts as that class's live instance")
    func setClassMovesLiveCount() throws {
        let a = try makeClass("CountA")
        let b = try makeClass("CountB")
        let obj = try #require(ic_class_create_instance(a))
        #expect(ic_object_set_class(obj, b) == a)
        #expect(ic_class_live_instance_count(a) == 0)
        #expect(ic_class_live_instance_count(b) == 1)
        ic_release(obj)
        #expect(ic_class_live_instance_count(b) == 0)
        #expect(ic_class_live_instance_count(a) == 0)
    }

    @Test("a class forwards invocations when its chain overrides forwardInvocation:")
    func forwardsInvocations() throws {
        let forward: @convention(c) (ID?, SEL?, OpaquePointer?) -> Void = { _, _, _ in }
        let plain = try makeClass("NoForward")
        let forwarding = try makeClass("Forwarding", methods: [("forwardInvocation:", imp(forward), "v@:^v")])
        let sub = try makeClass("ForwardingSub", superclass: forwarding)
        #expect(!ic_class_forwards_invocations(plain))
        #expect(!ic_class_forwards_invocations(ic_class_root()))
        #expect(ic_class_forwards_invocations(forwarding))
        #expect(ic_class_forwards_invocations(sub))
        #expect(!ic_class_forwards_invocations(nil))
    }

    @Test("an object cannot move to a class whose instances are larger")
    func setClassRefusesLargerClass() throws {
        let small = try makeClass("MoveSmall")
        let large = try makeClass("MoveLarge", storage: 64)
        let obj = try #require(ic_class_create_instance(small))
        defer { ic_release(obj) }
        #expect(ic_object_set_class(obj, large) == nil)
        #expect(ic_error_status() == IC_ERR_INCOMPATIBLE_CLASS)
        #expect(ic_object_get_class(obj) == small)
        let unregistered = try #require(ic_class_allocate(uniqueName("MoveUnreg"), nil, 0))
        #expect(ic_object_set_class(obj, unregistered) == nil)
        #expect(ic_error_status() == IC_ERR_CLASS_NOT_REGISTERED)
        #expect(ic_class_dispose(unregistered) == IC_OK)
    }

    @Test("a super send starts at the given superclass")
    func superSend() throws {
        let base = try makeClass("SuperBase", methods: [("value", imp(returns1), "i@:")])
        let sub = try makeClass("SuperSub", superclass: base, methods: [("value", imp(returns2), "i@:")])
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        var sup = ic_super(receiver: obj, super_class: base)
        #expect(fn(ic_msg_lookup_super(&sup, sel("value")), as: Int32IMP.self)(obj, sel("value")) == 1)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 2)
    }

    @Test("a cached lookup answers the class and the IMP only once the selector is cached")
    func cachedLookupPeeksAtTheDispatchCache() throws {
        let cls = try makeClass("MsgCached", methods: [("value", imp(returns1), "i@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let before = ic_msg_lookup_cached(obj, sel("value"))
        #expect(before.cls == cls)
        #expect(before.imp == nil)  // never sent: nothing cached, nothing resolved
        let resolved = ic_msg_lookup(obj, sel("value"))
        let after = ic_msg_lookup_cached(obj, sel("value"))
        #expect(after.cls == cls)
        #expect(unsafeBitCast(after.imp, to: UInt.self) == unsafeBitCast(resolved, to: UInt.self))
        // Replacing the method invalidates the cache: the peek misses until the next lookup.
        #expect(ic_class_replace_method(cls, sel("value"), imp(returns2), "i@:", nil) == IC_OK)
        #expect(ic_msg_lookup_cached(obj, sel("value")).imp == nil)
        #expect(lookup(obj, "value", as: Int32IMP.self)(obj, sel("value")) == 2)
        let refilled = try #require(ic_msg_lookup_cached(obj, sel("value")).imp)
        #expect(fn(refilled, as: Int32IMP.self)(obj, sel("value")) == 2)
    }

    @Test("the send macros work from C", .tags(.fromC))
    func sendMacrosFromC() throws {
        let cls = try makeClass("MsgMacro", methods: [("add:", imp(addOne), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        // ict_send_echo of the int case uses IC_MSG(IC_FN(int, int), ...).
        var count = 0
        let cases = ict_type_cases(&count)!
        let intCase = (0..<count).map { cases[$0] }.first { String(cString: $0.name) == "int" }!
        var input: Int32 = 41
        var output: Int32 = 0
        intCase.send_echo(obj, sel("add:"), &input, &output)
        #expect(output == 42)
        #expect(ict_send_add_by_name(obj) == 42)
    }

    @Test("many threads sending while methods are replaced always get a valid IMP")
    func concurrentSendAndReplace() async throws {
        let cls = try makeClass("MsgRace", methods: [("value", imp(returns1), "i@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let objBits = UInt(bitPattern: obj)
        let clsBits = UInt(bitPattern: cls)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let o = OpaquePointer(bitPattern: objBits)
                    for _ in 0..<20_000 {
                        let r = lookup(o, "value", as: Int32IMP.self)(o, sel("value"))
                        #expect(r == 1 || r == 2)
                    }
                }
            }
            group.addTask {
                let c = OpaquePointer(bitPattern: clsBits)
                for i in 0..<2_000 {
                    ic_class_replace_method(c, sel("value"), imp(i % 2 == 0 ? returns2 : returns1), nil, nil)
                }
            }
        }
    }
}

extension Tag {
    @Tag static var fromC: Self
}
