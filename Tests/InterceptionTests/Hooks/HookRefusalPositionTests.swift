@testable import Interception
import Testing

// Area: the errors that refuse a hook (SPEC 16.6). Purpose: every refusal of a hook names the
// position that asked ("cannot add an instead hook to -[C sel]: …"), not only a type mismatch,
// on objects, classes, class methods and the info form; the position does not change equality
// (an error refusing a hook equals the same refusal written without it); an interception the rx
// bindings ask for still reads "cannot intercept".

/// A class with `add:` (i@:i) and `ping` (v@:).
private func refusalClass(_ base: String) throws -> RuntimeClass {
    try RuntimeClass.define(uniqueName(base)) { c in
        try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        try c.method("ping") { (this: RuntimeObject) in }
        try c.classMethod("make") { (this: RuntimeObject) -> Int32 in 7 }
    }
}

@Suite("Hook refusals name the hook's position")
struct HookRefusalPositionTests {
    @Test("a forbidden selector refused per object names the position, and equals the refusal without it")
    func forbiddenPerObject() throws {
        let cls = try refusalClass("RPForbidden")
        let object = cls.new()
        let instead = try #require(throws: InterceptionError.self) {
            try object.hookInstead("retain") { (original: () -> RuntimeObject?, this: RuntimeObject) in
                original()
            }
        }
        #expect(
            "\(instead)"
                == "cannot add an instead hook to -[\(cls.name) retain]: the runtime relies on this selector")
        #expect(instead.hookPosition == .instead)
        #expect(instead == .forbiddenSelector(className: cls.name, selector: "retain"))
        let before = try #require(throws: InterceptionError.self) {
            try object.hookBefore("release") {}
        }
        #expect(
            "\(before)"
                == "cannot add a before hook to -[\(cls.name) release]: the runtime relies on this selector")
        #expect(before.hookPosition == .before)
        #expect(object.actualClass == cls)
    }

    @Test("a missing selector refused class-wide names the position, for every form")
    func missingClassWide() throws {
        let cls = try refusalClass("RPMissing")
        let after = try #require(throws: InterceptionError.self) {
            try cls.hookAfter("nope") { (this: RuntimeObject) in }
        }
        #expect(
            "\(after)" == "cannot add an after hook to -[\(cls.name) nope]: the class does not implement it")
        #expect(after.hookPosition == .after)
        #expect(after == .selectorNotImplemented(className: cls.name, selector: "nope"))
        let short = try #require(throws: InterceptionError.self) { try cls.hookBefore("nope") {} }
        #expect(
            "\(short)" == "cannot add a before hook to -[\(cls.name) nope]: the class does not implement it")
        let info = try #require(throws: InterceptionError.self) { try cls.hook("nope", .instead) { _ in } }
        #expect(
            "\(info)" == "cannot add an instead hook to -[\(cls.name) nope]: the class does not implement it")
        #expect(info.hookPosition == .instead)
    }

    @Test("an info-form hook on an object's missing selector names the position")
    func missingInfoFormPerObject() throws {
        let cls = try refusalClass("RPInfo")
        let object = cls.new()
        let error = try #require(throws: InterceptionError.self) { try object.hook("nope:", .after) { _ in } }
        #expect(
            "\(error)" == "cannot add an after hook to -[\(cls.name) nope:]: the class does not implement it")
        #expect(object.actualClass == cls)
    }

    @Test("a class-method refusal names the position and writes the method +[C sel]")
    func classMethodRefusal() throws {
        let cls = try refusalClass("RPMeta")
        let error = try #require(throws: InterceptionError.self) {
            try cls.metaclass.hookBefore("missing") { (this: RuntimeObject) in }
        }
        #expect(
            "\(error)"
                == "cannot add a before hook to +[\(cls.name) missing]: the class does not implement it")
        #expect(error.isClassMethod)
        #expect(error.hookPosition == .before)
    }

    @Test("a type mismatch reports its position through hookPosition too")
    func typeMismatchPosition() throws {
        let cls = try refusalClass("RPMismatch")
        let error = try #require(throws: InterceptionError.self) {
            try cls.new().hookBefore("add:") { (this: RuntimeObject, x: Double) in }
        }
        #expect(error.hookPosition == .before)
        #expect("\(error)".hasPrefix("cannot add a before hook to -[\(cls.name) add:]: argument 1"))
    }

    @Test("an interception the rx bindings ask for has no hook position and reads cannot intercept")
    func rxRefusalHasNoPosition() throws {
        let cls = try refusalClass("RPRx")
        let error = InterceptionError.forbiddenSelector(className: cls.name, selector: "retain")
        #expect(error.hookPosition == nil)
        #expect("\(error)" == "cannot intercept -[\(cls.name) retain]: the runtime relies on this selector")
        #expect(error.atHook(.after) == error)
        #expect(error.atHook(.after).hookPosition == .after)
    }
}
