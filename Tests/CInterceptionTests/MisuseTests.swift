// Bad input, part 2: valid arguments used in ways the API allows but callers get wrong or push to
// the edge: selectors nobody implements, malformed encodings where a method is replaced, double
// removal, observers that remove themselves or each other, re-enter the intercepted method, wait
// for quiescence or release objects from inside callbacks, release functions that use the engine.
// The existing suites cover the simple cases (InterceptHierarchyTests: self-removal and
// re-entry of a before-observer on the optimized path; ObjectLifecycleTests: a release from
// inside a dealloc override); these extend them to the other paths and phases.
import CInterception
import Synchronization
import Testing

/// Removes the observer whose token it holds when its own observer runs, once; keeps the status.
private final class Remover: Sendable {
    let victim = Atomic<UInt64>(0)
    let status = Atomic<UInt32>(UInt32.max)
    let calls = Atomic<Int>(0)

    func context() -> UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ c: UnsafeMutableRawPointer?) -> Remover {
        Unmanaged<Remover>.fromOpaque(c!).takeUnretainedValue()
    }

    func run() {
        calls.add(1, ordering: .relaxed)
        let token = victim.exchange(0, ordering: .relaxed)
        if token != 0 { status.store(ic_intercept_remove_observer(token).rawValue, ordering: .relaxed) }
    }
}

private let removerCall: ObserverCallback = { _, context in Remover.from(context).run() }

private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

/// Re-enters `add:` with x - 1 while x > 0, from whichever phase it observes.
private let reenterAdd: ObserverCallback = { call, context in
    Tally.from(context).calls.add(1, ordering: .relaxed)
    var x: Int32 = 0
    ic_invocation_get_argument(call, 2, &x)
    if x > 0 {
        let target = ic_invocation_target(call)
        _ = lookup(target, "add:", as: Int32Int32IMP.self)(target, sel("add:"), x - 1)
    }
}

@Suite("Bad input: misuse of valid arguments")
struct MisuseTests {
    @Test(
        "a selector no class implements: class queries answer nothing and record no error, and looking its name up does not register it"
    )
    func unknownSelectorAnswersNothing() throws {
        let cls = try makeClass("MUnknown", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let unknown = sel("misuse.neverImplemented:")
        ic_error_clear()
        #expect(ic_class_get_method(cls, unknown) == nil)
        #expect(ic_class_get_own_method(cls, unknown) == nil)
        #expect(ic_class_get_imp(cls, unknown) == nil)
        #expect(ic_class_method_types(cls, unknown) == nil)
        #expect(!ic_class_responds_to(cls, unknown))
        #expect(
            !lookup(obj, "respondsToSelector:", as: BoolSelIMP.self)(obj, sel("respondsToSelector:"), unknown)
        )
        #expect(ic_intercept_path_of(obj, unknown) == IC_PATH_NONE)
        #expect(ic_error_status() == IC_OK)
        let name = uniqueName("misuse.neverRegistered")
        #expect(ic_sel_lookup(name) == nil)
        #expect(ic_sel_lookup(name) == nil)  // the first lookup did not register it
    }

    @Test(
        "observing a selector the class does not implement is refused: the object stays in its class, no observer is counted, and the context stays the caller's"
    )
    func observingUnknownSelector() throws {
        let cls = try makeClass("MObserveUnknown", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let tally = Tally()
        let context = tally.context()
        var token: ic_observer_token = 0
        let status = ic_intercept_add_observer(
            obj, sel("misuse.missing:"), IC_OBSERVE_AFTER, tallyCall, context, tallyRelease, &token)
        #expect(statusName(status) == "IC_ERR_METHOD_NOT_FOUND")
        #expect(token == 0)
        #expect(ic_object_get_class(obj) == cls)
        #expect(ClassCounters(cls).observers == 0)
        #expect(ClassCounters(cls).intercepted == 0)
        ic_intercept_quiesce()
        #expect(tally.released == 0)  // a refused observer's context is not released by the runtime
        tallyRelease(context)
        // The object can still be observed properly afterwards.
        let (ok, good) = addTally(obj, sel("add:"), IC_OBSERVE_BEFORE, tally)
        #expect(ok == IC_OK)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
        #expect(tally.seen == 1)
        #expect(ic_intercept_remove_observer(good) == IC_OK)
    }

    @Test(
        "replacing a missing method with a malformed or non-method encoding is refused; replacing an existing one ignores the encoding"
    )
    func replaceWithBadEncoding() throws {
        let returns7: Int32Int32IMP = { _, _, _ in 7 }
        let cls = try makeClass("MReplaceBad", methods: [("add:", imp(addOneIMP), "i@:i")])
        var old: ic_imp? = imp(voidIMP)
        #expect(
            statusName(ic_class_replace_method(cls, sel("misuse.new:"), imp(returns7), "i@:{P=i", &old))
                == "IC_ERR_MALFORMED_ENCODING")
        #expect(ic_error_position() == 7)
        #expect(address(old) == 0)
        #expect(
            statusName(ic_class_replace_method(cls, sel("misuse.new:"), imp(returns7), "ii", nil))
                == "IC_ERR_SIGNATURE_MISMATCH")
        #expect(ic_class_get_own_method(cls, sel("misuse.new:")) == nil)
        // An existing method keeps its encoding: the one given is not even parsed.
        #expect(ic_class_replace_method(cls, sel("add:"), imp(returns7), "not an encoding", &old) == IC_OK)
        #expect(address(old) == address(imp(addOneIMP)))
        #expect(String(cString: ic_class_method_types(cls, sel("add:"))) == "i@:i")
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 7)
    }

    @Test(
        "removing a dealloc observer twice: the second removal is refused, the observer never fires, its context is released once"
    )
    func doubleRemovalOfDeallocObservers() throws {
        let cls = try makeClass("MDoubleRemoval")
        let obj = try #require(ic_class_create_instance(cls))
        let tallies = [Tally(), Tally()]
        for (phase, tally) in zip([IC_OBSERVE_BEFORE, IC_OBSERVE_AFTER], tallies) {
            let (status, token) = addDeallocTally(obj, phase, tally)
            #expect(status == IC_OK)
            #expect(ic_intercept_remove_observer(token) == IC_OK)
            #expect(statusName(ic_intercept_remove_observer(token)) == "IC_ERR_OBSERVER_NOT_FOUND")
        }
        ic_release(obj)
        ic_intercept_quiesce()
        #expect(tallies.allSatisfy { $0.seen == 0 && $0.released == 1 })
        #expect(ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1))
    }

    @Test(
        "an observer removing itself from inside its callback, on either path and in either phase, runs once; removing it again is refused",
        arguments: [false, true], [IC_OBSERVE_BEFORE, IC_OBSERVE_AFTER])
    func selfRemovalOnEveryPath(forceForwarding: Bool, phase: ic_observer_phase) throws {
        let cls = try makeClass("MSelfRemoval", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(
            ic_intercept_prepare_with_options(
                obj, sel("add:"), forceForwarding ? UInt32(IC_INTERCEPT_FORCE_FORWARDING) : 0) == IC_OK)
        let remover = Remover()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(obj, sel("add:"), phase, removerCall, remover.context(), nil, &token)
                == IC_OK)
        remover.victim.store(token, ordering: .relaxed)
        for x in Int32(0)..<3 {
            #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), x) == x + 1)
        }
        #expect(remover.calls.load(ordering: .relaxed) == 1)
        #expect(remover.status.load(ordering: .relaxed) == IC_OK.rawValue)
        #expect(statusName(ic_intercept_remove_observer(token)) == "IC_ERR_OBSERVER_NOT_FOUND")
        #expect(ic_object_get_class(obj) == cls)  // its only observer left: moved back
    }

    @Test(
        "a dealloc observer removing itself while it runs: the removal succeeds, it runs once",
        arguments: [IC_OBSERVE_BEFORE, IC_OBSERVE_AFTER])
    func deallocObserverRemovesItself(phase: ic_observer_phase) throws {
        let cls = try makeClass("MDeallocSelfRemoval")
        let obj = try #require(ic_class_create_instance(cls))
        let remover = Remover()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_dealloc_observer(obj, phase, removerCall, remover.context(), nil, &token)
                == IC_OK)
        remover.victim.store(token, ordering: .relaxed)
        ic_release(obj)
        #expect(remover.calls.load(ordering: .relaxed) == 1)
        #expect(remover.status.load(ordering: .relaxed) == IC_OK.rawValue)
        #expect(statusName(ic_intercept_remove_observer(token)) == "IC_ERR_OBSERVER_NOT_FOUND")
        ic_intercept_quiesce()
        #expect(ClassCounters(cls).observers == 0)
    }

    @Test("an observer that removes a later observer of the same call stops it before it runs")
    func removingAnotherObserverDuringTheCall() throws {
        let cls = try makeClass("MRemoveOther", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let remover = Remover()
        var removerToken: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(
                obj, sel("add:"), IC_OBSERVE_BEFORE, removerCall, remover.context(), nil, &removerToken)
                == IC_OK)
        let victim = Tally()
        let (status, victimToken) = addTally(obj, sel("add:"), IC_OBSERVE_BEFORE, victim)
        #expect(status == IC_OK)
        remover.victim.store(victimToken, ordering: .relaxed)
        let afterwards = Tally()
        _ = addTally(obj, sel("add:"), IC_OBSERVE_AFTER, afterwards)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
        #expect(remover.status.load(ordering: .relaxed) == IC_OK.rawValue)
        #expect(victim.seen == 0)  // registered before the call, removed during it, before its turn
        #expect(afterwards.seen == 1)
        #expect(ic_intercept_remove_observer(removerToken) == IC_OK)
        ic_intercept_quiesce()
        #expect(victim.released == 1)
    }

    @Test(
        "an observer re-entering the intercepted method sees each call once, to any depth, on either path and in either phase",
        arguments: [false, true], [IC_OBSERVE_BEFORE, IC_OBSERVE_AFTER])
    func reentryOnEveryPath(forceForwarding: Bool, phase: ic_observer_phase) throws {
        let cls = try makeClass("MReenter", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(
            ic_intercept_prepare_with_options(
                obj, sel("add:"), forceForwarding ? UInt32(IC_INTERCEPT_FORCE_FORWARDING) : 0) == IC_OK)
        let reentries = Tally()
        let other = Tally()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(
                obj, sel("add:"), phase, reenterAdd, reentries.context(), tallyRelease, &token) == IC_OK)
        _ = addTally(
            obj, sel("add:"), phase == IC_OBSERVE_BEFORE ? IC_OBSERVE_AFTER : IC_OBSERVE_BEFORE, other)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 40) == 41)
        #expect(reentries.seen == 41)  // x = 40, 39, ..., 0
        #expect(other.seen == 41)
    }

    @Test("quiescing and removing observers from inside an observer return: a thread never waits for itself")
    func quiesceInsideObserver() throws {
        let quiescing: ObserverCallback = { _, context in
            ic_intercept_quiesce()
            Remover.from(context).run()
        }
        let cls = try makeClass("MQuiesceInside", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let remover = Remover()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(
                obj, sel("add:"), IC_OBSERVE_AFTER, quiescing, remover.context(), nil, &token) == IC_OK)
        let victim = Tally()
        let (_, victimToken) = addTally(obj, sel("add:"), IC_OBSERVE_BEFORE, victim)
        remover.victim.store(victimToken, ordering: .relaxed)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 2) == 3)
        #expect(remover.calls.load(ordering: .relaxed) == 2)
        #expect(remover.status.load(ordering: .relaxed) == IC_OK.rawValue)
        #expect(victim.seen == 1)
        #expect(ic_intercept_remove_observer(token) == IC_OK)
        ic_intercept_quiesce()
        #expect(victim.released == 1)  // reclaimed once outside the observer
    }

    @Test(
        "a retain and extra releases from inside a deallocating observer neither resurrect the object nor deallocate it twice"
    )
    func releaseInsideDeallocatingObserver() throws {
        let juggling: DeallocCallback = { object, context in
            ic_retain(object)
            ic_release(object)
            ic_release(object)  // one more than it owns: ignored while deallocating
            Tally.from(context).calls.add(1, ordering: .relaxed)
        }
        let cls = try makeClass("MReleaseInDealloc", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let deallocating = Tally()
        let deallocated = Tally()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_dealloc_observer(
                obj, IC_OBSERVE_BEFORE, juggling, deallocating.context(), tallyRelease, &token) == IC_OK)
        #expect(addDeallocTally(obj, IC_OBSERVE_AFTER, deallocated).0 == IC_OK)
        ic_release(obj)
        #expect(deallocating.seen == 1)
        #expect(deallocated.seen == 1)
        #expect(ic_class_live_instance_count(cls) == 0)
        ic_intercept_quiesce()
        #expect(deallocating.released == 1 && deallocated.released == 1)
    }

    @Test(
        "an object released from inside another object's deallocated observer is torn down there; each of its observers fires once"
    )
    func teardownInsideTeardown() throws {
        let releaseInner: DeallocCallback = { _, context in
            ic_release(OpaquePointer(context))
        }
        let cls = try makeClass("MNestedTeardown", methods: [("add:", imp(addOneIMP), "i@:i")])
        let outer = try #require(ic_class_create_instance(cls))
        let inner = try #require(ic_class_create_instance(cls))
        let innerTallies = (deallocating: Tally(), deallocated: Tally(), calls: Tally())
        #expect(addDeallocTally(inner, IC_OBSERVE_BEFORE, innerTallies.deallocating).0 == IC_OK)
        #expect(addDeallocTally(inner, IC_OBSERVE_AFTER, innerTallies.deallocated).0 == IC_OK)
        #expect(addTally(inner, sel("add:"), IC_OBSERVE_BEFORE, innerTallies.calls).0 == IC_OK)
        #expect(lookup(inner, "add:", as: Int32Int32IMP.self)(inner, sel("add:"), 1) == 2)
        var token: ic_observer_token = 0
        // The outer object's observer owns the inner object (+1 given away here).
        #expect(
            ic_intercept_add_dealloc_observer(
                outer, IC_OBSERVE_AFTER, releaseInner, UnsafeMutableRawPointer(inner), nil, &token) == IC_OK)
        #expect(ClassCounters(cls).observers == 4)
        ic_release(outer)
        #expect(innerTallies.deallocating.seen == 1)
        #expect(innerTallies.deallocated.seen == 1)
        #expect(innerTallies.calls.seen == 1)
        #expect(ic_class_live_instance_count(cls) == 0)
        ic_intercept_quiesce()
        #expect(
            innerTallies.deallocating.released == 1 && innerTallies.deallocated.released == 1
                && innerTallies.calls.released == 1)
        #expect(ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 2))
    }

    /// A context whose release function adds and removes an observer on another object.
    private final class EngineUsingContext: Sendable {
        let other: UInt
        let statuses = Atomic<Int>(0)
        init(other: ID) { self.other = UInt(bitPattern: other) }
    }

    @Test("an observer's context release function may add and remove observers")
    func releaseFunctionUsesTheEngine() throws {
        let release: ReleaseCallback = { context in
            let box = Unmanaged<EngineUsingContext>.fromOpaque(context!).takeRetainedValue()
            let other = OpaquePointer(bitPattern: box.other)
            let (added, token) = addTally(other, sel("add:"), IC_OBSERVE_BEFORE, Tally())
            let removed = ic_intercept_remove_observer(token)
            box.statuses.store(added == IC_OK && removed == IC_OK ? 2 : -1, ordering: .relaxed)
        }
        let ignoreCall: ObserverCallback = { _, _ in }
        let cls = try makeClass("MReleaseUsesEngine", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let other = try #require(ic_class_create_instance(cls))
        defer {
            ic_release(obj)
            ic_release(other)
        }
        let box = EngineUsingContext(other: other)
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(
                obj, sel("add:"), IC_OBSERVE_BEFORE, ignoreCall, Unmanaged.passRetained(box).toOpaque(),
                release, &token) == IC_OK)
        #expect(ic_intercept_remove_observer(token) == IC_OK)
        ic_intercept_quiesce()
        #expect(box.statuses.load(ordering: .relaxed) == 2)
        #expect(ClassCounters(cls).observers == 0)
        #expect(ic_object_get_class(other) == cls)
    }

    @Test(
        "forcing the forward path after the optimized one was chosen keeps the optimized path: the first request decides"
    )
    func firstRequestDecidesThePath() throws {
        let cls = try makeClass("MFirstDecides", methods: [("add:", imp(addOneIMP), "i@:i")])
        let first = try #require(ic_class_create_instance(cls))
        let second = try #require(ic_class_create_instance(cls))
        defer {
            ic_release(first)
            ic_release(second)
        }
        #expect(ic_intercept_prepare(first, sel("add:")) == IC_OK)
        #expect(
            ic_intercept_prepare_with_options(second, sel("add:"), UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        #expect(
            ic_intercept_prepare_with_options(first, sel("add:"), UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        #expect(ic_intercept_path_of(first, sel("add:")) == IC_PATH_OPTIMIZED)
        #expect(ic_intercept_path_of(second, sel("add:")) == IC_PATH_OPTIMIZED)
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 2, intercepted: 2))
    }

    @Test(
        "an interception subclass cannot be instantiated, and its counters read as zero: they are kept on its original class"
    )
    func interceptionSubclassIsNotAClassToUse() throws {
        let cls = try makeClass("MSubclassMisuse", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(ic_intercept_prepare(obj, sel("add:")) == IC_OK)
        let subclass = try #require(ic_object_get_class(obj))
        #expect(ic_class_is_interception_subclass(subclass))
        #expect(ic_class_create_instance(subclass) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ClassCounters(subclass) == ClassCounters())
        #expect(
            ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 1, liveObjects: 1, intercepted: 1))
    }
}
