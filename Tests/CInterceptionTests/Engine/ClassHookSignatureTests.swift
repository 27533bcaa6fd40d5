import CInterception
import CInterceptionTestSupport
import Testing

// Area: class-wide hooks' entry (class_hook.c, trampolines.c). Purpose: a class hook runs through
// the signature's typed class trampoline when the generated table has one, through a libffi
// closure otherwise; either way arguments and results are those of a direct call, the order is
// before → instead → original → after, and removal gives the exact IMP back. A selector hooked on
// related classes takes the trampoline on the first only; unrelated classes share trampolines.

/// An instead hook that records "instead" and calls the original.
private let recordInsteadCallingOriginal: ObserverCallback = { call, context in
    Recorder.from(context).record("instead")
    ic_hook_call_original(call)
}

/// Hooks `name` on `cls` class-wide at `position` with `callback`, `recorder` as its context.
private func hookClassRecording(
    _ cls: CLS?, _ name: String, _ position: ic_hook_position, _ callback: ObserverCallback,
    _ recorder: Recorder
) throws -> ic_observer_token {
    var token: ic_observer_token = 0
    let status = ic_hook_class(
        cls, sel(name), position, 0, callback, recorder.retainedContext(), recorderRelease, &token)
    try #require(status == IC_OK, "\(statusName(status)): \(lastErrorMessage)")
    return token
}

/// Signatures the class trampolines do not cover: more than 4 arguments, 4 with a double.
private let outsideTable = [TrampolineKey(key: "d:ddddd"), TrampolineKey(key: "q:iqqd")]

private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

@Suite("Class-wide hooks: every signature")
struct ClassHookSignatureTests {
    @Test(
        "each class trampoline (and the closure outside the table) passes arguments, keeps the result, orders before → instead → original → after",
        arguments: TrampolineKey.all + outsideTable)
    func classTrampoline(_ k: TrampolineKey) throws {
        let recorder = Recorder()
        let sig = try #require(ic_signature_parse(k.encoding))
        let original = try #require(
            ic_closure_imp_create(sig, genericOriginal, recorder.retainedContext(), recorderRelease))
        // A selector of its own: this record is its only class-wide one (the single-record path).
        let name = "classHooked_" + String(k.key.map { $0 == ":" ? "_" : $0 })
        let cls = try makeClass("ClassTramp", methods: [(name, original, k.encoding)])
        let obj = try #require(ic_class_create_instance(cls))
        let tokens = [
            try hookClassRecording(cls, name, IC_HOOK_BEFORE, recordAllArguments, recorder),
            try hookClassRecording(cls, name, IC_HOOK_INSTEAD, recordInsteadCallingOriginal, recorder),
            try hookClassRecording(cls, name, IC_HOOK_AFTER, recordReturnValue, recorder),
        ]
        let inTable = !outsideTable.contains { $0.key == k.key }
        #expect(ic_hook_class_path_of(cls, sel(name)) == (inTable ? IC_PATH_OPTIMIZED : IC_PATH_FORWARDED))
        #expect(ic_object_get_class(obj) == cls)

        let inv = try #require(ic_invocation_create(sig))
        defer { ic_invocation_destroy(inv) }
        ic_invocation_set_target(inv, obj)
        ic_invocation_set_selector(inv, sel(name))
        var expectedArguments: [UInt8] = []
        for (i, code) in k.argumentClasses.enumerated() {
            let value = sampleBytes(code, position: i)
            expectedArguments += value
            value.withUnsafeBytes { _ = ic_invocation_set_argument(inv, 2 + i, $0.baseAddress) }
        }
        let expectedReturn = sampleBytes(k.returnClass, position: 9)
        func returned() -> [UInt8] {
            Array(
                UnsafeRawBufferPointer(start: ic_invocation_return_pointer(inv), count: expectedReturn.count))
        }
        #expect(ic_invocation_invoke(inv) == IC_OK)
        #expect(returned() == expectedReturn)
        #expect(recorder.events == ["before", "instead", "original", "after"])
        #expect(recorder.values("before") == [expectedArguments])
        #expect(recorder.values("original") == [expectedArguments])
        #expect(recorder.values("after") == [expectedReturn])

        for token in tokens { #expect(ic_hook_remove(token) == IC_OK) }
        #expect(address(ic_class_get_imp(cls, sel(name))) == address(original))
        recorder.reset()
        #expect(ic_invocation_invoke(inv) == IC_OK)
        #expect(returned() == expectedReturn)
        #expect(recorder.events == ["original"])
        ic_release(obj)
        ic_intercept_quiesce()
        #expect(ic_closure_imp_destroy(original) == IC_OK)
    }

    @Test(
        "a subclass hooked first takes the trampoline, its superclass then the closure; the override calling super runs each layer once"
    )
    func subclassFirst() throws {
        let recorder = Recorder()
        let name = "relatedFirstSub:"
        let base = try makeClass("CHSBase", methods: [(name, imp(addOneIMP), "i@:i")])
        let superCalling: Int32Int32IMP = { this, cmd, x in
            var target = ic_super(receiver: this, super_class: superclassForSuperSend(this, cmd))
            return fn(ic_msg_lookup_super(&target, cmd), as: Int32Int32IMP.self)(this, cmd, x) &* 10
        }
        let sub = try makeClass("CHSSub", superclass: base, methods: [(name, imp(superCalling), "i@:i")])
        let t1 = try hookClassRecording(sub, name, IC_HOOK_BEFORE, recordFirstArgument, recorder)
        let t2 = try hookClassRecording(base, name, IC_HOOK_AFTER, recordReturnValue, recorder)
        #expect(ic_hook_class_path_of(sub, sel(name)) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_class_path_of(base, sel(name)) == IC_PATH_FORWARDED)
        let child = try #require(ic_class_create_instance(sub))
        let parent = try #require(ic_class_create_instance(base))
        defer {
            ic_release(child)
            ic_release(parent)
        }
        let send = { (o: ID?, x: Int32) in lookup(o, name, as: Int32Int32IMP.self)(o, sel(name), x) }
        #expect(send(child, 4) == 50)
        #expect(recorder.events == ["before", "after"])
        #expect(recorder.values("after") == [withUnsafeBytes(of: Int32(5)) { Array($0) }])
        recorder.reset()
        #expect(send(parent, 4) == 5)
        #expect(recorder.events == ["after"])
        #expect(ic_hook_remove(t1) == IC_OK)
        #expect(ic_hook_remove(t2) == IC_OK)
        recorder.reset()
        #expect(send(child, 4) == 50)
        #expect(recorder.events.isEmpty)
    }

    @Test(
        "unrelated classes hooked on one selector share trampolines: each call runs its own class's hooks, inherited overrides included"
    )
    func unrelatedClassesShareTrampolines() throws {
        let name = "sharedClassHook:"
        let a = try makeClass("CHSA", methods: [(name, imp(addOneIMP), "i@:i")])
        let b = try makeClass("CHSB", methods: [(name, imp(addOneIMP), "i@:i")])
        let bSub = try makeClass("CHSBSub", superclass: b)  // inherits: its hook adds an override
        let (ra, rb, rbSub) = (Recorder(), Recorder(), Recorder())
        let tokens = [
            try hookClassRecording(a, name, IC_HOOK_BEFORE, recordFirstArgument, ra),
            try hookClassRecording(bSub, name, IC_HOOK_BEFORE, recordFirstArgument, rbSub),
            try hookClassRecording(b, name, IC_HOOK_BEFORE, recordFirstArgument, rb),
        ]
        #expect(ic_hook_class_path_of(a, sel(name)) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_class_path_of(bSub, sel(name)) == IC_PATH_OPTIMIZED)
        #expect(ic_hook_class_path_of(b, sel(name)) == IC_PATH_FORWARDED)  // related to bSub
        let objects = [a, b, bSub].map { ic_class_create_instance($0) }
        defer { for o in objects { ic_release(o) } }
        let send = { (o: ID?, x: Int32) in lookup(o, name, as: Int32Int32IMP.self)(o, sel(name), x) }
        for (i, o) in objects.enumerated() { #expect(send(o, Int32(i)) == Int32(i) + 1) }
        func arguments(_ values: Int32...) -> [[UInt8]] {
            values.map { v in withUnsafeBytes(of: v) { Array($0) } }
        }
        #expect(ra.values("before") == arguments(0))
        #expect(rb.values("before") == arguments(1, 2))  // bSub's override calls b's method
        #expect(rbSub.values("before") == arguments(2))
        for token in tokens { #expect(ic_hook_remove(token) == IC_OK) }
        #expect(ic_class_get_own_method(bSub, sel(name)) == nil)
        for (i, o) in objects.enumerated() { #expect(send(o, Int32(i)) == Int32(i) + 1) }
        #expect(ra.events.count == 1 && rb.events.count == 2 && rbSub.events.count == 1)
    }
}

/// Hooks `name` on `cls` class-wide with a before hook counting into `tally`.
private func tallyClass(_ cls: CLS?, _ name: String, _ tally: Tally) -> ic_observer_token? {
    var token: ic_observer_token = 0
    let context = tally.context()
    let status = ic_hook_class(cls, sel(name), IC_HOOK_BEFORE, 0, tallyCall, context, tallyRelease, &token)
    if status != IC_OK { tallyRelease(context) }
    return status == IC_OK ? token : nil
}

@Suite("Class-wide hooks: trampolines under concurrency")
struct ClassTrampolineStressTests {
    @Test(
        "classes hooked on a shared selector while other threads call it: each call runs its own class's hooks, a removed hook never"
    )
    func sharedSelector() async throws {
        let name = "sharedClassStress:"
        let steady = try (0..<3).map { _ in
            try makeClass("CTSteady", methods: [(name, imp(addOneIMP), "i@:i")])
        }
        let tallies = steady.map { _ in Tally() }
        for (cls, tally) in zip(steady, tallies) { try #require(tallyClass(cls, name, tally) != nil) }
        let objects = try steady.map { try #require(ic_class_create_instance($0)) }
        defer { for o in objects { ic_release(o) } }
        let addresses = objects.map { UInt(bitPattern: $0) }
        let firstClass = UInt(bitPattern: steady[0])
        let bad = Tally()
        let churn = Tally()
        let callsPerThread = 3000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for i in 0..<callsPerThread {
                        let o = OpaquePointer(bitPattern: addresses[i % 3])
                        let x = Int32(i)
                        let r = lookup(o, name, as: Int32Int32IMP.self)(o, sel(name), x)
                        if r != x + 1 { bad.calls.add(1, ordering: .relaxed) }
                    }
                }
            }
            group.addTask {
                // New records of the selector published while calls read the selector's list,
                // and an extra hook on a steady class added and removed.
                for i in 0..<60 {
                    guard let cls = try? makeClass("CTChurn", methods: [(name, imp(addOneIMP), "i@:i")]),
                        let obj = ic_class_create_instance(cls)
                    else {
                        bad.calls.add(1, ordering: .relaxed)
                        continue
                    }
                    let send = { lookup(obj, name, as: Int32Int32IMP.self)(obj, sel(name), Int32(i)) }
                    let before = churn.seen
                    if let token = tallyClass(cls, name, churn) {
                        if send() != Int32(i) + 1 { bad.calls.add(1, ordering: .relaxed) }
                        _ = ic_hook_remove(token)
                    }
                    if send() != Int32(i) + 1 || churn.seen != before + 1 {
                        bad.calls.add(1, ordering: .relaxed)
                    }
                    ic_release(obj)
                    if let extra = tallyClass(OpaquePointer(bitPattern: firstClass), name, Tally()) {
                        _ = ic_hook_remove(extra)
                    }
                }
            }
        }
        #expect(bad.seen == 0)
        #expect(churn.seen == 60)
        for tally in tallies { #expect(tally.seen == 2 * callsPerThread / 3) }
        for cls in steady { #expect(ic_hook_class_path_of(cls, sel(name)) == IC_PATH_OPTIMIZED) }
    }
}
