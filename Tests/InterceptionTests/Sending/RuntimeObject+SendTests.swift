import CInterception
import CInterceptionTestSupport
import Synchronization
import Testing

@testable import Interception

@Suite("Typed sends")
struct RuntimeObjectSendTests {
    @Test(
        "a Swift send reaches C methods of every matrix type and converts the values",
        arguments: MatrixCase.valueCases)
    func swiftSendsToCMethods(_ matrixCase: MatrixCase) throws {
        let type = try #require(matrixCase.swiftType, "no Swift type for \(matrixCase.name)")
        let encoding = matrixCase.encoding
        let raw = matrixCase.raw
        let cls = try RuntimeClass.define(uniqueName("CMatrix_\(matrixCase.name)")) { c in
            try c.method("echo:", encoding: "\(encoding)@:\(encoding)", imp: raw.echo_imp)
            try c.method("make", encoding: "\(encoding)@:", imp: raw.make_imp)
            try c.method("take:", encoding: "v@:\(encoding)", imp: raw.take_imp)
        }
        try type.checkSwiftSends(matrixCase, to: cls.new())
    }

    @Test(
        "C code sends to Swift method closures of every matrix type through IC_MSG",
        arguments: MatrixCase.valueCases)
    func cSendsToSwiftClosures(_ matrixCase: MatrixCase) throws {
        let type = try #require(matrixCase.swiftType)
        let taken = TakenBox()
        let object = try type.swiftClass(matrixCase, taken: taken).new()
        let raw = matrixCase.raw
        matrixCase.withBuffer { out in
            raw.send_make(object.pointer, Selector("make").pointer, out)
            #expect(raw.equal(out, raw.sample), "make")
            raw.send_echo(object.pointer, Selector("echo:").pointer, raw.other, out)
            #expect(raw.equal(out, raw.other), "echo:")
            raw.send_take(object.pointer, Selector("take:").pointer, raw.sample)
            #expect(raw.equal(taken.bytes, raw.sample), "take:")
        }
        // And Swift to Swift, through the same closures.
        try type.checkSwiftSends(matrixCase, to: object, taken: taken)
        // A value that fits a register reaches the closure through the saved registers; any other
        // through a frame over a universal trampoline stub. Once the shared entries or stubs are
        // all taken, either gets libffi: never a register frame.
        let echo = try #require(ic_class_get_imp(object.runtimeClass.pointer, Selector("echo:").pointer))
        let kind = ic_closure_imp_kind(echo)
        if matrixCase.raw.size <= 8 && !matrixCase.encoding.hasPrefix("{") {
            #expect(
                [IC_CLOSURE_KIND_REGISTERS, IC_CLOSURE_KIND_UNIVERSAL, IC_CLOSURE_KIND_LIBFFI].contains(kind))
        } else {
            #expect(kind == IC_CLOSURE_KIND_UNIVERSAL || kind == IC_CLOSURE_KIND_LIBFFI)
        }
    }

    @Test("every C case of the matrix has a Swift type (a new type code cannot go untested)")
    func matrixIsComplete() {
        for matrixCase in MatrixCase.valueCases {
            #expect(matrixCase.swiftType != nil, "\(matrixCase.name)")
        }
        #expect(MatrixCase.valueCases.count == MatrixCase.count - 2)
    }

    @Test("objects and classes travel as RuntimeObject? and RuntimeClass?, nil as NULL")
    func objectsAndClasses() throws {
        let cls = try RuntimeClass.define(uniqueName("Objects")) { c in
            try c.method("echo:") { (this: RuntimeObject, x: RuntimeObject?) -> RuntimeObject? in x }
            try c.method("same:") { (this: RuntimeObject, x: RuntimeObject) -> RuntimeObject in x }
            try c.method("classOf:") { (this: RuntimeObject, x: RuntimeObject?) -> RuntimeClass? in
                x?.runtimeClass
            }
            try c.method("isClass:root:") {
                (this: RuntimeObject, x: RuntimeClass?, root: RuntimeClass?) -> Bool in x == root
            }
        }
        let object = cls.new()
        let other = cls.new()
        let echoed: RuntimeObject? = try object.send("echo:", other)
        #expect(echoed == other)
        #expect(other.retainCount == 2)  // `other` and `echoed`
        let same: RuntimeObject = try object.send("same:", other)
        #expect(same == other)
        #expect(other.retainCount == 3)
        let none: RuntimeObject? = try object.send("echo:", RuntimeObject?.none)
        #expect(none == nil)
        let classOf: RuntimeClass? = try object.send("classOf:", object)
        #expect(classOf == cls)
        let isRoot: Bool = try object.send(
            "isClass:root:", RuntimeClass.root, RuntimeClass?(RuntimeClass.root))
        #expect(isRoot)
        let notRoot: Bool = try object.send("isClass:root:", cls, RuntimeClass.root)
        #expect(!notRoot)
        #expect(object.retainCount == 1)
    }

    @Test("an object a method closure creates and returns reaches the sender alive and is not leaked")
    func returnedNewObjectSurvives() throws {
        let made = try plainClass("Made")
        let factory = try RuntimeClass.define(uniqueName("Factory")) { c in
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in made.new() }
        }
        let object = factory.new()
        do {
            let result: RuntimeObject? = try object.send("make")
            let product = try #require(result)
            #expect(product.actualClass == made)
            #expect(product.retainCount == 1)  // only our handle: the parked reference is gone
            #expect(Runtime.pendingReturnedObjectCount == 0)
            #expect(made.liveInstanceCount == 1)
        }
        #expect(made.liveInstanceCount == 0)
    }

    @Test("C strings travel as UnsafePointer<CChar>?")
    func cStrings() throws {
        let cls = try RuntimeClass.define(uniqueName("Strings")) { c in
            try c.method("length:") { (this: RuntimeObject, s: UnsafePointer<CChar>?) -> Int in
                s.map { String(cString: $0).utf8.count } ?? -1
            }
        }
        let object = cls.new()
        let length: Int = try "hello".withCString { (s) throws(RuntimeError) -> Int in
            try object.send("length:", Optional(s))
        }
        #expect(length == 5)
        let none: Int = try object.send("length:", UnsafePointer<CChar>?.none)
        #expect(none == -1)
    }

    @Test("a Swift signature that does not match the method's encoding throws, naming both")
    func signatureMismatch() throws {
        let name = uniqueName("Mismatch")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x + 1 }
        }
        let object = cls.new()
        let error = try #require(throws: RuntimeError.self) {
            let _: Int = try object.send("add:", 41)
        }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        #expect(
            error.message
                == "signature mismatch: -[\(name) add:] is i@:i, Swift call is q@:q; argument 1 is Int (q) "
                + "where the method takes Int32 (i): pass Int32(...)")
        let arity = try #require(throws: RuntimeError.self) { let _: Int32 = try object.send("add:") }
        #expect(arity.message.hasSuffix("the method takes 1 argument(s), the call passes 0"))
        #expect(throws: RuntimeError.self) { let _: Int32 = try object.send("add:", Int32(1), Int32(2)) }
        let result = try #require(throws: RuntimeError.self) {
            let _: Double = try object.send("add:", Int32(1))
        }
        #expect(
            result.message.hasSuffix(
                "the result is Double (d) where the method returns Int32 (i): declare the result as Int32, "
                    + "or ask for no result to drop it"))
        // Asking for no result is not a mismatch: the call is made for its side effect.
        try object.send("add:", Int32(1))
        // Arguments stay strictly checked when the result is dropped.
        let dropped = try #require(throws: RuntimeError.self) { try object.send("add:", 1) }
        #expect(
            dropped.message.hasSuffix(
                "argument 1 is Int (q) where the method takes Int32 (i): pass Int32(...)"))
        let r: Int32 = try object.send("add:", Int32(41))
        #expect(r == 42)
    }

    @Test("a send that asks for no result calls the method through its real signature and drops the result")
    func noResultDropsTheResult() throws {
        struct Big: RuntimeStruct {
            var a: Int, b: Int, c: Int, d: Int
            static let runtimeEncoding = "{Big=qqqq}"
        }
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("Dropped")) { c in
            try c.method("bump:") { (this: RuntimeObject, x: Int32) -> Int32 in
                log.append("bump \(x)")
                return x + 1
            }
            try c.method("half:") { (this: RuntimeObject, x: Double) -> Double in
                log.append("half \(x)")
                return x / 2
            }
            // Returned in memory: calling it as `void` would shift every argument.
            try c.method("big:") { (this: RuntimeObject, x: Int) -> Big in
                log.append("big \(x)")
                return Big(a: x, b: x, c: x, d: x)
            }
            try c.method("object") { (this: RuntimeObject) -> RuntimeObject? in
                log.append("object")
                return RuntimeClass.root.new()
            }
            #if arch(x86_64)
                // Returned on the x87 stack: a dropped long double must still be popped.
                try c.method("long:") { (this: RuntimeObject, x: Float80) -> Float80 in
                    log.append("long \(x)")
                    return x * 2
                }
            #endif
        }
        let object = cls.new()
        try object.send("bump:", Int32(1))
        try object.send("half:", 3.0)
        try object.send("big:", 7)
        try object.send("object")
        #if arch(x86_64)
            for _ in 0..<10 { try object.send("long:", Float80(1.5)) }
            let after: Double = try object.send("half:", 5.0)
            #expect(after == 2.5)  // the x87 stack was left balanced
        #endif
        let calls = log.all.filter { !$0.hasPrefix("long") && $0 != "half 5.0" }
        #expect(calls == ["bump 1", "half 3.0", "big 7", "object"])
        // The plan is cached: a second send takes it.
        try object.send("big:", 8)
        #expect(log.all.last == "big 8")
        let kept: Int32 = try object.send("bump:", Int32(2))
        #expect(kept == 3)
    }

    @Test("a selector the object neither implements nor forwards throws instead of trapping")
    func unrecognizedSelector() throws {
        let name = uniqueName("Unknown")
        let object = try RuntimeClass.define(name) { _ in }.new()
        let error = try #require(throws: RuntimeError.self) { try object.send("foo:", Int32(1)) }
        #expect(error.statusName == "IC_ERR_METHOD_NOT_FOUND")
        #expect(error.message == "unrecognized selector -[\(name) foo:]")
        #expect("\(error)" == "unrecognized selector -[\(name) foo:] (IC_ERR_METHOD_NOT_FOUND)")
    }

    @Test("a checked send is cached per class, selector and Swift signature")
    func plansAreCached() throws {
        let cls = try RuntimeClass.define(uniqueName("Cached")) { c in
            try c.method("twice:") { (this: RuntimeObject, x: Double) -> Double in x * 2 }
        }
        let object = cls.new()
        var signature = SwiftSignature(Double.self)
        signature.append(Double.self)
        let key = SendPlanKey(
            lookupClass: UInt(bitPattern: cls.pointer),
            selector: UInt(bitPattern: Selector("twice:").pointer),
            swiftSignature: signature.hash)
        #expect(SendPlanCache.shared.plan(for: key) == nil)
        let r: Double = try object.send("twice:", 1.5)
        #expect(r == 3)
        let plan = try #require(SendPlanCache.shared.plan(for: key))
        let matches = plan.pointee.matches(signature)
        let direct = plan.pointee.direct != nil
        #expect(matches)
        #expect(direct)
        let again: Double = try object.send("twice:", 4.0)
        #expect(again == 8)
        #expect(SendPlanCache.shared.plan(for: key) == plan)
    }

    @Test("scalar signatures within the registers take the direct path, others an invocation")
    func pathSelection() {
        #expect(DirectCallShape(result: Int32.self, Int32.self) != nil)
        #expect(DirectCallShape(result: NoResult.self, Int.self, Int.self, Int.self, Int.self) != nil)
        #expect(DirectCallShape(result: Int.self, Int.self, Int.self, Int.self, Int.self, Int.self) == nil)
        #expect(
            DirectCallShape(
                result: Double.self, Double.self, Double.self, Double.self, Double.self, Double.self,
                Double.self,
                Double.self, Double.self) != nil)
        #expect(
            DirectCallShape(result: Double.self, Float.self, Int8.self, Bool.self, UnsafeRawPointer?.self)
                != nil)
        #expect(DirectCallShape(result: DD.self) == nil)
        #expect(DirectCallShape(result: Int32.self, DD.self) == nil)
        #expect(DirectCallShape(result: Float80.self) == nil)
    }

    @Test("a method overridden later with another encoding is re-checked, not called with the old plan")
    func overrideWithOtherEncodingIsRechecked() throws {
        let base = try RuntimeClass.define(uniqueName("RecheckBase")) { c in
            try c.method("value") { (this: RuntimeObject) -> Int32 in 7 }
        }
        let sub = try plainClass("RecheckSub", superclass: base)
        let object = sub.new()
        // Twice: the second send takes the fast path, which must notice the override too.
        for _ in 0..<2 {
            let first: Int32 = try object.send("value")
            #expect(first == 7)
        }
        // A C override returning double, added after the plan for (Sub, value, Int32) was cached.
        let doubleValue: @convention(c) (OpaquePointer?, OpaquePointer?) -> Double = { _, _ in 2.5 }
        #expect(
            ic_class_add_method(
                sub.pointer, Selector("value").pointer, unsafeBitCast(doubleValue, to: ic_imp.self), "d@:")
                == IC_OK)
        for _ in 0..<2 {
            let error = try #require(throws: RuntimeError.self) { let _: Int32 = try object.send("value") }
            #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        }
        let now: Double = try object.send("value")
        #expect(now == 2.5)
    }

    @Test("a replaced implementation with the same encoding is called on the next send")
    func replacedImplementationIsCalled() throws {
        let cls = try RuntimeClass.define(uniqueName("Replaced")) { c in
            try c.method("value") { (this: RuntimeObject) -> Int32 in 1 }
        }
        let object = cls.new()
        let before: Int32 = try object.send("value")
        #expect(before == 1)
        let two: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { _, _ in 2 }
        #expect(
            ic_class_replace_method(
                cls.pointer, Selector("value").pointer, unsafeBitCast(two, to: ic_imp.self), "i@:", nil)
                == IC_OK)
        let after: Int32 = try object.send("value")
        #expect(after == 2)
    }

    @Test("a selector the object forwards is sent through forwardInvocation:, checked against its signature")
    func forwardedSelectors() throws {
        let target = try RuntimeClass.define(uniqueName("ForwardTarget")) { c in
            try c.method("scale:by:") { (this: RuntimeObject, x: Double, k: Int32) -> Double in x * Double(k)
            }
        }.new()
        // Storage holds the target (unretained: `target` outlives the proxy in this test).
        let proxyClass = try RuntimeClass.define(uniqueName("Proxy"), storageSize: 8) { c in
            try c.method("methodSignatureForSelector:") {
                (this: RuntimeObject, sel: Selector) -> UnsafeRawPointer? in
                let target = try! this.storage(for: this.actualClass).load(
                    as: RuntimeObject?.RuntimeRepresentation.self)
                let signature: UnsafeRawPointer? = try! RuntimeObject?(runtimeRepresentation: target)!
                    .send("methodSignatureForSelector:", sel)
                return signature
            }
            try c.method("forwardInvocation:") { (this: RuntimeObject, invocation: OpaquePointer?) in
                let target = try! this.storage(for: this.actualClass).load(as: OpaquePointer?.self)
                ic_invocation_set_target(invocation, target)
                ic_invocation_invoke(invocation)
            }
        }
        let proxy = proxyClass.new()
        try proxy.storage(for: proxyClass).storeBytes(of: target.pointer, as: OpaquePointer.self)
        let scaled: Double = try proxy.send("scale:by:", 1.5, Int32(4))
        #expect(scaled == 6)
        let error = try #require(throws: RuntimeError.self) {
            let _: Int = try proxy.send("scale:by:", 1.5, 4)
        }
        #expect(error.message.contains("is d@:di, Swift call is q@:dq"))
        #expect(throws: RuntimeError.self) { try proxy.send("missing") }
    }

    @Test(
        "an object that answers methodSignatureForSelector: without forwarding invocations does not forward")
    func answeringWithoutForwardingIsUnrecognized() throws {
        let name = uniqueName("HalfProxy")
        let cls = try RuntimeClass.define(name) { c in
            try c.method("methodSignatureForSelector:") {
                (this: RuntimeObject, sel: Selector) -> UnsafeRawPointer? in
                UnsafeRawPointer(ic_signature_parse("v@:"))
            }
        }
        // Sending it would run the root's forwardInvocation:, which traps: the send throws.
        let error = try #require(throws: RuntimeError.self) { try cls.new().send("anything") }
        #expect(error.message == "unrecognized selector -[\(name) anything]")
    }

    @Test("sends from many threads at once are safe and correct")
    func concurrentSends() async throws {
        let counter = try RuntimeClass.define(uniqueName("Concurrent")) { c in
            try c.method("add:to:") { (this: RuntimeObject, a: Int, b: Int) -> Int in a + b }
            try c.method("sum:b:c:d:e:f:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> Int in
                a + b + c + d + e + f
            }
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in RuntimeClass.root.new() }
        }
        let shared = counter.new()
        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var total = 0
                    for i in 0..<2_000 {
                        let a: Int = try shared.send("add:to:", i, task)
                        let b: Int = try shared.send("sum:b:c:d:e:f:", i, 1, 1, 1, 1, 1)
                        let made: RuntimeObject? = try shared.send("make")
                        total += a + b + (made == nil ? 1_000_000 : 0)
                    }
                    return total
                }
            }
            var total = 0
            for try await partial in group {
                total += partial
            }
            let perTask = (0..<2_000).reduce(0) { $0 + 2 * $1 + 5 }
            #expect(total == 8 * perTask + 2_000 * (0..<8).reduce(0, +))
        }
        #expect(counter.liveInstanceCount == 1)
    }
}

extension MatrixValue {
    /// ``checkSwiftSends(_:to:)`` for a Swift matrix class, whose `take:` stores in `taken`.
    static func checkSwiftSends(_ matrixCase: MatrixCase, to object: RuntimeObject, taken: TakenBox) throws {
        let raw = matrixCase.raw
        let made: Self = try object.send("make")
        #expect(made.equals(raw.sample, in: matrixCase), "make")
        let echoed: Self = try object.send("echo:", load(raw.other))
        #expect(echoed.equals(raw.other, in: matrixCase), "echo:")
        try object.send("take:", load(raw.other))
        #expect(raw.equal(taken.bytes, raw.other), "take:")
    }
}

@Suite("Typed sends to classes: error texts")
struct RuntimeClassSendErrorTextTests {
    @Test("an unrecognized class method or a mismatched class-method send is named +[Class selector]")
    func classSendErrorsNameClassMethodsWithPlus() throws {
        let cls = try RuntimeClass.define(uniqueName("SendPlus")) { c in
            try c.classMethod("scale:") { (this: RuntimeObject, x: Int32) -> Int32 in x * 100 }
        }
        let name = cls.name
        let missing = try #require(throws: RuntimeError.self) { try cls.send("nope") }
        #expect(missing.message == "unrecognized selector +[\(name) nope]")
        let mismatch = try #require(throws: RuntimeError.self) { let _: Int = try cls.send("scale:", 2) }
        #expect(
            mismatch.message.hasPrefix("signature mismatch: +[\(name) scale:] is i@:i, Swift call is q@:q"))
        let replaced = try #require(throws: RuntimeError.self) {
            try cls.metaclass.replaceMethod("scale:") { (this: RuntimeObject, x: Double) -> Double in x }
        }
        #expect(replaced.message.hasPrefix("signature mismatch: +[\(name) scale:]"))
    }
}
