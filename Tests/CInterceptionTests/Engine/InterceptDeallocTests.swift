import CInterception
import Testing

/// A dealloc override that records its class's tag (in storage at 8 + 8 * depth) and calls
/// super from the class that defines it (storage slot at 0 holds the recorder).
private func makeDealloc(depth: Int) -> VoidIMP {
    depth == 0
        ? { this, cmd in deallocBody(this, cmd, depth: 0) }
        : { this, cmd in deallocBody(this, cmd, depth: 1) }
}

private func deallocBody(_ this: ID?, _ cmd: SEL?, depth: Int) {
    let storage = ic_object_storage(this)!
    let recorder = Recorder.from(storage.load(as: UnsafeMutableRawPointer.self))
    let defining = storage.load(fromByteOffset: 8 + 8 * depth, as: OpaquePointer.self)
    recorder.record("dealloc \(String(cString: ic_class_name(defining)).split(separator: "_")[0])")
    var sup = ic_super(receiver: this, super_class: ic_class_superclass(defining))
    fn(ic_msg_lookup_super(&sup, cmd), as: VoidIMP.self)(this, cmd)
}

@Suite("Interception: dealloc observers")
struct InterceptDeallocTests {
    @Test(
        "deallocating and deallocated fire exactly once, whichever classes implement dealloc",
        arguments: [(false, false), (true, false), (false, true), (true, true)])
    func deallocLayouts(baseImplements: Bool, subImplements: Bool) throws {
        let base = try makeClass(
            "DBase", storage: 24,
            methods: baseImplements ? [("dealloc", imp(makeDealloc(depth: 0)), "v@:")] : [])
        let sub = try makeClass(
            "DSub", superclass: base,
            methods: subImplements ? [("dealloc", imp(makeDealloc(depth: 1)), "v@:")] : [])
        let recorder = Recorder()
        let obj = try #require(ic_class_create_instance(sub))
        let storage = ic_object_storage(obj)!
        storage.storeBytes(
            of: Unmanaged.passUnretained(recorder).toOpaque(), as: UnsafeMutableRawPointer.self)
        storage.storeBytes(of: base, toByteOffset: 8, as: OpaquePointer.self)
        storage.storeBytes(of: sub, toByteOffset: 16, as: OpaquePointer.self)

        try observeDealloc(obj, IC_OBSERVE_BEFORE, recordDeallocating, recorder)
        try observeDealloc(obj, IC_OBSERVE_AFTER, recordDeallocated, recorder)
        #expect(ClassCounters(sub).observers == 2)
        ic_release(obj)

        var expected = ["deallocating DSub"]
        if subImplements { expected.append("dealloc DSub") }
        if baseImplements { expected.append("dealloc DBase") }
        expected.append("deallocated")
        #expect(recorder.events.map { $0.replacing(#/_\d+/#, with: "") } == expected)
        #expect(ClassCounters(sub).observers == 0)
        #expect(ClassCounters(sub).intercepted == 0)
        #expect(ic_class_live_instance_count(sub) == 0)
        ic_intercept_quiesce()
        #expect(recorder.releaseCount == 2)
    }

    @Test("a deallocated observer needs no method swapping")
    func deallocatedWithoutSwapping() throws {
        let cls = try makeClass("DPlain")
        let obj = try #require(ic_class_create_instance(cls))
        let recorder = Recorder()
        try observeDealloc(obj, IC_OBSERVE_AFTER, recordDeallocated, recorder)
        #expect(ic_object_get_class(obj) == cls)
        #expect(ClassCounters(cls) == ClassCounters(liveObjects: 1, observers: 1))
        ic_release(obj)
        #expect(recorder.events == ["deallocated"])
        #expect(ClassCounters(cls) == ClassCounters())
    }

    @Test("observers removed before death are not called; tokens die with the object")
    func removedBeforeDeath() throws {
        let cls = try makeClass("DRemoved", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let recorder = Recorder()
        let a = try observeDealloc(obj, IC_OBSERVE_BEFORE, recordDeallocating, recorder)
        let b = try observeDealloc(obj, IC_OBSERVE_AFTER, recordDeallocated, recorder)
        let c = try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
        #expect(ic_intercept_remove_observer(a) == IC_OK)
        #expect(ic_intercept_remove_observer(b) == IC_OK)
        ic_release(obj)
        #expect(recorder.events.isEmpty)
        #expect(ic_intercept_remove_observer(c) == IC_ERR_OBSERVER_NOT_FOUND)
        ic_intercept_quiesce()
        #expect(recorder.releaseCount == 3)
        #expect(ClassCounters(cls).observers == 0)
    }

    @Test("a deallocating observer sees the object whole and may message it")
    func deallocatingSeesWholeObject() throws {
        let messaging: DeallocCallback = { object, context in
            let r = lookup(object, "add:", as: Int32Int32IMP.self)(object, sel("add:"), 41)
            Recorder.from(context).record("add: \(r), deallocating \(ic_object_is_deallocating(object))")
        }
        let cls = try makeClass("DWhole", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let recorder = Recorder()
        try observeDealloc(obj, IC_OBSERVE_BEFORE, messaging, recorder)
        ic_release(obj)
        #expect(recorder.events == ["add: 42, deallocating true"])
    }

    @Test("observers cannot be added to an object that is deallocating")
    func noObserversWhileDying() throws {
        let addDuringDealloc: DeallocCallback = { object, context in
            var token: ic_observer_token = 0
            let s = ic_intercept_add_dealloc_observer(
                object, IC_OBSERVE_AFTER, recordDeallocated, nil, nil, &token)
            let t = ic_intercept_add_observer(
                object, sel("add:"), IC_OBSERVE_BEFORE, recordBefore, nil, nil, &token)
            Recorder.from(context).record("\(statusName(s)) \(statusName(t))")
        }
        let cls = try makeClass("DDying", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let recorder = Recorder()
        try observeDealloc(obj, IC_OBSERVE_BEFORE, addDuringDealloc, recorder)
        ic_release(obj)
        #expect(recorder.events == ["IC_ERR_DEALLOCATING IC_ERR_DEALLOCATING"])
    }
}
