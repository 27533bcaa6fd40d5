import CInterception
@testable import Interception
import RxCore
import Testing

/// A point laid out as C lays out `{PPoint=dd}`.
struct PPoint: RuntimeStruct, Equatable {
    var x: Double
    var y: Double
    static let runtimeEncoding = "{PPoint=dd}"
}

/// Sets a synthesized property of type `T` to `a` by send and `b` by key, with its setter seen by
/// `rx.sentMessage`, an object hook, a class-wide hook and `rx.observe`, and checks every read
/// and every observer (the typed accessors of SPEC 15 under interception).
private func checkInterceptedAccessors<T: PropertyValue & RuntimeValue & Equatable & Sendable>(
    _ a: T, _ b: T, attributes: PropertyAttributes? = nil
) throws {
    let cls = try RuntimeClass.define(uniqueName("PTyped")) { c in
        if let attributes {
            try c.property("value", T.self, attributes)
        } else {
            try c.property("value", T.self)
        }
    }
    let obj = cls.new()
    let log = EventLog()
    let observed = Locked<[T?]>([])
    let d1 = obj.rx.observe(T.self, "value", options: .new).subscribe(onNext: { value in
        observed.withLock { $0.append(value) }
    })
    let d2 = obj.rx.sentMessage("setValue:").subscribe(onNext: { _ in log.append("sent") })
    let objectHook = try obj.hookBefore("setValue:") { (_: RuntimeObject, _: T) in log.append("object hook") }
    let classHook = try cls.hookBefore("setValue:") { (_: RuntimeObject, _: T) in log.append("class hook") }
    try obj.send("setValue:", a)
    #expect(try obj.send("value") as T == a)
    try obj.setValue(b, forKey: "value")
    #expect(try obj.value(forKey: "value", as: T.self) == b)
    #expect(try obj.send("value") as T == b)
    let oneSet = ["sent", "object hook", "class hook"]
    #expect(log.all.sorted() == (oneSet + oneSet).sorted())
    #expect(observed.withLock { $0 } == [a, b])
    objectHook.cancel()
    classHook.cancel()
    d2.dispose()
    d1.dispose()
    try obj.send("setValue:", a)
    #expect(try obj.value(forKey: "value", as: T.self) == a)
    #expect(log.all.count == 6)
}

@Suite("Properties and key-value coding from Swift")
struct PropertyTests {
    @Test(
        "every Swift type with a typed C accessor, by send and by key, its setter seen by sentMessage, hooks and observe"
    )
    func typedAccessorsIntercepted() throws {
        try checkInterceptedAccessors(Int(-5), Int.max)
        try checkInterceptedAccessors(UInt(7), UInt.max)
        try checkInterceptedAccessors(Int8(-3), Int8.min)
        try checkInterceptedAccessors(UInt8(200), UInt8(1))
        try checkInterceptedAccessors(Int16(-300), Int16.max)
        try checkInterceptedAccessors(UInt16(60_000), UInt16(2))
        try checkInterceptedAccessors(Int32(-70_000), Int32.min)
        try checkInterceptedAccessors(UInt32(4_000_000_000), UInt32(3))
        try checkInterceptedAccessors(Int64.min, Int64(9))
        try checkInterceptedAccessors(UInt64.max, UInt64(10))
        try checkInterceptedAccessors(Float(1.5), Float(-0.25))
        try checkInterceptedAccessors(2.5, -1e300)
        try checkInterceptedAccessors(true, false)
        try checkInterceptedAccessors(Selector("ping") as Selector?, nil)
        let other = try RuntimeClass.define(uniqueName("PTypedValue")) { _ in }
        try checkInterceptedAccessors(other as RuntimeClass?, nil)
        let first = other.new()
        let second = other.new()
        try checkInterceptedAccessors(first as RuntimeObject?, second)  // retain
        try checkInterceptedAccessors(first as RuntimeObject?, second, attributes: .weak)
        try checkInterceptedAccessors(first as RuntimeObject?, nil, attributes: .assign)
    }

    @Test("a String property (a copied C string) through its typed accessors, observed and hooked")
    func typedStringIntercepted() throws {
        let cls = try RuntimeClass.define(uniqueName("PTypedString")) { c in
            try c.property("title", String.self)
        }
        let obj = cls.new()
        let seen = EventLog()
        let observed = Locked<[String?]>([])
        let d1 = obj.rx.observe(String.self, "title", options: .new).subscribe(onNext: { value in
            observed.withLock { $0.append(value) }
        })
        let d2 = obj.rx.sentMessage("setTitle:").subscribe(onNext: { _ in seen.append("sent") })
        try obj.setValue("one", forKey: "title")
        try obj.setValue("twö", forKey: "title")
        #expect(try obj.value(forKey: "title", as: String.self) == "twö")
        #expect(seen.all == ["sent", "sent"])
        #expect(observed.withLock { $0 } == ["one", "twö"])
        d2.dispose()
        d1.dispose()
    }

    @Test("a synthesized property of each kind of Swift type reads back what was set, by accessor and by key")
    func synthesizedKinds() throws {
        let cls = try RuntimeClass.define(uniqueName("PKinds")) { c in
            try c.property("count", Int.self)
            try c.property("small", Int8.self)
            try c.property("ratio", Double.self)
            try c.property("flag", Bool.self, getter: "isFlag")
            try c.property("title", String.self)
            try c.property("origin", PPoint.self)
            try c.property("selector", Selector?.self)
        }
        let obj = cls.new()
        #expect(try obj.value(forKey: "count", as: Int.self) == 0)
        #expect(try obj.value(forKey: "title", as: String.self) == "")
        try obj.send("setCount:", 42)
        #expect(try obj.send("count") as Int == 42)
        try obj.setValue(Int8(-3), forKey: "small")
        #expect(try obj.send("small") as Int8 == -3)
        try obj.setValue(2.5, forKey: "ratio")
        #expect(try obj.value(forKey: "ratio", as: Double.self) == 2.5)
        try obj.setValue(true, forKey: "flag")
        #expect(try obj.send("isFlag") as Bool)
        #expect(try obj.value(forKey: "flag", as: Bool.self))
        try obj.setValue("héllo", forKey: "title")
        #expect(try obj.value(forKey: "title", as: String.self) == "héllo")
        try obj.setValue(PPoint(x: 1, y: -2), forKey: "origin")
        #expect(try obj.send("origin") as PPoint == PPoint(x: 1, y: -2))
        try obj.setValue(Selector("ping") as Selector?, forKey: "selector")
        #expect(try obj.value(forKey: "selector", as: Selector?.self) == Selector("ping"))
    }

    @Test(
        "object properties: retain keeps the value, weak zeroes, assign does not retain; all released at dealloc"
    )
    func objectOwnership() throws {
        let cls = try RuntimeClass.define(uniqueName("POwner")) { c in
            try c.property("strong", RuntimeObject?.self)
            try c.property("weakOne", RuntimeObject?.self, .weak)
            try c.property("plain", RuntimeObject?.self, .assign)
        }
        let valueClass = try plainClass("PValue")
        var owner: RuntimeObject? = cls.new()
        var kept: RuntimeObject? = valueClass.new()
        let watched = WeakRuntimeObject(kept)
        try owner!.setValue(kept, forKey: "strong")
        #expect(kept!.retainCount == 2)
        try owner!.setValue(kept, forKey: "weakOne")
        try owner!.setValue(kept, forKey: "plain")
        #expect(kept!.retainCount == 2)  // weak and assign add nothing
        kept = nil
        #expect(watched.object != nil)  // the strong property keeps it
        #expect(try owner!.value(forKey: "weakOne", as: RuntimeObject?.self) == watched.object)
        try owner!.setValue(nil as RuntimeObject?, forKey: "strong")
        #expect(watched.object == nil)  // released by the setter
        #expect(try owner!.value(forKey: "weakOne", as: RuntimeObject?.self) == nil)  // zeroed
        // Released at the owner's dealloc.
        let other = valueClass.new()
        try owner!.setValue(other, forKey: "strong")
        #expect(other.retainCount == 2)
        owner = nil
        #expect(other.retainCount == 1)
    }

    @Test("a weak property's value dying while it is set reads nil and the owner dies cleanly after")
    func weakValueDiesFirst() throws {
        let cls = try RuntimeClass.define(uniqueName("PWeak")) { c in
            try c.property("delegate", RuntimeObject?.self, .weak)
        }
        let owner = cls.new()
        do {
            let delegate = try plainClass("PDelegate").new()
            try owner.setValue(delegate, forKey: "delegate")
            #expect(try owner.send("delegate") as RuntimeObject? == delegate)
        }
        #expect(try owner.send("delegate") as RuntimeObject? == nil)
    }

    @Test("readonly properties have no setter; setting one by key is IC_ERR_READONLY_KEY")
    func readonly() throws {
        let cls = try RuntimeClass.define(uniqueName("PReadonly")) { c in
            try c.property("identifier", Int.self, .readonly)
        }
        let obj = cls.new()
        #expect(!obj.responds(to: "setIdentifier:"))
        let error = try #require(throws: RuntimeError.self) { try obj.setValue(1, forKey: "identifier") }
        #expect(error.statusName == "IC_ERR_READONLY_KEY")
        #expect(try obj.value(forKey: "identifier", as: Int.self) == 0)
    }

    @Test("custom accessor names are what key-value coding sends")
    func customNames() throws {
        let cls = try RuntimeClass.define(uniqueName("PCustom")) { c in
            try c.property("visible", Bool.self, getter: "isVisible", setter: "makeVisible:")
        }
        let obj = cls.new()
        try obj.setValue(true, forKey: "visible")
        #expect(try obj.send("isVisible") as Bool)
        try obj.send("makeVisible:", false)
        #expect(try obj.value(forKey: "visible", as: Bool.self) == false)
        let property = try #require(cls.property(named: "visible"))
        #expect(property.getter == Selector("isVisible"))
        #expect(property.setter == Selector("makeVisible:"))
    }

    @Test(
        "key-value coding goes through hand-written accessors: a dynamic property and plain getKey/setKey: methods"
    )
    func handWrittenAccessors() throws {
        let log = EventLog()
        let cls = try RuntimeClass.define(uniqueName("PHand"), storageSize: 8) { c in
            try c.property("level", Int.self, .dynamic)
            try c.method("level") { (this: RuntimeObject) -> Int in
                log.append("get")
                return try! this.storage(for: this.runtimeClass).load(as: Int.self)
            }
            try c.method("setLevel:") { (this: RuntimeObject, value: Int) in
                log.append("set \(value)")
                try! this.storage(for: this.runtimeClass).storeBytes(of: value * 10, as: Int.self)
            }
            try c.method("getAnswer") { (this: RuntimeObject) -> Int32 in 42 }
            try c.method("isReady") { (this: RuntimeObject) -> Bool in true }
        }
        let obj = cls.new()
        try obj.setValue(4, forKey: "level")
        #expect(try obj.value(forKey: "level", as: Int.self) == 40)
        #expect(log.all == ["set 4", "get"])
        #expect(try obj.value(forKey: "answer", as: Int32.self) == 42)
        #expect(try obj.value(forKey: "ready", as: Bool.self))
    }

    @Test(
        "key paths read and write through object properties; a nil object on the way reads zero and sets nothing"
    )
    func keyPaths() throws {
        let address = try RuntimeClass.define(uniqueName("PAddress")) { c in
            try c.property("city", String.self)
        }
        let person = try RuntimeClass.define(uniqueName("PPerson")) { c in
            try c.property("address", RuntimeObject?.self)
            try c.property("age", Int.self)
        }
        let alice = person.new()
        #expect(try alice.value(forKeyPath: "address.city", as: String.self) == "")
        try alice.setValue("Paris", forKeyPath: "address.city")  // nil on the way: nothing
        try alice.setValue(address.new(), forKey: "address")
        try alice.setValue("Lyon", forKeyPath: "address.city")
        #expect(try alice.value(forKeyPath: "address.city", as: String.self) == "Lyon")
        #expect(try alice.value(forKeyPath: "age", as: Int.self) == 0)
        let error = try #require(throws: RuntimeError.self) {
            try alice.value(forKeyPath: "age.city", as: String.self)
        }
        #expect(error.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        #expect(throws: RuntimeError.self) { try alice.value(forKeyPath: "address..city", as: String.self) }
    }

    @Test("unknown keys and type mismatches are clear errors, never crashes")
    func badKeys() throws {
        let cls = try RuntimeClass.define(uniqueName("PBad")) { c in
            try c.property("count", Int.self)
            try c.property("owner", RuntimeObject?.self)
        }
        let obj = cls.new()
        let unknown = try #require(throws: RuntimeError.self) { try obj.value(forKey: "nope", as: Int.self) }
        #expect(unknown.statusName == "IC_ERR_UNKNOWN_KEY")
        #expect(unknown.message.contains("nope"))
        let unknownSet = try #require(throws: RuntimeError.self) { try obj.setValue(1, forKey: "nope") }
        #expect(unknownSet.statusName == "IC_ERR_UNKNOWN_KEY")
        let mismatch = try #require(throws: RuntimeError.self) {
            try obj.value(forKey: "count", as: Int32.self)
        }
        #expect(mismatch.statusName == "IC_ERR_SIGNATURE_MISMATCH")
        #expect(throws: RuntimeError.self) { try obj.setValue("x", forKey: "count") }
        // A nil object read as the non-optional RuntimeObject is an error, not a trap.
        let null = try #require(throws: RuntimeError.self) {
            try obj.value(forKey: "owner", as: RuntimeObject.self)
        }
        #expect(null.statusName == "IC_ERR_INVALID_ARGUMENT")
        #expect(obj.valueType(forKey: "count") == "q")
        #expect(obj.valueType(forKey: "nope") == nil)
    }

    @Test("declaration refusals: a property twice, an accessor that exists, ownership on a scalar")
    func declarationRefusals() throws {
        let twice = try #require(throws: RuntimeError.self) {
            try RuntimeClass.define(uniqueName("PTwice")) { c in
                try c.property("count", Int.self)
                try c.property("count", Int.self)
            }
        }
        #expect(twice.statusName == "IC_ERR_PROPERTY_EXISTS")
        let exists = try #require(throws: RuntimeError.self) {
            try RuntimeClass.define(uniqueName("PExists")) { c in
                try c.method("count") { (this: RuntimeObject) -> Int in 1 }
                try c.property("count", Int.self)
            }
        }
        #expect(exists.statusName == "IC_ERR_METHOD_EXISTS")
        let weakScalar = try #require(throws: RuntimeError.self) {
            try RuntimeClass.define(uniqueName("PWeakInt")) { c in try c.property("n", Int.self, .weak) }
        }
        #expect(weakScalar.statusName == "IC_ERR_INVALID_ARGUMENT")
        let registered = try plainClass("PLate")
        #expect(ic_class_add_property(registered.pointer, "late", "i", 0, nil, nil) == nil)
        #expect(RuntimeError.lastCError().statusName == "IC_ERR_CLASS_ALREADY_REGISTERED")
    }

    @Test("introspection lists a class's own properties with their types, attributes and accessors")
    func introspection() throws {
        let base = try RuntimeClass.define(uniqueName("PListBase")) { c in
            try c.property("name", String.self)
        }
        let sub = try RuntimeClass.define(uniqueName("PListSub"), superclass: base) { c in
            try c.property("count", Int.self, .readonly)
            try c.property("parent", RuntimeObject?.self, .weak)
        }
        #expect(sub.properties.map(\.name) == ["count", "parent"])
        #expect(sub.properties.map(\.typeEncoding) == ["q", "@"])
        #expect(sub.properties[0].attributes == .readonly)
        #expect(sub.properties[0].setter == nil)
        #expect(sub.properties[1].attributes == .weak)
        #expect(base.properties.first?.attributes == .copy)
        #expect(sub.property(named: "name")?.declaringClass == base)
        #expect(sub.property(named: "missing") == nil)
        #expect(base.properties.first?.description == "name: * (copy)")
        // Subclass instances hold the superclass's properties too.
        let obj = sub.new()
        try obj.setValue("child", forKey: "name")
        #expect(try obj.value(forKey: "name", as: String.self) == "child")
    }

    @Test("a property set from many threads while others read by key stays whole (TSan)")
    func concurrentAccess() async throws {
        let cls = try RuntimeClass.define(uniqueName("PConcurrent")) { c in
            try c.property("title", String.self)
            try c.property("origin", PPoint.self)
            try c.property("child", RuntimeObject?.self)
        }
        let obj = cls.new()
        let childClass = try plainClass("PChild")
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for i in 0..<300 {
                        if worker % 2 == 0 {
                            try! obj.setValue("value \(i)", forKey: "title")
                            try! obj.setValue(PPoint(x: Double(i), y: Double(i)), forKey: "origin")
                            try! obj.setValue(childClass.new(), forKey: "child")
                        } else {
                            let title = try! obj.value(forKey: "title", as: String.self)
                            #expect(title.isEmpty || title.hasPrefix("value "))
                            let point = try! obj.value(forKey: "origin", as: PPoint.self)
                            #expect(point.x == point.y)
                            _ = try! obj.value(forKey: "child", as: RuntimeObject?.self)
                        }
                    }
                }
            }
        }
    }
}

@Suite("Weak properties: the getter's result and the autorelease pool")
struct WeakPropertyGetterTests {
    @Test("a weak getter's object sent for from Swift is parked for the send only, then the handle owns it")
    func weakGetterThroughSendDrainsWithTheSend() throws {
        let cls = try RuntimeClass.define(uniqueName("PWeakGetter")) { c in
            try c.property("friend", RuntimeObject?.self, .weak)
        }
        let owner = cls.new()
        var friend: RuntimeObject? = cls.new()
        try owner.send("setFriend:", friend)
        let before = ReturnedObjects.count
        let got: RuntimeObject? = try owner.send("friend")
        #expect(got == friend)
        #expect(ReturnedObjects.count == before)  // the send drained what the getter parked
        friend = nil
        #expect(got != nil)  // the result handle holds its own reference
        let again: RuntimeObject? = try owner.send("friend")
        #expect(again == got)
    }
}
