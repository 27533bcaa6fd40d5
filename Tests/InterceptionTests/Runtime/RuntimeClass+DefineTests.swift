import CInterception
import CInterceptionTestSupport
import Interception
import Synchronization
import Testing

/// A struct for the Swift-side checks of user struct encodings.
struct Point: RuntimeStruct, Equatable {
    var x: Double
    var y: Double
    static let runtimeEncoding = "{Point=dd}"
}

/// A struct whose Swift size (12) is smaller than its C size (16): tail padding.
struct Padded: RuntimeStruct, Equatable {
    var d: Double
    var i: Int32
    static let runtimeEncoding = "{Padded=di}"
}

/// Layout mismatches: the encodings describe other sizes or alignments than Swift's.
struct TooBig: RuntimeStruct {
    var a: Double
    var b: Double
    static let runtimeEncoding = "{TooBig=ddd}"
}
struct Misaligned: RuntimeStruct {
    var a: Int64
    static let runtimeEncoding = "{Misaligned=ii}"
}

@Suite("Defining classes")
struct RuntimeClassDefineTests {
    /// Defines `echo:` for `T`, checks its derived encoding, and sends `value` through it.
    private func roundTrip<T: RuntimeValue & Equatable>(_ value: T, encoding: String) throws {
        let cls = try RuntimeClass.define(uniqueName("Echo")) { c in
            try c.method("echo:") { (this: RuntimeObject, x: T) -> T in x }
        }
        #expect(cls.methodEncoding(for: "echo:") == "\(encoding)@:\(encoding)", "\(T.self)")
        let echoed: T = try cls.new().send("echo:", value)
        #expect(echoed == value, "\(T.self)")
    }

    @Test("a method closure's encoding is derived from its Swift types, for every supported type")
    func everySupportedType() throws {
        try roundTrip(Int8.min, encoding: "c")
        try roundTrip(Int16(-12345), encoding: "s")
        try roundTrip(Int32.min, encoding: "i")
        try roundTrip(Int64.min, encoding: "q")
        try roundTrip(Int.max, encoding: "q")
        try roundTrip(UInt8.max, encoding: "C")
        try roundTrip(UInt16.max, encoding: "S")
        try roundTrip(UInt32.max, encoding: "I")
        try roundTrip(UInt64.max, encoding: "Q")
        try roundTrip(UInt.max - 1, encoding: "Q")
        try roundTrip(true, encoding: "B")
        try roundTrip(false, encoding: "B")
        try roundTrip(Float(-1.5e-3), encoding: "f")
        try roundTrip(Double.pi, encoding: "d")
        try roundTrip(Float80(1) / 3, encoding: "D")
        let object = RuntimeClass.root.new()
        try roundTrip(object, encoding: "@")
        try roundTrip(RuntimeObject?(object), encoding: "@")
        try roundTrip(RuntimeObject?.none, encoding: "@")
        try roundTrip(RuntimeClass.root, encoding: "#")
        try roundTrip(RuntimeClass?.none, encoding: "#")
        try roundTrip(Selector("some:selector:"), encoding: ":")
        try roundTrip(Selector?.none, encoding: ":")
        let address = UnsafeMutableRawPointer.allocate(byteCount: 1, alignment: 1)
        defer { address.deallocate() }
        try roundTrip(UnsafeRawPointer?(address), encoding: "^v")
        try roundTrip(UnsafeMutableRawPointer?(address), encoding: "^v")
        try roundTrip(Optional(OpaquePointer(address)), encoding: "^v")
        try roundTrip(UnsafeRawPointer?.none, encoding: "^v")
        try "text".withCString { text in
            try roundTrip(UnsafePointer<CChar>?(text), encoding: "*")
            try roundTrip(Optional(UnsafeMutablePointer(mutating: text)), encoding: "*")
        }
        try roundTrip(Point(x: 1.5, y: -2), encoding: "{Point=dd}")
        try roundTrip(Padded(d: 0.25, i: -9), encoding: "{Padded=di}")
        #expect(object.retainCount == 1)
    }

    @Test("methods of arities 0 through 6 receive their arguments in order, on both call paths")
    func aritiesZeroToSix() throws {
        let cls = try RuntimeClass.define(uniqueName("Arity")) { c in
            try c.method("zero") { (this: RuntimeObject) -> Int in 100 }
            try c.method("one:") { (this: RuntimeObject, a: Int8) -> Int in Int(a) }
            try c.method("two:b:") { (this: RuntimeObject, a: Double, b: Int16) -> Double in
                a * 10 + Double(b)
            }
            try c.method("three:b:c:") { (this: RuntimeObject, a: UInt8, b: Float, c: Bool) -> Float in
                Float(a) * 100 + b * 10 + (c ? 1 : 0)
            }
            try c.method("four:b:c:d:") {
                (this: RuntimeObject, a: Int32, b: Int32, c: Int32, d: Int32) -> Int32 in
                a * 1000 + b * 100 + c * 10 + d
            }
            try c.method("five:b:c:d:e:") {
                (this: RuntimeObject, a: Int, b: Double, c: UInt32, d: Float, e: Int64) -> Double in
                Double(a) * 10_000 + b * 1000 + Double(c) * 100 + Double(d) * 10 + Double(e)
            }
            // Six integers: more than the fast path's four integer registers → invocation.
            try c.method("six:b:c:d:e:f:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> Int in
                ((((a * 10 + b) * 10 + c) * 10 + d) * 10 + e) * 10 + f
            }
            // Six doubles: all in vector registers → direct.
            try c.method("sixd:b:c:d:e:f:") {
                (this: RuntimeObject, a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)
                    -> Double in
                ((((a * 10 + b) * 10 + c) * 10 + d) * 10 + e) * 10 + f
            }
            // Six with a struct → invocation.
            try c.method("sixs:b:c:d:e:f:") {
                (this: RuntimeObject, a: Int8, b: Point, c: UInt16, d: Double, e: Bool, f: Int32) -> Double in
                Double(a) * 1e5 + b.x * 1e4 + b.y * 1e3 + Double(c) * 100 + d * 10 + (e ? 1 : 0) + Double(f)
                    / 10
            }
        }
        let o = cls.new()
        #expect(try o.send("zero") as Int == 100)
        #expect(try o.send("one:", Int8(-7)) as Int == -7)
        #expect(try o.send("two:b:", 1.5, Int16(-3)) as Double == 12)
        #expect(try o.send("three:b:c:", UInt8(2), Float(3), true) as Float == 231)
        #expect(try o.send("four:b:c:d:", Int32(1), Int32(2), Int32(3), Int32(4)) as Int32 == 1234)
        #expect(try o.send("five:b:c:d:e:", 1, 2.0, UInt32(3), Float(4), Int64(5)) as Double == 12345)
        #expect(try o.send("six:b:c:d:e:f:", 1, 2, 3, 4, 5, 6) as Int == 123_456)
        #expect(try o.send("sixd:b:c:d:e:f:", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0) as Double == 123_456)
        let s: Double = try o.send(
            "sixs:b:c:d:e:f:", Int8(1), Point(x: 2, y: 3), UInt16(4), 5.0, true, Int32(7))
        #expect(s == 123_451.7)
    }

    @Test("arities beyond the cached signature size work too (checked on every send)")
    func nineArguments() throws {
        let cls = try RuntimeClass.define(uniqueName("Nine")) { c in
            try c.method("a:b:c:d:e:f:g:h:i:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int, h: Int, i: Int)
                    -> Int in
                [a, b, c, d, e, f, g, h, i].reduce(0) { $0 * 10 + $1 }
            }
        }
        let o = cls.new()
        for _ in 0..<3 {
            let r: Int = try o.send("a:b:c:d:e:f:g:h:i:", 1, 2, 3, 4, 5, 6, 7, 8, 9)
            #expect(r == 123_456_789)
        }
    }

    @Test("a Void method closure runs, with its arguments")
    func voidMethods() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("Void")) { c in
            try c.method("reset") { (this: RuntimeObject) in log.append("reset") }
            try c.method("note:and:") { (this: RuntimeObject, a: Int32, b: Double) in
                log.append("note \(a) \(b)")
            }
        }
        #expect(cls.methodEncoding(for: "reset") == "v@:")
        #expect(cls.methodEncoding(for: "note:and:") == "v@:id")
        let o = cls.new()
        try o.send("reset")
        try o.send("note:and:", Int32(3), 0.5)
        #expect(log.all == ["reset", "note 3 0.5"])
    }

    @Test("the escape hatch installs a C function under an explicit encoding")
    func escapeHatch() throws {
        let dd = try #require(MatrixCase.valueCases.first { $0.name == "struct_dd" })
        let cls = try RuntimeClass.define(uniqueName("Hatch")) { c in
            try c.method("origin", encoding: "{Point=dd}@:", imp: dd.raw.make_imp)
            let add: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in x + 1 }
            try c.method("add:", encoding: "i24@0:8i16", imp: add)
        }
        #expect(cls.methodEncoding(for: "add:") == "i24@0:8i16")
        let o = cls.new()
        let origin: Point = try o.send("origin")
        #expect(origin == Point(x: 1.5, y: -2.25))
        #expect(try o.send("add:", Int32(41)) as Int32 == 42)
    }

    @Test("the escape hatch refuses a Swift closure, nil, and malformed encodings")
    func escapeHatchErrors() throws {
        _ = try RuntimeClass.define(uniqueName("HatchErrors")) { c in
            let swiftClosure: (Int32) -> Int32 = { $0 }
            let notC = try #require(throws: RuntimeError.self) {
                try c.method("f:", encoding: "i@:i", imp: swiftClosure)
            }
            #expect(notC.statusName == "IC_ERR_INVALID_ARGUMENT")
            #expect(notC.message.contains("@convention(c)"))
            let none: ic_imp? = nil
            #expect(throws: RuntimeError.self) { try c.method("g", encoding: "v@:", imp: none) }
            let f: @convention(c) (OpaquePointer?, OpaquePointer?) -> Void = { _, _ in }
            let malformed = try #require(throws: RuntimeError.self) {
                try c.method("h", encoding: "{P=ii@:", imp: f)
            }
            #expect(malformed.statusName == "IC_ERR_MALFORMED_ENCODING")
            #expect(malformed.position != nil)
            let notMethod = try #require(throws: RuntimeError.self) {
                try c.method("k", encoding: "v", imp: f)
            }
            #expect(notMethod.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        }
    }

    @Test("defining a class whose name is taken throws and leaves the existing class alone")
    func duplicateClassName() throws {
        let name = uniqueName("Taken")
        let first = try RuntimeClass.define(name) { c in
            try c.method("one") { (this: RuntimeObject) -> Int in 1 }
        }
        let error = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(name) { _ in }
        }
        #expect(error.statusName == "IC_ERR_DUPLICATE_CLASS")
        #expect(RuntimeClass.named(name) == first)
        #expect(try first.new().send("one") as Int == 1)
    }

    @Test("a failed definition registers nothing and releases the closures made for it")
    func failedDefinitionCleansUp() throws {
        let name = uniqueName("Failed")
        let counter = DeinitCounter()
        let error = try #require(throws: RuntimeError.self) {
            _ = try RuntimeClass.define(name) { c in
                let a = counter.make()
                let b = counter.make()
                try c.method("a") { (this: RuntimeObject) -> Int in ObjectIdentifier(a).hashValue }
                try c.method("b") { (this: RuntimeObject) in _ = b }
                try c.method("a") { (this: RuntimeObject) -> Int in 0 }
            }
        }
        #expect(error.statusName == "IC_ERR_METHOD_EXISTS")
        #expect(RuntimeClass.named(name) == nil)
        #expect(counter.count == 2)
        // The name is free again.
        let again = try RuntimeClass.define(name) { _ in }
        #expect(again.name == name)
    }

    struct Abandoned: Error {}

    @Test("an error thrown by the builder closure propagates, after the same cleanup")
    func builderErrorPropagates() throws {
        let name = uniqueName("Abandoned")
        let counter = DeinitCounter()
        #expect(throws: Abandoned.self) {
            _ = try RuntimeClass.define(name) { c in
                let captured = counter.make()
                try c.method("x") { (this: RuntimeObject) in _ = captured }
                throw Abandoned()
            }
        }
        #expect(RuntimeClass.named(name) == nil)
        #expect(counter.count == 1)
    }

    @Test("a method closure and what it captures live as long as the class, and calls leak nothing")
    func closuresLiveWithTheClass() throws {
        let counter = DeinitCounter()
        let made = try plainClass("Made")
        let cls = try RuntimeClass.define(uniqueName("Living")) { c in
            let captured = counter.make()
            try c.method("value") { (this: RuntimeObject) -> Int in
                ObjectIdentifier(captured).hashValue & 0xFF
            }
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in made.new() }
        }
        for _ in 0..<1_000 {
            let o = cls.new()
            let _: Int = try o.send("value")
            let _: RuntimeObject? = try o.send("make")
        }
        #expect(counter.count == 0)
        #expect(cls.liveInstanceCount == 0)
        #expect(made.liveInstanceCount == 0)
        #expect(Runtime.pendingReturnedObjectCount == 0)
    }

    @Test("dealloc, retain and release cannot be method closures")
    func reservedSelectors() throws {
        _ = try RuntimeClass.define(uniqueName("Reserved")) { c in
            for name in ["dealloc", "retain", "release"] {
                let error = try #require(throws: RuntimeError.self) {
                    try c.method(Selector(name)) { (this: RuntimeObject) in }
                }
                #expect(error.statusName == "IC_ERR_INVALID_ARGUMENT")
            }
        }
    }

    @Test("a struct whose layout does not match its encoding is refused, when defining and when sending")
    func structLayoutIsChecked() throws {
        _ = try RuntimeClass.define(uniqueName("BadStruct")) { c in
            let big = try #require(throws: RuntimeError.self) {
                try c.method("big") { (this: RuntimeObject) -> TooBig in TooBig(a: 0, b: 0) }
            }
            #expect(big.statusName == "IC_ERR_SIGNATURE_MISMATCH")
            #expect(big.message.contains("TooBig"))
            #expect(throws: RuntimeError.self) {
                try c.method("m:") { (this: RuntimeObject, m: Misaligned) in }
            }
        }
        let dd = try #require(MatrixCase.valueCases.first { $0.name == "struct_dd" })
        let cls = try RuntimeClass.define(uniqueName("BadStructSend")) { c in
            try c.method("make", encoding: "{TooBig=ddd}@:", imp: dd.raw.make_imp)
        }
        let error = try #require(throws: RuntimeError.self) { let _: TooBig = try cls.new().send("make") }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
    }

    @Test("the builder refuses to add methods once define has returned")
    func builderIsSealed() throws {
        var kept: RuntimeClass.Builder?
        let cls = try RuntimeClass.define(uniqueName("Sealed")) { c in kept = c }
        let builder = try #require(kept)
        #expect(builder.name == cls.name)
        #expect(builder.superclass == .root)
        let error = try #require(throws: RuntimeError.self) {
            try builder.method("late") { (this: RuntimeObject) in }
        }
        #expect(error.statusName == "IC_ERR_CLASS_ALREADY_REGISTERED")
        #expect(!cls.instancesRespond(to: "late"))
    }

    @Test("storage a class declares is per instance, zeroed, and found through the class")
    func storage() throws {
        let base = try RuntimeClass.define(uniqueName("StoreBase"), storageSize: 8) { _ in }
        let sub = try RuntimeClass.define(uniqueName("StoreSub"), superclass: base, storageSize: 24) { c in
            try c.method("sum") { (this: RuntimeObject) -> Int in
                let own = try! this.storage(for: this.actualClass)
                let inherited = try! this.storage(for: this.actualClass.superclass!)
                return own.load(as: Int.self) + inherited.load(as: Int.self)
            }
        }
        #expect(base.storageSize == 8)
        #expect(sub.storageSize == 24)
        let a = sub.new()
        let b = sub.new()
        let baseStorage = try a.storage(for: base)
        let subStorage = try a.storage(for: sub)
        #expect(baseStorage != subStorage)
        #expect(UnsafeRawBufferPointer(start: subStorage, count: 24).allSatisfy { $0 == 0 })
        baseStorage.storeBytes(of: 40, as: Int.self)
        subStorage.storeBytes(of: 2, as: Int.self)
        #expect(try a.send("sum") as Int == 42)
        #expect(try b.send("sum") as Int == 0)
        let unrelated = try plainClass("Unrelated")
        #expect(throws: RuntimeError.self) { _ = try a.storage(for: unrelated) }
    }
}
