import CInterception
import Testing

// Area: the texts of refused hooks (SPEC §20). Purpose: an error restated by the engine
// ("cannot intercept …", "cannot hook …", "cannot add … hook to …") keeps the whole message it
// restates — the encoding quoted, the position — and its position; it was once formatted from the
// buffer it was written into, which repeated the prefix and lost the encoding.

/// A method taking a union by value: libffi cannot call it, the engine refuses it.
private let unionTypes = "v@:(U=if)"
private let unionReason =
    "unsupported type encoding \"v@:(U=if)\" at 3: unions are not supported by value"

@Suite("Hook error texts")
struct HookErrorTextTests {
    @Test("intercepting a method that takes a union names the method, the encoding and the position")
    func interceptUnionText() throws {
        let cls = try makeClass("ErrUnion", methods: [("weird:", imp(voidIMP), unionTypes)])
        let name = String(cString: ic_class_name(cls))
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        #expect(statusName(ic_intercept_prepare(obj, sel("weird:"))) == "IC_ERR_UNSUPPORTED_SIGNATURE")
        #expect(lastErrorMessage == "cannot intercept -[\(name) weird:]: \(unionReason)")
        #expect(ic_error_position() == 3)
    }

    @Test("an object hook on a method that takes a union: the full text with the hook's position")
    func objectHookUnionText() throws {
        let cls = try makeClass("ErrUnionHook", methods: [("weird:", imp(voidIMP), unionTypes)])
        let name = String(cString: ic_class_name(cls))
        let obj = try #require(ic_class_create_instance(cls))
        defer { ic_release(obj) }
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        let status = ic_hook_object(obj, sel("weird:"), IC_HOOK_INSTEAD, 0, noop, nil, nil, &token)
        #expect(statusName(status) == "IC_ERR_UNSUPPORTED_SIGNATURE")
        #expect(lastErrorMessage == "cannot add an instead hook to -[\(name) weird:]: \(unionReason)")
        #expect(ic_error_position() == 3)
    }

    @Test("a class-wide hook on a method that takes a union, instance or class method: the full text")
    func classHookUnionText() throws {
        let cls = try makeClass(
            "ErrUnionClass", methods: [("weird:", imp(voidIMP), unionTypes)],
            classMethods: [("weird:", imp(voidIMP), unionTypes)])
        let name = String(cString: ic_class_name(cls))
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        var status = ic_hook_class(cls, sel("weird:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
        #expect(statusName(status) == "IC_ERR_UNSUPPORTED_SIGNATURE")
        #expect(lastErrorMessage == "cannot add a before hook to -[\(name) weird:]: \(unionReason)")
        #expect(ic_error_position() == 3)
        status = ic_hook_class(
            ic_class_metaclass(cls), sel("weird:"), IC_HOOK_AFTER, 0, noop, nil, nil, &token)
        #expect(statusName(status) == "IC_ERR_UNSUPPORTED_SIGNATURE")
        #expect(lastErrorMessage == "cannot add an after hook to +[\(name) weird:]: \(unionReason)")
        #expect(ic_error_position() == 3)
        #expect(ic_hook_class_path_of(cls, sel("weird:")) == IC_PATH_NONE)
    }

    @Test("a refusal without an encoding restated by the engine has no position")
    func restatedRefusalHasNoPosition() throws {
        let cls = try makeClass("ErrMissing", methods: [("add:", imp(addOneIMP), "i@:i")])
        let name = String(cString: ic_class_name(cls))
        _ = ic_signature_parse("i@:[")  // leaves a position behind
        #expect(ic_error_position() == 4)
        var token: ic_observer_token = 0
        let noop: ObserverCallback = { _, _ in }
        let status = ic_hook_class(cls, sel("nope:"), IC_HOOK_BEFORE, 0, noop, nil, nil, &token)
        #expect(statusName(status) == "IC_ERR_METHOD_NOT_FOUND")
        #expect(
            lastErrorMessage
                == "cannot add a before hook to -[\(name) nope:]: the class does not implement it (only implemented methods can be hooked)"
        )
        #expect(ic_error_position() == -1)
    }
}
