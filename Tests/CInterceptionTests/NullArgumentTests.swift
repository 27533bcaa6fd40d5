// Bad input, part 1: what every public C function does with NULL (and other invalid arguments)
// where its header does not allow them. One case per exported function, checked against the
// public headers themselves, so a new entry point cannot go without one. Failures that are
// programmer errors and trap are pinned down in TrapTests.swift; misuse of valid arguments
// (unknown selectors, double removal, reentrancy...) in MisuseTests.swift.
import CInterception
import Glibc
import Testing

/// What the cases need: a registered class with a method, an instance, a signature, a heap
/// invocation.
struct BadInputFixture {
    let cls: CLS
    let obj: ID
    let s: SEL
    let method: OpaquePointer
    let sig: OpaquePointer
    let inv: OpaquePointer
}

/// Expects the call to fail with `expected` and to record it as the thread's last error.
private func expectRefused(
    _ status: ic_status, _ expected: ic_status = IC_ERR_INVALID_ARGUMENT,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(statusName(status) == statusName(expected), sourceLocation: sourceLocation)
    #expect(statusName(ic_error_status()) == statusName(expected), sourceLocation: sourceLocation)
}

/// Runs `body` with a cleared last error, then expects `expected` to be recorded (IC_OK: nothing
/// recorded: the function answered without failing).
private func expectRecorded(
    _ expected: ic_status, sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) {
    ic_error_clear()
    body()
    #expect(statusName(ic_error_status()) == statusName(expected), sourceLocation: sourceLocation)
}

private let nullCallback: ObserverCallback = { _, _ in }

/// An unregistered protocol the cases pass beside a NULL (made once; never registered, so every
/// refused change would also be visible).
nonisolated(unsafe) private let nullCaseProtocol: OpaquePointer = ic_protocol_allocate(
    uniqueName("NullCases"))!

/// An IMP's address (function pointers are not Equatable in Swift).
private func address(_ f: ic_imp?) -> UInt { unsafeBitCast(f, to: UInt.self) }

/// Functions that take no argument: nothing can be passed wrong.
let functionsWithoutArguments: Set<String> = [
    "ic_error_status", "ic_error_message", "ic_error_position", "ic_error_clear", "ic_runtime_version",
    "ic_class_root", "ic_class_count", "ic_sel_count", "ic_object_live_count", "ic_nil_imp",
    "ic_intercept_quiesce", "ic_zombies_enabled", "ic_autorelease_pool_push", "ic_autorelease_pool_count",
]

/// One case per exported function taking arguments.
func nullArgumentCases() -> [(function: String, check: (BadInputFixture) -> Void)] {
    [
        // ic_base.h
        (
            "ic_status_name",
            { _ in #expect(String(cString: ic_status_name(ic_status(rawValue: 12345))) == "IC_ERR_UNKNOWN") }
        ),

        // ic_selector.h
        (
            "ic_sel_register",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_sel_register(nil) == nil) } }
        ),
        ("ic_sel_lookup", { _ in expectRecorded(IC_OK) { #expect(ic_sel_lookup(nil) == nil) } }),
        ("ic_sel_name", { _ in #expect(ic_sel_name(nil) == nil) }),

        // ic_class.h
        (
            "ic_class_allocate",
            { _ in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_class_allocate(nil, nil, 0) == nil) }
            }
        ),
        ("ic_class_register", { _ in expectRefused(ic_class_register(nil)) }),
        ("ic_class_dispose", { _ in expectRefused(ic_class_dispose(nil)) }),
        ("ic_class_lookup", { _ in expectRecorded(IC_OK) { #expect(ic_class_lookup(nil) == nil) } }),
        ("ic_class_name", { _ in #expect(ic_class_name(nil) == nil) }),
        ("ic_class_superclass", { _ in #expect(ic_class_superclass(nil) == nil) }),
        ("ic_class_instance_size", { _ in #expect(ic_class_instance_size(nil) == 0) }),
        ("ic_class_storage_offset", { _ in #expect(ic_class_storage_offset(nil) == 0) }),
        ("ic_class_storage_size", { _ in #expect(ic_class_storage_size(nil) == 0) }),
        ("ic_class_is_registered", { _ in #expect(!ic_class_is_registered(nil)) }),
        (
            "ic_class_is_subclass_of",
            { f in
                #expect(!ic_class_is_subclass_of(nil, f.cls))
                #expect(!ic_class_is_subclass_of(f.cls, nil))
            }
        ),
        (
            "ic_class_responds_to",
            { f in
                #expect(!ic_class_responds_to(nil, f.s))
                #expect(!ic_class_responds_to(f.cls, nil))
            }
        ),
        ("ic_class_is_interception_subclass", { _ in #expect(!ic_class_is_interception_subclass(nil)) }),
        ("ic_class_forwards_invocations", { _ in #expect(!ic_class_forwards_invocations(nil)) }),
        ("ic_class_live_instance_count", { _ in #expect(ic_class_live_instance_count(nil) == 0) }),
        ("ic_class_metaclass", { _ in #expect(ic_class_metaclass(nil) == nil) }),
        ("ic_class_is_metaclass", { _ in #expect(!ic_class_is_metaclass(nil)) }),
        ("ic_object_as_class", { _ in #expect(ic_object_as_class(nil) == nil) }),
        (
            "ic_class_add_class_method",
            { f in
                expectRefused(ic_class_add_class_method(nil, f.s, imp(addOneIMP), "i@:i"))
                expectRefused(ic_class_add_class_method(f.cls, nil, imp(addOneIMP), "i@:i"))
                expectRefused(ic_class_add_class_method(f.cls, sel("nullCase.new"), nil, "i@:i"))
                expectRefused(ic_class_add_class_method(f.cls, sel("nullCase.new"), imp(addOneIMP), nil))
                #expect(ic_class_get_class_method(f.cls, sel("nullCase.new")) == nil)
            }
        ),
        (
            "ic_class_get_class_method",
            { f in
                #expect(ic_class_get_class_method(nil, f.s) == nil)
                #expect(ic_class_get_class_method(f.cls, nil) == nil)
            }
        ),
        (
            "ic_class_add_method",
            { f in
                expectRefused(ic_class_add_method(nil, f.s, imp(addOneIMP), "i@:i"))
                expectRefused(ic_class_add_method(f.cls, nil, imp(addOneIMP), "i@:i"))
                expectRefused(ic_class_add_method(f.cls, sel("nullCase.new"), nil, "i@:i"))
                expectRefused(ic_class_add_method(f.cls, sel("nullCase.new"), imp(addOneIMP), nil))
                #expect(ic_class_get_own_method(f.cls, sel("nullCase.new")) == nil)
            }
        ),
        (
            "ic_class_replace_method",
            { f in
                var old: ic_imp? = imp(voidIMP)
                expectRefused(ic_class_replace_method(nil, f.s, imp(addOneIMP), "i@:i", &old))
                #expect(address(old) == 0)  // set to NULL even on failure
                expectRefused(ic_class_replace_method(f.cls, nil, imp(addOneIMP), "i@:i", nil))
                expectRefused(ic_class_replace_method(f.cls, f.s, nil, "i@:i", nil))
                // Types are needed only to add: NULL types for a missing method are refused.
                expectRefused(
                    ic_class_replace_method(f.cls, sel("nullCase.missing"), imp(addOneIMP), nil, nil))
                #expect(address(ic_method_imp(f.method)) == address(imp(addOneIMP)))
            }
        ),
        (
            "ic_class_get_method",
            { f in
                #expect(ic_class_get_method(nil, f.s) == nil)
                #expect(ic_class_get_method(f.cls, nil) == nil)
            }
        ),
        (
            "ic_class_get_own_method",
            { f in
                #expect(ic_class_get_own_method(nil, f.s) == nil)
                #expect(ic_class_get_own_method(f.cls, nil) == nil)
            }
        ),
        (
            "ic_class_get_imp",
            { f in
                #expect(ic_class_get_imp(nil, f.s) == nil)
                #expect(ic_class_get_imp(f.cls, nil) == nil)
            }
        ),
        (
            "ic_class_method_types",
            { f in
                #expect(ic_class_method_types(nil, f.s) == nil)
                #expect(ic_class_method_types(f.cls, nil) == nil)
            }
        ),
        (
            "ic_class_copy_method_list",
            { f in
                var count = 99
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_method_list(nil, &count) == nil)
                }
                #expect(count == 0)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_method_list(f.cls, nil) == nil)
                }
            }
        ),
        ("ic_method_selector", { _ in #expect(ic_method_selector(nil) == nil) }),
        ("ic_method_imp", { _ in #expect(ic_method_imp(nil) == nil) }),
        (
            "ic_method_set_imp",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_method_set_imp(nil, imp(addOneIMP)) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_method_set_imp(f.method, nil) == nil) }
                #expect(address(ic_method_imp(f.method)) == address(imp(addOneIMP)))  // unchanged
            }
        ),
        ("ic_method_types", { _ in #expect(ic_method_types(nil) == nil) }),
        (
            "ic_method_signature",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_method_signature(nil) == nil) } }
        ),
        (
            "ic_method_exchange_imps",
            { f in
                expectRefused(ic_method_exchange_imps(nil, f.method))
                expectRefused(ic_method_exchange_imps(f.method, nil))
                #expect(address(ic_method_imp(f.method)) == address(imp(addOneIMP)))
            }
        ),

        // ic_protocol.h
        (
            "ic_protocol_allocate",
            { _ in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_protocol_allocate(nil) == nil) }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_protocol_allocate("") == nil) }
            }
        ),
        (
            "ic_protocol_add_method_description",
            { f in
                expectRefused(ic_protocol_add_method_description(nil, f.s, "v@:", true, true))
                expectRefused(ic_protocol_add_method_description(nullCaseProtocol, nil, "v@:", true, true))
                expectRefused(ic_protocol_add_method_description(nullCaseProtocol, f.s, nil, true, true))
            }
        ),
        (
            "ic_protocol_add_protocol",
            { _ in
                expectRefused(ic_protocol_add_protocol(nil, nullCaseProtocol))
                expectRefused(ic_protocol_add_protocol(nullCaseProtocol, nil))
            }
        ),
        ("ic_protocol_register", { _ in expectRefused(ic_protocol_register(nil)) }),
        ("ic_protocol_dispose", { _ in expectRefused(ic_protocol_dispose(nil)) }),
        ("ic_protocol_lookup", { _ in expectRecorded(IC_OK) { #expect(ic_protocol_lookup(nil) == nil) } }),
        ("ic_protocol_name", { _ in #expect(ic_protocol_name(nil) == nil) }),
        ("ic_protocol_is_registered", { _ in #expect(!ic_protocol_is_registered(nil)) }),
        (
            "ic_protocol_conforms_to_protocol",
            { _ in
                expectRecorded(IC_OK) {
                    #expect(!ic_protocol_conforms_to_protocol(nil, nullCaseProtocol))
                    #expect(!ic_protocol_conforms_to_protocol(nullCaseProtocol, nil))
                }
            }
        ),
        (
            "ic_protocol_copy_protocol_list",
            { _ in
                var count = 99
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_protocol_copy_protocol_list(nil, &count) == nil)
                }
                #expect(count == 0)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_protocol_copy_protocol_list(nullCaseProtocol, nil) == nil)
                }
            }
        ),
        (
            "ic_protocol_copy_method_description_list",
            { _ in
                var count = 99
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_protocol_copy_method_description_list(nil, true, true, &count) == nil)
                }
                #expect(count == 0)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(
                        ic_protocol_copy_method_description_list(nullCaseProtocol, true, true, nil) == nil)
                }
            }
        ),

        // ic_property.h
        (
            "ic_class_add_property",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_add_property(nil, "p", "i", 0, nil, nil) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_add_property(f.cls, nil, "i", 0, nil, nil) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_add_property(f.cls, "p", nil, 0, nil, nil) == nil)
                }
            }
        ),
        (
            "ic_class_get_property",
            { f in
                expectRecorded(IC_OK) {
                    #expect(ic_class_get_property(nil, "p") == nil)
                    #expect(ic_class_get_property(f.cls, nil) == nil)
                }
            }
        ),
        (
            "ic_class_copy_property_list",
            { f in
                var count = 99
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_property_list(nil, &count) == nil)
                }
                #expect(count == 0)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_property_list(f.cls, nil) == nil)
                }
            }
        ),
        ("ic_property_name", { _ in #expect(ic_property_name(nil) == nil) }),
        ("ic_property_type", { _ in #expect(ic_property_type(nil) == nil) }),
        ("ic_property_attributes", { _ in #expect(ic_property_attributes(nil) == 0) }),
        ("ic_property_getter", { _ in #expect(ic_property_getter(nil) == nil) }),
        ("ic_property_setter", { _ in #expect(ic_property_setter(nil) == nil) }),
        ("ic_property_class", { _ in #expect(ic_property_class(nil) == nil) }),
        (
            "ic_object_copy_value_for_key",
            { f in
                var out = 0
                expectRefused(ic_object_copy_value_for_key(nil, "k", "q", &out, 8))
                expectRefused(ic_object_copy_value_for_key(f.obj, nil, "q", &out, 8))
                expectRefused(ic_object_copy_value_for_key(f.obj, "k", nil, &out, 8))
                expectRefused(ic_object_copy_value_for_key(f.obj, "k", "q", nil, 8))
            }
        ),
        (
            "ic_object_set_value_for_key",
            { f in
                var value = 0
                expectRefused(ic_object_set_value_for_key(nil, "k", "q", &value, 8))
                expectRefused(ic_object_set_value_for_key(f.obj, nil, "q", &value, 8))
                expectRefused(ic_object_set_value_for_key(f.obj, "k", nil, &value, 8))
                expectRefused(ic_object_set_value_for_key(f.obj, "k", "q", nil, 8))
            }
        ),
        (
            "ic_object_copy_property_value",
            { f in
                var out = 0
                let property = ic_class_get_property(f.cls, "nullCaseProperty")
                expectRefused(ic_object_copy_property_value(nil, property, &out, 8))
                expectRefused(ic_object_copy_property_value(f.obj, nil, &out, 8))
            }
        ),
        (
            "ic_object_copy_checked_property_value",
            { f in
                var out = 0
                let property = ic_class_get_property(f.cls, "nullCaseProperty")
                expectRefused(ic_object_copy_checked_property_value(nil, property, &out))
                expectRefused(ic_object_copy_checked_property_value(f.obj, nil, &out))
                expectRefused(ic_object_copy_checked_property_value(f.obj, property, nil))
            }
        ),
        (
            "ic_object_copy_value_for_key_path",
            { f in
                var out = 0
                expectRefused(ic_object_copy_value_for_key_path(nil, "a.b", "q", &out, 8))
                expectRefused(ic_object_copy_value_for_key_path(f.obj, nil, "q", &out, 8))
                expectRefused(ic_object_copy_value_for_key_path(f.obj, "a.b", nil, &out, 8))
                expectRefused(ic_object_copy_value_for_key_path(f.obj, "a.b", "q", nil, 8))
            }
        ),
        (
            "ic_object_set_value_for_key_path",
            { f in
                var value = 0
                expectRefused(ic_object_set_value_for_key_path(nil, "a.b", "q", &value, 8))
                expectRefused(ic_object_set_value_for_key_path(f.obj, nil, "q", &value, 8))
                expectRefused(ic_object_set_value_for_key_path(f.obj, "a.b", nil, &value, 8))
                expectRefused(ic_object_set_value_for_key_path(f.obj, "a.b", "q", nil, 8))
            }
        ),
        (
            "ic_object_value_type_for_key",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_object_value_type_for_key(nil, "k") == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_object_value_type_for_key(f.obj, nil) == nil)
                }
            }
        ),
        (
            "ic_object_setter_for_key",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_object_setter_for_key(nil, "k") == nil) }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_object_setter_for_key(f.obj, nil) == nil)
                }
            }
        ),
        (
            "ic_protocol_get_method_description",
            { f in
                var d = ic_method_description()
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(!ic_protocol_get_method_description(nil, f.s, true, true, &d))
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(!ic_protocol_get_method_description(nullCaseProtocol, nil, true, true, &d))
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(!ic_protocol_get_method_description(nullCaseProtocol, f.s, true, true, nil))
                }
            }
        ),
        (
            "ic_class_add_protocol",
            { f in
                expectRefused(ic_class_add_protocol(nil, nullCaseProtocol))
                expectRefused(ic_class_add_protocol(f.cls, nil))
            }
        ),
        (
            "ic_class_conforms_to_protocol",
            { f in
                expectRecorded(IC_OK) {
                    #expect(!ic_class_conforms_to_protocol(nil, nullCaseProtocol))
                    #expect(!ic_class_conforms_to_protocol(f.cls, nil))
                }
            }
        ),
        (
            "ic_class_copy_protocol_list",
            { f in
                var count = 99
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_protocol_list(nil, &count) == nil)
                }
                #expect(count == 0)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_class_copy_protocol_list(f.cls, nil) == nil)
                }
            }
        ),

        // ic_object.h
        (
            "ic_class_create_instance",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_class_create_instance(nil) == nil) } }
        ),
        ("ic_object_get_class", { _ in #expect(ic_object_get_class(nil) == nil) }),
        (
            "ic_object_set_class",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_object_set_class(nil, f.cls) == nil) }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_object_set_class(f.obj, nil) == nil) }
                #expect(ic_object_get_class(f.obj) == f.cls)
            }
        ),
        ("ic_object_class_name", { _ in #expect(ic_object_class_name(nil) == nil) }),
        (
            "ic_object_storage",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_object_storage(nil) == nil) } }
        ),
        ("ic_object_storage_size", { _ in #expect(ic_object_storage_size(nil) == 0) }),
        (
            "ic_object_storage_for_class",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_object_storage_for_class(nil, f.cls) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_object_storage_for_class(f.obj, nil) == nil)
                }
            }
        ),
        ("ic_retain", { _ in #expect(ic_retain(nil) == nil) }),
        ("ic_release", { _ in ic_release(nil) }),  // ignored, as documented
        ("ic_object_retain_count", { _ in #expect(ic_object_retain_count(nil) == 0) }),
        ("ic_object_is_deallocating", { _ in #expect(!ic_object_is_deallocating(nil)) }),
        (
            "ic_object_set_associated",
            { f in
                expectRefused(
                    ic_object_set_associated(nil, UnsafeRawPointer(f.s), f.obj, IC_ASSOCIATION_ASSIGN))
                expectRefused(ic_object_set_associated(f.obj, nil, f.obj, IC_ASSOCIATION_ASSIGN))
            }
        ),
        (
            "ic_object_get_associated",
            { f in
                #expect(ic_object_get_associated(nil, UnsafeRawPointer(f.s)) == nil)
                #expect(ic_object_get_associated(f.obj, nil) == nil)
            }
        ),
        (
            "ic_object_copy_associated",
            { f in
                #expect(ic_object_copy_associated(nil, UnsafeRawPointer(f.s)) == nil)
                #expect(ic_object_copy_associated(f.obj, nil) == nil)
            }
        ),
        (
            "ic_object_remove_associated_objects",
            { _ in expectRefused(ic_object_remove_associated_objects(nil)) }
        ),
        ("ic_weak_store", { f in expectRefused(ic_weak_store(nil, f.obj)) }),
        ("ic_weak_load_retained", { _ in #expect(ic_weak_load_retained(nil) == nil) }),
        ("ic_weak_destroy", { _ in ic_weak_destroy(nil) }),  // ignored
        // NULL is returned as is and nothing is parked.
        (
            "ic_autorelease",
            { _ in
                let count = ic_autorelease_pool_count()
                #expect(ic_autorelease(nil) == nil)
                #expect(ic_autorelease_pool_count() == count)
            }
        ),
        (
            "ic_autorelease_free",
            { _ in
                let count = ic_autorelease_pool_count()
                #expect(ic_autorelease_free(nil) == nil)
                #expect(ic_autorelease_pool_count() == count)
            }
        ),
        // A mark deeper than the pool pops nothing.
        (
            "ic_autorelease_pool_pop",
            { _ in
                let count = ic_autorelease_pool_count()
                expectRecorded(IC_OK) { ic_autorelease_pool_pop(count + 1) }
                #expect(ic_autorelease_pool_count() == count)
            }
        ),
        // A bool has no invalid value; setting the mode in force changes nothing (ZombieTests
        // switch zombies on, in child processes only).
        (
            "ic_zombies_set_enabled",
            { _ in expectRecorded(IC_OK) { ic_zombies_set_enabled(ic_zombies_enabled()) } }
        ),

        // ic_message.h (a NULL selector or superclass traps: TrapTests)
        (
            "ic_msg_lookup",
            { f in
                #expect(address(ic_msg_lookup(nil, f.s)) == address(ic_nil_imp))
            }
        ),
        (
            "ic_msg_lookup_super",
            { f in
                let nilIMP = address(ic_nil_imp)
                #expect(address(ic_msg_lookup_super(nil, f.s)) == nilIMP)
                var toNobody = ic_super(receiver: nil, super_class: f.cls)
                #expect(address(ic_msg_lookup_super(&toNobody, f.s)) == nilIMP)
            }
        ),
        (
            "ic_msg_lookup_cached",
            { f in
                let none = ic_msg_lookup_cached(nil, f.s)
                #expect(none.cls == nil && none.imp == nil)
                let noSelector = ic_msg_lookup_cached(f.obj, nil)
                #expect(noSelector.cls == f.cls && noSelector.imp == nil)
            }
        ),

        // ic_send_cache.h
        (
            "ic_send_cache_lookup",
            { f in
                let none = ic_send_cache_lookup(nil, f.s, 0)
                #expect(none.imp == nil && none.entry == nil)
                let noSelector = ic_send_cache_lookup(f.obj, nil, 0)
                #expect(noSelector.imp == nil && noSelector.entry == nil)
            }
        ),
        (
            "ic_send_cache_find",
            { f in
                #expect(ic_send_cache_find(nil, f.s, 0) == nil)
                #expect(ic_send_cache_find(f.cls, nil, 0) == nil)
            }
        ),
        (
            "ic_send_cache_publish",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(!ic_send_cache_publish(nil)) }
                // An entry without a class or a selector has no slot.
                var noClass = ic_send_cache_entry(cls: nil, sel: f.s, shape: 1, validated_imp: nil)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(!ic_send_cache_publish(&noClass)) }
                var noSelector = ic_send_cache_entry(cls: f.cls, sel: nil, shape: 1, validated_imp: nil)
                expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(!ic_send_cache_publish(&noSelector)) }
            }
        ),
        ("ic_send_cache_validated_imp", { _ in #expect(ic_send_cache_validated_imp(nil) == nil) }),
        (
            "ic_send_cache_set_validated_imp",
            { f in
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(!ic_send_cache_set_validated_imp(nil, nil))
                }
            }
        ),

        // ic_signature.h
        (
            "ic_signature_parse",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_signature_parse(nil) == nil) } }
        ),
        ("ic_signature_types", { _ in #expect(ic_signature_types(nil) == nil) }),
        ("ic_signature_argument_count", { _ in #expect(ic_signature_argument_count(nil) == 0) }),
        ("ic_signature_is_method", { _ in #expect(!ic_signature_is_method(nil)) }),
        ("ic_signature_argument_type", { _ in #expect(ic_signature_argument_type(nil, 0) == nil) }),
        ("ic_signature_argument_size", { _ in #expect(ic_signature_argument_size(nil, 0) == 0) }),
        ("ic_signature_argument_alignment", { _ in #expect(ic_signature_argument_alignment(nil, 0) == 0) }),
        ("ic_signature_return_type", { _ in #expect(ic_signature_return_type(nil) == nil) }),
        ("ic_signature_return_size", { _ in #expect(ic_signature_return_size(nil) == 0) }),
        ("ic_signature_return_alignment", { _ in #expect(ic_signature_return_alignment(nil) == 0) }),
        (
            "ic_encoding_size_and_alignment",
            { _ in
                var size = 7
                var alignment = 7
                expectRefused(ic_encoding_size_and_alignment(nil, &size, &alignment, nil))
                #expect(size == 7 && alignment == 7)  // untouched
                // Every output is optional.
                #expect(ic_encoding_size_and_alignment("{P=dd}", nil, nil, nil) == IC_OK)
            }
        ),
        ("ic_encoding_validate", { _ in expectRefused(ic_encoding_validate(nil)) }),

        // ic_invocation.h
        (
            "ic_invocation_create",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_invocation_create(nil) == nil) } }
        ),
        ("ic_invocation_destroy", { _ in ic_invocation_destroy(nil) }),  // ignored
        ("ic_invocation_size", { _ in #expect(ic_invocation_size(nil) == 0) }),
        (
            "ic_invocation_init_in",
            { f in
                let size = ic_invocation_size(f.sig)
                let buffer = UnsafeMutableRawPointer.allocate(byteCount: size + 16, alignment: 16)
                defer { buffer.deallocate() }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_invocation_init_in(nil, size, f.sig) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_invocation_init_in(buffer, size, nil) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_invocation_init_in(buffer, size - 1, f.sig) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_invocation_init_in(buffer + 8, size, f.sig) == nil)
                }
            }
        ),
        (
            "ic_invocation_copy",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_invocation_copy(nil) == nil) } }
        ),
        ("ic_invocation_signature", { _ in #expect(ic_invocation_signature(nil) == nil) }),
        (
            "ic_invocation_get_argument",
            { f in
                var x: Int32 = 0
                expectRefused(ic_invocation_get_argument(nil, 2, &x))
                expectRefused(ic_invocation_get_argument(f.inv, 2, nil))
            }
        ),
        (
            "ic_invocation_set_argument",
            { f in
                var x: Int32 = 5
                expectRefused(ic_invocation_set_argument(nil, 2, &x))
                expectRefused(ic_invocation_set_argument(f.inv, 2, nil))
            }
        ),
        ("ic_invocation_argument_pointer", { _ in #expect(ic_invocation_argument_pointer(nil, 0) == nil) }),
        (
            "ic_invocation_get_return_value",
            { f in
                var r: Int32 = 0
                expectRefused(ic_invocation_get_return_value(nil, &r))
                expectRefused(ic_invocation_get_return_value(f.inv, nil))
            }
        ),
        (
            "ic_invocation_set_return_value",
            { f in
                var r: Int32 = 0
                expectRefused(ic_invocation_set_return_value(nil, &r))
                expectRefused(ic_invocation_set_return_value(f.inv, nil))
            }
        ),
        ("ic_invocation_return_pointer", { _ in #expect(ic_invocation_return_pointer(nil) == nil) }),
        (
            "ic_invocation_target",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_invocation_target(nil) == nil) } }
        ),
        ("ic_invocation_set_target", { f in expectRefused(ic_invocation_set_target(nil, f.obj)) }),
        (
            "ic_invocation_selector",
            { _ in expectRecorded(IC_ERR_INVALID_ARGUMENT) { #expect(ic_invocation_selector(nil) == nil) } }
        ),
        (
            "ic_invocation_set_selector",
            { f in
                expectRefused(ic_invocation_set_selector(nil, f.s))
                expectRefused(ic_invocation_set_selector(f.inv, nil))
            }
        ),
        (
            "ic_invocation_invoke",
            { f in
                expectRefused(ic_invocation_invoke(nil))
                // A new invocation has a NULL selector: refused, not sent.
                let fresh = ic_invocation_create(f.sig)
                defer { ic_invocation_destroy(fresh) }
                #expect(ic_invocation_set_target(fresh, f.obj) == IC_OK)
                expectRefused(ic_invocation_invoke(fresh))
            }
        ),
        (
            "ic_invocation_invoke_imp",
            { f in
                expectRefused(ic_invocation_invoke_imp(nil, imp(addOneIMP)))
                expectRefused(ic_invocation_invoke_imp(f.inv, nil))
            }
        ),
        ("ic_invocation_retain_arguments", { _ in expectRefused(ic_invocation_retain_arguments(nil)) }),
        ("ic_invocation_is_frame", { _ in #expect(!ic_invocation_is_frame(nil)) }),

        // ic_closure.h
        (
            "ic_closure_imp_create",
            { f in
                let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_closure_imp_create(nil, callback, nil, nil) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_closure_imp_create(f.sig, nil, nil, nil) == nil)
                }
            }
        ),
        ("ic_closure_imp_destroy", { _ in expectRefused(ic_closure_imp_destroy(nil)) }),
        (
            "ic_closure_imp_context",
            { _ in expectRecorded(IC_ERR_NOT_A_CLOSURE) { #expect(ic_closure_imp_context(nil) == nil) } }
        ),
        (
            "ic_closure_imp_signature",
            { _ in expectRecorded(IC_ERR_NOT_A_CLOSURE) { #expect(ic_closure_imp_signature(nil) == nil) } }
        ),
        (
            "ic_closure_imp_create_with_registers",
            { f in
                let callback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void = { _, _ in }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_closure_imp_create_with_registers(nil, callback, nil, nil, nil) == nil)
                }
                expectRecorded(IC_ERR_INVALID_ARGUMENT) {
                    #expect(ic_closure_imp_create_with_registers(f.sig, nil, nil, nil, nil) == nil)
                }
            }
        ),
        (
            "ic_closure_imp_kind",
            { _ in
                expectRecorded(IC_ERR_NOT_A_CLOSURE) {
                    #expect(ic_closure_imp_kind(nil) == IC_CLOSURE_KIND_NONE)
                }
            }
        ),

        // ic_intercept.h
        (
            "ic_intercept_prepare",
            { f in
                expectRefused(ic_intercept_prepare(nil, f.s))
                expectRefused(ic_intercept_prepare(f.obj, nil))
            }
        ),
        (
            "ic_intercept_prepare_with_options",
            { f in
                expectRefused(
                    ic_intercept_prepare_with_options(nil, f.s, UInt32(IC_INTERCEPT_FORCE_FORWARDING)))
                expectRefused(ic_intercept_prepare_with_options(f.obj, nil, 0))
            }
        ),
        (
            "ic_intercept_add_observer",
            { f in
                var token: ic_observer_token = 0
                expectRefused(
                    ic_intercept_add_observer(nil, f.s, IC_OBSERVE_BEFORE, nullCallback, nil, nil, &token))
                expectRefused(
                    ic_intercept_add_observer(f.obj, nil, IC_OBSERVE_BEFORE, nullCallback, nil, nil, &token))
                expectRefused(ic_intercept_add_observer(f.obj, f.s, IC_OBSERVE_BEFORE, nil, nil, nil, &token))
                expectRefused(
                    ic_intercept_add_observer(f.obj, f.s, IC_OBSERVE_BEFORE, nullCallback, nil, nil, nil))
                #expect(token == 0)
            }
        ),
        (
            "ic_intercept_add_dealloc_observer",
            { f in
                var token: ic_observer_token = 0
                expectRefused(
                    ic_intercept_add_dealloc_observer(nil, IC_OBSERVE_AFTER, nullCallback, nil, nil, &token))
                expectRefused(
                    ic_intercept_add_dealloc_observer(f.obj, IC_OBSERVE_BEFORE, nil, nil, nil, &token))
                expectRefused(
                    ic_intercept_add_dealloc_observer(f.obj, IC_OBSERVE_AFTER, nullCallback, nil, nil, nil))
                expectRefused(
                    ic_intercept_add_dealloc_observer(
                        f.obj, ic_observer_phase(rawValue: 7), nullCallback, nil, nil, &token))
                #expect(token == 0)
            }
        ),
        (
            "ic_intercept_remove_observer",
            { _ in expectRefused(ic_intercept_remove_observer(0), IC_ERR_OBSERVER_NOT_FOUND) }
        ),
        (
            "ic_intercept_path_of",
            { f in
                #expect(ic_intercept_path_of(nil, f.s) == IC_PATH_NONE)
                #expect(ic_intercept_path_of(f.obj, nil) == IC_PATH_NONE)
            }
        ),
        (
            "ic_hook_class_path_of",
            { f in
                #expect(ic_hook_class_path_of(nil, f.s) == IC_PATH_NONE)
                #expect(ic_hook_class_path_of(f.cls, nil) == IC_PATH_NONE)
            }
        ),
        (
            "ic_intercept_entry_of",
            { f in
                #expect(ic_intercept_entry_of(nil, f.s) == IC_ENTRY_NONE)
                #expect(ic_intercept_entry_of(f.obj, nil) == IC_ENTRY_NONE)
            }
        ),
        (
            "ic_hook_class_entry_of",
            { f in
                #expect(ic_hook_class_entry_of(nil, f.s) == IC_ENTRY_NONE)
                #expect(ic_hook_class_entry_of(f.cls, nil) == IC_ENTRY_NONE)
            }
        ),
        ("ic_intercept_original_class", { _ in #expect(ic_intercept_original_class(nil) == nil) }),
        // ic_observe.h
        (
            "ic_object_observe_key_path",
            { f in
                var observation: OpaquePointer? = nil
                let fn: ic_key_path_observer_fn = { _, _, _ in }
                expectRefused(ic_object_observe_key_path(nil, "value", "i", 0, fn, nil, nil, &observation))
                expectRefused(ic_object_observe_key_path(f.obj, nil, "i", 0, fn, nil, nil, &observation))
                expectRefused(ic_object_observe_key_path(f.obj, "value", nil, 0, fn, nil, nil, &observation))
                expectRefused(ic_object_observe_key_path(f.obj, "value", "i", 0, nil, nil, nil, &observation))
                expectRefused(ic_object_observe_key_path(f.obj, "value", "i", 0, fn, nil, nil, nil))
                #expect(observation == nil)
            }
        ),
        ("ic_key_path_observation_remove", { _ in expectRefused(ic_key_path_observation_remove(nil)) }),
        ("ic_key_path_observation_is_active", { _ in #expect(!ic_key_path_observation_is_active(nil)) }),
        // ic_hook_every.h
        (
            "ic_object_hook_every_method",
            { f in
                var hooked = 7
                expectRefused(
                    ic_object_hook_every_method(nil, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, nil, &hooked))
                #expect(hooked == 0)
                expectRefused(ic_object_hook_every_method(f.obj, IC_HOOK_BEFORE, 0, nil, nil, nil, nil, nil))
                #expect(!ic_hook_object_is_hooked(f.obj, f.s))
            }
        ),
        // ic_describe.h
        (
            "ic_format_value",
            { _ in
                var value: Int32 = 5
                var buffer = [CChar](repeating: 0, count: 16)
                #expect(ic_format_value(nil, &value, &buffer, buffer.count) == -1)
                #expect(statusName(ic_error_status()) == statusName(IC_ERR_INVALID_ARGUMENT))
                #expect(ic_format_value("i", nil, &buffer, buffer.count) == -1)
                #expect(ic_format_value("i", &value, nil, 4) == -1)
                #expect(ic_format_value("i", &value, nil, 0) == 1)  // only the length, as snprintf
            }
        ),
        (
            "ic_invocation_describe",
            { f in
                var buffer = [CChar](repeating: 0, count: 16)
                #expect(ic_invocation_describe(nil, &buffer, buffer.count) == -1)
                #expect(statusName(ic_error_status()) == statusName(IC_ERR_INVALID_ARGUMENT))
                #expect(ic_invocation_describe(f.inv, nil, 4) == -1)
            }
        ),
        (
            "ic_hook_object",
            { f in
                var token: ic_observer_token = 0
                expectRefused(ic_hook_object(nil, f.s, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, &token))
                expectRefused(ic_hook_object(f.obj, nil, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, &token))
                expectRefused(ic_hook_object(f.obj, f.s, IC_HOOK_BEFORE, 0, nil, nil, nil, &token))
                expectRefused(ic_hook_object(f.obj, f.s, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, nil))
            }
        ),
        (
            "ic_hook_class",
            { f in
                var token: ic_observer_token = 0
                expectRefused(ic_hook_class(nil, f.s, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, &token))
                expectRefused(ic_hook_class(f.cls, nil, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, &token))
                expectRefused(ic_hook_class(f.cls, f.s, IC_HOOK_BEFORE, 0, nil, nil, nil, &token))
                expectRefused(ic_hook_class(f.cls, f.s, IC_HOOK_BEFORE, 0, nullCallback, nil, nil, nil))
            }
        ),
        (
            "ic_hook_remove",
            { _ in #expect(statusName(ic_hook_remove(0)) == "IC_ERR_OBSERVER_NOT_FOUND") }
        ),
        (
            "ic_hook_remove_reporting",
            { _ in
                var outcome: UInt32 = 7
                expectRefused(ic_hook_remove_reporting(0, &outcome), IC_ERR_OBSERVER_NOT_FOUND)
                #expect(outcome == 0)
                expectRefused(ic_hook_remove_reporting(0, nil), IC_ERR_OBSERVER_NOT_FOUND)
            }
        ),
        ("ic_hook_is_active", { _ in #expect(!ic_hook_is_active(0)) }),
        (
            "ic_hook_object_deallocated",
            { f in
                var token: ic_observer_token = 0
                let fn: @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void =
                    {
                        _, _, _ in
                    }
                expectRefused(ic_hook_object_deallocated(nil, fn, nil, nil, &token))
                expectRefused(ic_hook_object_deallocated(f.obj, nil, nil, nil, &token))
                expectRefused(ic_hook_object_deallocated(f.obj, fn, nil, nil, nil))
                #expect(token == 0)
            }
        ),
        (
            "ic_hook_class_deallocated",
            { f in
                var token: ic_observer_token = 0
                let fn: @convention(c) (UnsafeRawPointer?, OpaquePointer?, UnsafeMutableRawPointer?) -> Void =
                    {
                        _, _, _ in
                    }
                expectRefused(ic_hook_class_deallocated(nil, fn, nil, nil, &token))
                expectRefused(ic_hook_class_deallocated(f.cls, nil, nil, nil, &token))
                expectRefused(ic_hook_class_deallocated(f.cls, fn, nil, nil, nil))
                #expect(token == 0)
            }
        ),
        (
            "ic_hook_object_is_hooked",
            { f in
                #expect(!ic_hook_object_is_hooked(nil, f.s))
                #expect(!ic_hook_object_is_hooked(f.obj, nil))
            }
        ),
        (
            "ic_hook_class_is_hooked",
            { f in
                #expect(!ic_hook_class_is_hooked(nil, f.s))
                #expect(!ic_hook_class_is_hooked(f.cls, nil))
            }
        ),
        (
            "ic_hook_object_copy_list",
            { f in
                var count = 7
                #expect(ic_hook_object_copy_list(nil, &count) == nil)
                #expect(count == 0)
                #expect(ic_hook_object_copy_list(f.obj, nil) == nil)
            }
        ),
        (
            "ic_hook_class_copy_list",
            { f in
                var count = 7
                #expect(ic_hook_class_copy_list(nil, &count) == nil)
                #expect(count == 0)
                #expect(ic_hook_class_copy_list(f.cls, nil) == nil)
            }
        ),
        (
            "ic_hook_object_remove_all",
            { f in
                var removed = 7
                expectRefused(ic_hook_object_remove_all(nil, f.s, &removed))
                #expect(removed == 0)
                #expect(ic_hook_object_remove_all(f.obj, nil, nil) == IC_OK)
            }
        ),
        (
            "ic_hook_class_remove_all",
            { f in
                var removed = 7
                expectRefused(ic_hook_class_remove_all(nil, f.s, &removed))
                #expect(removed == 0)
                #expect(ic_hook_class_remove_all(f.cls, nil, nil) == IC_OK)
            }
        ),
        ("ic_hook_call_original", { _ in expectRefused(ic_hook_call_original(nil)) }),
        ("ic_intercept_get_counters", { _ in ic_intercept_get_counters(nil) }),  // ignored
        (
            "ic_intercept_get_class_counters",
            { f in
                var counters = ic_intercept_counters()
                expectRefused(ic_intercept_get_class_counters(nil, &counters))
                expectRefused(ic_intercept_get_class_counters(f.cls, nil))
            }
        ),
    ]
}

/// The functions the public headers export, read from the headers themselves.
private func exportedFunctions() throws -> Set<String> {
    let include =
        String(#filePath.split(separator: "/Tests/CInterceptionTests/").first!)
        + "/CSources/CInterception/include/interception"
    // Every header the umbrella header and the bindings' header include, and those two, so that
    // a new public header cannot be missed.
    var headers = ["interception.h", "ic_bindings.h"]
    for top in ["interception.h", "ic_bindings.h"] {
        let text = try #require(readTextFile(include + "/" + top), "cannot read \(top)")
        headers += text.matches(of: /#include "(ic_[a-z0-9_]+\.h)"/).map { String($0.1) }
    }
    #expect(headers.count >= 16)
    var names = Set<String>()
    for header in Set(headers) {
        let text = try #require(readTextFile(include + "/" + header), "cannot read \(header)")
        for match in text.matches(of: /IC_EXPORT[^;(]*?\b(ic_[a-z0-9_]+)\s*\(/) {
            names.insert(String(match.1))
        }
    }
    return names
}

/// The contents of a text file, or nil.
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let n = fread(&buffer, 1, buffer.count, file)
        if n == 0 { break }
        bytes += buffer[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}

@Suite("Bad input: NULL arguments to every public function")
struct NullArgumentTests {
    @Test(
        "every public function refuses NULL where its header does not allow it, records the documented error, and changes nothing"
    )
    func everyFunctionRefusesNull() throws {
        let cls = try makeClass("NullCases", methods: [("add:", imp(addOneIMP), "i@:i")])
        let obj = try #require(ic_class_create_instance(cls))
        let sig = try #require(ic_signature_parse("i@:i"))
        let inv = try #require(ic_invocation_create(sig))
        defer {
            ic_invocation_destroy(inv)
            ic_release(obj)
        }
        let fixture = BadInputFixture(
            cls: cls, obj: obj, s: sel("add:"), method: try #require(ic_class_get_method(cls, sel("add:"))),
            sig: sig, inv: inv)
        for (_, check) in nullArgumentCases() {
            check(fixture)
        }
        // Nothing above touched the fixture's class or object.
        #expect(ClassCounters(cls) == ClassCounters(liveObjects: 1))
        #expect(ic_object_retain_count(obj) == 1)
        #expect(lookup(obj, "add:", as: Int32Int32IMP.self)(obj, sel("add:"), 1) == 2)
    }

    @Test("the cases cover every function the public headers export")
    func casesCoverEveryExport() throws {
        let exported = try exportedFunctions()
        #expect(exported.count > 100)  // the regular expression found the declarations
        let covered = Set(nullArgumentCases().map(\.function)).union(functionsWithoutArguments)
        #expect(exported.subtracting(covered).sorted() == [], "public functions without a bad-input case")
        #expect(covered.subtracting(exported).sorted() == [], "cases for functions that are not exported")
    }
}
