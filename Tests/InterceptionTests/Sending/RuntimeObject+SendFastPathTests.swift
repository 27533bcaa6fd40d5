import CInterception
import CInterceptionTestSupport
import Testing

@testable import Interception

/// Whether a send of `selector` with these Swift types would take the fast path now.
private func takesFastPath<R: RuntimeValue>(
    _ object: RuntimeObject, _ selector: Selector, result: R.Type, _ argument: (some RuntimeValue).Type
) -> Bool {
    var signature = SwiftSignature(R.self)
    signature.append(argument)
    let fast = FastSend.resolve(receiver: object.pointer, selector: selector.pointer, signature: signature)
    return fast?.callsThroughRegisters == true
}

/// Whether a send of `selector` with these Swift types takes the fast path, sending again
/// (`sendAgain`) a few times before concluding that it does not.
///
/// The send cache is direct-mapped and shared by every test running in parallel: another plan
/// may take this one's slot between a send and the check (the next send publishes it again).
/// Only positive checks retry: eviction can only make a send look slow, so a check that expects
/// the slow path cannot fail because of it, and sending again there would publish the plan and
/// hide the very bug the check is for.
private func eventuallyTakesFastPath<R: RuntimeValue>(
    _ object: RuntimeObject, _ selector: Selector, result: R.Type, _ argument: (some RuntimeValue).Type,
    sendAgain: () throws -> Void
) rethrows -> Bool {
    for _ in 0..<8 {
        if takesFastPath(object, selector, result: result, argument) { return true }
        try sendAgain()
    }
    return takesFastPath(object, selector, result: result, argument)
}

@Suite("Typed sends: the fast path and its invalidation")
struct RuntimeObjectSendFastPathTests {
    @Test("the second send of a register signature takes the fast path, the first checks and caches")
    func secondSendIsFast() throws {
        let cls = try RuntimeClass.define(uniqueName("FastCounter")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        #expect(!takesFastPath(object, "add:", result: Int32.self, Int32.self))
        let first: Int32 = try object.send("add:", Int32(1))
        #expect(first == 2)
        #expect(
            try eventuallyTakesFastPath(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(1))
            })
        let second: Int32 = try object.send("add:", Int32(2))
        #expect(second == 3)
        // Another Swift signature for the same method is a plan of its own, checked first.
        #expect(!takesFastPath(object, "add:", result: Int.self, Int.self))
        #expect(throws: RuntimeError.self) { let _: Int = try object.send("add:", 2) }
    }

    @Test("a method replaced between two fast sends runs the replacement on the next send")
    func replacedBetweenFastSends() throws {
        let cls = try RuntimeClass.define(uniqueName("FastReplaced")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        for x in Int32(0)..<3 {
            let r: Int32 = try object.send("add:", x)
            #expect(r == x + 1)
        }
        #expect(
            try eventuallyTakesFastPath(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(0))
            })
        try cls.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 2 }
        // The IMP the class resolves is no longer the validated one: checked again, then fast.
        #expect(!takesFastPath(object, "add:", result: Int32.self, Int32.self))
        let replaced: Int32 = try object.send("add:", Int32(40))
        #expect(replaced == 42)
        #expect(
            try eventuallyTakesFastPath(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(40))
            })
    }

    @Test("an object moved to a class with another encoding between two fast sends throws")
    func objectMovedToAnotherClassBetweenFastSends() throws {
        let ints = try RuntimeClass.define(uniqueName("FastInts")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let doubles = try RuntimeClass.define(uniqueName("FastDoubles")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Double) -> Double in x + 0.5 }
        }
        let object = ints.new()
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 2)
        }
        #expect(ic_object_set_class(object.pointer, doubles.pointer) == ints.pointer)
        let error = try #require(throws: RuntimeError.self) {
            let _: Int32 = try object.send("add:", Int32(1))
        }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        let moved: Double = try object.send("add:", 1.0)
        #expect(moved == 1.5)
        #expect(ic_object_set_class(object.pointer, ints.pointer) == doubles.pointer)
        let back: Int32 = try object.send("add:", Int32(3))
        #expect(back == 4)
    }

    @Test(
        "an object intercepted into its hidden subclass between two fast sends is observed, then fast again")
    func objectInterceptedBetweenFastSends() throws {
        let cls = try RuntimeClass.define(uniqueName("FastIntercepted")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 2)
        }
        // A pthread mutex (`Locked`): ThreadSanitizer does not see `Synchronization.Mutex` on Linux.
        let seen = Locked<[Int32]>([])
        let subscription = object.rx.sentMessage("add:", as: Int32.self).subscribe(onNext: { x in
            seen.withLock { $0.append(x) }
        })
        #expect(object.actualClass != cls)
        for x in Int32(10)..<13 {
            let r: Int32 = try object.send("add:", x)
            #expect(r == x + 1)
        }
        var resent = 0  // sends made by the retries, each of 99, observed too
        #expect(
            try eventuallyTakesFastPath(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(99))
                resent += 1
            })
        let observed = [10, 11, 12] + Array(repeating: Int32(99), count: resent)
        #expect(seen.withLock { $0 } == observed)
        subscription.dispose()
        #expect(object.actualClass == cls)
        let after: Int32 = try object.send("add:", Int32(20))
        #expect(after == 21)
        #expect(seen.withLock { $0 } == observed)
    }

    @Test(
        "every matrix type gives the same results through the fast path as through the checked generic path",
        arguments: MatrixCase.valueCases)
    func fastPathAgreesWithGenericPath(_ matrixCase: MatrixCase) throws {
        let type = try #require(matrixCase.swiftType)
        let raw = matrixCase.raw
        let cMethods = try RuntimeClass.define(uniqueName("FastMatrixC_\(matrixCase.name)")) { c in
            try c.method(
                "echo:", encoding: "\(matrixCase.encoding)@:\(matrixCase.encoding)", imp: raw.echo_imp)
            try c.method("make", encoding: "\(matrixCase.encoding)@:", imp: raw.make_imp)
            try c.method("take:", encoding: "v@:\(matrixCase.encoding)", imp: raw.take_imp)
        }
        try type.checkFastAgainstGeneric(matrixCase, cMethods.new(), swiftMethods: false)
        let swiftMethods = try type.swiftClass(matrixCase, taken: TakenBox())
        try type.checkFastAgainstGeneric(matrixCase, swiftMethods.new(), swiftMethods: true)
    }

    @Test("sends from Swift racing method replacement always run a whole implementation, old or new")
    func sendsRacingReplacement() async throws {
        let cls = try RuntimeClass.define(uniqueName("FastRace")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let objects = (0..<2).map { _ in cls.new() }
        let sendsPerTask = 20_000
        let replacements = 2_000
        // Each sending task returns how many results were neither old nor new (must be none).
        let wrong = await withTaskGroup(of: Int.self) { group in
            for object in objects {
                group.addTask {
                    var wrong = 0
                    for i in 0..<sendsPerTask {
                        let x = Int32(i)
                        let r: Int32 = (try? object.send("add:", x)) ?? -1
                        if r != x &+ 1 && r != x &+ 2 { wrong += 1 }
                    }
                    return wrong
                }
            }
            group.addTask {
                let plusOne: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in
                    x &+ 1
                }
                let plusTwo: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in
                    x &+ 2
                }
                for i in 0..<replacements {
                    let imp = i.isMultiple(of: 2) ? plusTwo : plusOne
                    _ = try? cls.replaceMethod("add:", encoding: "i@:i", imp: imp)
                }
                return 0
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        // The last replacement installed plusOne; every send now runs it.
        let r: Int32 = try objects[0].send("add:", Int32(5))
        #expect(r == 6)
    }
}

extension MatrixValue {
    /// Sends `make`, `echo:` and `take:` to `object` twice through the public `send` (the
    /// second time on the fast path: through the registers when the signature fits them, or a
    /// direct call of the typed body of a Swift method) and once through the checked generic
    /// path, and compares the results.
    static func checkFastAgainstGeneric(_ matrixCase: MatrixCase, _ object: RuntimeObject, swiftMethods: Bool)
        throws
    {
        let raw = matrixCase.raw
        let value = load(raw.other)
        var viaSend: [Self] = []
        for _ in 0..<2 {
            let echoed: Self = try object.send("echo:", value)
            viaSend.append(echoed)
        }
        var echoSignature = SwiftSignature(Self.self)
        echoSignature.append(Self.self)
        let generic: Self = try object.sendChecked("echo:", echoSignature, value)
        for echoed in viaSend + [generic] {
            #expect(echoed.equals(raw.other, in: matrixCase), "echo:")
        }
        let registers = DirectCallShape(result: Self.self, Self.self) != nil
        // The send cache is direct-mapped and shared by every test running in parallel: another
        // plan may take this one's slot between a send and the check (the next send publishes
        // it again). So the check sends again, a few times, before it concludes.
        var fast: FastSend? = nil
        for _ in 0..<8 {
            fast = FastSend.resolve(
                receiver: object.pointer, selector: Selector("echo:").pointer, signature: echoSignature)
            let taken =
                swiftMethods
                ? fast?.swiftMethodBody(as: SwiftMethodBody<Self, Self>.self) != nil
                : fast?.callsThroughRegisters == true
            if taken || (!swiftMethods && !registers) { break }
            let _: Self = try object.send("echo:", value)
        }
        if swiftMethods {
            // Any Swift signature: the typed body is called.
            #expect(fast?.swiftMethodBody(as: SwiftMethodBody<Self, Self>.self) != nil, "echo: direct body")
        } else {
            #expect(
                (fast?.callsThroughRegisters == true) == registers,
                "echo: fast path iff the signature fits the registers")
        }

        for _ in 0..<2 {
            let made: Self = try object.send("make")
            #expect(made.equals(raw.sample, in: matrixCase), "make")
        }
        let made: Self = try object.sendChecked("make", SwiftSignature(Self.self))
        #expect(made.equals(raw.sample, in: matrixCase), "make (generic)")
    }
}

/// The slot a type states for the fast path, checked against the one its encoding gives.
private func statedSlotMatchesEncoding<T: RuntimeValue>(_ type: T.Type) -> Bool {
    guard let stated = RegisterSlot(rawValue: T._registerSlot) else { return false }
    return stated == RegisterSlot(encoding: T.runtimeEncoding)
}

@Suite("Typed sends: register slots stated by the standard types")
struct RegisterSlotStatementTests {
    @Test("every standard scalar and pointer type states exactly the slot of its encoding")
    func standardTypesStateTheirEncodingsSlot() {
        #expect(statedSlotMatchesEncoding(Int8.self))
        #expect(statedSlotMatchesEncoding(Int16.self))
        #expect(statedSlotMatchesEncoding(Int32.self))
        #expect(statedSlotMatchesEncoding(Int64.self))
        #expect(statedSlotMatchesEncoding(Int.self))
        #expect(statedSlotMatchesEncoding(UInt8.self))
        #expect(statedSlotMatchesEncoding(UInt16.self))
        #expect(statedSlotMatchesEncoding(UInt32.self))
        #expect(statedSlotMatchesEncoding(UInt64.self))
        #expect(statedSlotMatchesEncoding(UInt.self))
        #expect(statedSlotMatchesEncoding(Float.self))
        #expect(statedSlotMatchesEncoding(Double.self))
        #expect(statedSlotMatchesEncoding(Bool.self))
        #expect(statedSlotMatchesEncoding(Selector.self))
        #expect(statedSlotMatchesEncoding(Selector?.self))
        #expect(statedSlotMatchesEncoding(RuntimeObject.self))
        #expect(statedSlotMatchesEncoding(RuntimeObject?.self))
        #expect(statedSlotMatchesEncoding(RuntimeClass.self))
        #expect(statedSlotMatchesEncoding(RuntimeClass?.self))
        #expect(statedSlotMatchesEncoding(UnsafeRawPointer?.self))
        #expect(statedSlotMatchesEncoding(UnsafeMutableRawPointer?.self))
        #expect(statedSlotMatchesEncoding(OpaquePointer?.self))
        #expect(statedSlotMatchesEncoding(UnsafePointer<CChar>?.self))
        #expect(statedSlotMatchesEncoding(UnsafeMutablePointer<CChar>?.self))
        #expect(statedSlotMatchesEncoding(String.self))
    }

    @Test("a user's type states no slot by default, and its sends read the slot from the plan")
    func userTypesReadThePlan() throws {
        struct Celsius: RuntimeValue, Equatable {
            var degrees: Int16
            static var runtimeEncoding: String { "s" }
            init(runtimeRepresentation: Int16) { degrees = runtimeRepresentation }
            var runtimeRepresentation: Int16 { degrees }
        }
        #expect(Celsius._registerSlot == 0)
        let cls = try RuntimeClass.define(uniqueName("SlotFromPlan")) { c in
            try c.method("warmer:") { (this: RuntimeObject, t: Celsius) -> Celsius in
                Celsius(runtimeRepresentation: t.degrees &+ 1)
            }
        }
        let object = cls.new()
        for degrees: Int16 in [-3, -1, 0, 300] {  // twice through the fast path, negative widened
            let warmer: Celsius = try object.send("warmer:", Celsius(runtimeRepresentation: degrees))
            #expect(warmer.degrees == degrees &+ 1)
        }
    }
}

@Suite("Typed sends: signature seeds stated by the standard types")
struct SignatureSeedTests {
    @Test("the standard types state distinct non-zero seeds; other types hash by their metadata")
    func standardSeedsAreDistinct() {
        let seeds: [UInt64] = [
            Int8._signatureSeed, Int16._signatureSeed, Int32._signatureSeed, Int64._signatureSeed,
            Int._signatureSeed, UInt8._signatureSeed, UInt16._signatureSeed, UInt32._signatureSeed,
            UInt64._signatureSeed, UInt._signatureSeed, Float._signatureSeed, Double._signatureSeed,
            Bool._signatureSeed, Selector._signatureSeed, NoResult._signatureSeed, String._signatureSeed,
        ]
        #expect(!seeds.contains(0))
        #expect(Set(seeds).count == seeds.count)
        #expect(RuntimeObject?._signatureSeed == 0)
        #expect(DDD._signatureSeed == 0)
    }

    @Test("signatures that differ in a type, its position or their number hash apart")
    func signaturesHashApart() {
        let signatures = [
            SwiftSignature(Int32.self).appending(Int32.self),
            SwiftSignature(Int32.self).appending(Int.self),
            SwiftSignature(Int.self).appending(Int32.self),
            SwiftSignature(Int32.self).appending(Int32.self).appending(Int32.self),
            SwiftSignature(NoResult.self).appending(Int32.self),
            SwiftSignature(Int32.self).appending(RuntimeObject?.self),
            SwiftSignature(Int32.self).appending(RuntimeClass?.self),
            SwiftSignature(Double.self).appending(Float.self),
            SwiftSignature(Float.self).appending(Double.self),
        ]
        #expect(Set(signatures.map(\.hash)).count == signatures.count)
        // The exact types are kept for confirmation, whatever the hash.
        #expect(!signatures[1].matches(signatures[2]))
        #expect(signatures[0].matches(SwiftSignature(Int32.self).appending(Int32.self)))
    }
}
