import CInterception
import Glibc
import Synchronization
import Testing

/// Counts calls; the context of the counting observers.
final class CallCounter: Sendable {
    let calls = Atomic<Int>(0)
    let released = Atomic<Bool>(false)
}

let countCall: ObserverCallback = { _, context in
    Unmanaged<CallCounter>.fromOpaque(context!).takeUnretainedValue().calls.add(1, ordering: .relaxed)
}

let releaseCounter: ReleaseCallback = { context in
    let counter = Unmanaged<CallCounter>.fromOpaque(context!)
    counter.takeUnretainedValue().released.store(true, ordering: .relaxed)
    counter.release()
}

func addCounting(_ obj: ID?, _ name: String, _ phase: ic_observer_phase, _ counter: CallCounter)
    -> ic_observer_token
{
    var token: ic_observer_token = 0
    let status = ic_intercept_add_observer(
        obj, sel(name), phase, countCall, Unmanaged.passRetained(counter).toOpaque(), releaseCounter, &token)
    precondition(status == IC_OK, lastErrorMessage)
    return token
}

@Suite("Interception: threads")
struct InterceptConcurrencyTests {
    @Test(
        "observers removed while other threads call are never called after removal returns; permanent ones see every call once"
    )
    func removalDuringCalls() async throws {
        let cls = try makeClass("Concurrent", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let permanentBefore = CallCounter()
        let permanentAfter = CallCounter()
        let tokenBefore = addCounting(obj, "add:", IC_OBSERVE_BEFORE, permanentBefore)
        let tokenAfter = addCounting(obj, "add:", IC_OBSERVE_AFTER, permanentAfter)
        let objBits = UInt(bitPattern: obj)
        let callers = 3
        let callsPerCaller = 30_000
        let violations = CallCounter()
        let done = CallCounter()

        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    let o = OpaquePointer(bitPattern: objBits)
                    let send = lookup(o, "add:", as: Int32Int32IMP.self)
                    for i in 0..<Int32(callsPerCaller) {
                        let f = fn(ic_msg_lookup(o, sel("add:")), as: Int32Int32IMP.self)
                        if f(o, sel("add:"), i) != i + 1 || send(o, sel("add:"), i) != i + 1 {
                            violations.calls.add(1, ordering: .relaxed)
                        }
                    }
                    done.calls.add(1, ordering: .relaxed)
                }
            }
            group.addTask {
                let o = OpaquePointer(bitPattern: objBits)
                var round = 0
                while done.calls.load(ordering: .relaxed) < callers || round < 10 {
                    round += 1
                    let transient = CallCounter()
                    let token = addCounting(
                        o, "add:", round % 2 == 0 ? IC_OBSERVE_BEFORE : IC_OBSERVE_AFTER, transient)
                    for _ in 0..<50 { _ = sched_yield() }
                    #expect(ic_intercept_remove_observer(token) == IC_OK)
                    let atRemoval = transient.calls.load(ordering: .relaxed)
                    for _ in 0..<50 { _ = sched_yield() }
                    if transient.calls.load(ordering: .relaxed) != atRemoval {
                        violations.calls.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(violations.calls.load(ordering: .relaxed) == 0)
        // Each caller made two calls per iteration, every one seen once by each permanent observer.
        #expect(permanentBefore.calls.load(ordering: .relaxed) == callers * callsPerCaller * 2)
        #expect(permanentAfter.calls.load(ordering: .relaxed) == callers * callsPerCaller * 2)
        #expect(ic_intercept_remove_observer(tokenBefore) == IC_OK)
        #expect(ic_intercept_remove_observer(tokenAfter) == IC_OK)
        // Contexts are released once no section that began before the removal runs: other
        // suites' threads (the stress suite) may still be in one, so wait for them.
        ic_intercept_quiesce()
        let released = permanentBefore.released.load(ordering: .relaxed)
        #expect(released)
        #expect(ClassCounters(cls).observers == 0)
    }

    @Test("intercepting, observing and releasing many objects on several threads keeps the counters exact")
    func manyObjectsOnManyThreads() async throws {
        let cls = try makeClass(
            "ConcurrentMany", methods: [("add:", imp(addOneIMP), "i@:i"), ("ping", imp(voidIMP), "v@:")])
        let clsBits = UInt(bitPattern: cls)
        let total = CallCounter()
        await withTaskGroup(of: Void.self) { group in
            for t in 0..<4 {
                group.addTask {
                    let c = OpaquePointer(bitPattern: clsBits)
                    for i in 0..<300 {
                        let obj = ic_class_create_instance(c)
                        let counter = CallCounter()
                        let name = (i + t) % 2 == 0 ? "add:" : "ping"
                        _ = addCounting(obj, name, IC_OBSERVE_BEFORE, counter)
                        if name == "add:" {
                            _ = lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1)
                        } else {
                            lookup(obj, "ping", as: VoidIMP.self)(obj, sel("ping"))
                        }
                        total.calls.add(counter.calls.load(ordering: .relaxed), ordering: .relaxed)
                        ic_release(obj)
                    }
                }
            }
        }
        #expect(total.calls.load(ordering: .relaxed) == 1200)
        #expect(ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 2))
        ic_intercept_quiesce()
    }
}
