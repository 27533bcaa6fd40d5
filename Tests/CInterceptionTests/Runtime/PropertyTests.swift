import CInterception
import CInterceptionTestSupport
import Glibc
import Testing

/// Allocates a class with the properties `declare` adds, registers it.
private func makePropertyClass(_ base: String, superclass: CLS? = nil, _ declare: (CLS) throws -> Void) throws
    -> CLS
{
    let cls = try #require(ic_class_allocate(uniqueName(base), superclass, 0))
    try declare(cls)
    try #require(ic_class_register(cls) == IC_OK)
    return cls
}

/// An instead hook that runs the original and counts the call.
private let tallyInstead: ObserverCallback = { call, context in
    _ = ic_hook_call_original(call)
    Tally.from(context).calls.add(1, ordering: .relaxed)
}

/// `copy` that makes a new instance of the receiver's class (+1), as a copy property needs.
private let copyImp: ObjectIMP = { this, _ in ic_class_create_instance(ic_object_get_class(this)) }

@Suite("Properties and key-value coding (C API)")
struct CPropertyTests {
    @Test(
        "every type of the matrix through a synthesized property: typed C setter and getter, and key-value coding",
        arguments: TypeCase.all)
    func matrix(_ type: TypeCase) throws {
        let cls = try makePropertyClass("PMatrix_\(type.name)") { cls in
            try #require(ic_class_add_property(cls, "value", type.encoding, 0, nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        type.withBuffer { out in
            type.raw.send_take(obj, sel("setValue:"), type.raw.sample)
            type.raw.send_make(obj, sel("value"), out)
            #expect(type.isSample(out))
        }
        let kind = type.encoding.first!
        // Matrix samples of `@` and `*` are not live objects or owned strings: accessors only.
        guard kind != "@", kind != "*" else { return }
        type.withBuffer { out in
            #expect(
                ic_object_set_value_for_key(obj, "value", type.encoding, type.raw.other, type.size) == IC_OK)
            #expect(ic_object_copy_value_for_key(obj, "value", type.encoding, out, 64) == IC_OK)
            #expect(type.isOther(out))
        }
    }

    @Test(
        "every type of the matrix through a synthesized property whose setter is observed and hooked on the object and whose accessors are hooked class-wide",
        arguments: TypeCase.all)
    func matrixIntercepted(_ type: TypeCase) throws {
        let cls = try makePropertyClass("PMatrixHooked_\(type.name)") { cls in
            try #require(ic_class_add_property(cls, "value", type.encoding, 0, nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let observed = Tally()
        let instead = Tally()
        let classSetter = Tally()
        let classGetter = Tally()
        let (status, observer) = addTally(obj, sel("setValue:"), IC_OBSERVE_AFTER, observed)
        try #require(status == IC_OK, "\(lastErrorMessage)")
        var hook: ic_observer_token = 0
        try #require(
            ic_hook_object(
                obj, sel("setValue:"), IC_HOOK_INSTEAD, 0, tallyInstead, instead.context(), tallyRelease,
                &hook)
                == IC_OK)
        var setterHook: ic_observer_token = 0
        var getterHook: ic_observer_token = 0
        try #require(
            ic_hook_class(
                cls, sel("setValue:"), IC_HOOK_BEFORE, 0, tallyCall, classSetter.context(), tallyRelease,
                &setterHook) == IC_OK)
        try #require(
            ic_hook_class(
                cls, sel("value"), IC_HOOK_AFTER, 0, tallyCall, classGetter.context(), tallyRelease,
                &getterHook)
                == IC_OK)
        type.withBuffer { out in
            type.raw.send_take(obj, sel("setValue:"), type.raw.sample)
            type.raw.send_make(obj, sel("value"), out)
            #expect(type.isSample(out))
        }
        #expect(observed.seen == 1 && instead.seen == 1 && classSetter.seen == 1 && classGetter.seen == 1)
        let kind = type.encoding.first!
        if kind != "@", kind != "*" {
            type.withBuffer { out in
                #expect(
                    ic_object_set_value_for_key(obj, "value", type.encoding, type.raw.other, type.size)
                        == IC_OK)
                #expect(ic_object_copy_value_for_key(obj, "value", type.encoding, out, 64) == IC_OK)
                #expect(type.isOther(out))
            }
            #expect(observed.seen == 2 && instead.seen == 2 && classSetter.seen == 2)
        }
        #expect(ic_hook_remove(hook) == IC_OK)
        #expect(ic_intercept_remove_observer(observer) == IC_OK)
        #expect(ic_hook_remove(setterHook) == IC_OK)
        #expect(ic_hook_remove(getterHook) == IC_OK)
        // Unhooked: the synthesized accessors again.
        type.withBuffer { out in
            type.raw.send_take(obj, sel("setValue:"), type.raw.sample)
            type.raw.send_make(obj, sel("value"), out)
            #expect(type.isSample(out))
        }
        #expect(observed.seen <= 2 && instead.seen <= 2)
    }

    @Test(
        "a shared synthesized accessor finds each receiver's own slot: a subclass instance, an unrelated class with the same key at another offset, a subclass redeclaring the key"
    )
    func accessorsAcrossClasses() throws {
        typealias GetQ = @convention(c) (ID?, SEL?) -> Int64
        typealias SetQ = @convention(c) (ID?, SEL?, Int64) -> Void
        let base = try makePropertyClass("PShareBase") { cls in
            try #require(ic_class_add_property(cls, "count", "q", 0, nil, nil) != nil)
        }
        let sub = try makePropertyClass("PShareSub", superclass: base) { cls in
            try #require(ic_class_add_property(cls, "extra", "d", 0, nil, nil) != nil)
        }
        let other = try makePropertyClass("PShareOther") { cls in
            try #require(ic_class_add_property(cls, "pad", "i", 0, nil, nil) != nil)
            try #require(ic_class_add_property(cls, "count", "q", 0, nil, nil) != nil)
        }
        let redeclaring = try makePropertyClass("PShareRedeclare", superclass: base) { cls in
            try #require(ic_class_add_property(cls, "count", "q", 0, nil, nil) != nil)
        }
        let objects = try [base, sub, other, redeclaring].map { try #require(ic_class_create_instance($0)) }
        defer { for obj in objects { ic_release(obj) } }
        for (i, obj) in objects.enumerated() {
            lookup(obj, "setCount:", as: SetQ.self)(obj, sel("setCount:"), Int64(100 + i))
        }
        for (i, obj) in objects.enumerated() {
            #expect(lookup(obj, "count", as: GetQ.self)(obj, sel("count")) == Int64(100 + i))
            var n: Int64 = 0
            #expect(ic_object_copy_value_for_key(obj, "count", "q", &n, 8) == IC_OK)
            #expect(n == Int64(100 + i))
        }
        // The superclass's accessor, called on the redeclaring subclass's instance (a super
        // send), reads the superclass's slot: the redeclaration has accessors of its own.
        let redeclared = objects[3]
        let address = { (imp: ic_imp?) in unsafeBitCast(imp, to: UInt.self) }
        #expect(
            address(ic_class_get_imp(base, sel("count")))
                != address(ic_class_get_imp(redeclaring, sel("count"))))
        let superGetter = fn(ic_class_get_imp(base, sel("count")), as: GetQ.self)
        #expect(superGetter(redeclared, sel("count")) == 0)
        let superSetter = fn(ic_class_get_imp(base, sel("setCount:")), as: SetQ.self)
        superSetter(redeclared, sel("setCount:"), 7)
        #expect(superGetter(redeclared, sel("count")) == 7)
        #expect(lookup(redeclared, "count", as: GetQ.self)(redeclared, sel("count")) == 103)
    }

    @Test(
        "a weak property set through its setter reads nil once its value is deallocated, and unregisters at dealloc"
    )
    func weakThroughSetter() throws {
        typealias SetObject = @convention(c) (ID?, SEL?, ID?) -> Void
        let valueClass = try makeClass("PWeakValue")
        let cls = try makePropertyClass("PWeakOwner") { cls in
            try #require(
                ic_class_add_property(cls, "target", "@", UInt32(IC_PROPERTY_WEAK.rawValue), nil, nil) != nil)
        }
        let owner = try #require(ic_class_create_instance(cls))
        let value = try #require(ic_class_create_instance(valueClass))
        lookup(owner, "setTarget:", as: SetObject.self)(owner, sel("setTarget:"), value)
        #expect(ic_object_retain_count(value) == 1)  // not retained
        // The getter parks what it returns in the thread's autorelease pool (AutoreleaseTests).
        let mark = ic_autorelease_pool_push()
        #expect(lookup(owner, "target", as: ObjectIMP.self)(owner, sel("target")) == value)
        ic_autorelease_pool_pop(mark)
        ic_release(value)
        #expect(ic_class_live_instance_count(valueClass) == 0)
        #expect(lookup(owner, "target", as: ObjectIMP.self)(owner, sel("target")) == nil)
        let second = try #require(ic_class_create_instance(valueClass))
        lookup(owner, "setTarget:", as: SetObject.self)(owner, sel("setTarget:"), second)
        ic_release(owner)  // unregisters its weak location
        ic_release(second)
        #expect(ic_class_live_instance_count(valueClass) == 0)
    }

    @Test("a copy property sends copy; a retain property retains; both release at dealloc")
    func copyAndRetain() throws {
        let valueClass = try makeClass("PCopyValue", methods: [("copy", imp(copyImp), "@@:")])
        let cls = try makePropertyClass("PCopyOwner") { cls in
            try #require(
                ic_class_add_property(cls, "copied", "@", UInt32(IC_PROPERTY_COPY.rawValue), nil, nil) != nil)
            try #require(
                ic_class_add_property(cls, "kept", "@", UInt32(IC_PROPERTY_RETAIN.rawValue), nil, nil) != nil)
        }
        let owner = try #require(ic_class_create_instance(cls))
        var value: ID? = ic_class_create_instance(valueClass)
        #expect(ic_object_set_value_for_key(owner, "copied", "@", &value, 8) == IC_OK)
        #expect(ic_object_set_value_for_key(owner, "kept", "@", &value, 8) == IC_OK)
        #expect(ic_object_retain_count(value) == 2)  // kept retains, copied holds a copy
        #expect(ic_class_live_instance_count(valueClass) == 2)
        var copy: ID? = nil
        #expect(ic_object_copy_value_for_key(owner, "copied", "@", &copy, 8) == IC_OK)
        #expect(copy != value && copy != nil)
        #expect(ic_object_retain_count(copy) == 2)  // the property's and ours
        ic_release(copy)
        // Through the setters themselves: the old values are released, the new one retained
        // by `kept` and copied by `copied`.
        typealias SetObject = @convention(c) (ID?, SEL?, ID?) -> Void
        let second = try #require(ic_class_create_instance(valueClass))
        lookup(owner, "setKept:", as: SetObject.self)(owner, sel("setKept:"), second)
        lookup(owner, "setCopied:", as: SetObject.self)(owner, sel("setCopied:"), second)
        #expect(ic_object_retain_count(value) == 1)  // ours only: `kept` released it
        #expect(ic_object_retain_count(second) == 2)
        #expect(ic_class_live_instance_count(valueClass) == 3)  // value, second, second's copy
        let copied = lookup(owner, "copied", as: ObjectIMP.self)(owner, sel("copied"))
        #expect(copied != second && copied != nil)
        #expect(lookup(owner, "kept", as: ObjectIMP.self)(owner, sel("kept")) == second)
        ic_release(second)
        ic_release(value)
        ic_release(owner)
        #expect(ic_class_live_instance_count(valueClass) == 0)
    }

    @Test("a copied C string is the object's own, replaced and freed by the object")
    func stringCopy() throws {
        let cls = try makePropertyClass("PString") { cls in
            try #require(
                ic_class_add_property(cls, "name", "*", UInt32(IC_PROPERTY_COPY.rawValue), nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(cls))
        var buffer: [CChar] = Array("first".utf8CString)
        let stored: String? = buffer.withUnsafeMutableBufferPointer { chars in
            var pointer: UnsafeMutablePointer<CChar>? = chars.baseAddress
            #expect(ic_object_set_value_for_key(obj, "name", "*", &pointer, 8) == IC_OK)
            chars[0] = 0x46  // "F": the object kept its own copy
            let getter = lookup(obj, "name", as: (@convention(c) (ID?, SEL?) -> UnsafePointer<CChar>?).self)
            return getter(obj, sel("name")).map { String(cString: $0) }
        }
        #expect(stored == "first")
        var owned: UnsafeMutablePointer<CChar>? = nil
        #expect(ic_object_copy_value_for_key(obj, "name", "*", &owned, 8) == IC_OK)
        #expect(String(cString: try #require(owned)) == "first")
        free(owned)
        var null: UnsafeMutablePointer<CChar>? = nil
        #expect(ic_object_set_value_for_key(obj, "name", "*", &null, 8) == IC_OK)
        #expect(ic_object_copy_value_for_key(obj, "name", "*", &owned, 8) == IC_OK)
        #expect(owned == nil)
        ic_release(obj)
    }

    @Test("raw-pointer bounds: a buffer smaller than the key's type is refused, nothing is written")
    func bounds() throws {
        let cls = try makePropertyClass("PBounds") { cls in
            try #require(ic_class_add_property(cls, "wide", "{W=qqq}", 0, nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        var small: (Int64, Int64) = (7, 7)
        #expect(ic_object_copy_value_for_key(obj, "wide", "{W=qqq}", &small, 16) == IC_ERR_INVALID_ARGUMENT)
        #expect(small == (7, 7))
        #expect(ic_object_set_value_for_key(obj, "wide", "{W=qqq}", &small, 16) == IC_ERR_INVALID_ARGUMENT)
        var right: (Int64, Int64, Int64) = (1, 2, 3)
        #expect(ic_object_set_value_for_key(obj, "wide", "{W=qqq}", &right, 24) == IC_OK)
        var back: (Int64, Int64, Int64) = (0, 0, 0)
        #expect(ic_object_copy_value_for_key(obj, "wide", "{W=qqq}", &back, 24) == IC_OK)
        #expect(back == (1, 2, 3))
        #expect(ic_object_copy_value_for_key(obj, "wide", "{V=qqq}", &back, 24) == IC_ERR_SIGNATURE_MISMATCH)
    }

    @Test("declaration checks: attributes, types, names, and the class's instance size grows by the slots")
    func declarationChecks() throws {
        let cls = try #require(ic_class_allocate(uniqueName("PChecks"), nil, 4))
        let sizeBefore = ic_class_instance_size(cls)
        #expect(ic_class_add_property(cls, "x", "d", 0, nil, nil) != nil)
        #expect(ic_class_instance_size(cls) >= sizeBefore + 8)
        #expect(ic_class_storage_size(cls) == 4)  // the declared storage is unchanged
        let both = UInt32(IC_PROPERTY_RETAIN.rawValue | IC_PROPERTY_WEAK.rawValue)
        #expect(ic_class_add_property(cls, "o", "@", both, nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_add_property(cls, "s", "i", UInt32(IC_PROPERTY_COPY.rawValue), nil, nil) == nil)
        #expect(ic_class_add_property(cls, "v", "v", 0, nil, nil) == nil)
        #expect(ic_class_add_property(cls, "a", "[4i]", 0, nil, nil) == nil)
        #expect(ic_class_add_property(cls, "two", "ii", 0, nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_MALFORMED_ENCODING)
        #expect(ic_class_add_property(cls, "bad", "{", 0, nil, nil) == nil)
        #expect(ic_class_add_property(cls, "u", "(U=if)", 0, nil, nil) == nil)
        #expect(ic_class_add_property(cls, "x", "i", UInt32(IC_PROPERTY_DYNAMIC.rawValue), nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_PROPERTY_EXISTS)
        #expect(ic_class_add_property(cls, "q", "i", 1 << 20, nil, nil) == nil)
        #expect(ic_class_register(cls) == IC_OK)
        // After registration: dynamic only.
        #expect(ic_class_add_property(cls, "late", "i", 0, nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_CLASS_ALREADY_REGISTERED)
        let late = ic_class_add_property(
            cls, "late", "i", UInt32(IC_PROPERTY_DYNAMIC.rawValue), "lateValue", nil)
        #expect(late != nil)
        #expect(String(cString: ic_sel_name(ic_property_getter(late))) == "lateValue")
        #expect(String(cString: ic_sel_name(ic_property_setter(late))) == "setLate:")
        var count = 0
        let list = try #require(ic_class_copy_property_list(cls, &count))
        #expect(count == 2)
        #expect(String(cString: ic_property_name(list[0])) == "x")
        free(list)
        // A dynamic property without accessors is an unknown key for key-value coding.
        let obj = try #require(ic_class_create_instance(cls))
        var n: Int32 = 0
        #expect(ic_object_copy_value_for_key(obj, "late", "i", &n, 4) == IC_ERR_UNKNOWN_KEY)
        ic_release(obj)
    }

    @Test("a class disposed before registration frees its properties and their accessors")
    func disposeUnregistered() throws {
        let cls = try #require(ic_class_allocate(uniqueName("PDispose"), nil, 0))
        #expect(ic_class_add_property(cls, "name", "*", UInt32(IC_PROPERTY_COPY.rawValue), nil, nil) != nil)
        #expect(ic_class_add_property(cls, "size", "{S=dd}", 0, nil, nil) != nil)
        #expect(ic_class_dispose(cls) == IC_OK)
    }

    @Test("key paths from C: through object properties, nil on the way reads zero")
    func keyPathsFromC() throws {
        let leaf = try makePropertyClass("PLeaf") { cls in
            try #require(ic_class_add_property(cls, "n", "i", 0, nil, nil) != nil)
        }
        let root = try makePropertyClass("PRoot") { cls in
            try #require(
                ic_class_add_property(cls, "leaf", "@", UInt32(IC_PROPERTY_RETAIN.rawValue), nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(root))
        var n: Int32 = 5
        #expect(ic_object_copy_value_for_key_path(obj, "leaf.n", "i", &n, 4) == IC_OK)
        #expect(n == 0)
        var child: ID? = ic_class_create_instance(leaf)
        #expect(ic_object_set_value_for_key(obj, "leaf", "@", &child, 8) == IC_OK)
        ic_release(child)
        n = 9
        #expect(ic_object_set_value_for_key_path(obj, "leaf.n", "i", &n, 4) == IC_OK)
        n = 0
        #expect(ic_object_copy_value_for_key_path(obj, "leaf.n", "i", &n, 4) == IC_OK)
        #expect(n == 9)
        #expect(ic_object_copy_value_for_key_path(obj, "leaf.missing", "i", &n, 4) == IC_ERR_UNKNOWN_KEY)
        #expect(String(cString: ic_sel_name(ic_object_setter_for_key(obj, "leaf"))) == "setLeaf:")
        ic_release(obj)
        #expect(ic_class_live_instance_count(leaf) == 0)
    }

    @Test(
        "a metaclass takes no synthesized property (class objects have no instance storage); class methods serve key-value coding on the class"
    )
    func metaclassProperties() throws {
        let cls = try #require(ic_class_allocate(uniqueName("PMeta"), nil, 0))
        let meta = try #require(ic_class_metaclass(cls))
        #expect(ic_class_add_property(meta, "shared", "i", 0, nil, nil) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        let limit: Int32IMP = { _, _ in 7 }
        #expect(ic_class_add_method(meta, sel("limit"), imp(limit), "i@:") == IC_OK)
        #expect(
            ic_class_add_property(
                meta, "limit", "i", UInt32(IC_PROPERTY_DYNAMIC.rawValue | IC_PROPERTY_READONLY.rawValue), nil,
                nil) != nil)
        #expect(ic_class_register(cls) == IC_OK)
        var value: Int32 = 0
        #expect(ic_object_copy_value_for_key(ic_class_object(cls), "limit", "i", &value, 4) == IC_OK)
        #expect(value == 7)
        #expect(
            ic_object_set_value_for_key(ic_class_object(cls), "limit", "i", &value, 4) == IC_ERR_READONLY_KEY)
    }

    @Test(
        "a property read through its record: the slot while the getter is synthesized, the getter once replaced, refused for another class"
    )
    func copyPropertyValue() throws {
        let cls = try makePropertyClass("PRecord") { cls in
            try #require(ic_class_add_property(cls, "n", "i", 0, nil, nil) != nil)
        }
        let property = try #require(ic_class_get_property(cls, "n"))
        let obj = try #require(ic_class_create_instance(cls))
        var n: Int32 = 5
        #expect(ic_object_set_value_for_key(obj, "n", "i", &n, 4) == IC_OK)
        n = 0
        #expect(ic_object_copy_property_value(obj, property, &n, 4) == IC_OK)
        #expect(n == 5)
        #expect(ic_object_copy_property_value(obj, property, &n, 2) == IC_ERR_INVALID_ARGUMENT)
        let replaced: Int32IMP = { _, _ in 99 }
        #expect(ic_class_replace_method(cls, sel("n"), imp(replaced), "i@:", nil) == IC_OK)
        #expect(ic_object_copy_property_value(obj, property, &n, 4) == IC_OK)
        #expect(n == 99)
        let other = try #require(ic_class_create_instance(try makeClass("PRecordOther")))
        #expect(ic_object_copy_property_value(other, property, &n, 4) == IC_ERR_INVALID_ARGUMENT)
        ic_release(other)
        ic_release(obj)
    }

    @Test(
        "looking up a key registers no selector: an accessor name that is not a selector has no method (and a lookup needs no memory)"
    )
    func keyLookupRegistersNothing() throws {
        let cls = try makePropertyClass("PLookup") { cls in
            try #require(ic_class_add_property(cls, "n", "i", 0, nil, nil) != nil)
        }
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        let key = uniqueName("neverDeclared")
        let capitalized = key.prefix(1).uppercased() + key.dropFirst()
        var value: Int32 = 0
        #expect(ic_object_value_type_for_key(obj, key) == nil)
        #expect(ic_error_status() == IC_ERR_UNKNOWN_KEY)
        #expect(ic_object_setter_for_key(obj, key) == nil)
        #expect(ic_object_copy_value_for_key(obj, key, "i", &value, 4) == IC_ERR_UNKNOWN_KEY)
        #expect(ic_object_set_value_for_key(obj, key, "i", &value, 4) == IC_ERR_UNKNOWN_KEY)
        for name in [key, "get\(capitalized)", "is\(capitalized)", "set\(capitalized):"] {
            #expect(ic_sel_lookup(name) == nil, "\(name) was registered")
        }
    }
}
