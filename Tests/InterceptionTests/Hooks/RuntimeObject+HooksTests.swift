import CInterception
@testable import Interception
import Synchronization
import Testing

/// A class with `add:` (i@:i, logs "original x"), `ping` (v@:) and `make` (@@:) for one test.
private func makeHooked(_ base: String, log: EventLog) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base)) { c in
        try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
            log.append("original \(x)")
            return x + 1
        }
        try c.method("ping") { (this: RuntimeObject) in log.append("original ping") }
        try c.method("scale:by:") { (this: RuntimeObject, x: Double, k: Int) -> Double in x * Double(k) }
    }
}

/// A place to put an error a hook reports (the handler is process-wide: tests that throw set it
/// and look for their own hook's error only).
private final class ErrorSink: Sendable {
    let errors = Locked<[String]>([])
}

@Suite("Swift hooks: typed before, instead and after closures on one object")
struct RuntimeObjectHooksTests {
    @Test("before sees the typed arguments, instead replaces the call, after replaces the result")
    func positions() throws {
        let log = EventLog()
        let obj = try makeHooked("SHPositions", log: log).new()
        try obj.hookBefore("add:") { (this: RuntimeObject, x: Int32) in log.append("before \(x)") }
        try obj.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in
            original(x * 10) + original(x)
        }
        try obj.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) in
            log.append("after \(x) -> \(result)")
            return result + 1000
        }
        let r: Int32 = try obj.send("add:", Int32(2))
        #expect(r == 21 + 3 + 1000)
        #expect(log.all == ["before 2", "original 20", "original 2", "after 2 -> 24"])
    }

    @Test("a before hook can replace the arguments")
    func replacingArguments() throws {
        let log = EventLog()
        let obj = try makeHooked("SHReplace", log: log).new()
        try obj.hookBeforeReplacingArguments("scale:by:") { (this: RuntimeObject, x: Double, k: Int) in
            (x + 1, k * 2)
        }
        let r: Double = try obj.send("scale:by:", 1.5, 3)
        #expect(r == 2.5 * 6)
    }

    @Test("instead hooks nest, the last added outermost; void methods take void closures")
    func nestingAndVoid() throws {
        let log = EventLog()
        let obj = try makeHooked("SHNest", log: log).new()
        try obj.hookInstead("ping") { (original: () -> Void, this: RuntimeObject) in
            log.append("inner")
            original()
        }
        try obj.hookInstead("ping") { (original: () -> Void, this: RuntimeObject) in
            log.append("outer")
            original()
            original()
        }
        try obj.hookAfter("ping") { (this: RuntimeObject) in log.append("after") }
        try obj.send("ping")
        #expect(log.all == ["outer", "inner", "original ping", "inner", "original ping", "after"])
    }

    @Test("cancelling every hook moves the object back to its class; a one-shot hook runs once")
    func cancelAndOneShot() throws {
        let log = EventLog()
        let cls = try makeHooked("SHCancel", log: log)
        let obj = cls.new()
        let token = try obj.hookInstead("add:") {
            (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in -x
        }
        try obj.hookBefore("add:", oneShot: true) { (this: RuntimeObject, x: Int32) in log.append("once \(x)")
        }
        #expect(obj.actualClass != cls)
        #expect(try obj.send("add:", Int32(1)) as Int32 == -1)
        #expect(try obj.send("add:", Int32(2)) as Int32 == -2)
        token.cancel()
        token.cancel()  // harmless
        Runtime.quiesceInterception()
        #expect(obj.actualClass == cls)
        #expect(try obj.send("add:", Int32(3)) as Int32 == 4)
        #expect(log.all == ["once 1", "original 3"])
    }

    @Test("sentMessage sees every call, also those an instead hook does not pass on")
    func rxSeesSkippedCalls() throws {
        let log = EventLog()
        let obj = try makeHooked("SHRx", log: log).new()
        var seen: [Int32] = []
        let subscription = obj.rx.sentMessage("add:", as: Int32.self).subscribe(onNext: { seen.append($0) })
        defer { subscription.dispose() }
        try obj.hookInstead("add:") { (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) in 0 }
        let r: Int32 = try obj.send("add:", Int32(5))
        #expect(r == 0)
        #expect(seen == [5])
        #expect(log.all == [])
    }

    @Test("an object an instead hook returns reaches the caller alive")
    func objectResult() throws {
        let cls = try RuntimeClass.define(uniqueName("SHObject")) { c in
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in nil }
        }
        let obj = cls.new()
        let made = try plainClass("SHMade")
        try obj.hookInstead("make") { (original: () -> RuntimeObject?, this: RuntimeObject) in made.new() }
        let result: RuntimeObject? = try obj.send("make")
        #expect(result?.runtimeClass == made)
        #expect(result?.retainCount == 1)
    }

    @Test(
        "types that do not match the method, and forbidden or missing selectors, are thrown errors naming the method"
    )
    func refusals() throws {
        let log = EventLog()
        let cls = try makeHooked("SHRefuse", log: log)
        let obj = cls.new()
        let mismatch = try #require(throws: InterceptionError.self) {
            try obj.hookBefore("add:") { (this: RuntimeObject, x: Int) in }
        }
        guard case .typeMismatch(let className, let selector, let method, _, _) = mismatch else {
            Issue.record("expected typeMismatch, got \(mismatch)")
            return
        }
        #expect(className == cls.name)
        #expect(selector == "add:")
        #expect(method == "i@:i")
        // SPEC 16.6: the position and the parameter at fault.
        #expect(
            "\(mismatch)"
                == "cannot add a before hook to -[\(cls.name) add:]: argument 1 is i in the method, q in the closure"
        )
        let resultMismatch = try #require(throws: InterceptionError.self) {
            try obj.hookInstead("add:") { (original: (Int32) -> Double, this: RuntimeObject, x: Int32) in 0 }
        }
        #expect(
            "\(resultMismatch)"
                == "cannot add an instead hook to -[\(cls.name) add:]: the result is i in the method, d in the closure"
        )
        let countMismatch = try #require(throws: InterceptionError.self) {
            try obj.hookAfter("scale:by:") { (this: RuntimeObject, x: Double) in }
        }
        #expect(
            "\(countMismatch)"
                == "cannot add an after hook to -[\(cls.name) scale:by:]: the closure takes 1 argument after the receiver, the method 2"
        )
        #expect(throws: InterceptionError.self) {
            try obj.hookAfter("add:") { (result: Double, this: RuntimeObject, x: Int32) in result }
        }
        let forbidden = try #require(throws: InterceptionError.self) {
            try obj.hookBefore("retain") { (this: RuntimeObject) in }
        }
        #expect(forbidden == .forbiddenSelector(className: cls.name, selector: "retain"))
        let missing = try #require(throws: InterceptionError.self) {
            try obj.hookBefore("nope") { (this: RuntimeObject) in }
        }
        #expect(missing == .selectorNotImplemented(className: cls.name, selector: "nope"))
        #expect(obj.actualClass == cls)
    }

    @Test("a hook that throws reports the error to the handler and the call goes on")
    func throwingHook() throws {
        struct Boom: Error {}
        let log = EventLog()
        let cls = try makeHooked("SHThrow", log: log)
        let obj = cls.new()
        let sink = ErrorSink()
        let errorHandler = HookErrorHandlers.add { error in
            if error.className == cls.name { sink.errors.withLock { $0.append("\(error.selector.name)") } }
        }
        defer { errorHandler.cancel() }
        try obj.hookBefore("add:") { (this: RuntimeObject, x: Int32) in throw Boom() }
        let r: Int32 = try obj.send("add:", Int32(1))
        #expect(r == 2)
        #expect(sink.errors.withLock { $0 } == ["add:"])
        #expect(log.all == ["original 1"])
    }
}

@Suite("rx.methodReturned: arguments and return value")
struct RxMethodReturnedTests {
    @Test("each call's arguments and the result the caller got, also after hooks changed it")
    func argumentsAndResult() throws {
        let log = EventLog()
        let cls = try makeHooked("SHReturned", log: log)
        let obj = cls.new()
        var seen: [String] = []
        let subscription = obj.rx.methodReturned("add:").subscribe(onNext: { call in
            seen.append("\(call.arguments[0] as! Int32) -> \(call.result as! Int32)")
        })
        let pings = obj.rx.methodReturned("ping").subscribe(onNext: { call in
            seen.append("ping \(call.arguments.count) \(call.result is ())")
        })
        let r: Int32 = try obj.send("add:", Int32(4))
        try obj.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) in result * 2 }
        let doubled: Int32 = try obj.send("add:", Int32(4))
        try obj.send("ping")
        #expect(r == 5)
        #expect(doubled == 10)
        // The rx observer is an after hook of the object added before the doubling hook.
        #expect(seen == ["4 -> 5", "4 -> 5", "ping 0 true"])
        subscription.dispose()
        pings.dispose()
    }
}
