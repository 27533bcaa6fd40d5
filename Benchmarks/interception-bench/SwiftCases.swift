// The benchmark cases whose hot loops are Swift: the Swift send and the rx bindings (RxCore's
// own cases are in RxCoreCases.swift).
// Each loop checks its results (a wrong value or a missed event fails the case).
import CInterception
import CInterceptionBench
import Interception

/// State the Swift cases share, built once.
private final class SwiftBench: @unchecked Sendable {
    // @unchecked: the benchmark runs its cases one after another on one thread.
    static let shared = SwiftBench()

    let counterClass: RuntimeClass
    let plain: RuntimeObject
    /// An object whose `sum:b:c:d:e:f:` (six 64-bit integers) is beyond the typed fast path.
    let generic: RuntimeObject
    /// An instance of a class whose add: is a Swift closure.
    let swiftMethod: RuntimeObject
    let sentOptimized: RuntimeObject
    /// add: observed through a typed `sentMessage(_:as:)` (trampoline).
    let sentTypedOptimized: RuntimeObject
    let invokedOptimized: RuntimeObject
    let sentForwarded: RuntimeObject
    /// An object that was observed through sentMessage and methodInvoked, every subscription
    /// since disposed: it is back in its class.
    let afterDispose: RuntimeObject
    /// add: with one typed Swift before hook, one typed Swift instead hook calling the original,
    /// one info-form before hook reading the argument (object hooks, trampoline).
    let hookedBefore: RuntimeObject
    let hookedInstead: RuntimeObject
    let hookedInfo: RuntimeObject
    /// Counts the events the subscribers receive (a class, so the closures capture a reference).
    let counter = EventCounter()
    var events: Int { counter.value }
    let bag = DisposeBag()

    private init() {
        // add: is a C function (the same one the C cases call), so only the path differs.
        let add: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = icb_swift_add
        counterClass = try! RuntimeClass.define("SwiftBenchCounter") { c in
            try c.method("add:", encoding: "i@:i", imp: add)
        }
        // A class of its own for the forward path: the path is chosen per (class, selector).
        let forwardedClass = try! RuntimeClass.define("SwiftBenchForwarded") { c in
            try c.method("add:", encoding: "i@:i", imp: add)
        }
        let sum6:
            @convention(c) (OpaquePointer?, OpaquePointer?, Int64, Int64, Int64, Int64, Int64, Int64) -> Int64 =
                icb_swift_sum6
        let genericClass = try! RuntimeClass.define("SwiftBenchGeneric") { c in
            try c.method("sum:b:c:d:e:f:", encoding: "q@:qqqqqq", imp: sum6)
        }
        generic = genericClass.new()
        let closureClass = try! RuntimeClass.define("SwiftBenchClosureCounter") { c in
            try c.method("add:") { (_: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        swiftMethod = closureClass.new()
        sentTypedOptimized = counterClass.new()
        plain = counterClass.new()
        sentOptimized = counterClass.new()
        invokedOptimized = counterClass.new()
        sentForwarded = forwardedClass.new()
        afterDispose = counterClass.new()
        hookedBefore = counterClass.new()
        hookedInstead = counterClass.new()
        hookedInfo = counterClass.new()
        let counter = self.counter
        // Each hook counts its calls like a subscriber, so the loops check that every call ran it.
        try! hookedBefore.hookBefore("add:") { (this: RuntimeObject, x: Int32) in counter.value += 1 }
        try! hookedInstead.hookInstead("add:") {
            (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
            counter.value += 1
            return original(x)
        }
        try! hookedInfo.hook("add:", .before) { call in
            if try call.argument(2, as: Int32.self) >= 0 { counter.value += 1 }
        }
        for object in [hookedBefore, hookedInstead, hookedInfo] {
            precondition(ic_intercept_path_of(object.pointer, Selector("add:").pointer) == IC_PATH_OPTIMIZED)
        }
        sentOptimized.rx.sentMessage("add:").subscribe(onNext: { _ in counter.value += 1 }).disposed(by: bag)
        let typed = sentTypedOptimized.rx.sentMessage("add:", as: Int32.self)
        typed.subscribe(onNext: { _ in counter.value += 1 }).disposed(by: bag)
        invokedOptimized.rx.methodInvoked("add:").subscribe(onNext: { _ in counter.value += 1 }).disposed(
            by: bag)
        // The same method forced through the libffi forward path (prepared before subscribing).
        precondition(
            ic_intercept_prepare_with_options(
                sentForwarded.pointer, Selector("add:").pointer, UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                == IC_OK)
        precondition(
            ic_intercept_path_of(sentForwarded.pointer, Selector("add:").pointer) == IC_PATH_FORWARDED)
        for object in [sentOptimized, sentTypedOptimized] {
            precondition(ic_intercept_path_of(object.pointer, Selector("add:").pointer) == IC_PATH_OPTIMIZED)
        }
        sentForwarded.rx.sentMessage("add:").subscribe(onNext: { _ in counter.value += 1 }).disposed(by: bag)
        afterDispose.rx.sentMessage("add:").subscribe(onNext: { _ in counter.value += 1 }).dispose()
        afterDispose.rx.methodInvoked("add:").subscribe(onNext: { _ in counter.value += 1 }).dispose()
        precondition(
            afterDispose.actualClass == counterClass, "disposing every subscription restores the class")
    }
}

/// An event count the subscribers increment.
private final class EventCounter: @unchecked Sendable {
    // @unchecked: incremented and read on the benchmark's one thread.
    var value = 0
}

/// Times `ops` sends of add: to `object` from Swift, checking each result and, if `observed`,
/// that every call produced one event.
private func timeSends(_ object: RuntimeObject, ops: UInt64, observed: Bool) -> Double {
    let bench = SwiftBench.shared
    let selector = Selector("add:")
    let eventsBefore = bench.events
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<ops {
        let x = Int32(truncatingIfNeeded: i & 0xffffff)
        let r: Int32 = (try? object.send(selector, x)) ?? -1
        if r != x &+ 1 { bad += 1 }
    }
    let t1 = icb_now_ns()
    if observed && bench.events - eventsBefore != Int(ops) { bad += 1 }
    return bad == 0 ? t1 - t0 : -1
}

/// Creates `ops` objects with a `deallocating` subscriber each, then times releasing them.
private func deallocWithSubscriber(ops: UInt64) -> Double {
    let cls = SwiftBench.shared.counterClass
    var objects: [RuntimeObject?] = []
    objects.reserveCapacity(Int(ops))
    var fired = 0
    var subscriptions: [Disposable] = []
    for _ in 0..<ops {
        let object = cls.new()
        subscriptions.append(object.rx.deallocating.subscribe(onNext: { fired += 1 }))
        objects.append(object)
    }
    let t0 = icb_now_ns()
    for i in 0..<objects.count {
        objects[i] = nil
    }
    let t1 = icb_now_ns()
    for subscription in subscriptions { subscription.dispose() }
    return fired == Int(ops) ? t1 - t0 : -1
}

/// Times `ops` sends of a six-argument method from Swift: the generic (libffi invocation) path.
private func timeGenericSends(ops: UInt64) -> Double {
    let object = SwiftBench.shared.generic
    let selector = Selector("sum:b:c:d:e:f:")
    var bad = 0
    let t0 = icb_now_ns()
    for i in 0..<ops {
        let x = Int(i & 0xffff)
        let r: Int = (try? object.send(selector, x, 1, 2, 3, 4, 5)) ?? -1
        if r != x + 15 { bad += 1 }
    }
    let t1 = icb_now_ns()
    return bad == 0 ? t1 - t0 : -1
}

func swiftCases() -> [BenchCase] {
    let ready = { () -> Bool in
        _ = SwiftBench.shared
        return true
    }
    return [
        BenchCase(
            name: "swift_send", description: "RuntimeObject.send add: from Swift (typed fast path)",
            prepare: ready, run: { timeSends(SwiftBench.shared.plain, ops: $0, observed: false) }),
        BenchCase(
            name: "swift_send_to_swift_method",
            description: "RuntimeObject.send add: from Swift to a method defined by a Swift closure",
            prepare: ready, run: { timeSends(SwiftBench.shared.swiftMethod, ops: $0, observed: false) }),
        BenchCase(
            name: "send_to_swift_method",
            description: "IC_MSG add: from C to a method defined by a Swift closure",
            prepare: ready, run: { icb_time_msg_add(SwiftBench.shared.swiftMethod.pointer, $0) }),
        BenchCase(
            name: "swift_send_generic",
            description: "RuntimeObject.send of a six-integer method (generic invocation path)",
            prepare: ready, run: timeGenericSends),
        BenchCase(
            name: "swift_sentMessage_optimized",
            description: "Swift send of add: with one rx.sentMessage subscriber (trampoline)",
            prepare: ready, run: { timeSends(SwiftBench.shared.sentOptimized, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_sentMessage_typed_optimized",
            description: "Swift send of add: with one typed rx.sentMessage(_:as:) subscriber (trampoline)",
            prepare: ready,
            run: { timeSends(SwiftBench.shared.sentTypedOptimized, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_send_after_dispose",
            description: "Swift send of add: to an object whose rx subscriptions were all disposed",
            prepare: ready,
            run: { ops in
                let before = SwiftBench.shared.events
                let t = timeSends(SwiftBench.shared.afterDispose, ops: ops, observed: false)
                return SwiftBench.shared.events == before ? t : -1
            }),
        BenchCase(
            name: "swift_hook_before_typed",
            description: "Swift send of add: with one typed Swift before hook (object, trampoline)",
            prepare: ready, run: { timeSends(SwiftBench.shared.hookedBefore, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_hook_instead_typed",
            description: "Swift send of add: with one typed Swift instead hook calling the original",
            prepare: ready, run: { timeSends(SwiftBench.shared.hookedInstead, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_hook_info_before",
            description: "Swift send of add: with one info-form before hook reading the argument",
            prepare: ready, run: { timeSends(SwiftBench.shared.hookedInfo, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_methodInvoked_optimized",
            description: "Swift send of add: with one rx.methodInvoked subscriber (trampoline)",
            prepare: ready, run: { timeSends(SwiftBench.shared.invokedOptimized, ops: $0, observed: true) }),
        BenchCase(
            name: "swift_sentMessage_forwarded",
            description: "Swift send of add: with one rx.sentMessage subscriber (forward path)",
            prepare: ready, run: { timeSends(SwiftBench.shared.sentForwarded, ops: $0, observed: true) }),
        BenchCase(
            name: "dealloc_with_deallocating_subscriber",
            description: "releasing the last reference of an object with a deallocating subscriber",
            scale: 0.02, prepare: ready, run: deallocWithSubscriber),
    ]
}
