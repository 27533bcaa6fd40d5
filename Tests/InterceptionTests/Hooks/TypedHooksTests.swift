import CInterception
import Testing

@testable import Interception

// The typed hooks of one to four arguments (before, after leaving the result, instead) are
// TypedHook subclasses whose per-call function reads the closure from the hook and reports what
// it throws itself (TypedHooks.swift); HookTarget+ArityTests runs every form and arity through them. These pin
// what the move left around them: a HookTarget of another type still gets them (through
// `_addHook`), and an error one throws still names its method.

/// A HookTarget of another type than the module's two: it hands everything to one object.
private struct ForwardingTarget: HookTarget {
    let object: RuntimeObject

    func _addHook(
        _ selector: Selector, _ position: ic_hook_position, oneShot: Bool,
        _ run: @escaping @Sendable (OpaquePointer) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try object._addHook(selector, position, oneShot: oneShot, run)
    }

    func _checkHook<each A: RuntimeValue>(
        _ selector: Selector, position: HookPosition, resultEncoding: String?,
        _ arguments: repeat (each A).Type
    ) throws(InterceptionError) {
        try object._checkHook(
            selector, position: position, resultEncoding: resultEncoding, repeat each arguments)
    }

    func _hookSignature(_ selector: Selector) throws(InterceptionError) -> OpaquePointer {
        try object._hookSignature(selector)
    }

    func _addDeallocatedHook(
        oneShot: Bool, _ body: @escaping @Sendable (UnsafeRawPointer, RuntimeClass) throws -> Void
    ) throws(InterceptionError) -> HookToken {
        try object._addDeallocatedHook(oneShot: oneShot, body)
    }

    func _hookList() -> [InstalledHook] { object._hookList() }
    func _removeAllHooks(_ selector: Selector?) -> Int { object._removeAllHooks(selector) }
}

/// What the hooks and methods saw, in order.
private final class Calls: Sendable {
    let values = Locked<[String]>([])
    func record(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

@Suite("Swift hooks: the typed hook classes")
struct TypedHooksTests {
    @Test("typed hooks on a HookTarget of another type reach their closures through _addHook")
    func foreignTarget() throws {
        let calls = Calls()
        let cls = try RuntimeClass.define(uniqueName("TypedForeign")) { c in
            try c.method("add:b:") { (this: RuntimeObject, a: Int32, b: Int32) -> Int32 in
                calls.record("add \(a) \(b)")
                return a + b
            }
            try c.method("log:") { (this: RuntimeObject, a: Int32) in calls.record("log \(a)") }
        }
        let object = cls.new()
        let target = ForwardingTarget(object: object)
        try target.hookBefore("add:b:") { (this: RuntimeObject, a: Int32, b: Int32) in
            calls.record("before \(a) \(b) \(this == object)")
        }
        let instead = try target.hookInstead("add:b:") {
            (original: (Int32, Int32) -> Int32, this: RuntimeObject, a: Int32, b: Int32) in
            original(a * 10, b * 100) + 1
        }
        try target.hookAfter("add:b:") { (this: RuntimeObject, a: Int32, b: Int32) in
            calls.record("after \(a) \(b)")
        }
        try target.hookInstead("log:") { (original: (Int32) -> Void, this: RuntimeObject, a: Int32) in
            original(a + 1)
            original(a + 2)
        }
        let sum: Int32 = try object.send("add:b:", Int32(1), Int32(2))
        try object.send("log:", Int32(5))
        #expect(sum == 211)
        #expect(
            calls.all == ["before 1 2 true", "add 10 200", "after 10 200", "log 6", "log 7"])
        #expect(instead.cancel() != nil)
        #expect(try object.send("add:b:", Int32(1), Int32(2)) as Int32 == 3)
    }

    @Test("an error a typed class-method instead hook throws names +[Class selector]; the call returns")
    func errorNamesClassMethod() throws {
        struct Boom: Error {}
        let cls = try RuntimeClass.define(uniqueName("TypedThrow")) { c in
            try c.classMethod("twice:") { (this: RuntimeObject, a: Int32) -> Int32 in a * 2 }
        }
        let errors = Locked<[String]>([])
        let errorHandler = HookErrorHandlers.add { error in
            if error.className == cls.name { errors.withLock { $0.append("\(error)") } }
        }
        defer { errorHandler.cancel() }
        try cls.metaclass.hookInstead("twice:") {
            (original: (Int32) -> Int32, this: RuntimeObject, a: Int32) throws -> Int32 in
            _ = original(a + 1)
            throw Boom()
        }
        // The hook threw after its original ran: the call returns that result.
        #expect(try cls.asObject.send("twice:", Int32(4)) as Int32 == 10)
        #expect(errors.withLock { $0 } == ["hook of +[\(cls.name) twice:] threw: Boom()"])
    }

    @Test("typed hooks of every form report what they throw, and the next call's this is its receiver")
    func errorsReportedByEveryTypedForm() throws {
        struct Boom: Error {}
        let cls = try RuntimeClass.define(uniqueName("TypedThrowForms")) { c in
            try c.method("add:") { (this: RuntimeObject, a: Int32) -> Int32 in a + 1 }
            try c.method("touch:") { (this: RuntimeObject, a: Int32) in }
        }
        let first = cls.new()
        let second = cls.new()
        let errors = Locked<[String]>([])
        let errorHandler = HookErrorHandlers.add { error in
            if error.className == cls.name {
                errors.withLock { $0.append("\(error.selector.name): \(error.error)") }
            }
        }
        defer { errorHandler.cancel() }
        // Each hook throws when its receiver is `first`, and records which object `this` was.
        let seen = Locked<[String]>([])
        let name: @Sendable (RuntimeObject) -> String = { this in
            this == first ? "first" : this == second ? "second" : "other"
        }
        try cls.hookBefore("add:") { (this: RuntimeObject, a: Int32) in
            seen.withLock { $0.append("before \(name(this)) \(a)") }
            if this == first { throw Boom() }
        }
        try cls.hookInstead("add:") {
            (original: (Int32) -> Int32, this: RuntimeObject, a: Int32) throws -> Int32 in
            seen.withLock { $0.append("instead \(name(this)) \(a)") }
            let result = original(a * 10)
            if this == first { throw Boom() }
            return result
        }
        try cls.hookAfter("add:") { (this: RuntimeObject, a: Int32) in
            seen.withLock { $0.append("after \(name(this)) \(a)") }
            if this == first { throw Boom() }
        }
        try cls.hookInstead("touch:") { (original: (Int32) -> Void, this: RuntimeObject, a: Int32) throws in
            seen.withLock { $0.append("touch \(name(this)) \(a)") }
            original(a)
            if this == first { throw Boom() }
        }
        // The instead hook threw after its original ran: the call returns that result.
        #expect(try first.send("add:", Int32(2)) as Int32 == 21)
        try first.send("touch:", Int32(3))
        #expect(try second.send("add:", Int32(4)) as Int32 == 41)
        try second.send("touch:", Int32(5))
        #expect(
            seen.withLock { $0 } == [
                "before first 2", "instead first 2", "after first 20", "touch first 3",
                "before second 4", "instead second 4", "after second 40", "touch second 5",
            ])
        #expect(errors.withLock { $0 } == ["add:: Boom()", "add:: Boom()", "add:: Boom()", "touch:: Boom()"])
    }

    @Test("typed hooks added and cancelled while other threads call, per object and class-wide (TSan)")
    func cancelRacingCalls() async throws {
        let cls = try RuntimeClass.define(uniqueName("TypedRace")) { c in
            try c.method("add:b:") { (this: RuntimeObject, a: Int32, b: Int32) -> Int32 in a + b }
            try c.method("touch:") { (this: RuntimeObject, a: Int32) in }
        }
        let object = cls.new()
        let runs = Locked(0)
        let done = Locked(false)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for i in 0..<150 {
                    let target: any HookTarget = i.isMultiple(of: 2) ? object : cls
                    let tokens = [
                        try! target.hookBefore("add:b:") { (this: RuntimeObject, a: Int32, b: Int32) in
                            runs.withLock { $0 += 1 }
                        },
                        try! target.hookInstead("add:b:") {
                            (original: (Int32, Int32) -> Int32, this: RuntimeObject, a: Int32, b: Int32) in
                            original(a, b)
                        },
                        try! target.hookInstead("touch:") {
                            (original: (Int32) -> Void, this: RuntimeObject, a: Int32) in original(a)
                        },
                    ]
                    for token in tokens { #expect(token.cancel() != nil) }
                }
                done.withLock { $0 = true }
            }
            for _ in 0..<3 {
                group.addTask {
                    var i: Int32 = 0
                    while !done.withLock({ $0 }) {
                        i &+= 1
                        let sum: Int32 = try! object.send("add:b:", i, Int32(2))
                        #expect(sum == i &+ 2)
                        try! object.send("touch:", i)
                    }
                }
            }
        }
        // Every hook was cancelled, and a cancel returns once no call of it can still run.
        let seen = runs.withLock { $0 }
        #expect(try object.send("add:b:", Int32(1), Int32(2)) as Int32 == 3)
        #expect(runs.withLock { $0 } == seen)
        #expect(object.actualClass == cls)
    }
}
