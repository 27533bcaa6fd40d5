import CInterception
import Foundation
@testable import Interception
import Synchronization
import Testing

/// A class with `f:` (v@:q), recording nothing: calls are counted by their observers.
private func makeTarget(_ base: String) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base)) { c in
        try c.method("f:") { (this: RuntimeObject, x: Int) in }
        try c.method("g") { (this: RuntimeObject) in }
    }
}

@Suite("rx bindings: the interception goes when the last subscriber goes")
struct RxUnhookTests {
    @Test("disposing the last subscription moves the object back to its class and removes the observer")
    func lastDisposeRestoresTheClass() throws {
        let cls = try makeTarget("RxUnhook")
        let obj = cls.new()
        var seen: [Int] = []
        let first = obj.rx.sentMessage("f:").subscribe(onNext: { seen.append($0[0] as! Int) })
        let second = obj.rx.sentMessage("f:").subscribe(onNext: { seen.append(-($0[0] as! Int)) })
        #expect(obj.actualClass != cls)
        try obj.send("f:", 1)
        first.dispose()
        // One subscriber left: still installed.
        #expect(obj.actualClass != cls)
        try obj.send("f:", 2)
        second.dispose()
        #expect(obj.actualClass == cls)
        #expect(
            Runtime.interceptionCounters(for: cls)
                == InterceptionCounters(dynamicSubclasses: 1, optimizedMethods: 1, liveObjects: 1))
        try obj.send("f:", 3)
        #expect(seen == [1, -1, -2])
    }

    @Test("a new subscription after the last dispose installs again and sees calls")
    func resubscribeInstallsAgain() throws {
        let cls = try makeTarget("RxReinstall")
        let obj = cls.new()
        let observable = obj.rx.methodInvoked("f:")
        var seen: [Int] = []
        observable.subscribe(onNext: { seen.append($0[0] as! Int) }).dispose()
        #expect(obj.actualClass == cls)
        try obj.send("f:", 1)
        let again = observable.subscribe(onNext: { seen.append($0[0] as! Int) })
        #expect(obj.actualClass != cls)
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 1)
        try obj.send("f:", 2)
        again.dispose()
        #expect(obj.actualClass == cls)
        #expect(seen == [2])
    }

    @Test("each (selector, phase) stream is removed on its own; the object goes back when all are gone")
    func streamsAreIndependent() throws {
        let cls = try makeTarget("RxIndependent")
        let obj = cls.new()
        let sent = obj.rx.sentMessage("f:").subscribe()
        let invoked = obj.rx.methodInvoked("f:").subscribe()
        let typed = obj.rx.sentMessage("f:", as: Int.self).subscribe()
        let other = obj.rx.sentMessage("g").subscribe()
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 4)
        sent.dispose()
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 3)
        invoked.dispose()
        typed.dispose()
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 1)
        #expect(obj.actualClass != cls)
        other.dispose()
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 0)
        #expect(obj.actualClass == cls)
    }

    @Test("deallocating without subscribers is removed, and still replays to subscribers after the death")
    func deallocatingReplaysAfterRemoval() throws {
        let cls = try makeTarget("RxDeallocUnhook")
        var obj: RuntimeObject? = cls.new()
        let deallocating = obj!.rx.deallocating
        let deallocated = obj!.rx.deallocated
        deallocating.subscribe().dispose()
        #expect(obj!.actualClass == cls)  // `deallocated` swaps nothing
        obj = nil
        var events: [String] = []
        deallocating.subscribe { events.append("deallocating \($0)") }.dispose()
        deallocated.subscribe { events.append("deallocated \($0)") }.dispose()
        #expect(
            events == [
                "deallocating next(())", "deallocating completed", "deallocated next(())",
                "deallocated completed",
            ])
    }

    @Test("a subscription after the object died completes at once and installs nothing")
    func subscribeAfterDeath() throws {
        let cls = try makeTarget("RxAfterDeath")
        var obj: RuntimeObject? = cls.new()
        let observable = obj!.rx.sentMessage("f:")
        observable.subscribe().dispose()
        obj = nil
        var events: [String] = []
        observable.subscribe { events.append("\($0)") }.dispose()
        #expect(events == ["completed"])
    }

    @Test("the typed single-type stream infers its element type in a closure")
    func singleTypeInference() throws {
        let cls = try makeTarget("RxSingleType")
        let o = cls.new()
        var sum = 0
        // Compiles only if the element type is Int64 itself (issue 13, item 6).
        let subscription = o.rx.sentMessage("f:", as: Int64.self).subscribe(onNext: { n in sum += Int(n) })
        let after = o.rx.methodInvoked("f:", as: Int.self).subscribe(onNext: { n in sum += n * 100 })
        try o.send("f:", 2)
        subscription.dispose()
        after.dispose()
        #expect(sum == 202)
        #expect(o.actualClass == cls)
    }

    @Test(
        "subscribing and disposing on several threads while others call: every call reaches each steady subscriber once, none twice"
    )
    func concurrentSubscribeDispose() async throws {
        final class Tally: Sendable {
            let calls = Atomic<Int>(0)
            let duplicates = Atomic<Int>(0)
            let steady = Locked<[Int]>([])
        }
        let cls = try makeTarget("RxChurn")
        let obj = cls.new()
        let tally = Tally()
        let steadySubscription = obj.rx.sentMessage("f:").subscribe(onNext: { args in
            tally.steady.withLock { $0.append(args[0] as! Int) }
        })
        let callers = 2
        let perCaller = 3000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<callers {
                group.addTask {
                    for _ in 0..<perCaller {
                        let n = tally.calls.add(1, ordering: .relaxed).newValue
                        try? obj.send("f:", n)
                    }
                }
            }
            group.addTask {
                // Transient subscribers come and go; each must never see a call twice.
                for round in 0..<300 {
                    let seen = Locked<Set<Int>>([])
                    let subscription =
                        (round % 2 == 0 ? obj.rx.sentMessage("f:") : obj.rx.methodInvoked("f:"))
                        .subscribe(onNext: { args in
                            let fresh = seen.withLock { $0.insert(args[0] as! Int).inserted }
                            if !fresh { tally.duplicates.add(1, ordering: .relaxed) }
                        })
                    subscription.dispose()
                }
            }
        }
        steadySubscription.dispose()
        let all = tally.steady.withLock { $0 }
        #expect(all.count == callers * perCaller)
        #expect(Set(all).count == callers * perCaller)
        #expect(tally.duplicates.load(ordering: .relaxed) == 0)
        #expect(obj.actualClass == cls)
        #expect(Runtime.interceptionCounters(for: cls).liveObservers == 0)
    }
}
