import CInterception
import Testing

@testable import Interception

/// Whether a send of these Swift types to `object` would call the Swift method's typed body now.
private func callsBody<R: RuntimeValue, A: RuntimeValue>(
    _ object: RuntimeObject, _ selector: Selector, result: R.Type, _ argument: A.Type
) -> Bool {
    let signature = SwiftSignature(R.self).appending(A.self)
    guard
        let fast = FastSend.resolve(
            receiver: object.pointer, selector: selector.pointer, signature: signature)
    else { return false }
    return fast.swiftMethodBody(as: SwiftMethodBody<A, R>.self) != nil
}

/// `callsBody`, sending again (`send`) between a few tries: the send cache is direct-mapped and
/// shared by every test running in parallel, so another plan may take this one's slot between a
/// send and the check; the next send publishes it again.
private func eventuallyCallsBody<R: RuntimeValue, A: RuntimeValue>(
    _ object: RuntimeObject, _ selector: Selector, result: R.Type, _ argument: A.Type,
    send: () throws -> Void
) rethrows -> Bool {
    for _ in 0..<8 {
        if callsBody(object, selector, result: R.self, A.self) { return true }
        try send()
    }
    return false
}

/// A C implementation of `add:` (adds 100), to replace a Swift method with.
private let addHundred: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in
    x &+ 100
}

@Suite("Typed sends from Swift to Swift methods: the typed body called directly")
struct RuntimeObjectSendToSwiftMethodTests {
    @Test("once the plan is cached, a send from Swift calls the method's typed body")
    func secondSendCallsTheBody() throws {
        let calls = Locked(0)
        let cls = try RuntimeClass.define(uniqueName("DirectBody")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
                calls.withLock { $0 += 1 }
                return x &+ 1
            }
        }
        let object = cls.new()
        #expect(!callsBody(object, "add:", result: Int32.self, Int32.self))
        let first: Int32 = try object.send("add:", Int32(1))
        #expect(
            try eventuallyCallsBody(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(0))
                calls.withLock { $0 -= 1 }
            })
        let second: Int32 = try object.send("add:", Int32(2))
        #expect([first, second] == [2, 3])
        #expect(calls.withLock { $0 } == 2)
        // Dropping the result is another Swift signature: it calls the IMP, with the same effect.
        try object.send("add:", Int32(3))
        try object.send("add:", Int32(3))
        #expect(calls.withLock { $0 } == 4)
    }

    @Test("a method replaced by a C function between two direct sends runs the C function")
    func replacedByCFunction() throws {
        let cls = try RuntimeClass.define(uniqueName("DirectReplacedByC")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 2)
        }
        try cls.replaceMethod("add:", encoding: "i@:i", imp: addHundred)
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 101)
        }
        #expect(!callsBody(object, "add:", result: Int32.self, Int32.self))
    }

    @Test("a subclass's override added after direct sends to an instance of the subclass runs next")
    func overrideInSubclass() throws {
        let base = try RuntimeClass.define(uniqueName("DirectBase")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let derived = try RuntimeClass.define(uniqueName("DirectDerived"), superclass: base) { _ in }
        let object = derived.new()
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 2)
        }
        try derived.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
            (try? this.sendSuper("add:", x)).map { $0 &* 10 } ?? -1
        }
        for _ in 0..<2 {
            let r: Int32 = try object.send("add:", Int32(1))
            #expect(r == 20)
        }
    }

    @Test("a class-wide hook added between direct sends runs on the next send, and not after cancel")
    func classHookBetweenDirectSends() throws {
        let cls = try RuntimeClass.define(uniqueName("DirectClassHooked")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        for _ in 0..<2 {
            let _: Int32 = try object.send("add:", Int32(1))
        }
        let seen = Locked<[Int32]>([])
        let token = try cls.hookBefore("add:") { (this: RuntimeObject, x: Int32) in
            seen.withLock { $0.append(x) }
        }
        let doubled = try cls.hookInstead("add:") {
            (original: (Int32) -> Int32, this: RuntimeObject, x: Int32) -> Int32 in original(x) &* 2
        }
        for x in Int32(10)..<12 {
            let r: Int32 = try object.send("add:", x)
            #expect(r == (x + 1) * 2)
        }
        token.cancel()
        doubled.cancel()
        let after: Int32 = try object.send("add:", Int32(20))
        #expect(after == 21)
        #expect(seen.withLock { $0 } == [10, 11])
        #expect(
            try eventuallyCallsBody(object, "add:", result: Int32.self, Int32.self) {
                let _: Int32 = try object.send("add:", Int32(0))
            })
    }

    @Test("an object hook and an rx observer on the receiver see sends that were direct before")
    func objectHookAndObserverBetweenDirectSends() throws {
        let cls = try RuntimeClass.define(uniqueName("DirectObjectHooked")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        let other = cls.new()
        for _ in 0..<2 {
            let _: Int32 = try object.send("add:", Int32(1))
        }
        let seen = Locked<[String]>([])
        let token = try object.hookAfter("add:") { (result: Int32, this: RuntimeObject, x: Int32) -> Int32 in
            seen.withLock { $0.append("after \(x) -> \(result)") }
            return result
        }
        let subscription = object.rx.sentMessage("add:", as: Int32.self).subscribe(onNext: { x in
            seen.withLock { $0.append("sent \(x)") }
        })
        let r: Int32 = try object.send("add:", Int32(5))
        let untouched: Int32 = try other.send("add:", Int32(7))
        #expect(r == 6 && untouched == 8)
        #expect(seen.withLock { $0 } == ["sent 5", "after 5 -> 6"])
        subscription.dispose()
        token.cancel()
        let _: Int32 = try object.send("add:", Int32(9))
        #expect(seen.withLock { $0 }.count == 2)
    }

    @Test("`this` of a directly called body knows its defining class: super sends start above it")
    func superSendFromDirectBody() throws {
        let base = try RuntimeClass.define(uniqueName("DirectSuperBase")) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in 1 }
        }
        let middle = try RuntimeClass.define(uniqueName("DirectSuperMiddle"), superclass: base) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in (try! this.sendSuper("describe")) + 10
            }
        }
        let leaf = try RuntimeClass.define(uniqueName("DirectSuperLeaf"), superclass: middle) { c in
            try c.method("describe") { (this: RuntimeObject) -> Int in (try! this.sendSuper("describe")) + 100
            }
        }
        let object = leaf.new()
        for _ in 0..<3 {
            let described: Int = try object.send("describe")
            #expect(described == 111)
        }
    }

    @Test("methods of every arity, with and without a result, agree with their C entry")
    func everyArityAgreesWithTheCEntry() throws {
        let log = Locked<[String]>([])
        let cls = try RuntimeClass.define(uniqueName("DirectArity")) { c in
            try c.method("zero") { (this: RuntimeObject) -> Int in 7 }
            try c.method("one:") { (this: RuntimeObject, a: Int) -> Int in a }
            try c.method("two:b:") { (this: RuntimeObject, a: Int, b: Double) -> Double in Double(a) + b }
            try c.method("three:b:c:") { (this: RuntimeObject, a: Int8, b: UInt16, c: Bool) -> Int in
                Int(a) * 1000 + Int(b) + (c ? 1 : 0)
            }
            try c.method("four:b:c:d:") {
                (this: RuntimeObject, a: Int, b: Int, c: Float, d: Int32) -> Float in
                Float(a - b) * c + Float(d)
            }
            try c.method("five:b:c:d:e:") {
                (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int) -> Int in
                a + b + c + d + e
            }
            try c.method("note") { (this: RuntimeObject) in log.withLock { $0.append("note") } }
            try c.method("note:") { (this: RuntimeObject, a: Int) in log.withLock { $0.append("note \(a)") } }
            try c.method("note:b:c:d:") { (this: RuntimeObject, a: Int, b: Int8, c: Double, d: Bool) in
                log.withLock { $0.append("note \(a) \(b) \(c) \(d)") }
            }
            try c.method("note:b:c:d:e:") { (this: RuntimeObject, a: Int, b: Int, c: Int, d: Int, e: Int) in
                log.withLock { $0.append("note5 \(a + b + c + d + e)") }
            }
        }
        let object = cls.new()
        for _ in 0..<2 {
            #expect(try object.send("zero") as Int == 7)
            #expect(try object.send("one:", -3) as Int == -3)
            #expect(try object.send("two:b:", 2, 0.5) as Double == 2.5)
            #expect(try object.send("three:b:c:", Int8(-2), UInt16(65535), true) as Int == -2000 + 65536)
            #expect(try object.send("four:b:c:d:", 5, 2, Float(1.5), Int32(-1)) as Float == 3.5)
            #expect(try object.send("five:b:c:d:e:", 1, 2, 3, 4, 5) as Int == 15)
            try object.send("note")
            try object.send("note:", 4)
            try object.send("note:b:c:d:", 1, Int8(-1), 0.25, false)
            try object.send("note:b:c:d:e:", 1, 1, 1, 1, 1)
        }
        #expect(
            try eventuallyCallsBody(object, "one:", result: Int.self, Int.self) {
                let _: Int = try object.send("one:", 1)
            })
        #expect(
            try eventuallyCallsBody(object, "note:", result: NoResult.self, Int.self) {
                try object.send("note:", 4)
                log.withLock { _ = $0.removeLast() }
            })
        let viaEntry: Int = try object.sendChecked(
            "three:b:c:",
            SwiftSignature(Int.self).appending(Int8.self).appending(UInt16.self).appending(Bool.self),
            Int8(-2), UInt16(65535), true)
        #expect(viaEntry == -2000 + 65536)
        let expected = ["note", "note 4", "note 1 -1 0.25 false", "note5 5"]
        #expect(log.withLock { $0 } == expected + expected)
    }

    @Test("a method taking and returning structs is called directly from Swift, with the C entry's results")
    func structMethodIsCalledDirectly() throws {
        let cls = try RuntimeClass.define(uniqueName("DirectStructs")) { c in
            try c.method("scale:by:") { (this: RuntimeObject, v: DDD, k: Double) -> DDD in
                DDD(a: v.a * k, b: v.b * k, c: v.c * k)
            }
        }
        let object = cls.new()
        let v = DDD(a: 1, b: 2, c: 3)
        for _ in 0..<2 {
            let scaled: DDD = try object.send("scale:by:", v, 2.0)
            #expect(scaled.a == 2 && scaled.b == 4 && scaled.c == 6)
        }
        let signature = SwiftSignature(DDD.self).appending(DDD.self).appending(Double.self)
        // Sends again between tries: another test's plan may take the shared cache's slot.
        func bodyIsCalled() -> Bool {
            for _ in 0..<8 {
                let fast = FastSend.resolve(
                    receiver: object.pointer, selector: Selector("scale:by:").pointer, signature: signature)
                if fast?.swiftMethodBody(as: SwiftMethodBody<DDD, Double, DDD>.self) != nil {
                    return fast?.callsThroughRegisters == false
                }
                let _: DDD? = try? object.send("scale:by:", v, 1.0)
            }
            return false
        }
        #expect(bodyIsCalled())
        let viaEntry: DDD = try object.sendChecked("scale:by:", signature, v, 3.0)
        #expect(viaEntry.a == 3 && viaEntry.b == 6 && viaEntry.c == 9)
        // Replaced by another closure: the old body is never called again; the new one is,
        // directly, once its IMP is checked.
        try cls.replaceMethod("scale:by:") { (this: RuntimeObject, v: DDD, k: Double) -> DDD in
            DDD(a: v.a + k, b: v.b + k, c: v.c + k)
        }
        for _ in 0..<2 {
            let shifted: DDD = try object.send("scale:by:", v, 1.0)
            #expect(shifted.a == 2 && shifted.b == 3 && shifted.c == 4)
        }
        #expect(bodyIsCalled())
    }

    @Test("an object result of a directly called body reaches the caller with its own reference")
    func objectResult() throws {
        let made = Locked<[RuntimeObject]>([])
        let item = try RuntimeClass.define(uniqueName("DirectItem")) { _ in }
        let factory = try RuntimeClass.define(uniqueName("DirectFactory")) { c in
            try c.method("make") { (this: RuntimeObject) -> RuntimeObject? in
                let object = item.new()
                made.withLock { $0.append(object) }
                return object
            }
        }
        let object = factory.new()
        var results: [RuntimeObject] = []
        for _ in 0..<3 {
            let result: RuntimeObject? = try object.send("make")
            results.append(try #require(result))
        }
        #expect(results.map(\.pointer) == made.withLock { $0.map(\.pointer) })
        made.withLock { $0.removeAll() }
        #expect(results.allSatisfy { $0.retainCount == 1 })
        #expect(item.liveInstanceCount == 3)
        results.removeAll()
        #expect(item.liveInstanceCount == 0)
    }

    @Test("sends from Swift racing the replacement of a Swift method by another run one whole body")
    func directSendsRacingReplacementByClosures() async throws {
        let cls = try RuntimeClass.define(uniqueName("DirectRace")) { c in
            try c.method("add:") { (this: RuntimeObject, x: Int32) -> Int32 in x &+ 1 }
        }
        let object = cls.new()
        let wrong = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    var wrong = 0
                    for i in 0..<20_000 {
                        let x = Int32(i)
                        let r: Int32 = (try? object.send("add:", x)) ?? -1
                        if r != x &+ 1 && r != x &+ 2 && r != x &+ 100 { wrong += 1 }
                    }
                    return wrong
                }
            }
            group.addTask {
                for i in 0..<200 {
                    if i.isMultiple(of: 2) {
                        _ = try? cls.replaceMethod("add:") { (this: RuntimeObject, x: Int32) -> Int32 in
                            x &+ 2
                        }
                    } else {
                        _ = try? cls.replaceMethod("add:", encoding: "i@:i", imp: addHundred)
                    }
                }
                return 0
            }
            return await group.reduce(0, +)
        }
        #expect(wrong == 0)
        let r: Int32 = try object.send("add:", Int32(5))
        #expect(r == 105)
    }
}
