import CInterception
import Testing

@testable import Interception

// The typed hooks have fixed-arity overloads (1 to 4 arguments) whose per-call closures are
// specialized in the caller's module (HookTarget+Arity.swift); the parameter-pack forms stay for
// longer closures. These tests run every form of every arity, per object and class-wide, through
// the overloads (a closure of concrete types, as users write it) and through the pack forms
// (called from a pack-generic function, where no fixed-arity overload can match), and check both
// see the same arguments and give the same results.

/// What the hooks and methods saw, in order.
private final class Trace: Sendable {
    let values = Locked<[String]>([])
    func record(_ value: String) { values.withLock { $0.append(value) } }
    var all: [String] { values.withLock { $0 } }
}

/// A class with a value-returning and a void method of each arity 1 to 4, logging to `trace`.
private func defineArityClass(_ trace: Trace) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName("HookArity")) { c in
        try c.method("one:") { (this: RuntimeObject, a: Int32) -> Int32 in
            trace.record("one \(a)")
            return a + 1
        }
        try c.method("two:b:") { (this: RuntimeObject, a: Int32, b: Double) -> Double in
            trace.record("two \(a) \(b)")
            return Double(a) * 10 + b
        }
        try c.method("three:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) -> UInt64 in
            trace.record("three \(a) \(b) \(c)")
            return b ? UInt64(a) + c : c
        }
        try c.method("four:b:c:d:") {
            (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) -> Double in
            trace.record("four \(a) \(b) \(c) \(d)")
            return Double(a) * 1000 + Double(b) * 100 + Double(c) * 10 + d
        }
        try c.method("v1:") { (this: RuntimeObject, a: Int32) in trace.record("v1 \(a)") }
        try c.method("v2:b:") { (this: RuntimeObject, a: Int32, b: Double) in trace.record("v2 \(a) \(b)") }
        try c.method("v3:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
            trace.record("v3 \(a) \(b) \(c)")
        }
        try c.method("v4:b:c:d:") { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
            trace.record("v4 \(a) \(b) \(c) \(d)")
        }
    }
}

// The pack forms, reached from pack-generic functions (a `(RuntimeObject, repeat each A)` closure
// matches no fixed-arity overload).

@discardableResult private func packBefore<T: HookTarget, each A: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
) throws -> HookToken {
    try target.hookBefore(selector, body)
}

@discardableResult private func packReplacing<T: HookTarget, each A: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> (repeat each A)
) throws -> HookToken {
    try target.hookBeforeReplacingArguments(selector, body)
}

@discardableResult private func packAfter<T: HookTarget, each A: RuntimeValue, R: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable (R, RuntimeObject, repeat each A) throws -> R
) throws -> HookToken {
    try target.hookAfter(selector, body)
}

@discardableResult private func packAfterVoid<T: HookTarget, each A: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable (RuntimeObject, repeat each A) throws -> Void
) throws -> HookToken {
    try target.hookAfter(selector, body)
}

@discardableResult private func packInstead<T: HookTarget, each A: RuntimeValue, R: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable ((repeat each A) -> R, RuntimeObject, repeat each A) throws -> R
) throws -> HookToken {
    try target.hookInstead(selector, body)
}

@discardableResult private func packInsteadVoid<T: HookTarget, each A: RuntimeValue>(
    _ target: T, _ selector: Selector,
    _ body: @escaping @Sendable ((repeat each A) -> Void, RuntimeObject, repeat each A) throws -> Void
) throws -> HookToken {
    try target.hookInstead(selector, body)
}

/// Where the hooks go: on one object, or on its class (every instance).
private enum Scope: CaseIterable {
    case object, classWide
}

/// Hooks `selector`s of one arity on `object` (or its class) with every form, through the
/// overloads or the pack forms, sends them, and returns the trace and the results. `hook` adds
/// the hooks, given the target and whether to take the pack forms.
private func run(
    _ scope: Scope, pack: Bool,
    hook: (any HookTarget, Bool, Trace) throws -> Void,
    send: (RuntimeObject) throws -> [String]
) throws -> [String] {
    let trace = Trace()
    let cls = try defineArityClass(trace)
    let object = cls.new()
    switch scope {
    case .object: try hook(object, pack, trace)
    case .classWide: try hook(cls, pack, trace)
    }
    let results = try send(object)
    return trace.all + results
}

@Suite("Swift hooks: the fixed-arity typed overloads agree with the pack forms")
struct HookTargetArityTests {
    @Test("one argument: before, replacing, instead, after, per object and class-wide")
    func oneArgument() throws {
        func hook(_ t: any HookTarget, _ pack: Bool, _ trace: Trace) throws {
            if pack {
                try packBefore(t, "one:") { (this: RuntimeObject, a: Int32) in trace.record("before \(a)") }
                try packReplacing(t, "one:") { (this: RuntimeObject, a: Int32) in a * 2 }
                try packInstead(t, "one:") { (original: (Int32) -> Int32, this: RuntimeObject, a: Int32) in
                    original(a + 1) * 10
                }
                try packAfter(t, "one:") { (r: Int32, this: RuntimeObject, a: Int32) in r + a }
                try packInsteadVoid(t, "v1:") { (original: (Int32) -> Void, this: RuntimeObject, a: Int32) in
                    original(a * 3)
                }
                try packAfterVoid(t, "v1:") { (this: RuntimeObject, a: Int32) in trace.record("after v1 \(a)")
                }
            } else {
                try t.hookBefore("one:") { (this: RuntimeObject, a: Int32) in trace.record("before \(a)") }
                try t.hookBeforeReplacingArguments("one:") { (this: RuntimeObject, a: Int32) in a * 2 }
                try t.hookInstead("one:") { (original: (Int32) -> Int32, this: RuntimeObject, a: Int32) in
                    original(a + 1) * 10
                }
                try t.hookAfter("one:") { (r: Int32, this: RuntimeObject, a: Int32) in r + a }
                try t.hookInstead("v1:") { (original: (Int32) -> Void, this: RuntimeObject, a: Int32) in
                    original(a * 3)
                }
                try t.hookAfter("v1:") { (this: RuntimeObject, a: Int32) in trace.record("after v1 \(a)") }
            }
        }
        func send(_ o: RuntimeObject) throws -> [String] {
            try o.send("v1:", Int32(5))
            return ["= \(try o.send("one:", Int32(3)) as Int32)"]
        }
        // 3 -> replaced 6 -> original(7) = 8, * 10 = 80 -> after 80 + 7 (after hooks see the
        // arguments as `original` last set them).
        let expected = ["v1 15", "after v1 15", "before 3", "one 7", "= 87"]
        for scope in Scope.allCases {
            #expect(try run(scope, pack: false, hook: hook, send: send) == expected)
            #expect(try run(scope, pack: true, hook: hook, send: send) == expected)
        }
    }

    @Test("two arguments: before, replacing, instead, after, per object and class-wide")
    func twoArguments() throws {
        func hook(_ t: any HookTarget, _ pack: Bool, _ trace: Trace) throws {
            if pack {
                try packBefore(t, "two:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    trace.record("before \(a) \(b)")
                }
                try packReplacing(t, "two:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    (b > 0 ? a : -a, b / 2)
                }
                try packInstead(t, "two:b:") {
                    (original: (Int32, Double) -> Double, this: RuntimeObject, a: Int32, b: Double) in
                    original(a, b + 1) + 0.25
                }
                try packAfter(t, "two:b:") { (r: Double, this: RuntimeObject, a: Int32, b: Double) in r * 2 }
                try packInsteadVoid(t, "v2:b:") {
                    (original: (Int32, Double) -> Void, this: RuntimeObject, a: Int32, b: Double) in
                    original(b > 1 ? a : 0, -b)
                }
                try packAfterVoid(t, "v2:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    trace.record("after v2 \(a) \(b)")
                }
            } else {
                try t.hookBefore("two:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    trace.record("before \(a) \(b)")
                }
                try t.hookBeforeReplacingArguments("two:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    (b > 0 ? a : -a, b / 2)
                }
                try t.hookInstead("two:b:") {
                    (original: (Int32, Double) -> Double, this: RuntimeObject, a: Int32, b: Double) in
                    original(a, b + 1) + 0.25
                }
                try t.hookAfter("two:b:") { (r: Double, this: RuntimeObject, a: Int32, b: Double) in r * 2 }
                try t.hookInstead("v2:b:") {
                    (original: (Int32, Double) -> Void, this: RuntimeObject, a: Int32, b: Double) in
                    original(b > 1 ? a : 0, -b)
                }
                try t.hookAfter("v2:b:") { (this: RuntimeObject, a: Int32, b: Double) in
                    trace.record("after v2 \(a) \(b)")
                }
            }
        }
        func send(_ o: RuntimeObject) throws -> [String] {
            try o.send("v2:b:", Int32(4), 1.5)
            return ["= \(try o.send("two:b:", Int32(3), 5.0) as Double)"]
        }
        // (3, 5) -> replaced (3, 2.5) -> original(3, 3.5) = 33.5, + 0.25 -> after * 2.
        let expected = ["v2 4 -1.5", "after v2 4 -1.5", "before 3 5.0", "two 3 3.5", "= 67.5"]
        for scope in Scope.allCases {
            #expect(try run(scope, pack: false, hook: hook, send: send) == expected)
            #expect(try run(scope, pack: true, hook: hook, send: send) == expected)
        }
    }

    @Test("three arguments: before, replacing, instead, after, per object and class-wide")
    func threeArguments() throws {
        func hook(_ t: any HookTarget, _ pack: Bool, _ trace: Trace) throws {
            if pack {
                try packBefore(t, "three:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
                    trace.record("before \(a) \(b) \(c)")
                }
                try packReplacing(t, "three:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
                    (a + 1, !b, c * 2)
                }
                try packInstead(t, "three:b:c:") {
                    (
                        original: (Int8, Bool, UInt64) -> UInt64, this: RuntimeObject, a: Int8, b: Bool,
                        c: UInt64
                    ) in
                    original(a, b, c + 1) + 1000
                }
                try packAfter(t, "three:b:c:") {
                    (r: UInt64, this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in r + UInt64(a)
                }
                try packInsteadVoid(t, "v3:b:c:") {
                    (original: (Int8, Bool, UInt64) -> Void, this: RuntimeObject, a: Int8, b: Bool, c: UInt64)
                    in
                    original(-a, b, c)
                }
                try packAfterVoid(t, "v3:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
                    trace.record("after v3 \(a) \(b) \(c)")
                }
            } else {
                try t.hookBefore("three:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
                    trace.record("before \(a) \(b) \(c)")
                }
                try t.hookBeforeReplacingArguments("three:b:c:") {
                    (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in (a + 1, !b, c * 2)
                }
                try t.hookInstead("three:b:c:") {
                    (
                        original: (Int8, Bool, UInt64) -> UInt64, this: RuntimeObject, a: Int8, b: Bool,
                        c: UInt64
                    ) in
                    original(a, b, c + 1) + 1000
                }
                try t.hookAfter("three:b:c:") {
                    (r: UInt64, this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in r + UInt64(a)
                }
                try t.hookInstead("v3:b:c:") {
                    (original: (Int8, Bool, UInt64) -> Void, this: RuntimeObject, a: Int8, b: Bool, c: UInt64)
                    in
                    original(-a, b, c)
                }
                try t.hookAfter("v3:b:c:") { (this: RuntimeObject, a: Int8, b: Bool, c: UInt64) in
                    trace.record("after v3 \(a) \(b) \(c)")
                }
            }
        }
        func send(_ o: RuntimeObject) throws -> [String] {
            try o.send("v3:b:c:", Int8(7), true, UInt64(9))
            return ["= \(try o.send("three:b:c:", Int8(4), false, UInt64(10)) as UInt64)"]
        }
        // (4, false, 10) -> replaced (5, true, 20) -> original(5, true, 21) = 26, + 1000 -> + 5.
        let expected = [
            "v3 -7 true 9", "after v3 -7 true 9", "before 4 false 10", "three 5 true 21", "= 1031",
        ]
        for scope in Scope.allCases {
            #expect(try run(scope, pack: false, hook: hook, send: send) == expected)
            #expect(try run(scope, pack: true, hook: hook, send: send) == expected)
        }
    }

    @Test("four arguments: before, replacing, instead, after, per object and class-wide")
    func fourArguments() throws {
        typealias Original = (Int16, Float, Int32, Double) -> Double
        typealias VoidOriginal = (Int16, Float, Int32, Double) -> Void
        func hook(_ t: any HookTarget, _ pack: Bool, _ trace: Trace) throws {
            let sel: Selector = "four:b:c:d:"
            let vsel: Selector = "v4:b:c:d:"
            if pack {
                try packBefore(t, sel) { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    trace.record("before \(a) \(b) \(c) \(d)")
                }
                try packReplacing(t, sel) { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    (a * 2, b + 1, c - 1, d / 2)
                }
                try packInstead(t, sel) {
                    (original: Original, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    original(a, b, c, d + 0.5) + 0.125
                }
                try packAfter(t, sel) {
                    (r: Double, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    r - Double(c)
                }
                try packInsteadVoid(t, vsel) {
                    (original: VoidOriginal, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    original(d > 0 ? a : 0, b * 2, c, d)
                }
                try packAfterVoid(t, vsel) { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    trace.record("after v4 \(a) \(b) \(c) \(d)")
                }
            } else {
                try t.hookBefore(sel) { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    trace.record("before \(a) \(b) \(c) \(d)")
                }
                try t.hookBeforeReplacingArguments(sel) {
                    (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    (a * 2, b + 1, c - 1, d / 2)
                }
                try t.hookInstead(sel) {
                    (original: Original, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    original(a, b, c, d + 0.5) + 0.125
                }
                try t.hookAfter(sel) {
                    (r: Double, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    r - Double(c)
                }
                try t.hookInstead(vsel) {
                    (original: VoidOriginal, this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    original(d > 0 ? a : 0, b * 2, c, d)
                }
                try t.hookAfter(vsel) { (this: RuntimeObject, a: Int16, b: Float, c: Int32, d: Double) in
                    trace.record("after v4 \(a) \(b) \(c) \(d)")
                }
            }
        }
        func send(_ o: RuntimeObject) throws -> [String] {
            try o.send("v4:b:c:d:", Int16(3), Float(1.5), Int32(-2), 4.0)
            return ["= \(try o.send("four:b:c:d:", Int16(1), Float(2), Int32(3), 4.0) as Double)"]
        }
        // (1, 2, 3, 4) -> replaced (2, 3, 2, 2) -> original(2, 3, 2, 2.5) = 2322.5, + 0.125, - 2.
        let expected = [
            "v4 3 3.0 -2 4.0", "after v4 3 3.0 -2 4.0", "before 1 2.0 3 4.0", "four 2 3.0 2 2.5",
            "= 2320.625",
        ]
        for scope in Scope.allCases {
            #expect(try run(scope, pack: false, hook: hook, send: send) == expected)
            #expect(try run(scope, pack: true, hook: hook, send: send) == expected)
        }
    }
}
