import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

// Area: hook state and dealloc positions in C (ic_hook.h, SPEC 16.2-16.4). Purpose:
// ic_hook_remove_reporting says whether the object or class is back to its exact original state
// or kept a foreign IMP; ic_hook_is_active; "is hooked", the list and "remove all" per object and
// per class; instead hooks on dealloc run the original exactly once; after-dealloc hooks per
// object and class-wide get the former address and the class; a class trampoline moved by an
// exchange runs its record.

private let deallocatedRecord:
    @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void = {
        address, cls, context in
        let recorder = Unmanaged<Recorder>.fromOpaque(context!).takeUnretainedValue()
        recorder.record("deallocated \(UInt(bitPattern: address)) \(String(cString: ic_class_name(cls)))")
    }

@Suite("Hook state and dealloc positions (C)", .serialized)
struct HookStateCTests {
    @Test(
        "remove_reporting: 0 while hooks remain, RESTORED with the last, NOT_FOUND after; is_active follows")
    func removalOutcome() throws {
        let cls = try makeClass(
            "HSOutcome", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let a = try hook(obj, "add:", IC_HOOK_BEFORE) { _ in }
        let b = try hook(obj, "ping", IC_HOOK_AFTER) { _ in }
        #expect(ic_hook_is_active(a) && ic_hook_is_active(b))
        var outcome: UInt32 = 99
        #expect(ic_hook_remove_reporting(a, &outcome) == IC_OK)
        #expect(outcome == 0)
        #expect(!ic_hook_is_active(a))
        #expect(ic_hook_remove_reporting(b, &outcome) == IC_OK)
        #expect(outcome == UInt32(IC_HOOK_RESTORED))
        #expect(ic_object_get_class(obj) == cls)
        #expect(ic_hook_remove_reporting(b, &outcome) == IC_ERR_OBSERVER_NOT_FOUND)
        #expect(outcome == 0)
        // Class-wide: the last hook of (class, selector) restores; an IMP set over it is kept.
        let c = try hookClass(cls, "add:", IC_HOOK_BEFORE) { _ in }
        #expect(ic_hook_remove_reporting(c, &outcome) == IC_OK && outcome == UInt32(IC_HOOK_RESTORED))
        let d = try hookClass(cls, "add:", IC_HOOK_BEFORE) { _ in }
        let foreign: Int32Int32IMP = { _, _, x in x &* 7 }
        _ = ic_method_set_imp(ic_class_get_own_method(cls, sel("add:")), imp(foreign))
        #expect(ic_hook_remove_reporting(d, &outcome) == IC_OK && outcome == UInt32(IC_HOOK_FOREIGN_KEPT))
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 2) == 14)
    }

    @Test("is_hooked, copy_list and remove_all count hooks, per object and per class, not observers")
    func stateQueries() throws {
        let cls = try makeClass(
            "HSQueries", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let recorder = Recorder()
        let observer = try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, recorder)
        #expect(!ic_hook_object_is_hooked(obj, sel("add:")))
        let after = try hook(obj, "add:", IC_HOOK_AFTER) { _ in }
        let before = try hook(obj, "add:", IC_HOOK_BEFORE, options: UInt32(IC_HOOK_ONE_SHOT)) { _ in }
        let ping = try hook(obj, "ping", IC_HOOK_INSTEAD) { call in ic_hook_call_original(call) }
        var deallocatedToken: ic_observer_token = 0
        #expect(
            ic_hook_object_deallocated(
                obj, deallocatedRecord, Unmanaged.passUnretained(recorder).toOpaque(), nil, &deallocatedToken)
                == IC_OK)
        #expect(ic_hook_object_is_hooked(obj, sel("add:")) && ic_hook_object_is_hooked(obj, nil))
        #expect(ic_hook_object_is_hooked(obj, sel("dealloc")))
        var count = 0
        let list = try #require(ic_hook_object_copy_list(obj, &count))
        let infos = (0..<count).map { list[$0] }
        free(list)
        let byToken = Dictionary(uniqueKeysWithValues: infos.map { ($0.token, $0) })
        #expect(Set(byToken.keys) == [after, before, ping, deallocatedToken])
        #expect(
            byToken[before]?.options == UInt32(IC_HOOK_ONE_SHOT)
                && byToken[before]?.position == IC_HOOK_BEFORE)
        #expect(byToken[after]?.position == IC_HOOK_AFTER && byToken[ping]?.position == IC_HOOK_INSTEAD)
        #expect(byToken[deallocatedToken]?.sel == sel("dealloc"))
        let classToken = try hookClass(cls, "ping", IC_HOOK_BEFORE) { _ in }
        #expect(ic_hook_class_is_hooked(cls, sel("ping")) && !ic_hook_class_is_hooked(cls, sel("add:")))
        var classCount = 0
        let classList = try #require(ic_hook_class_copy_list(cls, &classCount))
        #expect(classCount == 1 && classList[0].token == classToken)
        free(classList)
        var removed = 0
        #expect(ic_hook_object_remove_all(obj, sel("add:"), &removed) == IC_OK && removed == 2)
        #expect(ic_hook_object_remove_all(obj, nil, &removed) == IC_OK && removed == 2)
        #expect(!ic_hook_object_is_hooked(obj, nil))
        #expect(ic_hook_is_active(observer))  // the observer stayed
        #expect(ic_hook_class_remove_all(cls, nil, &removed) == IC_OK && removed == 1)
        #expect(!ic_hook_class_is_hooked(cls, nil))
        #expect(ic_hook_remove(observer) == IC_OK)
        #expect(ic_object_get_class(obj) == cls)
    }

    @Test(
        "instead hooks on dealloc: the original runs once, called by the hook or not; after-dealloc hooks get address and class"
    )
    func deallocPositions() throws {
        let recorder = Recorder()
        let cls = try makeClass("HSDealloc", methods: [("ping", imp(voidIMP), "v@:")])
        let sub = try makeClass("HSDeallocSub", superclass: cls)
        let context = Unmanaged.passUnretained(recorder).toOpaque()
        var classToken: ic_observer_token = 0
        #expect(ic_hook_class_deallocated(cls, deallocatedRecord, context, nil, &classToken) == IC_OK)
        let liveBefore = ic_class_live_instance_count(cls)
        // An object whose instead hook skips the original, one whose hook calls it twice.
        let skipper = try #require(ic_class_create_instance(cls))
        try hook(skipper, "dealloc", IC_HOOK_INSTEAD) { _ in recorder.record("skipped") }
        let twice = try #require(ic_class_create_instance(sub))
        try hook(twice, "dealloc", IC_HOOK_INSTEAD) { call in
            ic_hook_call_original(call)
            ic_hook_call_original(call)
            recorder.record("called twice")
        }
        var objectToken: ic_observer_token = 0
        #expect(ic_hook_object_deallocated(twice, deallocatedRecord, context, nil, &objectToken) == IC_OK)
        let skipperAddress = UInt(bitPattern: skipper)
        let twiceAddress = UInt(bitPattern: twice)
        ic_release(skipper)
        ic_release(twice)
        let clsName = String(cString: ic_class_name(cls))
        let subName = String(cString: ic_class_name(sub))
        // The class's after hook runs as its layer returns, inside the object's instead hook;
        // the object's after it.
        #expect(
            recorder.events == [
                "skipped", "deallocated \(skipperAddress) \(clsName)",
                "deallocated \(twiceAddress) \(subName)",
                "called twice", "deallocated \(twiceAddress) \(subName)",
            ])
        #expect(ic_class_live_instance_count(cls) == liveBefore)
        #expect(ic_hook_remove(classToken) == IC_OK)
        #expect(!ic_hook_is_active(objectToken))  // gone with its object
    }

    @Test("a class trampoline exchanged to another selector runs its hooks and its method's original")
    func exchangedClassTrampoline() throws {
        let recorder = Recorder()
        ClassHookLogForState.current = recorder
        let original: VoidIMP = { _, _ in ClassHookLogForState.current.record("original") }
        let swizzled: VoidIMP = { this, _ in
            ClassHookLogForState.current.record("swizzled")
            lookup(this, "swizzled_ping", as: VoidIMP.self)(this, sel("swizzled_ping"))
        }
        let cls = try makeClass(
            "HSExchange", methods: [("ping", imp(original), "v@:"), ("swizzled_ping", imp(swizzled), "v@:")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let token = try hookClass(cls, "ping", IC_HOOK_BEFORE) { _ in recorder.record("hook") }
        #expect(ic_hook_class_path_of(cls, sel("ping")) == IC_PATH_OPTIMIZED)
        let ping = ic_class_get_own_method(cls, sel("ping"))
        let swizzledPing = ic_class_get_own_method(cls, sel("swizzled_ping"))
        #expect(ic_method_exchange_imps(ping, swizzledPing) == IC_OK)
        lookup(obj, "ping", as: VoidIMP.self)(obj, sel("ping"))
        #expect(recorder.events == ["swizzled", "hook", "original"])
        var outcome: UInt32 = 0
        #expect(ic_hook_remove_reporting(token, &outcome) == IC_OK && outcome == UInt32(IC_HOOK_FOREIGN_KEPT))
        func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }
        #expect(address(ic_method_imp(swizzledPing)) == address(imp(original)))
        #expect(ic_method_exchange_imps(ping, swizzledPing) == IC_OK)
        #expect(address(ic_method_imp(ping)) == address(imp(original)))
        #expect(address(ic_method_imp(swizzledPing)) == address(imp(swizzled)))
    }
}

/// The log of the exchange test (a C IMP cannot capture).
private enum ClassHookLogForState {
    nonisolated(unsafe) static var current = Recorder()
}
