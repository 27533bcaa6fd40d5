import CInterception
import CInterceptionTestSupport
@testable import Interception
import Synchronization
import Testing

// Area: the short hook forms and the info form (SPEC 16.1). Purpose: over every type of the
// matrix (scalars take the typed trampolines, structs and long double the libffi path, and a
// forced-forwarding object takes the libffi path for scalars too), per object, class-wide and on
// class methods: closures without parameters or with the receiver only leave arguments and
// results alone (an instead one replaces the method: zero); the info form's boxed arguments and
// result equal the typed ones, and what it replaces reaches the original and the caller.

/// Where a matrix hook goes.
enum HookPlace: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case object, forwardedObject, classWide, classMethod
    var testDescription: String { rawValue }
}

/// A matrix case hooked at one place.
struct HookedCase: CustomTestStringConvertible, Sendable {
    let matrixCase: MatrixCase
    let place: HookPlace
    var testDescription: String { "\(matrixCase.testDescription) \(place.rawValue)" }

    static let all: [HookedCase] = MatrixCase.valueCases.flatMap { matrixCase in
        HookPlace.allCases.map { HookedCase(matrixCase: matrixCase, place: $0) }
    }
}

/// The class, the receiver of the sends and the hook target of a matrix case at a place: `echo:`
/// (T echo(T)), `make` (T make()) and `take:` (void take(T)) are the case's C IMPs, instance
/// methods or (classMethod) class methods.
struct MatrixHookFixture {
    let receiver: RuntimeObject
    let target: any HookTarget

    init(_ hooked: HookedCase) throws {
        let matrixCase = hooked.matrixCase
        let raw = matrixCase.raw
        let encoding = matrixCase.encoding
        let classMethods = hooked.place == .classMethod
        let cls = try RuntimeClass.define(uniqueName("HookMatrix_\(matrixCase.name)")) { c in
            for (name, types, imp) in [
                ("echo:", "\(encoding)@:\(encoding)", raw.echo_imp), ("make", "\(encoding)@:", raw.make_imp),
                ("take:", "v@:\(encoding)", raw.take_imp),
            ] {
                if classMethods {
                    try c.classMethod(Selector(name), encoding: types, imp: imp!)
                } else {
                    try c.method(Selector(name), encoding: types, imp: imp)
                }
            }
        }
        switch hooked.place {
        case .object:
            receiver = cls.new()
            target = receiver
        case .forwardedObject:
            receiver = cls.new()
            target = receiver
            for name in ["echo:", "make", "take:"] {
                #expect(
                    ic_intercept_prepare_with_options(
                        receiver.pointer, Selector(name).pointer, UInt32(IC_INTERCEPT_FORCE_FORWARDING))
                        == IC_OK)
            }
        case .classWide:
            receiver = cls.new()
            target = cls
        case .classMethod:
            receiver = cls.asObject
            target = cls.metaclass
        }
    }
}

extension MatrixValue {
    /// Whether `boxed` (a value `arguments` or `returnValue` boxed) is the C value at `address`.
    static func boxed(_ boxed: Any?, equals address: UnsafeRawPointer, in matrixCase: MatrixCase) -> Bool {
        matrixCase.withBuffer { buffer in
            switch boxed {
            case let value as Self:
                buffer.storeBytes(of: value.runtimeRepresentation, as: RuntimeRepresentation.self)
            case let value as UInt:
                buffer.storeBytes(of: UInt64(value), as: UInt64.self)
            case let value as RuntimeStructValue:
                buffer.copyMemory(from: value.bytes, byteCount: value.bytes.count)
            default:
                return false
            }
            return matrixCase.raw.equal(buffer, address)
        }
    }

    /// Short forms: before and after hooks without parameters or with the receiver run and leave
    /// arguments and results alone; instead ones replace the method (a zero result).
    static func checkShortForms(_ hooked: HookedCase) throws {
        let matrixCase = hooked.matrixCase
        let fixture = try MatrixHookFixture(hooked)
        let receiver = fixture.receiver
        let log = EventLog()
        let receiverPointer = UInt(bitPattern: receiver.pointer)
        var tokens = [
            try fixture.target.hookBefore("echo:") { log.append("before") },
            try fixture.target.hookBefore("echo:") { this in
                log.append(UInt(bitPattern: this.pointer) == receiverPointer ? "before this" : "wrong this")
            },
            try fixture.target.hookAfter("echo:") { log.append("after") },
            try fixture.target.hookAfter("echo:") { this in
                log.append(UInt(bitPattern: this.pointer) == receiverPointer ? "after this" : "wrong this")
            },
            try fixture.target.hookAfter("take:") { log.append("after take") },
        ]
        let echoed: Self = try receiver.send("echo:", load(matrixCase.raw.other))
        #expect(echoed.equals(matrixCase.raw.other, in: matrixCase), "before and after leave the value alone")
        try receiver.send("take:", load(matrixCase.raw.sample))
        #expect(load(ict_taken()).equals(matrixCase.raw.sample, in: matrixCase), "take: got its argument")
        #expect(log.all == ["before", "before this", "after", "after this", "after take"])
        for token in tokens { #expect(token.cancel() != nil) }
        // A zero Selector cannot be returned to Swift (Selector is never NULL): no instead check.
        guard Self.self != Selector.self else { return }
        tokens = [
            try fixture.target.hookInstead("make") { log.append("instead") },
            try fixture.target.hookInstead("echo:") { this in
                log.append(UInt(bitPattern: this.pointer) == receiverPointer ? "instead this" : "wrong this")
            },
        ]
        let made: Self = try receiver.send("make")
        let replaced: Self = try receiver.send("echo:", load(matrixCase.raw.sample))
        matrixCase.withBuffer { zero in
            #expect(made.equals(zero, in: matrixCase), "an instead hook without original returns zero")
            #expect(replaced.equals(zero, in: matrixCase))
        }
        #expect(log.all.suffix(2) == ["instead", "instead this"])
        for token in tokens { #expect(token.cancel() != nil) }
        let again: Self = try receiver.send("echo:", load(matrixCase.raw.other))
        #expect(again.equals(matrixCase.raw.other, in: matrixCase), "the method is back")
    }

    /// The info form: boxed and typed arguments and results agree, replacements reach the
    /// original and the caller, `callOriginal` runs the method any number of times.
    static func checkInfoForm(_ hooked: HookedCase) throws {
        let matrixCase = hooked.matrixCase
        let fixture = try MatrixHookFixture(hooked)
        let receiver = fixture.receiver
        let failures = EventLog()
        let check: @Sendable (Bool, String) -> Void = { ok, what in
            if !ok { failures.append(what) }
        }
        let receiverPointer = UInt(bitPattern: receiver.pointer)

        // before: sees the argument boxed and typed, replaces it.
        var token = try fixture.target.hook("echo:", .before) { call in
            check(call.position == .before, "position")
            check(call.selector == "echo:", "selector")
            check(UInt(bitPattern: call.receiver.pointer) == receiverPointer, "receiver")
            check(call.argumentCount == 1 && call.arguments.count == 1, "argument count")
            check(
                boxed(call.arguments.first, equals: matrixCase.raw.sample, in: matrixCase), "boxed argument")
            check(
                try call.argument(2, as: Self.self).equals(matrixCase.raw.sample, in: matrixCase),
                "typed argument")
            check(call.returnValue == nil, "no result before")
            try call.setArgument(2, load(matrixCase.raw.other))
            check(
                boxed(call.arguments.first, equals: matrixCase.raw.other, in: matrixCase), "replaced argument"
            )
        }
        var result: Self = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(
            result.equals(matrixCase.raw.other, in: matrixCase), "the replaced argument reached the original")
        token.cancel()

        // after: reads the result boxed and typed, replaces it.
        token = try fixture.target.hook("echo:", .after) { call in
            check(boxed(call.returnValue, equals: matrixCase.raw.sample, in: matrixCase), "boxed result")
            check(
                try call.returnValue(as: Self.self).equals(matrixCase.raw.sample, in: matrixCase),
                "typed result")
            try call.setReturnValue(load(matrixCase.raw.other))
        }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.other, in: matrixCase), "the replaced result reached the caller")
        token.cancel()

        // instead: calls the original twice with an argument it changed; no-argument and void
        // methods too.
        let calls = Atomic<Int>(0)
        token = try fixture.target.hook("echo:", .instead) { call in
            try call.setArgument(2, load(matrixCase.raw.other))
            try call.callOriginal()
            try call.callOriginal()
            calls.add(1, ordering: .relaxed)
            check(
                boxed(call.returnValue, equals: matrixCase.raw.other, in: matrixCase),
                "result of the original")
        }
        let made = try fixture.target.hook("make", .instead) { call in
            check(call.arguments.isEmpty, "make has no arguments")
            try call.callOriginal()
            check(
                try call.returnValue(as: Self.self).equals(matrixCase.raw.sample, in: matrixCase),
                "make's result")
        }
        let taken = try fixture.target.hook("take:", .instead) { call in
            try call.callOriginal()
            check(call.returnValue == nil, "take: has no result")
            do {
                _ = try call.returnValue(as: Self.self)
                check(false, "typed result of a void method")
            } catch {
                check("\(error)".contains("returns nothing"), "error of a typed void result")
            }
        }
        result = try receiver.send("echo:", load(matrixCase.raw.sample))
        #expect(result.equals(matrixCase.raw.other, in: matrixCase))
        #expect(calls.load(ordering: .relaxed) == 1)
        let madeValue: Self = try receiver.send("make")
        #expect(madeValue.equals(matrixCase.raw.sample, in: matrixCase))
        try receiver.send("take:", load(matrixCase.raw.other))
        #expect(load(ict_taken()).equals(matrixCase.raw.other, in: matrixCase))
        for t in [token, made, taken] { #expect(t.cancel() != nil) }
        #expect(failures.all == [])
    }
}

@Suite("Hook forms over the type matrix (SPEC 16.1)")
struct HookFormsMatrixTests {
    @Test(
        "closures without parameters or with the receiver only, on every type: before and after leave values alone, instead returns zero",
        arguments: HookedCase.all)
    func shortForms(_ hooked: HookedCase) throws {
        let type = try #require(hooked.matrixCase.swiftType)
        try type.checkShortForms(hooked)
    }

    @Test(
        "the info form on every type: boxed values equal typed ones, replaced arguments and results reach the original and the caller",
        arguments: HookedCase.all)
    func infoForm(_ hooked: HookedCase) throws {
        let type = try #require(hooked.matrixCase.swiftType)
        try type.checkInfoForm(hooked)
    }

    /// Where the direct call of `original` applies and where the engine runs it instead, see
    /// HookFormsMatrix+TypedInstead.swift.
    @Test(
        "typed instead hooks on every type, their original called directly or through the engine: arguments, results, nesting, a throw after it",
        arguments: HookedCase.all)
    func typedInstead(_ hooked: HookedCase) throws {
        try #require(hooked.matrixCase.swiftType).checkTypedInstead(hooked)
    }
}
