import CInterception
import CInterceptionTestSupport
import Testing

@Suite("Interception: subclasses, counters and refusals")
struct InterceptCounterTests {
    @Test("the first interception makes one subclass and one optimized method; asking again changes nothing")
    func countersOnPrepare() throws {
        let cls = try makeClass(
            "CountFirst", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let a = try #require(ic_class_create_instance(cls))
        let b = try #require(ic_class_create_instance(cls))
        defer {
            ic_release(a)
            ic_release(b)
        }
        #expect(ClassCounters(cls) == ClassCounters(liveObjects: 2))
        #expect(ic_intercept_prepare(a, sel("add:")) == IC_OK)
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 2, intercepted: 1))
        #expect(ic_intercept_prepare(a, sel("add:")) == IC_OK)
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 2, intercepted: 1))
        // Another instance reuses the subclass and its method.
        #expect(ic_intercept_prepare(b, sel("add:")) == IC_OK)
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 2, intercepted: 2))
        // Another selector: one more optimized method.
        #expect(ic_intercept_prepare(a, sel("ping")) == IC_OK)
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 2, liveObjects: 2, intercepted: 2))
        #expect(ic_object_get_class(a) == ic_object_get_class(b))
        #expect(ic_class_is_interception_subclass(ic_object_get_class(a)))
        #expect(String(cString: ic_object_class_name(a)).hasPrefix("_ICIntercepted_CountFirst"))
    }

    @Test("a struct-returning method is forwarded: +1 forwarded method, +1 forwarding class")
    func countersOnForward() throws {
        let ddd = TypeCase.all.first { $0.name == "struct_ddd" }!
        let cls = try makeClass(
            "CountForward",
            methods: [("vec", ddd.raw.make_imp, "{ddd=ddd}@:"), ("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(ic_intercept_prepare(obj, sel("vec")) == IC_OK)
        #expect(ic_intercept_path_of(obj, sel("vec")) == IC_PATH_FORWARDED)
        #expect(
            ClassCounters(cls)
                == ClassCounters(
                    subclasses: 1, forwardingClasses: 1, forwarded: 1, liveObjects: 1, intercepted: 1))
        // Forcing the forward path for another selector: one more forwarded, same forwarding class.
        #expect(
            ic_intercept_prepare_with_options(obj, sel("add:"), UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        #expect(ic_intercept_path_of(obj, sel("add:")) == IC_PATH_FORWARDED)
        #expect(
            ClassCounters(cls)
                == ClassCounters(
                    subclasses: 1, forwardingClasses: 1, forwarded: 2, liveObjects: 1, intercepted: 1))
        #expect(fn(ic_msg_lookup(obj, sel("add:")), as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
    }

    @Test("observers are counted while registered; the last removal moves the object back")
    func observerCountsAndRestore() throws {
        let cls = try makeClass("CountObservers", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let recorder = Recorder()
        let t1 = try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
        let t2 = try observe(obj, "add:", IC_OBSERVE_AFTER, recordAfter, recorder)
        #expect(ClassCounters(cls).observers == 2)
        #expect(ic_object_get_class(obj) != cls)
        #expect(ic_intercept_original_class(obj) == cls)
        #expect(ic_intercept_remove_observer(t1) == IC_OK)
        #expect(ClassCounters(cls).observers == 1)
        #expect(ic_object_get_class(obj) != cls)  // still observed
        #expect(ic_intercept_remove_observer(t2) == IC_OK)
        #expect(ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 1))
        #expect(ic_object_get_class(obj) == cls)  // moved back: calls cost an unintercepted call
        #expect(ic_intercept_path_of(obj, sel("add:")) == IC_PATH_NONE)
        // Released once no section that began before the removals runs (other suites' threads
        // may be in one): wait for them.
        ic_intercept_quiesce()
        #expect(recorder.releaseCount == 2)
        // Observing again moves it into the same subclass.
        let t3 = try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
        #expect(
            ClassCounters(cls)
                == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 1, observers: 1, intercepted: 1))
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
        #expect(recorder.events == ["before add:"])
        #expect(ic_intercept_remove_observer(t3) == IC_OK)
        #expect(ic_intercept_remove_observer(t3) == IC_ERR_OBSERVER_NOT_FOUND)
    }

    @Test(
        "the interception subclass answers class, respondsToSelector: and methodSignatureForSelector: as the original"
    )
    func subclassAnswersAsOriginal() throws {
        let base = try makeClass("AnswerBase", methods: [("add:", imp(addOneIMP), "i@:i")])
        let cls = try makeClass("Answer", superclass: base, methods: [("ping", imp(voidIMP), "v@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        typealias SignatureIMP = @convention(c) (ID?, SEL?, SEL?) -> OpaquePointer?
        let signatureBefore = lookup(obj, "methodSignatureForSelector:", as: SignatureIMP.self)(
            obj, sel("methodSignatureForSelector:"), sel("add:"))
        #expect(ic_intercept_prepare(obj, sel("add:")) == IC_OK)
        #expect(ic_object_get_class(obj) != cls)
        #expect(lookup(obj, "class", as: ClassIMP.self)(obj, sel("class")) == cls)
        let responds = lookup(obj, "respondsToSelector:", as: BoolSelIMP.self)
        #expect(responds(obj, sel("respondsToSelector:"), sel("add:")))
        #expect(responds(obj, sel("respondsToSelector:"), sel("ping")))
        #expect(!responds(obj, sel("respondsToSelector:"), sel("nope")))
        let signatureAfter = lookup(obj, "methodSignatureForSelector:", as: SignatureIMP.self)(
            obj, sel("methodSignatureForSelector:"), sel("add:"))
        #expect(signatureAfter == signatureBefore)
        #expect(lookup(obj, "isKindOfClass:", as: BoolClassIMP.self)(obj, sel("isKindOfClass:"), base))
        #expect(lookup(obj, "isMemberOfClass:", as: BoolClassIMP.self)(obj, sel("isMemberOfClass:"), cls))
    }

    @Test(
        "selectors the runtime relies on are refused",
        arguments: [
            "class", "respondsToSelector:", "methodSignatureForSelector:", "forwardInvocation:", "retain",
            "release",
        ])
    func forbiddenSelectors(name: String) throws {
        let cls = try makeClass("Forbidden")
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(statusName(ic_intercept_prepare(obj, sel(name))) == "IC_ERR_FORBIDDEN_SELECTOR")
        #expect(lastErrorMessage.contains(name))
        #expect(ClassCounters(cls) == ClassCounters(liveObjects: 1))
        #expect(ic_object_get_class(obj) == cls)
    }

    @Test("a selector the class does not implement is refused")
    func unimplementedSelector() throws {
        let cls = try makeClass("Unimplemented")
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(statusName(ic_intercept_prepare(obj, sel("missing:"))) == "IC_ERR_METHOD_NOT_FOUND")
        #expect(lastErrorMessage.contains("-[Unimplemented_"))
        #expect(lastErrorMessage.contains("missing:"))
        // The failed request left a subclass behind but did not move the object.
        #expect(ic_object_get_class(obj) == cls)
        #expect(ClassCounters(cls).intercepted == 0)
    }

    @Test("a method whose encoding libffi cannot call is refused as an unsupported signature")
    func unsupportedSignature() throws {
        let cls = try makeClass("Unsupported", methods: [("u:", imp(voidIMP), "v@:(U=if)")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(statusName(ic_intercept_prepare(obj, sel("u:"))) == "IC_ERR_UNSUPPORTED_SIGNATURE")
        #expect(lastErrorMessage.contains("union"))
    }

    @Test("an object moved to another class by someone else is refused")
    func classSwappedUnderUs() throws {
        let cls = try makeClass("Swapped", methods: [("add:", imp(addOneIMP), "i@:i")])
        let other = try makeClass("SwappedOther", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(ic_intercept_prepare(obj, sel("add:")) == IC_OK)
        let subclass = ic_object_get_class(obj)
        #expect(ic_object_set_class(obj, other) == subclass)
        #expect(statusName(ic_intercept_prepare(obj, sel("add:"))) == "IC_ERR_CLASS_SWAPPED")
        #expect(lastErrorMessage.contains("someone else"))
    }

    @Test("an object whose class derives from an interception subclass is refused")
    func subclassOfInterceptionSubclass() throws {
        let cls = try makeClass("Derived", methods: [("add:", imp(addOneIMP), "i@:i")])
        let first = try #require(ic_class_create_instance(cls))
        let second = try #require(ic_class_create_instance(cls))
        defer {
            ic_release(first)
            ic_release(second)
        }
        #expect(ic_intercept_prepare(first, sel("add:")) == IC_OK)
        let layered = try makeClass("Layered", superclass: ic_object_get_class(first))
        #expect(ic_object_set_class(second, layered) == cls)
        #expect(statusName(ic_intercept_prepare(second, sel("add:"))) == "IC_ERR_CLASS_SWAPPED")
    }

    @Test(
        "a class named like the interception subclass made by someone else is left alone: the engine takes the first free name"
    )
    func subclassNameCollision() throws {
        let name = uniqueName("Collide")
        let cls = try #require(ic_class_allocate(name, nil, 0))
        #expect(ic_class_add_method(cls, sel("add:"), imp(addOneIMP), "i@:i") == IC_OK)
        #expect(ic_class_register(cls) == IC_OK)
        try makeClassNamed("_ICIntercepted_\(name)")
        try makeClassNamed("_ICIntercepted_\(name)_1")
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(statusName(ic_intercept_prepare(obj, sel("add:"))) == "IC_OK")
        #expect(String(cString: ic_object_class_name(obj)) == "_ICIntercepted_\(name)_2")
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 1, intercepted: 1))
    }

    @Test("a method someone else added to the interception subclass is a collision")
    func foreignMethodInSubclass() throws {
        let cls = try makeClass(
            "Foreign", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(ic_intercept_prepare(obj, sel("add:")) == IC_OK)
        #expect(ic_class_add_method(ic_object_get_class(obj), sel("ping"), imp(voidIMP), "v@:") == IC_OK)
        #expect(statusName(ic_intercept_prepare(obj, sel("ping"))) == "IC_ERR_COLLISION")
    }

    @Test("an object that is deallocating cannot be intercepted")
    func deallocatingIsRefused() throws {
        let tryIntercept: VoidIMP = { this, cmd in
            let status = ic_intercept_prepare(this, sel("ping"))
            ic_object_storage(this)!.storeBytes(of: status.rawValue, as: UInt32.self)
            let recorder = ic_object_storage(this)!.load(fromByteOffset: 8, as: UnsafeMutableRawPointer.self)
            Recorder.from(recorder).record(statusName(status))
            var sup = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
            fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
        }
        let cls = try makeClass(
            "Dying", storage: 16,
            methods: [("ping", imp(voidIMP), "v@:"), ("dealloc", imp(tryIntercept), "v@:")])
        let recorder = Recorder()
        let obj = try #require(ic_class_create_instance(cls))
        ic_object_storage(obj)!.storeBytes(
            of: Unmanaged.passUnretained(recorder).toOpaque(), toByteOffset: 8,
            as: UnsafeMutableRawPointer.self)
        ic_release(obj)
        #expect(recorder.events == ["IC_ERR_DEALLOCATING"])
    }

    @Test("bad arguments are refused")
    func badArguments() throws {
        let cls = try makeClass("BadArgs", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        var token: ic_observer_token = 0
        #expect(ic_intercept_prepare(nil, sel("add:")) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_intercept_prepare(obj, nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_intercept_add_observer(obj, sel("add:"), IC_OBSERVE_BEFORE, nil, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_intercept_add_observer(obj, sel("add:"), IC_OBSERVE_BEFORE, recordBefore, nil, nil, nil)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_intercept_add_observer(
                obj, sel("add:"), ic_observer_phase(rawValue: 9), recordBefore, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_intercept_add_observer(obj, sel("dealloc"), IC_OBSERVE_AFTER, recordAfter, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_intercept_add_dealloc_observer(obj, IC_OBSERVE_AFTER, nil, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_intercept_remove_observer(0) == IC_ERR_OBSERVER_NOT_FOUND)
        #expect(ic_intercept_remove_observer(.max) == IC_ERR_OBSERVER_NOT_FOUND)
        #expect(ic_intercept_get_class_counters(nil, nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_intercept_path_of(nil, sel("add:")) == IC_PATH_NONE)
        #expect(ic_intercept_original_class(nil) == nil)
        #expect(ClassCounters(cls) == ClassCounters(liveObjects: 1))
    }

    @Test("the global counters add up")
    func globalCounters() throws {
        // Other suites create and release objects meanwhile (the stress suite all the time): keep
        // one alive so that the snapshot cannot catch the process with none and then differ
        // from a count read a moment later.
        let held = try #require(ic_class_create_instance(try makeClass("GlobalCounters")))
        defer { ic_release(held) }
        var c = ic_intercept_counters()
        ic_intercept_get_counters(&c)
        #expect(c.dynamic_subclasses >= c.forwarding_classes)
        #expect(c.live_objects == ic_object_live_count() || c.live_objects > 0)
    }
}

/// Allocates and registers a class with exactly this name.
@discardableResult
func makeClassNamed(_ name: String) throws -> CLS {
    let cls = try #require(ic_class_allocate(name, nil, 0))
    try #require(ic_class_register(cls) == IC_OK)
    return cls
}
