// Property cases: a synthesized setter sent from Swift, bare and with one rx.observe subscriber
// (observe_setter_1_subscriber; compare: swift_sentMessage_typed_optimized, a typed sentMessage
// subscriber on a C method, SPEC 15).
import CInterceptionBench
import Interception

/// The observed and the bare object (the benchmark runs on one thread).
private final class PropertyBench: @unchecked Sendable {
    // @unchecked: built once, then used on the benchmark's one thread.
    static let shared = PropertyBench()
    let bare: RuntimeObject
    let observed: RuntimeObject
    /// What the subscriber received.
    let received = Received()
    var lastValue: Int { received.last }
    var events: Int { received.events }
    let bag = DisposeBag()

    private init() {
        let cls = try! RuntimeClass.define("BenchPropertyHolder") { c in
            try c.property("count", Int.self)
        }
        bare = cls.new()
        observed = cls.new()
        // The subscriber captures a small final class, as swift_sentMessage_typed_optimized's
        // does (an `[unowned self]` capture cost an unowned-to-strong retain and a release per
        // event, about 25 ns that were the benchmark's, not the observation's).
        let received = self.received
        observed.rx.observe(Int.self, "count", options: .new).subscribe(onNext: { value in
            received.last = value ?? -1
            received.events += 1
        }).disposed(by: bag)
    }
}

/// The last value the subscriber received, and how many it received.
private final class Received: @unchecked Sendable {
    // @unchecked: written by the subscriber on the benchmark's one thread.
    var last = 0
    var events = 0
}

/// Times `ops` sends of setCount: from Swift, checking the value the getter then reads (once)
/// and, when observed, that each set produced its event with the value set.
private func timeSetter(_ object: RuntimeObject, ops: UInt64, observed: Bool) -> Double {
    let bench = PropertyBench.shared
    let selector = Selector("setCount:")
    let eventsBefore = bench.events
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<ops {
        do { try object.send(selector, Int(truncatingIfNeeded: i)) } catch { bad += 1 }
    }
    let t1 = icb_now_ns()
    let last = Int(truncatingIfNeeded: ops &- 1)
    if (try? object.send("count") as Int) != last { bad += 1 }
    if observed && (bench.events - eventsBefore != Int(ops) || bench.lastValue != last) { bad += 1 }
    return bad == 0 ? t1 - t0 : -1
}

func propertyCases() -> [BenchCase] {
    let ready = { () -> Bool in
        _ = PropertyBench.shared
        return true
    }
    return [
        BenchCase(
            name: "swift_property_set",
            description: "Swift send of a synthesized setter (setCount:, a typed C accessor), unobserved",
            prepare: ready, run: { timeSetter(PropertyBench.shared.bare, ops: $0, observed: false) }),
        BenchCase(
            name: "observe_setter_1_subscriber",
            description: "the same setter with one rx.observe(Int.self, \"count\") subscriber",
            prepare: ready, run: { timeSetter(PropertyBench.shared.observed, ops: $0, observed: true) }),
    ]
}
