import CInterception
import RxCore
import Testing

@testable import Interception

// `l` and `L` are 32-bit in type encodings (SPEC 3.4, as in Objective-C), so `Int32` and `UInt32`
// hold exactly their values: every typed API that reads or observes them accepts those types,
// and still refuses the 64-bit ones.

/// `-take:u:` (`v@:lL`) and `-twice:` (`l@:l`), implemented in C.
private let takeIMP: @convention(c) (OpaquePointer?, OpaquePointer?, Int32, UInt32) -> Void = { _, _, _, _ in
}
private let twiceIMP: @convention(c) (OpaquePointer?, OpaquePointer?, Int32) -> Int32 = { _, _, x in x &* 2 }

/// A class with the two methods above and synthesized properties `level` (`l`) and `mask` (`L`).
private func makeLongClass() throws -> RuntimeClass {
    let cls = try #require(ic_class_allocate(uniqueName("Longs"), ic_class_root(), 0))
    try #require(
        ic_class_add_method(
            cls, Selector("take:u:").pointer, unsafeBitCast(takeIMP, to: ic_imp.self), "v@:lL") == IC_OK)
    try #require(
        ic_class_add_method(cls, Selector("twice:").pointer, unsafeBitCast(twiceIMP, to: ic_imp.self), "l@:l")
            == IC_OK)
    try #require(ic_class_add_property(cls, "level", "l", 0, nil, nil) != nil)
    try #require(ic_class_add_property(cls, "mask", "L", 0, nil, nil) != nil)
    try #require(ic_class_register(cls) == IC_OK)
    return RuntimeClass(pointer: cls)
}

@Suite("Type encodings: l and L are Int32 and UInt32")
struct TypeEncodingLongTests {
    @Test("sentMessage(_:as:) and methodInvoked(_:as:) of an l/L method accept Int32 and UInt32")
    func typedObservablesAcceptInt32ForL() throws {
        let object = try makeLongClass().new()
        let sent = Locked<[Int32]>([])
        let invoked = Locked<[String]>([])
        let first = object.rx.sentMessage("twice:", as: Int32.self).subscribe(onNext: { x in
            sent.withLock { $0.append(x) }
        })
        let both = object.rx.methodInvoked("take:u:", as: (Int32, UInt32).self).subscribe(onNext: { x, u in
            invoked.withLock { $0.append("\(x) \(u)") }
        })
        let doubled: Int32 = try object.send("twice:", Int32(-21))
        try object.send("take:u:", Int32(-1), UInt32.max)
        #expect(doubled == -42)
        #expect(sent.withLock { $0 } == [-21])
        #expect(invoked.withLock { $0 } == ["-1 4294967295"])
        first.dispose()
        both.dispose()
    }

    @Test("a typed observable of an l method still refuses a 64-bit Int")
    func typedObservablesRefuseIntForL() throws {
        let object = try makeLongClass().new()
        let error = Locked<(any Error)?>(nil)
        _ = object.rx.sentMessage("twice:", as: Int.self).subscribe(onError: { e in
            error.withLock { $0 = e }
        })
        let received = error.withLock { $0 }
        guard case .typeMismatch(_, let selector, _, _, _)? = received as? InterceptionError else {
            Issue.record("expected typeMismatch, got \(String(describing: received))")
            return
        }
        #expect(selector == "twice:")
    }

    @Test("typed hooks of an l method take Int32 arguments and results")
    func typedHooksAcceptInt32ForL() throws {
        let object = try makeLongClass().new()
        let token = try object.hookAfter("twice:") { (result: Int32, _: RuntimeObject, x: Int32) in result + x
        }
        defer { token.cancel() }
        let r: Int32 = try object.send("twice:", Int32(5))
        #expect(r == 15)
    }

    @Test("rx.observe and key-value coding read and write an l property as Int32, an L one as UInt32")
    func propertyObservationAcceptsInt32ForL() throws {
        let object = try makeLongClass().new()
        let levels = Locked<[Int32?]>([])
        let masks = Locked<[UInt32?]>([])
        let a = object.rx.observe(Int32.self, "level").subscribe(onNext: { x in
            levels.withLock { $0.append(x) }
        })
        let b = object.rx.observe(UInt32.self, "mask").subscribe(onNext: { x in
            masks.withLock { $0.append(x) }
        })
        try object.setValue(Int32(-7), forKey: "level")
        try object.setValue(UInt32.max, forKey: "mask")
        #expect(try object.value(forKey: "level", as: Int32.self) == -7)
        #expect(try object.value(forKey: "mask", as: UInt32.self) == UInt32.max)
        #expect(levels.withLock { $0 } == [0, -7])
        #expect(masks.withLock { $0 } == [0, UInt32.max])
        #expect(throws: RuntimeError.self) { try object.value(forKey: "level", as: Int.self) }
        a.dispose()
        b.dispose()
    }
}
