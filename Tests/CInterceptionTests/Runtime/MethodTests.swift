import CInterception
import Glibc
import Testing

private let returns1: Int32IMP = { _, _ in 1 }
private let returns2: Int32IMP = { _, _ in 2 }
private let returns3: Int32IMP = { _, _ in 3 }
private let addOne: Int32Int32IMP = { _, _, x in x &+ 1 }

@Suite("Methods")
struct MethodTests {
    @Test("an added method is found on the class and its subclasses")
    func addedMethodIsFound() throws {
        let base = try makeClass("MBase", methods: [("value", imp(returns1), "i@:")])
        let sub = try makeClass("MSub", superclass: base)
        let own = try #require(ic_class_get_own_method(base, sel("value")))
        #expect(ic_class_get_method(sub, sel("value")) == own)
        #expect(ic_class_get_own_method(sub, sel("value")) == nil)
        #expect(ic_method_selector(own) == sel("value"))
        #expect(
            unsafeBitCast(ic_method_imp(own), to: UInt.self) == unsafeBitCast(imp(returns1), to: UInt.self))
        #expect(ic_method_imp(nil) == nil)
        #expect(String(cString: ic_method_types(own)) == "i@:")
        #expect(String(cString: ic_class_method_types(sub, sel("value"))) == "i@:")
        #expect(ic_class_responds_to(sub, sel("value")))
        #expect(!ic_class_responds_to(sub, sel("nope")))
    }

    @Test("adding a selector the class already has is refused")
    func addingTwiceIsRefused() throws {
        let cls = try makeClass("MTwice", methods: [("value", imp(returns1), "i@:")])
        #expect(ic_class_add_method(cls, sel("value"), imp(returns2), "i@:") == IC_ERR_METHOD_EXISTS)
        #expect(lastErrorMessage.contains("value"))
    }

    @Test("a malformed encoding is refused with its position")
    func malformedEncodingIsRefused() throws {
        let cls = try makeClass("MMalformed")
        #expect(ic_class_add_method(cls, sel("f"), imp(returns1), "i@:{P=ii") == IC_ERR_MALFORMED_ENCODING)
        #expect(ic_error_position() == 8)
        #expect(lastErrorMessage.contains("expected '}'"))
    }

    @Test("a method encoding must take self and _cmd first")
    func methodEncodingNeedsSelfAndCmd() throws {
        let cls = try makeClass("MNotMethod")
        #expect(ic_class_add_method(cls, sel("f"), imp(returns1), "ii") == IC_ERR_SIGNATURE_MISMATCH)
        #expect(ic_class_add_method(cls, sel("f"), imp(returns1), "i:@") == IC_ERR_SIGNATURE_MISMATCH)
    }

    @Test("a well-formed but uncallable encoding is accepted; its signature reports why")
    func unionMethodHasNoSignature() throws {
        let cls = try makeClass("MUnion")
        #expect(ic_class_add_method(cls, sel("u"), imp(returns1), "(U=if)@:") == IC_OK)
        let m = try #require(ic_class_get_method(cls, sel("u")))
        #expect(ic_method_signature(m) == nil)
        #expect(ic_error_status() == IC_ERR_UNSUPPORTED_ENCODING)
        #expect(ic_error_position() == 0)
    }

    @Test("NULL arguments are refused")
    func nullArgumentsAreRefused() throws {
        let cls = try makeClass("MNull")
        #expect(ic_class_add_method(nil, sel("a"), imp(returns1), "i@:") == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_add_method(cls, nil, imp(returns1), "i@:") == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_add_method(cls, sel("a"), nil, "i@:") == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_add_method(cls, sel("a"), imp(returns1), nil) == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_method_set_imp(nil, imp(returns1)) == nil)
        #expect(ic_error_status() == IC_ERR_INVALID_ARGUMENT)
        #expect(ic_class_copy_method_list(nil, nil) == nil)
    }

    @Test("replace returns the class's previous IMP, or adds and returns NULL")
    func replaceReturnsPreviousImp() throws {
        let base = try makeClass("MReplaceBase", methods: [("value", imp(returns1), "i@:")])
        let sub = try makeClass("MReplaceSub", superclass: base)
        var old: ic_imp? = nil
        // In the subclass the method is inherited: replacing adds it.
        #expect(ic_class_replace_method(sub, sel("value"), imp(returns2), "i@:", &old) == IC_OK)
        #expect(old == nil)
        #expect(ic_class_get_own_method(sub, sel("value")) != nil)
        // In the base it exists: replacing swaps the IMP, keeps the encoding.
        #expect(ic_class_replace_method(base, sel("value"), imp(returns3), nil, &old) == IC_OK)
        #expect(old.map { unsafeBitCast($0, to: UInt.self) } == unsafeBitCast(imp(returns1), to: UInt.self))
        // Adding without types is refused.
        #expect(
            ic_class_replace_method(base, sel("absent"), imp(returns3), nil, nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("the method list holds exactly the class's own methods")
    func methodList() throws {
        let cls = try makeClass(
            "MList", methods: [("a", imp(returns1), "i@:"), ("b", imp(returns2), "i@:")])
        var count = 0
        let list = try #require(ic_class_copy_method_list(cls, &count))
        defer { free(list) }
        #expect(count == 2)
        let names = Set((0..<count).map { String(cString: ic_sel_name(ic_method_selector(list[$0]))) })
        #expect(names == ["a", "b"])
        let empty = try makeClass("MEmpty")
        #expect(ic_class_copy_method_list(empty, &count) == nil)
        #expect(count == 0)
    }

    @Test("exchanging IMPs swaps what two selectors run")
    func exchangeImps() throws {
        let cls = try makeClass(
            "MExchange", methods: [("a", imp(returns1), "i@:"), ("b", imp(returns2), "i@:")])
        let obj = ic_class_create_instance(cls)
        defer { ic_release(obj) }
        #expect(lookup(obj, "a", as: Int32IMP.self)(obj, sel("a")) == 1)  // cached now
        #expect(
            ic_method_exchange_imps(ic_class_get_method(cls, sel("a")), ic_class_get_method(cls, sel("b")))
                == IC_OK)
        #expect(lookup(obj, "a", as: Int32IMP.self)(obj, sel("a")) == 2)
        #expect(lookup(obj, "b", as: Int32IMP.self)(obj, sel("b")) == 1)
        #expect(ic_method_exchange_imps(nil, nil) == IC_ERR_INVALID_ARGUMENT)
    }

    @Test("a method's signature is parsed once and cached")
    func signatureIsCached() throws {
        let cls = try makeClass("MSig", methods: [("add:", imp(addOne), "i24@0:8i16")])
        let m = try #require(ic_class_get_method(cls, sel("add:")))
        let s1 = try #require(ic_method_signature(m))
        let s2 = try #require(ic_method_signature(m))
        #expect(s1 == s2)
        #expect(String(cString: ic_signature_types(s1)) == "i@:i")
        #expect(s1 == ic_signature_parse("i@:i"))
    }

    @Test("class_get_imp reports implemented methods only")
    func classGetImp() throws {
        let cls = try makeClass("MGetImp", methods: [("a", imp(returns1), "i@:")])
        #expect(ic_class_get_imp(cls, sel("a")) != nil)
        #expect(ic_class_get_imp(cls, sel("never")) == nil)
        #expect(ic_class_get_imp(nil, sel("a")) == nil)
    }
}
