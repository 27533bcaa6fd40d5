// ic_intercept_quiesce's contract, pinned down with threads in a fixed choreography: it returns
// only once everything removed before it is destroyed and its context released, even when another
// thread took those observers for destruction and is still busy with them.
import CInterception
import Glibc
import Synchronization
import Testing

/// The flags the threads of the choreography wait on, and what the release functions saw.
private final class Choreography: Sendable {
    let readerInside = Atomic<Bool>(false)
    let readerMayLeave = Atomic<Bool>(false)
    let reclaimerMayStart = Atomic<Bool>(false)
    let destroying = Atomic<Bool>(false)
    let destroyMayFinish = Atomic<Bool>(false)
    let released = Atomic<Bool>(false)

    func context() -> UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }
    static func from(_ c: UnsafeMutableRawPointer?) -> Choreography {
        Unmanaged<Choreography>.fromOpaque(c!).takeUnretainedValue()
    }
}

private func wait(for flag: borrowing Atomic<Bool>) {
    while !flag.load(ordering: .acquiring) { _ = sched_yield() }
}

/// A call observer that stays inside the call (an epoch section) until told to leave.
private let holdInside: ObserverCallback = { _, context in
    let c = Choreography.from(context)
    c.readerInside.store(true, ordering: .releasing)
    wait(for: c.readerMayLeave)
}

/// A release function that blocks until told to finish.
private let blockingRelease: ReleaseCallback = { context in
    let c = Choreography.from(context)
    c.destroying.store(true, ordering: .releasing)
    wait(for: c.destroyMayFinish)
}

private let markReleased: ReleaseCallback = { context in
    Choreography.from(context).released.store(true, ordering: .releasing)
}

private let noOp: ObserverCallback = { _, _ in }

@Suite("Quiescence")
struct QuiesceTests {
    @Test(
        "quiesce returns only after the contexts of observers removed before it are released, even while another thread is still destroying them"
    )
    func quiesceWaitsForDestructionsUnderWay() throws {
        let cls = try makeClass("Quiesce", methods: [("add:", imp(addOneIMP), "i@:i")])
        let held = try #require(ic_class_create_instance(cls))
        defer { ic_release(held) }
        let c = Choreography()
        var token: ic_observer_token = 0
        #expect(
            ic_intercept_add_observer(
                held, sel("add:"), IC_OBSERVE_BEFORE, holdInside, c.context(), nil, &token) == IC_OK)
        let heldBits = UInt(bitPattern: held)
        let clsBits = UInt(bitPattern: cls)
        let releasedWhenQuiesceReturned = Atomic<Bool>(false)

        runOnThreads(4) { role in
            switch role {
            case 0:  // A reader inside an observer call: nothing retired meanwhile can be freed.
                let obj = OpaquePointer(bitPattern: heldBits)
                _ = lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1)
            case 1:  // The thread under test.
                wait(for: c.readerInside)
                // Two observers retired by their objects' teardown, the first one's release
                // blocking: whoever destroys them is stuck on it until told to finish.
                let first = ic_class_create_instance(OpaquePointer(bitPattern: clsBits))
                let second = ic_class_create_instance(OpaquePointer(bitPattern: clsBits))
                var t: ic_observer_token = 0
                _ = ic_intercept_add_observer(
                    first, sel("add:"), IC_OBSERVE_BEFORE, noOp, c.context(), blockingRelease, &t)
                _ = ic_intercept_add_observer(
                    second, sel("add:"), IC_OBSERVE_BEFORE, noOp, c.context(), markReleased, &t)
                ic_release(first)
                ic_release(second)
                c.readerMayLeave.store(true, ordering: .releasing)
                c.reclaimerMayStart.store(true, ordering: .releasing)
                wait(for: c.destroying)  // someone is destroying them now (stuck on the first)
                ic_intercept_quiesce()
                releasedWhenQuiesceReturned.store(c.released.load(ordering: .acquiring), ordering: .relaxed)
            case 2:  // Another thread that reclaims, and so takes the two observers.
                wait(for: c.reclaimerMayStart)
                ic_intercept_quiesce()
            default:  // Lets the blocked destruction finish a little later.
                wait(for: c.destroying)
                usleep(50_000)
                c.destroyMayFinish.store(true, ordering: .releasing)
            }
        }
        let released = releasedWhenQuiesceReturned.load(ordering: .relaxed)
        #expect(released)
        #expect(ic_intercept_remove_observer(token) == IC_OK)
        ic_intercept_quiesce()
    }
}
