import CInterception
import CInterceptionTestSupport
import Testing

// A base `value:` and an override that calls super: each records into the recorder in storage.
private func recorderOf(_ this: ID?) -> Recorder {
    Recorder.from(ic_object_storage(this)!.load(as: UnsafeMutableRawPointer.self))
}

private let baseValue: Int32Int32IMP = { this, _, x in
    recorderOf(this).record("base")
    return x + 1
}

/// The override in the subclass: calls super from its own class (found by name lookup in the
/// storage slot 8), as compiled code would.
private let subValue: Int32Int32IMP = { this, cmd, x in
    recorderOf(this).record("sub")
    let defining = ic_object_storage(this)!.load(fromByteOffset: 8, as: OpaquePointer.self)
    var sup = ic_super(receiver: this, super_class: ic_class_superclass(defining))
    return fn(ic_msg_lookup_super(&sup, cmd), as: Int32Int32IMP.self)(this, cmd, x) * 10
}

/// An observer that calls the intercepted method again once (x > 0 → x - 100 < 0 stops it).
private let reentrantObserver: ObserverCallback = { call, context in
    var x: Int32 = 0
    ic_invocation_get_argument(call, 2, &x)
    Recorder.from(context).record("observer \(x)")
    if x > 0 {
        let this = ic_invocation_target(call)
        _ = lookup(this, "value:", as: Int32Int32IMP.self)(this, sel("value:"), x - 100)
    }
}

private let doubleArgument: ObserverCallback = { call, _ in
    var x: Int32 = 0
    ic_invocation_get_argument(call, 2, &x)
    x *= 2
    ic_invocation_set_argument(call, 2, &x)
}

private let negateResult: ObserverCallback = { call, _ in
    var r: Int32 = 0
    ic_invocation_get_return_value(call, &r)
    r = -r
    ic_invocation_set_return_value(call, &r)
}

/// Removes its own observer (token in the recorder's first value) the first time it runs.
private let removeSelf: ObserverCallback = { call, context in
    let recorder = Recorder.from(context)
    recorder.record("self-removing")
    if let tokenBytes = recorder.values("token").first {
        let token = tokenBytes.withUnsafeBytes { $0.load(as: ic_observer_token.self) }
        _ = ic_intercept_remove_observer(token)
    }
}

@Suite("Interception: hierarchy, instances and reentrancy")
struct InterceptHierarchyTests {
    struct Pair {
        let base: CLS
        let sub: CLS
    }

    func makePair() throws -> Pair {
        let base = try makeClass("HBase", storage: 16, methods: [("value:", imp(baseValue), "i@:i")])
        let sub = try makeClass("HSub", superclass: base, methods: [("value:", imp(subValue), "i@:i")])
        return Pair(base: base, sub: sub)
    }

    func make(_ cls: CLS, _ recorder: Recorder) throws -> ID {
        let obj = try #require(ic_class_create_instance(cls))
        ic_object_storage(obj)!.storeBytes(of: recorder.retainedContext(), as: UnsafeMutableRawPointer.self)
        ic_object_storage(obj)!.storeBytes(of: cls, toByteOffset: 8, as: OpaquePointer.self)
        return obj
    }

    func destroy(_ obj: ID) {
        Unmanaged<Recorder>.fromOpaque(ic_object_storage(obj)!.load(as: UnsafeMutableRawPointer.self))
            .release()
        ic_release(obj)
    }

    @Test(
        "a class and its superclass both intercepted, the subclass calling super: each observer sees each call once"
    )
    func classAndSuperclassBothIntercepted() throws {
        let pair = try makePair()
        let log = Recorder()
        let baseObject = try make(pair.base, log)
        let subObject = try make(pair.sub, log)
        defer {
            destroy(baseObject)
            destroy(subObject)
        }
        let baseObserved = Recorder()
        let subObserved = Recorder()
        try observe(baseObject, "value:", IC_OBSERVE_BEFORE, recordBefore, baseObserved)
        try observe(baseObject, "value:", IC_OBSERVE_AFTER, recordAfter, baseObserved)
        try observe(subObject, "value:", IC_OBSERVE_BEFORE, recordBefore, subObserved)
        try observe(subObject, "value:", IC_OBSERVE_AFTER, recordAfter, subObserved)

        #expect(lookup(subObject, "value:", as: Int32Int32IMP.self)(subObject, sel("value:"), 4) == 50)
        #expect(log.events == ["sub", "base"])
        #expect(subObserved.events == ["before value:", "after value:"])
        #expect(baseObserved.events.isEmpty)

        #expect(lookup(baseObject, "value:", as: Int32Int32IMP.self)(baseObject, sel("value:"), 4) == 5)
        #expect(baseObserved.events == ["before value:", "after value:"])
        #expect(subObserved.events.count == 2)
    }

    @Test("a method defined in a superclass can be intercepted on a subclass instance")
    func inheritedMethod() throws {
        let pair = try makePair()
        let leaf = try makeClass("HLeaf", superclass: pair.base)
        let log = Recorder()
        let obj = try make(leaf, log)
        defer { destroy(obj) }
        let observed = Recorder()
        try observe(obj, "value:", IC_OBSERVE_BEFORE, recordBefore, observed)
        #expect(lookup(obj, "value:", as: Int32Int32IMP.self)(obj, sel("value:"), 1) == 2)
        #expect(observed.events == ["before value:"])
        #expect(log.events == ["base"])
    }

    @Test("only the intercepted instance is affected")
    func onlyThatInstance() throws {
        let pair = try makePair()
        let log = Recorder()
        let watched = try make(pair.base, log)
        let other = try make(pair.base, log)
        defer {
            destroy(watched)
            destroy(other)
        }
        let observed = Recorder()
        try observe(watched, "value:", IC_OBSERVE_BEFORE, recordBefore, observed)
        #expect(ic_object_get_class(other) == pair.base)
        #expect(lookup(other, "value:", as: Int32Int32IMP.self)(other, sel("value:"), 1) == 2)
        #expect(observed.events.isEmpty)
        #expect(ic_intercept_path_of(other, sel("value:")) == IC_PATH_NONE)
    }

    @Test("an observer that calls the intercepted method again sees each call once")
    func reentrantObserverSeesEachCallOnce() throws {
        let pair = try makePair()
        let log = Recorder()
        let obj = try make(pair.base, log)
        defer { destroy(obj) }
        let observed = Recorder()
        try observe(obj, "value:", IC_OBSERVE_BEFORE, reentrantObserver, observed)
        #expect(lookup(obj, "value:", as: Int32Int32IMP.self)(obj, sel("value:"), 7) == 8)
        #expect(observed.events == ["observer 7", "observer -93"])
        #expect(log.events == ["base", "base"])
    }

    @Test("several selectors on one object and one selector on many objects")
    func severalSelectorsManyObjects() throws {
        let cls = try makeClass(
            "HMany", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let objects = try (0..<20).map { _ in try #require(ic_class_create_instance(cls)) }
        defer {
            for obj in objects { ic_release(obj) }
        }
        let recorders = objects.map { _ in Recorder() }
        for (obj, recorder) in zip(objects, recorders) {
            try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
            try observe(obj, "ping", IC_OBSERVE_AFTER, recordAfter, recorder)
        }
        #expect(
            ClassCounters(cls)
                == ClassCounters(subclasses: 1, optimized: 2, liveObjects: 20, observers: 40, intercepted: 20)
        )
        for (i, obj) in objects.enumerated() where i % 2 == 0 {
            _ = lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1)
            lookup(obj, "ping", as: VoidIMP.self)(obj, sel("ping"))
        }
        for (i, recorder) in recorders.enumerated() {
            #expect(recorder.events == (i % 2 == 0 ? ["before add:", "after ping"] : []))
        }
    }

    @Test("a before-observer may change an argument and an after-observer the result")
    func observersMayEditTheCall() throws {
        let cls = try makeClass("HEdit", methods: [("add:", imp(addOneIMP), "i@:i")])
        let forwarded = try makeClass("HEditFwd", methods: [("add:", imp(addOneIMP), "i@:i")])
        for (cls, options) in [(cls, UInt32(0)), (forwarded, UInt32(IC_INTERCEPT_FORCE_FORWARDING))] {
            let obj = try #require(ic_class_create_instance(cls))
            defer { ic_release(obj) }
            #expect(ic_intercept_prepare_with_options(obj, sel("add:"), options) == IC_OK)
            var t1: ic_observer_token = 0
            var t2: ic_observer_token = 0
            #expect(
                ic_intercept_add_observer(obj, sel("add:"), IC_OBSERVE_BEFORE, doubleArgument, nil, nil, &t1)
                    == IC_OK)
            #expect(
                ic_intercept_add_observer(obj, sel("add:"), IC_OBSERVE_AFTER, negateResult, nil, nil, &t2)
                    == IC_OK)
            #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 20) == -41)
        }
    }

    @Test(
        "a method replaced in the original class after interception is what intercepted calls run, observed or not, on both paths"
    )
    func replacedOriginalIsHonoured() throws {
        let timesThree: Int32Int32IMP = { _, _, x in x &* 3 }
        for (name, options) in [
            ("HReplaced", UInt32(0)), ("HReplacedFwd", UInt32(IC_INTERCEPT_FORCE_FORWARDING)),
        ] {
            let cls = try makeClass(name, methods: [("add:", imp(addOneIMP), "i@:i")])
            let observedObject = try #require(ic_class_create_instance(cls))
            let quietObject = try #require(ic_class_create_instance(cls))
            defer {
                ic_release(observedObject)
                ic_release(quietObject)
            }
            for obj in [observedObject, quietObject] {
                #expect(ic_intercept_prepare_with_options(obj, sel("add:"), options) == IC_OK)
            }
            let observed = Recorder()
            try observe(observedObject, "add:", IC_OBSERVE_BEFORE, recordBefore, observed)
            let send = { (obj: ID) in lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 5) }
            // Warm the dispatch tables, then replace: the cached original must not survive.
            #expect(send(observedObject) == 6)
            #expect(send(quietObject) == 6)
            #expect(ic_class_replace_method(cls, sel("add:"), imp(timesThree), nil, nil) == IC_OK)
            #expect(send(observedObject) == 15)
            #expect(send(quietObject) == 15)
            #expect(observed.events == ["before add:", "before add:"])
        }
    }

    @Test("an observer can remove itself while it runs; it is not called again")
    func selfRemoval() throws {
        let cls = try makeClass("HSelf", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let recorder = Recorder()
        let token = try observe(obj, "add:", IC_OBSERVE_BEFORE, removeSelf, recorder)
        withUnsafeBytes(of: token) { recorder.record("token", bytes: $0.baseAddress, count: $0.count) }
        for _ in 0..<3 { _ = lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) }
        #expect(recorder.events.filter { $0 == "self-removing" }.count == 1)
        #expect(ic_object_get_class(obj) == cls)  // its only observer left: moved back
        ic_intercept_quiesce()
        #expect(recorder.releaseCount == 1)
    }

    @Test("an object in someone else's dynamic subclass is intercepted cooperatively")
    func foreignDynamicSubclass() throws {
        // A KVO-like subclass that answers `class` with the original class (kept in storage).
        let cls = try makeClass("HKVO", storage: 8, methods: [("add:", imp(addOneIMP), "i@:i")])
        let answerOriginal: ClassIMP = { this, _ in
            ic_object_storage(this)!.load(as: OpaquePointer.self)
        }
        let kvo = try makeClass(
            "KVONotifying_HKVO", superclass: cls, methods: [("class", imp(answerOriginal), "#@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        ic_object_storage(obj)!.storeBytes(of: cls, as: OpaquePointer.self)
        #expect(ic_object_set_class(obj, kvo) == cls)
        let recorder = Recorder()
        try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
        #expect(ic_class_superclass(ic_object_get_class(obj)) == kvo)
        #expect(ic_intercept_original_class(obj) == kvo)
        #expect(lookup(obj, "class", as: ClassIMP.self)(obj, sel("class")) == cls)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
        #expect(recorder.events == ["before add:"])
    }
}
