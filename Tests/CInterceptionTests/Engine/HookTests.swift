import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

// Area: hooks (ic_hook.h). Purpose: positions before / instead / after on one object, the order
// of one call, the instead chain and its callable original, one-shot hooks, removal that restores
// the object's class, refusals; on the optimized and the forward path alike.

/// A hook whose body is a Swift closure over the call (the frame invocation).
final class HookBox: Sendable {
    let body: @Sendable (OpaquePointer) -> Void
    init(_ body: @escaping @Sendable (OpaquePointer) -> Void) { self.body = body }
}

private let hookThunk: ObserverCallback = { call, context in
    Unmanaged<HookBox>.fromOpaque(context!).takeUnretainedValue().body(call!)
}
private let hookRelease: ReleaseCallback = { context in Unmanaged<HookBox>.fromOpaque(context!).release() }

/// Adds a hook running `body`; returns its token.
@discardableResult
func hook(
    _ obj: ID?, _ name: String, _ position: ic_hook_position, options: UInt32 = 0,
    _ body: @escaping @Sendable (OpaquePointer) -> Void
) throws -> ic_observer_token {
    var token: ic_observer_token = 0
    let context = Unmanaged.passRetained(HookBox(body)).toOpaque()
    let status = ic_hook_object(obj, sel(name), position, options, hookThunk, context, hookRelease, &token)
    if status != IC_OK { hookRelease(context) }
    try #require(status == IC_OK, "\(statusName(status)): \(lastErrorMessage)")
    return token
}

/// The Int32 argument `index` (2: the first after self and _cmd) of a call.
func int32Argument(_ call: OpaquePointer, _ index: Int = 2) -> Int32 {
    var value: Int32 = 0
    ic_invocation_get_argument(call, index, &value)
    return value
}

func setInt32Argument(_ call: OpaquePointer, _ value: Int32, _ index: Int = 2) {
    var v = value
    ic_invocation_set_argument(call, index, &v)
}

func int32Return(_ call: OpaquePointer) -> Int32 {
    var value: Int32 = 0
    ic_invocation_get_return_value(call, &value)
    return value
}

func setInt32Return(_ call: OpaquePointer, _ value: Int32) {
    var v = value
    ic_invocation_set_return_value(call, &v)
}

/// A class with `add:` (i@:i, returns x + 1, logging "original x") for one test, whose
/// interceptions take the forward path when `forwarded`.
private func hookedObject(_ base: String, log: Recorder, forwarded: Bool) throws -> (CLS, ID) {
    let cls = try makeClass(base, storage: 8, methods: [("add:", imp(loggingAdd), "i@:i")])
    let obj = try #require(ic_class_create_instance(cls))
    ic_object_storage(obj)!.storeBytes(
        of: Unmanaged.passUnretained(log).toOpaque(), as: UnsafeRawPointer.self)
    if forwarded {
        try #require(
            ic_intercept_prepare_with_options(obj, sel("add:"), UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        try #require(ic_intercept_path_of(obj, sel("add:")) == IC_PATH_FORWARDED)
    }
    return (cls, obj)
}

private let loggingAdd: Int32Int32IMP = { this, _, x in
    let log = Unmanaged<Recorder>.fromOpaque(ic_object_storage(this)!.load(as: UnsafeRawPointer.self))
        .takeUnretainedValue()
    log.record("original \(x)")
    return x &+ 1
}

private func add(_ obj: ID?, _ x: Int32) -> Int32 {
    fn(ic_msg_lookup(obj, sel("add:")), as: Int32Int32IMP.self)(obj, sel("add:"), x)
}

@Suite("Hooks: before, instead and after one object's method")
struct HookTests {
    @Test("a before hook replaces an argument and an after hook the return value", arguments: [false, true])
    func beforeAndAfterChangeTheCall(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HBeforeAfter", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_BEFORE) { call in setInt32Argument(call, int32Argument(call) * 10) }
        try hook(obj, "add:", IC_HOOK_AFTER) { call in setInt32Return(call, int32Return(call) + 1000) }
        #expect(add(obj, 4) == 1041)
        #expect(log.events == ["original 40"])
    }

    @Test("an instead hook runs in place of the method and sets the result", arguments: [false, true])
    func insteadSkipsTheOriginal(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HInstead", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in setInt32Return(call, -int32Argument(call)) }
        #expect(add(obj, 7) == -7)
        #expect(log.events == [])
    }

    @Test("an instead hook that sets nothing and skips the original returns zero", arguments: [false, true])
    func insteadWithoutResultReturnsZero(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HInsteadZero", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { _ in }
        #expect(add(obj, 7) == 0)
    }

    @Test(
        "an instead hook calls the original with other arguments, any number of times",
        arguments: [false, true])
    func insteadCallsTheOriginal(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HInsteadOriginal", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            let x = int32Argument(call)
            #expect(ic_hook_call_original(call) == IC_OK)
            let first = int32Return(call)
            setInt32Argument(call, x * 100)
            #expect(ic_hook_call_original(call) == IC_OK)
            setInt32Return(call, first + int32Return(call))
        }
        #expect(add(obj, 2) == 3 + 201)
        #expect(log.events == ["original 2", "original 200"])
    }

    @Test(
        "two instead hooks nest: the last added is outermost, its original is the first",
        arguments: [false, true])
    func insteadHooksNest(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HNest", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("inner in")
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) * 2)
            log.record("inner out")
        }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("outer in")
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 5)
            log.record("outer out")
        }
        #expect(add(obj, 1) == (1 + 1) * 2 + 5)
        #expect(log.events == ["outer in", "inner in", "original 1", "inner out", "outer out"])
    }

    @Test(
        "one call runs befores in order added, the instead chain, then afters in order added; observers are hooks of the same layer"
    )
    func orderOfOneCall() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HOrder", log: log, forwarded: false)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_AFTER) { _ in log.record("after 1") }
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("before 1") }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("instead")
            ic_hook_call_original(call)
        }
        try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, log)
        try hook(obj, "add:", IC_HOOK_AFTER) { call in log.record("after 2 sees \(int32Return(call))") }
        #expect(add(obj, 1) == 2)
        #expect(
            log.events == ["before 1", "before add:", "instead", "original 1", "after 1", "after 2 sees 2"])
    }

    @Test("an observer sees every call, even one an instead hook does not pass on")
    func observersSeeSkippedCalls() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HSkipSeen", log: log, forwarded: false)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in setInt32Return(call, 0) }
        try observe(obj, "add:", IC_OBSERVE_BEFORE, recordBefore, log)
        try observe(obj, "add:", IC_OBSERVE_AFTER, recordReturnValue, log)
        _ = add(obj, 3)
        #expect(log.events.first == "before add:")
        #expect(log.events.count == 2)
        #expect(!log.events.contains("original 3"))
    }

    @Test(
        "a one-shot hook runs once and is removed, and the object goes back to its class",
        arguments: [false, true])
    func oneShot(forwarded: Bool) throws {
        let log = Recorder()
        let (cls, obj) = try hookedObject("HOneShot", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD, options: UInt32(IC_HOOK_ONE_SHOT)) { call in
            setInt32Return(call, 99)
        }
        #expect(add(obj, 1) == 99)
        #expect(add(obj, 1) == 2)
        ic_intercept_quiesce()
        #expect(ic_object_get_class(obj) == cls)
        #expect(ClassCounters(cls).observers == 0)
    }

    @Test(
        "removing hooks in any order restores the class and the counters",
        arguments: [[0, 1, 2], [2, 1, 0], [1, 0, 2]])
    func removalInAnyOrder(order: [Int]) throws {
        let log = Recorder()
        let (cls, obj) = try hookedObject("HRemove", log: log, forwarded: false)
        defer { ic_release(obj) }
        let before = ClassCounters(cls)
        var tokens: [ic_observer_token] = []
        tokens.append(try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("b") })
        tokens.append(try hook(obj, "add:", IC_HOOK_INSTEAD) { call in ic_hook_call_original(call) })
        tokens.append(try hook(obj, "add:", IC_HOOK_AFTER) { _ in log.record("a") })
        var counters = ClassCounters(cls)
        #expect(counters.observers == before.observers + 3)
        #expect(counters.intercepted == 1)
        for (n, index) in order.enumerated() {
            #expect(ic_hook_remove(tokens[index]) == IC_OK)
            #expect((ic_object_get_class(obj) == cls) == (n == order.count - 1))
        }
        #expect(ic_hook_remove(tokens[0]) == IC_ERR_OBSERVER_NOT_FOUND)
        counters = ClassCounters(cls)
        #expect(counters.observers == before.observers)
        #expect(counters.intercepted == 0)
        #expect(ic_object_get_class(obj) == cls)
        log.reset()
        #expect(add(obj, 1) == 2)
        #expect(log.events == ["original 1"])
    }

    @Test("a hook that cancels itself during its call finishes that call and never runs again")
    func hookCancelsItself() throws {
        let log = Recorder()
        let (cls, obj) = try hookedObject("HSelfCancel", log: log, forwarded: false)
        defer { ic_release(obj) }
        let token = TestLock<ic_observer_token>(0)
        let t = try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("hook")
            #expect(ic_hook_remove(token.withLock { $0 }) == IC_OK)
            ic_hook_call_original(call)
        }
        token.withLock { $0 = t }
        #expect(add(obj, 1) == 2)
        #expect(add(obj, 2) == 3)
        #expect(log.events == ["hook", "original 1", "original 2"])
        #expect(ic_object_get_class(obj) == cls)
    }

    @Test(
        "hooks removed from inside a call (taken out of the snapshot in place, no memory needed) leave the other layers in order, until a later hook republishes",
        arguments: [false, true])
    func removedInPlaceKeepsTheOtherLayers(forwarded: Bool) throws {
        let log = Recorder()
        let (cls, obj) = try hookedObject("HInPlace", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        let before = ClassCounters(cls)
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("b") }
        let inner = TestLock<ic_observer_token>(0)
        let t = try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("inner")
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 10)
            if int32Argument(call) == 2 { #expect(ic_hook_remove(inner.withLock { $0 }) == IC_OK) }
        }
        inner.withLock { $0 = t }
        try hook(obj, "add:", IC_HOOK_INSTEAD, options: UInt32(IC_HOOK_ONE_SHOT)) { call in
            log.record("outer")
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 100)
        }
        try hook(obj, "add:", IC_HOOK_AFTER) { _ in log.record("a") }
        #expect(add(obj, 1) == 112)  // the one-shot outer hook removes itself
        #expect(log.events == ["b", "outer", "inner", "original 1", "a"])
        log.reset()
        #expect(add(obj, 2) == 13)  // the inner one removes itself
        #expect(log.events == ["b", "inner", "original 2", "a"])
        log.reset()
        #expect(add(obj, 3) == 4)
        #expect(log.events == ["b", "original 3", "a"])
        #expect(ClassCounters(cls).observers == before.observers + 2)
        // A hook added now republishes the snapshot without the removed entries.
        log.reset()
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("b2") }
        #expect(add(obj, 4) == 5)
        #expect(log.events == ["b", "b2", "original 4", "a"])
        ic_intercept_quiesce()
        #expect(ClassCounters(cls).observers == before.observers + 3)
    }

    @Test("a hook that calls the hooked method again runs once per call, at each depth")
    func recursion() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HRecurse", log: log, forwarded: false)
        defer { ic_release(obj) }
        let target = UInt(bitPattern: obj)
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            let x = int32Argument(call)
            log.record("hook \(x)")
            if x > 0 {
                setInt32Return(call, add(OpaquePointer(bitPattern: target), x - 1) + 10)
            } else {
                ic_hook_call_original(call)
            }
        }
        #expect(add(obj, 2) == 1 + 10 + 10)
        #expect(log.events == ["hook 2", "hook 1", "hook 0", "original 0"])
    }

    @Test(
        "a hook cancelled by an earlier hook of the same call is not called in that call",
        arguments: [false, true])
    func cancelledByAnEarlierHook(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HCancelLater", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        let victim = TestLock<ic_observer_token>(0)
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in
            log.record("first")
            let token = victim.withLock { t in
                defer { t = 0 }
                return t
            }
            if token != 0 { #expect(ic_hook_remove(token) == IC_OK) }
        }
        let t = try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("second") }
        victim.withLock { $0 = t }
        #expect(add(obj, 1) == 2)
        #expect(add(obj, 2) == 3)
        #expect(log.events == ["first", "original 1", "first", "original 2"])
    }

    @Test(
        "a hook cancelled after its snapshot was replaced by an addition is not called",
        arguments: [false, true])
    func cancelledAfterAnAddition(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HCancelAfterAdd", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        let target = UInt(bitPattern: obj)
        let victim = TestLock<ic_observer_token>(0)
        let added = TestLock<ic_observer_token>(0)
        try hook(obj, "add:", IC_HOOK_BEFORE) { _ in
            log.record("first")
            let token = victim.withLock { t in
                defer { t = 0 }
                return t
            }
            guard token != 0 else { return }
            // Replace the snapshot this call runs (an addition), then cancel a hook it lists.
            let third = try? hook(OpaquePointer(bitPattern: target), "add:", IC_HOOK_BEFORE) { _ in
                log.record("third")
            }
            added.withLock { $0 = third ?? 0 }
            #expect(ic_hook_remove(token) == IC_OK)
        }
        let t = try hook(obj, "add:", IC_HOOK_BEFORE) { _ in log.record("second") }
        victim.withLock { $0 = t }
        #expect(add(obj, 1) == 2)
        #expect(add(obj, 2) == 3)
        #expect(log.events == ["first", "original 1", "first", "third", "original 2"])
        #expect(ic_hook_remove(added.withLock { $0 }) == IC_OK)
    }

    @Test(
        "an outer instead hook that cancels the inner one passes straight to the original",
        arguments: [false, true])
    func outerCancelsInner(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HOuterCancels", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        let inner = try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("inner")
            ic_hook_call_original(call)
        }
        let once = TestLock(true)
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("outer")
            if once.withLock({ first in
                defer { first = false }
                return first
            }) {
                #expect(ic_hook_remove(inner) == IC_OK)
            }
            #expect(ic_hook_call_original(call) == IC_OK)
            setInt32Return(call, int32Return(call) + 100)
        }
        #expect(add(obj, 1) == 102)
        #expect(add(obj, 2) == 103)
        #expect(log.events == ["outer", "original 1", "outer", "original 2"])
    }

    @Test(
        "nested instead hooks each call their original twice: every layer runs again, in order",
        arguments: [false, true])
    func nestedHooksCallTwice(forwarded: Bool) throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HNestTwice", log: log, forwarded: forwarded)
        defer { ic_release(obj) }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            let x = int32Argument(call)
            log.record("inner \(x)")
            ic_hook_call_original(call)
            let first = int32Return(call)
            setInt32Argument(call, x + 10)
            ic_hook_call_original(call)
            setInt32Return(call, first + int32Return(call))
            setInt32Argument(call, x)
        }
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            log.record("outer")
            ic_hook_call_original(call)
            let first = int32Return(call)
            ic_hook_call_original(call)
            setInt32Return(call, first * 1000 + int32Return(call))
        }
        // inner(1) = (1 + 1) + (11 + 1) = 14; outer = 14 * 1000 + 14.
        #expect(add(obj, 1) == 14014)
        #expect(
            log.events == [
                "outer", "inner 1", "original 1", "original 11", "inner 1", "original 1", "original 11",
            ])
    }

    @Test("ic_hook_call_original outside an instead hook is refused")
    func callOriginalOutsideInstead() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HOutside", log: log, forwarded: false)
        defer { ic_release(obj) }
        let status = TestLock<ic_status>(IC_OK)
        try hook(obj, "add:", IC_HOOK_BEFORE) { call in status.withLock { $0 = ic_hook_call_original(call) } }
        #expect(add(obj, 1) == 2)
        #expect(status.withLock { $0 } == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_hook_call_original(nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(log.events == ["original 1"])
    }

    @Test(
        "refusals: forbidden selectors, unimplemented methods, after dealloc, bad arguments; messages name the position"
    )
    func refusals() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HRefuse", log: log, forwarded: false)
        defer { ic_release(obj) }
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        #expect(
            ic_hook_object(obj, sel("class"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_FORBIDDEN_SELECTOR)
        #expect(
            ic_hook_object(obj, sel("retain"), IC_HOOK_INSTEAD, 0, noop, nil, nil, &token)
                == IC_ERR_FORBIDDEN_SELECTOR)
        #expect(lastErrorMessage.hasPrefix("cannot add an instead hook to -[HRefuse_"))
        #expect(
            ic_hook_object(obj, sel("nope:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
                == IC_ERR_METHOD_NOT_FOUND)
        #expect(lastErrorMessage.hasPrefix("cannot add a before hook to -[HRefuse_"))
        #expect(
            lastErrorMessage.hasSuffix(
                " nope:]: the class does not implement it (only implemented methods can be intercepted)"))
        #expect(
            ic_hook_object(obj, sel("dealloc"), IC_HOOK_AFTER, 0, noop, nil, nil, &token)
                == IC_ERR_FORBIDDEN_SELECTOR)
        #expect(lastErrorMessage.contains("ic_hook_object_deallocated"))
        #expect(lastErrorMessage.hasPrefix("cannot add an after hook to -[HRefuse_"))
        #expect(
            ic_hook_object(obj, sel("add:"), ic_hook_position(rawValue: 7), 0, noop, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_hook_object(obj, sel("add:"), IC_HOOK_BEFORE, 0x80, noop, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_hook_object(obj, sel("add:"), IC_HOOK_BEFORE, 0, nil, nil, nil, &token)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(
            ic_hook_object(obj, sel("add:"), IC_HOOK_BEFORE, 0, noop, nil, nil, nil)
                == IC_ERR_INVALID_ARGUMENT)
        #expect(add(obj, 1) == 2)
    }

    @Test("a before hook on dealloc runs while the object is whole")
    func beforeDealloc() throws {
        let log = Recorder()
        let (_, obj) = try hookedObject("HDealloc", log: log, forwarded: false)
        try hook(obj, "dealloc", IC_HOOK_BEFORE) { call in
            let target = ic_invocation_target(call)
            log.record("dealloc, deallocating \(ic_object_is_deallocating(target))")
        }
        ic_release(obj)
        #expect(log.events == ["dealloc, deallocating true"])
    }

    @Test(
        "hooks added and cancelled on several threads while others call: each call runs exactly the hooks present throughout it"
    )
    func concurrentHooking() async throws {
        let log = Recorder()
        let (cls, obj) = try hookedObject("HStress", log: log, forwarded: false)
        defer { ic_release(obj) }
        let address = UInt(bitPattern: obj)
        // A steady instead hook adds 1000 to every result: present throughout, so every call
        // must show it; transient hooks double the argument, so a result is either x+1+1000 or
        // 2x+1+1000, never anything else.
        try hook(obj, "add:", IC_HOOK_INSTEAD) { call in
            ic_hook_call_original(call)
            setInt32Return(call, int32Return(call) + 1000)
        }
        let bad = Tally()
        let calls = 4000
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                let o = OpaquePointer(bitPattern: address)
                for i in 0..<calls {
                    let x = Int32(i % 1000)
                    let r = add(o, x)
                    if r != x + 1001 && r != 2 * x + 1001 { bad.calls.add(1, ordering: .relaxed) }
                }
            }
            group.addTask {
                let o = OpaquePointer(bitPattern: address)
                for _ in 0..<200 {
                    var token: ic_observer_token = 0
                    let context = Unmanaged.passRetained(
                        HookBox { call in setInt32Argument(call, int32Argument(call) * 2) }
                    ).toOpaque()
                    if ic_hook_object(
                        o, sel("add:"), IC_HOOK_BEFORE, 0, hookThunk, context, hookRelease, &token)
                        == IC_OK
                    {
                        _ = ic_hook_remove(token)
                    } else {
                        hookRelease(context)
                    }
                }
            }
        }
        #expect(bad.seen == 0)
        #expect(log.count == calls)
        ic_intercept_quiesce()
        #expect(ClassCounters(cls).observers == 1)
    }
}
