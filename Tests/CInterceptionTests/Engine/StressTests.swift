// The ThreadSanitizer stress suite (issue #8): real threads sending intercepted and plain messages
// to shared objects while others add and remove observers, intercept new selectors, create and
// release objects, set associated objects and weak references. It runs in every `swift test`,
// including the TSan and ASan runs of .ci/run, where it is the part most likely to show a race.
//
// Each scenario does a fixed amount of work cut short by a time budget (ThreadSupport.swift), and
// asserts exactly on what was done: counts, never durations. Work happens on raw threads, so
// failures are collected (`Violations`) and asserted in the test body after the threads joined.
import CInterception
import CInterceptionTestSupport
import Glibc
import Synchronization
import Testing

/// Failures seen on worker threads, asserted by the test once they joined.
final class Violations: Sendable {
    private let list = TestLock<[String]>([])
    func note(_ what: String) {
        list.withLock { if $0.count < 20 { $0.append(what) } }
    }
    var all: [String] { list.withLock { $0 } }
}

/// Objects handed from one thread to another, each with the +1 its sender gave up.
final class Mailbox: Sendable {
    private let items = TestLock<[UInt]>([])
    /// Takes ownership of `obj` if there is room; otherwise the caller keeps it.
    func post(_ obj: ID) -> Bool {
        items.withLock {
            guard $0.count < 16 else { return false }
            $0.append(UInt(bitPattern: obj))
            return true
        }
    }
    func take() -> ID? { items.withLock { $0.popLast() }.flatMap { ID(bitPattern: $0) } }
}

/// Removes the observer whose token it holds when called (as a `deallocated` observer), and keeps
/// the removal's status.
final class RemoveOnDeath: Sendable {
    let token: ic_observer_token
    let status = Atomic<UInt32>(UInt32.max)
    let releases = Atomic<Int>(0)
    init(token: ic_observer_token) { self.token = token }
}

private let removeOnDeath: DeallocCallback = { _, context in
    let remover = Unmanaged<RemoveOnDeath>.fromOpaque(context!).takeUnretainedValue()
    remover.status.store(ic_intercept_remove_observer(remover.token).rawValue, ordering: .relaxed)
}

private let removeOnDeathRelease: ReleaseCallback = { context in
    let remover = Unmanaged<RemoveOnDeath>.fromOpaque(context!)
    remover.takeUnretainedValue().releases.add(1, ordering: .relaxed)
    remover.release()
}

private typealias MixIMP = @convention(c) (ID?, SEL?, Int64, Double) -> Double
private let mixIMP: MixIMP = { _, _, q, d in Double(q) + d }

@inline(__always) private func sendInt(_ o: ID?, _ s: SEL?, _ x: Int32) -> Int32 {
    fn(ic_msg_lookup(o, s), as: Int32Int32IMP.self)(o, s, x)
}

private func bits(_ p: OpaquePointer?) -> UInt { UInt(bitPattern: p) }
private func pointer(_ b: UInt) -> OpaquePointer? { OpaquePointer(bitPattern: b) }

@Suite("Stress: threads racing the engine", .serialized)
struct StressTests {
    @Test(
        "calls to shared objects are each seen once by every observer registered throughout, while observers, interceptions, objects, associations and weak references churn on other threads"
    )
    func sharedObjectsUnderChurn() throws {
        let start = ContinuousClock.now
        let ddd = TypeCase.all.first { $0.name == "struct_ddd" }!
        let cls = try makeClass(
            "StressShared",
            methods: [
                ("add:", imp(addOneIMP), "i@:i"),  // optimized
                ("fwd:", imp(addOneIMP), "i@:i"),  // forced onto the forward path
                ("mix:with:", imp(mixIMP), "d@:qd"),  // optimized, mixed registers
                ("vec:", ddd.raw.echo_imp, "{ddd=ddd}@:{ddd=ddd}"),  // forwarded: struct in memory
                ("plain:", imp(addOneIMP), "i@:i"),  // never intercepted
            ] + (0..<8).map { ("extra\($0):", imp(addOneIMP), "i@:i") })  // intercepted mid-run
        let childClass = try makeClass("StressChild")
        let observedNames = ["add:", "fwd:", "mix:with:", "vec:"]
        let observedSels = observedNames.map { bits(sel($0)) }
        let extraSels = (0..<8).map { bits(sel("extra\($0):")) }
        let plainSel = bits(sel("plain:"))
        /// Odd extras are forced onto the forward path; every thread asks the same way, so the
        /// path (decided by whoever asks first) is known.
        @Sendable func extraOptions(_ k: Int) -> UInt32 {
            k % 2 == 1 ? UInt32(IC_INTERCEPT_FORCE_FORWARDING) : 0
        }

        // Three shared intercepted objects, observed before and after on each selector for the
        // whole run; one shared object nobody intercepts.
        let shared = try (0..<3).map { _ in try #require(ic_class_create_instance(cls)) }
        let plainObject = try #require(ic_class_create_instance(cls))
        #expect(
            ic_intercept_prepare_with_options(shared[0], sel("fwd:"), UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        var permanent: [(tally: Tally, token: ic_observer_token)] = []
        for obj in shared {
            for s in observedSels {
                for phase in [IC_OBSERVE_BEFORE, IC_OBSERVE_AFTER] {
                    let tally = Tally()
                    let (status, token) = addTally(obj, pointer(s), phase, tally)
                    try #require(status == IC_OK, "\(statusName(status)): \(lastErrorMessage)")
                    permanent.append((tally, token))
                }
            }
        }
        #expect(ic_intercept_path_of(shared[1], sel("fwd:")) == IC_PATH_FORWARDED)
        #expect(ic_intercept_path_of(shared[1], sel("vec:")) == IC_PATH_FORWARDED)
        #expect(ic_intercept_path_of(shared[1], sel("add:")) == IC_PATH_OPTIMIZED)

        let sharedBits = shared.map(bits)
        let plainBits = bits(plainObject)
        let weakCount = 8
        let weakSlots = UnsafeMutablePointer<ID?>.allocate(capacity: weakCount)
        weakSlots.initialize(repeating: nil, count: weakCount)
        let weakBits = UInt(bitPattern: weakSlots)
        let associationKey = UInt(bitPattern: weakSlots) + 1  // any unique address
        let childBits = bits(childClass)
        let clsBits = bits(cls)

        let senders = 3
        let budget = StressBudget(iterations: 100_000, seconds: 3)
        let violations = Violations()
        let mailbox = Mailbox()
        let sendersRunning = Atomic<Int>(senders)
        let senderIterations = Atomic<Int>(0)
        let extrasPrepared = Atomic<Int>(0)
        let childDeaths = Tally()
        let childrenCreated = Atomic<Int>(0)
        let transients = TestLock<[(tally: Tally, atRemoval: Int)]>([])
        let lifecycle = TestLock<[(deallocating: Tally, deallocated: Tally, own: Tally)]>([])
        let handedOff = Atomic<Int>(0)

        /// A child to associate: counted when it dies, wherever that happens.
        @Sendable func makeChild() -> ID? {
            let child = ic_class_create_instance(pointer(childBits))
            let (status, _) = addDeallocTally(child, IC_OBSERVE_AFTER, childDeaths)
            if status != IC_OK { violations.note("child deallocated observer: \(statusName(status))") }
            childrenCreated.add(1, ordering: .relaxed)
            return child
        }

        runOnThreads(senders + 2) { index in
            let objects = sharedBits.map { pointer($0) }
            let sels = observedSels.map { pointer($0) }
            let extras = extraSels.map { pointer($0) }
            let key = UnsafeRawPointer(bitPattern: associationKey)
            switch index {
            case 0..<senders:
                // Sender: every intercepted selector of every shared object once per iteration,
                // plus plain sends, an extra selector that gets intercepted while it is being
                // sent, objects other threads created (mailbox, weak references, associations).
                let vec = TypeCase.all.first { $0.name == "struct_ddd" }!
                let input = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
                let output = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
                input.copyMemory(from: vec.raw.sample, byteCount: vec.size)
                defer {
                    input.deallocate()
                    output.deallocate()
                }
                let plain = pointer(plainSel)
                let plainObj = pointer(plainBits)
                let weak = UnsafeMutablePointer<ID?>(bitPattern: weakBits)!
                var i = 0
                while budget.allows(i) {
                    let x = Int32(truncatingIfNeeded: i &* 7 &- index)
                    for obj in objects {
                        if sendInt(obj, sels[0], x) != x &+ 1 {
                            violations.note("add: returned a wrong value")
                        }
                        if sendInt(obj, sels[1], x) != x &+ 1 {
                            violations.note("fwd: returned a wrong value")
                        }
                        let mix = fn(ic_msg_lookup(obj, sels[2]), as: MixIMP.self)(
                            obj, sels[2], Int64(i), 0.5)
                        if mix != Double(i) + 0.5 { violations.note("mix:with: returned \(mix)") }
                        vec.raw.send_echo(obj, sels[3], input, output)
                        if !vec.equal(output, input) { violations.note("vec: returned a wrong struct") }
                        if sendInt(obj, plain, x) != x &+ 1 {
                            violations.note("plain: returned a wrong value")
                        }
                        if sendInt(obj, extras[i % 8], x) != x &+ 1 {
                            violations.note("extra returned a wrong value")
                        }
                    }
                    if sendInt(plainObj, sels[0], x) != x &+ 1 {
                        violations.note("unintercepted add: returned a wrong value")
                    }
                    if i % 8 == 0, let obj = mailbox.take() {
                        if sendInt(obj, sels[0], x) != x &+ 1 {
                            violations.note("handed-off add: returned a wrong value")
                        }
                        ic_release(obj)
                    }
                    if i % 4 == 0, let obj = ic_weak_load_retained(weak + (i / 4) % weakCount) {
                        if sendInt(obj, sels[0], x) != x &+ 1 {
                            violations.note("weakly loaded add: returned a wrong value")
                        }
                        ic_release(obj)
                    }
                    if i % 16 == 0, let child = ic_object_copy_associated(objects[i % 3], key) {
                        if ic_object_get_class(child) != pointer(childBits) {
                            violations.note("associated value of a wrong class")
                        }
                        ic_release(child)
                    }
                    i += 1
                }
                senderIterations.add(i, ordering: .relaxed)
                sendersRunning.subtract(1, ordering: .releasing)

            case senders:
                // Churner: transient observers on the shared objects (each removal's count is
                // kept and must never change afterwards), new selectors intercepted on objects
                // that are being messaged, associated values replaced.
                var round = 0
                var mine: [(tally: Tally, atRemoval: Int)] = []
                while sendersRunning.load(ordering: .acquiring) > 0 || round < 40 {
                    if round % 4 == 0, round / 4 < extras.count {
                        let k = round / 4
                        for obj in objects {
                            let status = ic_intercept_prepare_with_options(obj, extras[k], extraOptions(k))
                            if status != IC_OK { violations.note("prepare extra\(k): \(statusName(status))") }
                        }
                        extrasPrepared.store(k + 1, ordering: .relaxed)
                    }
                    let candidates = sels + extras.prefix(extrasPrepared.load(ordering: .relaxed))
                    let obj = objects[round % objects.count]
                    let tally = Tally()
                    let (status, token) = addTally(
                        obj, candidates[round % candidates.count],
                        round % 2 == 0 ? IC_OBSERVE_BEFORE : IC_OBSERVE_AFTER, tally)
                    if status != IC_OK { violations.note("transient add: \(statusName(status))") }
                    for _ in 0..<round % 4 { _ = sched_yield() }
                    let removal = ic_intercept_remove_observer(token)
                    if removal != IC_OK { violations.note("transient remove: \(statusName(removal))") }
                    mine.append((tally, tally.seen))
                    if round % 2 == 0 {
                        let child = makeChild()
                        let s = ic_object_set_associated(obj, key, child, IC_ASSOCIATION_RETAIN)
                        if s != IC_OK { violations.note("set associated: \(statusName(s))") }
                        ic_release(child)
                    }
                    round += 1
                }
                transients.withLock { $0 += mine }

            default:
                // Lifecycle: new objects of the same class, intercepted (a rotating extra
                // selector, add:, dealloc), observed, given an associated child and a weak
                // reference, handed to a sender with a second reference, then released: the last
                // release happens on whichever thread gets there last.
                let weak = UnsafeMutablePointer<ID?>(bitPattern: weakBits)!
                var n = 0
                var mine: [(deallocating: Tally, deallocated: Tally, own: Tally)] = []
                while sendersRunning.load(ordering: .acquiring) > 0 || n < 20 {
                    guard let obj = ic_class_create_instance(pointer(clsBits)) else {
                        violations.note("create: \(lastErrorMessage)")
                        break
                    }
                    let k = n % 8
                    let prepared = ic_intercept_prepare_with_options(obj, extras[k], extraOptions(k))
                    if prepared != IC_OK { violations.note("prepare new object: \(statusName(prepared))") }
                    let record = (deallocating: Tally(), deallocated: Tally(), own: Tally())
                    let (s1, _) = addDeallocTally(obj, IC_OBSERVE_BEFORE, record.deallocating)
                    let (s2, _) = addDeallocTally(obj, IC_OBSERVE_AFTER, record.deallocated)
                    let (s3, ownToken) = addTally(obj, sels[0], IC_OBSERVE_BEFORE, record.own)
                    if s1 != IC_OK || s2 != IC_OK || s3 != IC_OK {
                        violations.note(
                            "observe new object: \(statusName(s1)) \(statusName(s2)) \(statusName(s3))")
                    }
                    for j in 0..<5 { _ = sendInt(obj, sels[0], Int32(j)) }
                    if record.own.seen != 5 {
                        violations.note("own observer saw \(record.own.seen) of 5 calls")
                    }
                    let child = makeChild()
                    if ic_object_set_associated(obj, key, child, IC_ASSOCIATION_RETAIN) != IC_OK {
                        violations.note("associate with new object")
                    }
                    ic_release(child)
                    if ic_weak_store(weak + n % weakCount, obj) != IC_OK { violations.note("weak store") }
                    if mailbox.post(ic_retain(obj)!) {
                        handedOff.add(1, ordering: .relaxed)
                    } else {
                        ic_release(obj)
                    }
                    // Half the objects lose their call observer first; the others take it along.
                    if n % 2 == 0, ic_intercept_remove_observer(ownToken) != IC_OK {
                        violations.note("remove own observer")
                    }
                    ic_release(obj)
                    mine.append(record)
                    n += 1
                }
                lifecycle.withLock { $0 += mine }
            }
        }
        while let obj = mailbox.take() { ic_release(obj) }

        #expect(violations.all == [])
        // Every call made was seen exactly once by each observer registered throughout.
        let iterations = senderIterations.load(ordering: .relaxed)
        for (tally, _) in permanent {
            #expect(tally.seen == iterations)
        }
        for (_, token) in permanent {
            #expect(ic_intercept_remove_observer(token) == IC_OK)
        }
        // No transient observer was called after its removal returned.
        let transientList = transients.withLock { $0 }
        #expect(transientList.count >= 40)
        #expect(transientList.allSatisfy { $0.tally.seen == $0.atRemoval })

        for obj in shared + [plainObject] { ic_release(obj) }
        for i in 0..<weakCount { ic_weak_destroy(weakSlots + i) }
        weakSlots.deallocate()
        ic_intercept_quiesce()

        // Every new object died exactly once, and every context was released exactly once.
        let records = lifecycle.withLock { $0 }
        #expect(records.count >= 20)
        #expect(records.allSatisfy { $0.deallocating.seen == 1 && $0.deallocated.seen == 1 })
        #expect(
            records.allSatisfy {
                $0.deallocating.released == 1 && $0.deallocated.released == 1 && $0.own.released == 1
            })
        #expect(childDeaths.seen == childrenCreated.load(ordering: .relaxed))
        #expect(childDeaths.released == childrenCreated.load(ordering: .relaxed))
        #expect(permanent.allSatisfy { $0.tally.released == 1 })
        #expect(transientList.allSatisfy { $0.tally.released == 1 })
        // optimized: add:, mix:with:, the even extras, dealloc; forwarded: fwd:, vec:, the odd extras
        #expect(
            ClassCounters(cls)
                == ClassCounters(subclasses: 1, forwardingClasses: 1, optimized: 7, forwarded: 6))
        #expect(ClassCounters(childClass) == ClassCounters())

        let messages = iterations * (shared.count * 6 + 1)
        print(
            "stress [shared objects]: \(formatSeconds(secondsSince(start))) s, \(senders) senders × \(iterations / senders) iterations, "
                + "\(messages) messages (\(iterations * shared.count * observedSels.count) observed calls × 2 permanent observers), "
                + "\(transientList.count) transient observers, \(records.count) objects created and released "
                + "(\(handedOff.load(ordering: .relaxed)) handed to other threads), \(childrenCreated.load(ordering: .relaxed)) associated children"
        )
    }

    /// One object of the dealloc race and what happened to its observers.
    final class DyingRecord: Sendable {
        let deallocating = Tally()  // never removed: must fire once
        let deallocated = Tally()  // never removed: must fire once
        let removableDeallocating = Tally()  // raced by a remover thread
        let removableDeallocated = Tally()
        let calls = Tally()  // a call observer, removed by a deallocated observer
        let remover: RemoveOnDeath
        let removableTokens: [ic_observer_token]
        let removals = TestLock<[(status: ic_status, atRemoval: Int)]>([])

        init(_ obj: ID, violations: Violations) {
            var tokens: [ic_observer_token] = []
            var statuses: [ic_status] = []
            func keep(_ result: (ic_status, ic_observer_token)) -> ic_observer_token {
                statuses.append(result.0)
                return result.1
            }
            _ = keep(addDeallocTally(obj, IC_OBSERVE_BEFORE, deallocating))
            _ = keep(addDeallocTally(obj, IC_OBSERVE_AFTER, deallocated))
            tokens.append(keep(addDeallocTally(obj, IC_OBSERVE_BEFORE, removableDeallocating)))
            tokens.append(keep(addDeallocTally(obj, IC_OBSERVE_AFTER, removableDeallocated)))
            let callToken = keep(addTally(obj, sel("add:"), IC_OBSERVE_BEFORE, calls))
            remover = RemoveOnDeath(token: callToken)
            var token: ic_observer_token = 0
            let context = Unmanaged.passRetained(remover).toOpaque()
            statuses.append(
                ic_intercept_add_dealloc_observer(
                    obj, IC_OBSERVE_AFTER, removeOnDeath, context, removeOnDeathRelease, &token))
            removableTokens = tokens
            if statuses.contains(where: { $0 != IC_OK }) {
                violations.note("observe: \(statuses.map(statusName))")
            }
        }
    }

    @Test(
        "deallocating and deallocated fire exactly once per object released on several threads at once, while another thread removes observers of the dying objects and deallocated observers remove the rest"
    )
    func deallocRacingRemoval() throws {
        let start = ContinuousClock.now
        let cls = try makeClass("StressDying", methods: [("add:", imp(addOneIMP), "i@:i")])
        let churnClass = try makeClass("StressDyingChurn", methods: [("add:", imp(addOneIMP), "i@:i")])
        let churnObject = try #require(ic_class_create_instance(churnClass))
        let churnBits = bits(churnObject)
        let addSel = bits(sel("add:"))
        let releasers = 3
        let batch = 48
        let budget = StressBudget(iterations: 120, seconds: 2.5)
        let violations = Violations()
        var records: [DyingRecord] = []
        var churnRounds = 0

        var round = 0
        while budget.allows(round) {
            let objects = try (0..<batch).map { _ in try #require(ic_class_create_instance(cls)) }
            let batchRecords = objects.map { DyingRecord($0, violations: violations) }
            for obj in objects {
                for _ in 1..<releasers { ic_retain(obj) }
            }
            let objectBits = objects.map(bits)
            let finished = Atomic<Int>(0)
            let churned = Atomic<Int>(0)
            runOnThreads(releasers + 2) { index in
                let add = pointer(addSel)
                switch index {
                case 0..<releasers:
                    // Each releaser sends add: to each object, then gives up its reference, each
                    // in its own order, so the last release moves around.
                    for j in 0..<batch {
                        let obj = pointer(objectBits[(j + index * batch / releasers) % batch])
                        if sendInt(obj, add, 1) != 2 { violations.note("add: returned a wrong value") }
                        ic_release(obj)
                    }
                    finished.add(1, ordering: .releasing)
                case releasers:
                    // The remover races the releasers for the removable observers.
                    for record in batchRecords {
                        for (token, tally) in zip(
                            record.removableTokens,
                            [record.removableDeallocating, record.removableDeallocated])
                        {
                            let status = ic_intercept_remove_observer(token)
                            let seen = tally.seen
                            record.removals.withLock { $0.append((status, seen)) }
                        }
                    }
                    finished.add(1, ordering: .releasing)
                default:
                    // Writers elsewhere in the engine retire and reclaim memory all the time.
                    let obj = pointer(churnBits)
                    var n = 0
                    while finished.load(ordering: .acquiring) < releasers + 1 || n == 0 {
                        let (status, token) = addTally(obj, add, IC_OBSERVE_BEFORE, Tally())
                        let removal = ic_intercept_remove_observer(token)
                        if status != IC_OK || removal != IC_OK {
                            violations.note(
                                "churn: add \(statusName(status)) (\(lastErrorMessage)), remove \(statusName(removal))"
                            )
                        }
                        n += 1
                    }
                    churned.add(n, ordering: .relaxed)
                }
            }
            records += batchRecords
            churnRounds += churned.load(ordering: .relaxed)
            round += 1
        }
        ic_release(churnObject)
        ic_intercept_quiesce()

        #expect(violations.all == [])
        #expect(records.allSatisfy { $0.deallocating.seen == 1 && $0.deallocated.seen == 1 })
        // Three sends, all before the last release; the call observer went at the end.
        #expect(records.allSatisfy { $0.calls.seen == releasers })
        #expect(records.allSatisfy { $0.remover.status.load(ordering: .relaxed) == IC_OK.rawValue })
        for record in records {
            let tallies = [record.removableDeallocating, record.removableDeallocated]
            for (removal, tally) in zip(record.removals.withLock { $0 }, tallies) {
                switch removal.status {
                case IC_OK:
                    // Removed in time or not: never called after the removal returned.
                    #expect(tally.seen == removal.atRemoval)
                    #expect(tally.seen <= 1)
                case IC_ERR_OBSERVER_NOT_FOUND:
                    // Gone with its object: it fired once, as part of that death.
                    #expect(tally.seen == 1)
                default:
                    Issue.record("removal: \(statusName(removal.status))")
                }
            }
        }
        let tallies = records.flatMap {
            [$0.deallocating, $0.deallocated, $0.removableDeallocating, $0.removableDeallocated, $0.calls]
        }
        #expect(tallies.allSatisfy { $0.released == 1 })
        #expect(records.allSatisfy { $0.remover.releases.load(ordering: .relaxed) == 1 })
        #expect(ClassCounters(cls) == ClassCounters(subclasses: 1, optimized: 2))
        #expect(ClassCounters(churnClass) == ClassCounters(subclasses: 1, optimized: 1))

        let removedInTime = records.flatMap { $0.removals.withLock { $0 } }.filter { $0.status == IC_OK }
            .count
        print(
            "stress [dealloc racing removal]: \(formatSeconds(secondsSince(start))) s, \(records.count) objects in \(round) rounds, "
                + "each released on \(releasers) threads at once; \(removedInTime) of \(records.count * 2) raced observers removed before their object died; "
                + "\(churnRounds) observers added and removed alongside")
    }
}
