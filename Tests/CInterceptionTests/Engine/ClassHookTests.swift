import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

// Area: class-wide hooks (ic_hook_class). Purpose: every instance of a class runs the hooks,
// made before or after, subclasses included; the class layer sits between an object's hooks and
// the original; removal gives the class its exact method back; refusals.

/// Adds a class-wide hook running `body` (on a metaclass: a class-method hook); returns its token.
@discardableResult
func hookClass(
    _ cls: CLS?, _ name: String, _ position: ic_hook_position, options: UInt32 = 0,
    _ body: @escaping @Sendable (OpaquePointer) -> Void
) throws -> ic_observer_token {
    var token: ic_observer_token = 0
    let context = Unmanaged.passRetained(HookBox(body)).toOpaque()
    let status = ic_hook_class(
        cls, sel(name), position, options, classHookThunk, context, classHookRelease, &token)
    if status != IC_OK { classHookRelease(context) }
    try #require(status == IC_OK, "\(statusName(status)): \(lastErrorMessage)")
    return token
}

let classHookThunk: ObserverCallback = { call, context in
    Unmanaged<HookBox>.fromOpaque(context!).takeUnretainedValue().body(call!)
}
let classHookRelease: ReleaseCallback = { context in Unmanaged<HookBox>.fromOpaque(context!).release()
}

/// `add:` logging "original <class tag> x" through a global log (set per test).
private let loggedAdd: Int32Int32IMP = { _, _, x in
    ClassHookLog.current.record("original \(x)")
    return x &+ 1
}
private let loggedSubAdd: Int32Int32IMP = { this, cmd, x in
    ClassHookLog.current.record("sub \(x)")
    var target = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
    return fn(ic_msg_lookup_super(&target, cmd), as: Int32Int32IMP.self)(this, cmd, x) &* 10
}

/// The log of the running class-hook test (the suite is serialized: one log at a time).
private enum ClassHookLog {
    nonisolated(unsafe) static var current = Recorder()
}

/// An IMP's address (function pointers are not Equatable in Swift).
private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

private func add(_ obj: ID?, _ x: Int32) -> Int32 {
    fn(ic_msg_lookup(obj, sel("add:")), as: Int32Int32IMP.self)(obj, sel("add:"), x)
}

@Suite("Class-wide hooks", .serialized)
struct ClassHookTests {
    @Test("the path of a class-wide hook is reported while hooks remain, and none once the last goes")
    func pathOfFollowsTheHooks() throws {
        let cls = try makeClass("CHPath", methods: [("add:", imp(addOneIMP), "i@:i")])
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_NONE)
        let first = try hookClass(cls, "add:", IC_HOOK_BEFORE) { _ in }
        let second = try hookClass(cls, "add:", IC_HOOK_AFTER) { _ in }
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_remove(first) == IC_OK)
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_remove(second) == IC_OK)
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_NONE)
        // Hooked again: the same record, installed again.
        let again = try hookClass(cls, "add:", IC_HOOK_INSTEAD) { _ in }
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_remove(again) == IC_OK)
        #expect(ic_hook_class_path_of(cls, sel("add:")) == IC_PATH_NONE)
        // `dealloc` always takes the closure.
        let dealloc = try hookClass(cls, "dealloc", IC_HOOK_BEFORE) { _ in }
        #expect(ic_hook_class_path_of(cls, sel("dealloc")) == IC_PATH_FORWARDED)
        #expect(ic_hook_remove(dealloc) == IC_OK)
        #expect(ic_hook_class_path_of(cls, sel("dealloc")) == IC_PATH_NONE)
    }

    @Test("every instance runs a class hook: made before or after it, and instances of subclasses")
    func everyInstance() throws {
        let log = Recorder()
        ClassHookLog.current = log
        let base = try makeClass("CHBase", methods: [("add:", imp(loggedAdd), "i@:i")])
        let sub = try makeClass("CHSub", superclass: base)
        let before = try #require(ic_class_create_instance(base))
        defer { ic_release(before) }
        let token = try hookClass(base, "add:", IC_HOOK_BEFORE) { call in
            log.record("hook \(int32Argument(call))")
        }
        let after = try #require(ic_class_create_instance(base))
        let child = try #require(ic_class_create_instance(sub))
        defer {
            ic_release(after)
            ic_release(child)
        }
        #expect(add(before, 1) == 2)
        #expect(add(after, 2) == 3)
        #expect(add(child, 3) == 4)
        #expect(ic_object_get_class(before) == base)  // no object moved
        #expect(log.events == ["hook 1", "original 1", "hook 2", "original 2", "hook 3", "original 3"])
        #expect(ic_hook_remove(token) == IC_OK)
        log.reset()
        #expect(add(child, 4) == 5)
        #expect(log.events == ["original 4"])
    }

    @Test("removal gives the class its exact IMP back; an inherited method's override goes away")
    func exactRestore() throws {
        let log = Recorder()
        ClassHookLog.current = log
        let base = try makeClass("CHExactBase", methods: [("add:", imp(loggedAdd), "i@:i")])
        let sub = try makeClass("CHExactSub", superclass: base)
        let original = address(ic_class_get_imp(base, sel("add:")))
        let t1 = try hookClass(base, "add:", IC_HOOK_INSTEAD) { call in ic_hook_call_original(call) }
        let t2 = try hookClass(sub, "add:", IC_HOOK_AFTER) { _ in }
        #expect(address(ic_class_get_imp(base, sel("add:"))) != original)
        #expect(ic_class_get_own_method(sub, sel("add:")) != nil)  // the override
        #expect(ic_hook_remove(t1) == IC_OK)
        #expect(ic_hook_remove(t2) == IC_OK)
        #expect(address(ic_class_get_imp(base, sel("add:"))) == original)
        #expect(ic_class_get_own_method(sub, sel("add:")) == nil)
        #expect(address(ic_class_get_imp(sub, sel("add:"))) == original)
        #expect(ClassCounters(base).observers == 0)
        // Hooking again works the same way.
        let t3 = try hookClass(sub, "add:", IC_HOOK_INSTEAD) { call in setInt32Return(call, 7) }
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        #expect(add(obj, 1) == 7)
        #expect(ic_hook_remove(t3) == IC_OK)
        #expect(add(obj, 1) == 2)
        #expect(ic_class_get_own_method(sub, sel("add:")) == nil)
    }

    @Test(
        "an object's layer wraps its class's: object before, class before, original, class after, object after"
    )
    func layers() throws {
        let log = Recorder()
        ClassHookLog.current = log
        let cls = try makeClass("CHLayers", methods: [("add:", imp(loggedAdd), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_AFTER) { _ in log.record("object after") }
        try hookClass(cls, "add:", IC_HOOK_AFTER) { _ in log.record("class after") }
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("object before") }
        let classToken = try hookClass(cls, "add:", IC_HOOK_BEFORE) { _ in log.record("class before") }
        try hookClass(cls, "add:", IC_HOOK_INSTEAD) { call in
            log.record("class instead")
            ic_hook_call_original(call)
        }
        #expect(add(obj, 1) == 2)
        #expect(
            log.events == [
                "object before", "class before", "class instead", "original 1", "class after", "object after",
            ])
        #expect(ic_hook_remove(classToken) == IC_OK)
    }

    @Test(
        "a method and its override both hooked class-wide, the override calling super: each layer runs once")
    func overrideCallingSuper() throws {
        let log = Recorder()
        ClassHookLog.current = log
        let base = try makeClass("CHSuperBase", methods: [("add:", imp(loggedAdd), "i@:i")])
        let sub = try makeClass(
            "CHSuperSub", superclass: base, methods: [("add:", imp(loggedSubAdd), "i@:i")])
        try hookClass(base, "add:", IC_HOOK_BEFORE) { _ in log.record("base hook") }
        try hookClass(sub, "add:", IC_HOOK_BEFORE) { _ in log.record("sub hook") }
        let obj = try #require(ic_class_create_instance(sub))
        defer { ic_release(obj) }
        #expect(add(obj, 1) == 20)
        #expect(log.events == ["sub hook", "sub 1", "base hook", "original 1"])
    }

    @Test("someone replacing the IMP while hooked keeps theirs when the hook goes")
    func collision() throws {
        let log = Recorder()
        ClassHookLog.current = log
        let cls = try makeClass("CHCollide", methods: [("add:", imp(loggedAdd), "i@:i")])
        let token = try hookClass(cls, "add:", IC_HOOK_BEFORE) { _ in }
        let theirs: Int32Int32IMP = { _, _, x in x &* 3 }
        #expect(ic_class_replace_method(cls, sel("add:"), imp(theirs), nil, nil) == IC_OK)
        #expect(ic_hook_remove(token) == IC_OK)
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(add(obj, 2) == 6)
    }

    @Test("refusals: NULL, forbidden selectors, unimplemented methods, interception subclasses")
    func refusals() throws {
        let cls = try makeClass("CHRefuse", methods: [("add:", imp(addOneIMP), "i@:i")])
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        #expect(
            ic_hook_class(nil, sel("add:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_hook_class(cls, sel("release"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_FORBIDDEN_SELECTOR)
        #expect(
            ic_hook_class(cls, sel("nope"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_METHOD_NOT_FOUND)
        #expect(
            ic_hook_class(cls, sel("dealloc"), IC_HOOK_AFTER, 0, noop, nil, nil, &token)
                == IC_ERR_FORBIDDEN_SELECTOR)
        #expect(lastErrorMessage.contains("ic_hook_class_deallocated"))
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in }
        let subclass = ic_object_get_class(obj)
        #expect(
            ic_hook_class(subclass, sel("add:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(ClassCounters(cls).observers == 1)
    }

    @Test(
        "refusals name class methods +[Class selector] (a metaclass, a class object) and instance ones -[…]")
    func refusalTextsSignClassMethods() throws {
        let cls = try makeClass("CHRefuseText", methods: [("add:", imp(addOneIMP), "i@:i")])
        let name = String(cString: ic_class_name(cls))
        let meta = ic_class_metaclass(cls)
        let noop: ObserverCallback = { _, _ in }
        /// The message of a refused call (the thread keeps only the last one: read at once).
        func refusal(_ call: (UnsafeMutablePointer<ic_observer_token>) -> ic_status) -> String {
            var token: ic_observer_token = 0
            #expect(call(&token) == IC_ERR_FORBIDDEN_SELECTOR)
            return lastErrorMessage
        }
        #expect(
            refusal { ic_hook_class(meta, sel("retain"), IC_HOOK_BEFORE, 0, noop, nil, nil, $0) }
                == "cannot add a before hook to +[\(name) retain]: the runtime and the engine rely on it")
        #expect(
            refusal { ic_hook_class(meta, sel("dealloc"), IC_HOOK_AFTER, 0, noop, nil, nil, $0) }
                .hasPrefix("cannot add an after hook to +[\(name) dealloc]: after it the object is gone"))
        #expect(
            refusal {
                ic_hook_object(ic_class_object(cls), sel("release"), IC_HOOK_INSTEAD, 0, noop, nil, nil, $0)
            }
            .hasPrefix("cannot add an instead hook to +[\(name) release]"))
        #expect(
            refusal {
                ic_intercept_add_observer(
                    ic_class_object(cls), sel("retain"), IC_OBSERVE_BEFORE, noop, nil, nil, $0)
            }
            .hasPrefix("+[\(name) retain] must not be intercepted"))
        #expect(
            refusal { ic_hook_class(cls, sel("retain"), IC_HOOK_AFTER, 0, noop, nil, nil, $0) }
                .hasPrefix("cannot add an after hook to -[\(name) retain]"))
    }

    @Test(
        "class hooks added and removed while other threads call: each call runs the steady hook once, and nothing after removal"
    )
    func concurrentClassHooks() async throws {
        let cls = try makeClass("CHStress", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let address = UInt(bitPattern: obj)
        let classAddress = UInt(bitPattern: cls)
        try hookClass(cls, "add:", IC_HOOK_INSTEAD) { call in
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 1000)
        }
        let bad = Tally()
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let o = OpaquePointer(bitPattern: address)
                for i in 0..<4000 {
                    let x = Int32(i % 1000)
                    let r = add(o, x)
                    if r != x + 1001 && r != 2 * x + 1001 { bad.calls.add(1, ordering: .relaxed) }
                }
            }
            group.addTask {
                let cls = OpaquePointer(bitPattern: classAddress)
                for _ in 0..<200 {
                    var token: ic_observer_token = 0
                    let context = Unmanaged.passRetained(
                        HookBox { call in setInt32Argument(call, int32Argument(call) * 2) }
                    ).toOpaque()
                    if ic_hook_class(
                        cls, sel("add:"), IC_HOOK_BEFORE, 0, classHookThunk, context, classHookRelease, &token
                    )
                        == IC_OK
                    {
                        _ = ic_hook_remove(token)
                    } else {
                        classHookRelease(context)
                    }
                }
            }
        }
        #expect(bad.seen == 0)
        ic_intercept_quiesce()
        #expect(ClassCounters(cls).observers == 1)
    }
}
