import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

// Area: foreign changes racing hooked calls (SPEC 16.3, 10.6). Purpose: while one thread exchanges
// two methods' IMPs and adds and removes class-wide hooks (so class trampolines move between
// selectors, run through the moved-trampoline path, and are given their originals back), other
// threads call both methods on instances of the class and of a subclass: no call aborts, each
// runs exactly one original, and at the end the class has its exact methods back. Run under
// ThreadSanitizer by .ci/run.

/// What the originals count (a C IMP cannot capture).
private enum StressOriginals {
    static let a = Atomic<Int>(0)
    static let b = Atomic<Int>(0)
}

private let originalA: VoidIMP = { _, _ in StressOriginals.a.add(1, ordering: .relaxed) }
private let originalB: VoidIMP = { _, _ in StressOriginals.b.add(1, ordering: .relaxed) }

@Suite("Stress: exchanges and class hooks racing calls")
struct HookForeignChangeStressTests {
    @Test(
        "one thread exchanges IMPs and adds and removes class hooks while others call: no abort, one original per call, exact methods at the end"
    )
    func exchangesRacingCalls() throws {
        let cls = try makeClass(
            "StressSwap", methods: [("a", imp(originalA), "v@:"), ("b", imp(originalB), "v@:")])
        let sub = try makeClass("StressSwapSub", superclass: cls)
        let objects = [
            try #require(ic_class_create_instance(cls)), try #require(ic_class_create_instance(sub)),
        ]
        defer { for obj in objects { ic_release(obj) } }
        let objectBits = objects.map { UInt(bitPattern: $0) }
        let clsBits = UInt(bitPattern: cls)
        let callers = 2
        let calls = Atomic<Int>(0)
        let done = Atomic<Bool>(false)
        let violations = Violations()
        let budget = StressBudget(iterations: 2_000, seconds: 2.0)
        let startA = StressOriginals.a.load(ordering: .relaxed)
        let startB = StressOriginals.b.load(ordering: .relaxed)

        runOnThreads(callers + 1) { index in
            let cls = OpaquePointer(bitPattern: clsBits)!
            if index == 0 {
                let methodA = ic_class_get_own_method(cls, sel("a"))
                let methodB = ic_class_get_own_method(cls, sel("b"))
                var round = 0
                while budget.allows(round) {
                    var tokens: [ic_observer_token] = []
                    for name in round % 3 == 0 ? ["a", "b"] : ["a"] {
                        var token: ic_observer_token = 0
                        let status = ic_hook_class(
                            cls, sel(name), IC_HOOK_BEFORE, 0, stressHookCall,
                            Unmanaged.passUnretained(StressHookCounter.shared).toOpaque(), nil, &token)
                        if status != IC_OK {
                            violations.note("hook: \(statusName(status)) \(lastErrorMessage)")
                        }
                        tokens.append(token)
                    }
                    // Exchange while hooked; remove some hooks while exchanged, then exchange
                    // back (the class must end with its exact methods whatever the order).
                    ic_method_exchange_imps(methodA, methodB)
                    if round % 2 == 0 {
                        for token in tokens { _ = ic_hook_remove(token) }
                        ic_method_exchange_imps(methodA, methodB)
                    } else {
                        ic_method_exchange_imps(methodA, methodB)
                        for token in tokens { _ = ic_hook_remove(token) }
                    }
                    round += 1
                }
                done.store(true, ordering: .releasing)
            } else {
                var n = 0
                while !done.load(ordering: .acquiring) || n == 0 {
                    let obj = OpaquePointer(bitPattern: objectBits[(n + index) % objectBits.count])!
                    let name = n % 2 == 0 ? "a" : "b"
                    lookup(obj, name, as: VoidIMP.self)(obj, sel(name))
                    n += 1
                }
                calls.add(n, ordering: .relaxed)
            }
        }
        let originals =
            StressOriginals.a.load(ordering: .relaxed) - startA + StressOriginals.b.load(ordering: .relaxed)
            - startB
        #expect(violations.all == [])
        #expect(originals == calls.load(ordering: .relaxed), "each call ran exactly one original")
        func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }
        #expect(address(ic_method_imp(ic_class_get_own_method(cls, sel("a")))) == address(imp(originalA)))
        #expect(address(ic_method_imp(ic_class_get_own_method(cls, sel("b")))) == address(imp(originalB)))
        #expect(!ic_hook_class_is_hooked(cls, nil))
        #expect(StressHookCounter.shared.runs.load(ordering: .relaxed) <= calls.load(ordering: .relaxed))
    }
}

/// Counts the stress hooks' runs.
private final class StressHookCounter: Sendable {
    static let shared = StressHookCounter()
    let runs = Atomic<Int>(0)
}

private let stressHookCall: ObserverCallback = { _, context in
    Unmanaged<StressHookCounter>.fromOpaque(context!).takeUnretainedValue().runs.add(1, ordering: .relaxed)
}
