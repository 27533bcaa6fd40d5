import CInterception
@testable import Interception
import Testing

private struct Refused: Error, CustomStringConvertible {
    let why: String
    var description: String { "refused: \(why)" }
}

/// The errors reported to `Runtime.methodErrorHandler` for the classes a test made (tests of
/// other suites may run at the same time; the handler is global).
private final class MethodErrors: Sendable {
    let reported = Locked<[String]>([])

    /// Runs `body` with a handler recording errors of `className`'s methods.
    func recording(_ className: String, _ body: () throws -> Void) rethrows {
        let previous = Runtime.methodErrorHandler
        Runtime.methodErrorHandler = { [reported] error in
            if error.className == className {
                reported.withLock { $0.append(error.description) }
            } else {
                previous(error)
            }
        }
        defer { Runtime.methodErrorHandler = previous }
        try body()
    }

    var all: [String] { reported.withLock { $0 } }
}

private struct Span: RuntimeStruct, Equatable {
    static let runtimeEncoding = "{Span=qqqq}"
    var a: Int64, b: Int64, c: Int64, d: Int64
}

@Suite("Method closures that throw: the error goes to the handler and the call returns zero", .serialized)
struct RuntimeClassThrowingMethodsTests {
    @Test("a fixed-arity method that throws reports class and selector, and returns 0 to Swift and to C")
    func fixedArityValue() throws {
        let errors = MethodErrors()
        let name = uniqueName("Downloader")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("start:") { (this: RuntimeObject, x: Int32) throws -> Int32 in
                if x < 0 { throw Refused(why: "negative \(x)") }
                return x * 2
            }
        }
        let object = cls.new()
        try errors.recording(name) {
            let ok: Int32 = try object.send("start:", Int32(21))
            #expect(ok == 42)
            let failed: Int32 = try object.send("start:", Int32(-1))
            #expect(failed == 0)
            typealias IMP = @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32
            let imp = unsafeBitCast(ic_msg_lookup(object.pointer, Selector("start:").pointer), to: IMP.self)
            #expect(imp(object.pointer, Selector("start:").pointer, -2) == 0)
            #expect(imp(object.pointer, Selector("start:").pointer, 4) == 8)
        }
        #expect(
            errors.all == [
                "method -[\(name) start:] threw: refused: negative -1",
                "method -[\(name) start:] threw: refused: negative -2",
            ])
    }

    @Test("a closure that sends with try needs no `throws` spelled, and a void one reports too")
    func inferredThrowingAndVoid() throws {
        let errors = MethodErrors()
        let name = uniqueName("Relay")
        let log = EventLog()
        let cls = try RuntimeClass.define(name) { c in
            try c.method("ping:") { (this: RuntimeObject, x: Int) in log.append("ping \(x)") }
            // `try` without a catch makes the closure throwing: the throwing overload takes it.
            try c.method("relay:") { (this: RuntimeObject, x: Int) in
                try this.send("ping:", x)
                try this.send("missing:", x)  // not recognized: throws
                log.append("not reached")
            }
        }
        let object = cls.new()
        try errors.recording(name) {
            try object.send("relay:", 7)
        }
        #expect(log.all == ["ping 7"])
        #expect(errors.all.count == 1)
        #expect(errors.all.first?.hasPrefix("method -[\(name) relay:] threw: ") == true)
    }

    @Test("five arguments, a struct result, an optional object result: each returns zero when it throws")
    func packStructAndObject() throws {
        let errors = MethodErrors()
        let name = uniqueName("Wide")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("sum:b:c:d:e:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int) throws -> Int in
                if a == 0 { throw Refused(why: "zero") }
                return a + b + c + d + e
            }
            try c.method("span:") { (this: RuntimeObject, x: Int64) throws -> Span in
                if x == 0 { throw Refused(why: "empty span") }
                return Span(a: x, b: x + 1, c: x + 2, d: x + 3)
            }
            try c.method("peer:") { (this: RuntimeObject, x: Int) throws -> RuntimeObject? in
                if x == 0 { throw Refused(why: "no peer") }
                return this
            }
        }
        let object = cls.new()
        try errors.recording(name) {
            let sum: Int = try object.send("sum:b:c:d:e:", 1, 2, 3, 4, 5)
            #expect(sum == 15)
            let noSum: Int = try object.send("sum:b:c:d:e:", 0, 2, 3, 4, 5)
            #expect(noSum == 0)
            let span: Span = try object.send("span:", Int64(1))
            #expect(span == Span(a: 1, b: 2, c: 3, d: 4))
            let noSpan: Span = try object.send("span:", Int64(0))
            #expect(noSpan == Span(a: 0, b: 0, c: 0, d: 0))
            let peer: RuntimeObject? = try object.send("peer:", 1)
            #expect(peer == object)
            let noPeer: RuntimeObject? = try object.send("peer:", 0)
            #expect(noPeer == nil)
        }
        #expect(
            errors.all == [
                "method -[\(name) sum:b:c:d:e:] threw: refused: zero",
                "method -[\(name) span:] threw: refused: empty span",
                "method -[\(name) peer:] threw: refused: no peer",
            ])
    }

    @Test("class methods, replaced methods and dealloc overrides may throw too")
    func classMethodReplaceAndDealloc() throws {
        let errors = MethodErrors()
        let name = uniqueName("Factory")
        let log = EventLog()
        let cls = try RuntimeClass.define(name) { c in
            try c.classMethod("make:b:c:d:e:") {
                (this: RuntimeObject, a: Int32, b: Int32, c: Int32, d: Int32, e: Int32) throws -> Int32 in
                throw Refused(why: "no factory")
            }
            try c.method("value") { (this: RuntimeObject) -> Int in 1 }
            try c.dealloc { (this: RuntimeObject) throws in
                log.append("dealloc")
                throw Refused(why: "dealloc")
            }
        }
        try errors.recording(name) {
            let made: Int32 = try cls.send("make:b:c:d:e:", Int32(1), Int32(2), Int32(3), Int32(4), Int32(5))
            #expect(made == 0)
            try cls.replaceMethod("value") { (this: RuntimeObject) throws -> Int in
                throw Refused(why: "replaced")
            }
            var object: RuntimeObject? = cls.new()
            let value: Int = try object!.send("value")
            #expect(value == 0)
            let weak = WeakRuntimeObject(object)
            object = nil
            // The superclass's dealloc ran all the same: the object is gone.
            #expect(weak.object == nil)
        }
        #expect(log.all == ["dealloc"])
        #expect(
            errors.all == [
                "method +[\(name) make:b:c:d:e:] threw: refused: no factory",
                "method -[\(name) value] threw: refused: replaced",
                "method -[\(name) dealloc] threw: refused: dealloc",
            ])
    }

    @Test("a throwing closure with a non-optional object result is refused when it is defined")
    func nonOptionalObjectRefused() throws {
        let name = uniqueName("Strict")
        let error = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(name) { c in
                try c.method("peer") { (this: RuntimeObject) throws -> RuntimeObject in this }
            }
        }
        #expect(error.statusName == "IC_ERR_INVALID_ARGUMENT")
        #expect(
            error.message
                == "a throwing closure for peer of \(name) cannot return a non-optional RuntimeObject: "
                + "a call that throws returns nil; declare the result RuntimeObject?")
    }
}
