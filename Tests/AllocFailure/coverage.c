/*
 * coverage.c — the public C functions (CSources/CInterception/include/, IC_EXPORT), one line
 * each: swept (a case of cases_*.c names it: its allocations are failed in turn, or it is checked
 * to make none) or why not. run.sh fails if this list and the headers' exports differ, so a new
 * public function needs a line here, and a case unless it says why not.
 */
#include "coverage.h"

#include <stddef.h>

/* A function the sweep covers. */
#define SWEPT(name) {#name, NULL},

const af_function af_functions[] = {
    SWEPT(ic_autorelease) SWEPT(ic_autorelease_free) SWEPT(ic_autorelease_pool_count) SWEPT(
        ic_autorelease_pool_pop) SWEPT(ic_autorelease_pool_push) SWEPT(ic_class_add_class_method)
        SWEPT(ic_class_add_method) SWEPT(ic_class_add_property) SWEPT(ic_class_add_protocol) SWEPT(
            ic_class_allocate) SWEPT(ic_class_conforms_to_protocol) SWEPT(ic_class_copy_method_list)
            SWEPT(ic_class_copy_property_list) SWEPT(ic_class_copy_protocol_list) SWEPT(
                ic_class_count) SWEPT(ic_class_create_instance) SWEPT(ic_class_dispose) SWEPT(ic_class_forwards_invocations)
                SWEPT(ic_class_get_class_method) SWEPT(ic_class_get_imp) SWEPT(ic_class_get_method) SWEPT(
                    ic_class_get_own_method) SWEPT(ic_class_get_property) SWEPT(ic_class_instance_size)
                    SWEPT(ic_class_is_interception_subclass) SWEPT(ic_class_is_metaclass) SWEPT(ic_class_is_registered) SWEPT(
                        ic_class_is_subclass_of) SWEPT(ic_class_live_instance_count) SWEPT(ic_class_lookup) SWEPT(ic_class_metaclass)
                        SWEPT(ic_class_method_types) SWEPT(ic_class_name) SWEPT(ic_class_register) SWEPT(ic_class_replace_method) SWEPT(ic_class_responds_to) SWEPT(ic_class_root) SWEPT(ic_class_storage_offset) SWEPT(ic_class_storage_size) SWEPT(ic_class_superclass) SWEPT(ic_closure_imp_context) SWEPT(ic_closure_imp_create) SWEPT(ic_closure_imp_create_with_registers) SWEPT(ic_closure_imp_destroy) SWEPT(ic_closure_imp_kind) SWEPT(ic_closure_imp_signature) SWEPT(ic_encoding_size_and_alignment) SWEPT(ic_encoding_validate) SWEPT(ic_error_clear) SWEPT(ic_error_message) SWEPT(ic_error_position) SWEPT(ic_error_status) SWEPT(ic_hook_call_original) SWEPT(ic_hook_class) SWEPT(ic_hook_class_path_of) SWEPT(ic_hook_object) SWEPT(ic_hook_remove) SWEPT(ic_intercept_add_dealloc_observer) SWEPT(ic_intercept_add_observer) SWEPT(ic_intercept_get_class_counters) SWEPT(ic_intercept_get_counters) SWEPT(ic_intercept_original_class) SWEPT(ic_intercept_path_of) SWEPT(ic_intercept_prepare) SWEPT(ic_intercept_prepare_with_options) SWEPT(ic_intercept_quiesce) SWEPT(ic_intercept_remove_observer) SWEPT(ic_invocation_argument_pointer) SWEPT(
                            ic_invocation_copy) SWEPT(ic_invocation_create) SWEPT(ic_invocation_destroy) SWEPT(ic_invocation_get_argument) SWEPT(ic_invocation_get_return_value) SWEPT(ic_invocation_init_in) SWEPT(ic_invocation_invoke) SWEPT(ic_invocation_invoke_imp) SWEPT(ic_invocation_is_frame) SWEPT(ic_invocation_retain_arguments) SWEPT(ic_invocation_return_pointer) SWEPT(ic_invocation_selector) SWEPT(ic_invocation_set_argument) SWEPT(ic_invocation_set_return_value)
                            SWEPT(ic_invocation_set_selector) SWEPT(ic_invocation_set_target) SWEPT(ic_invocation_signature) SWEPT(
                                ic_invocation_size) SWEPT(ic_invocation_target) SWEPT(ic_method_exchange_imps) SWEPT(ic_method_imp)
                                SWEPT(ic_method_selector) SWEPT(ic_method_set_imp) SWEPT(ic_method_signature) SWEPT(ic_method_types) SWEPT(
                                    ic_msg_lookup) SWEPT(ic_msg_lookup_cached) SWEPT(ic_msg_lookup_super) SWEPT(ic_nil_imp)
                                    SWEPT(ic_object_as_class) SWEPT(ic_object_class_name) SWEPT(ic_object_copy_associated) SWEPT(ic_object_copy_checked_property_value) SWEPT(ic_object_copy_property_value) SWEPT(ic_object_copy_value_for_key) SWEPT(ic_object_copy_value_for_key_path) SWEPT(ic_object_get_associated) SWEPT(ic_object_get_class) SWEPT(ic_object_is_deallocating) SWEPT(ic_object_live_count) SWEPT(ic_object_remove_associated_objects) SWEPT(
                                        ic_object_retain_count) SWEPT(ic_object_set_associated) SWEPT(ic_object_set_class) SWEPT(ic_object_set_value_for_key) SWEPT(ic_object_set_value_for_key_path) SWEPT(ic_object_setter_for_key)
                                        SWEPT(ic_object_storage) SWEPT(
                                            ic_object_storage_for_class) SWEPT(ic_object_storage_size) SWEPT(ic_object_value_type_for_key)
                                            SWEPT(ic_property_attributes) SWEPT(ic_property_class) SWEPT(
                                                ic_property_getter) SWEPT(ic_property_name) SWEPT(ic_property_setter) SWEPT(ic_property_type)
                                                SWEPT(ic_protocol_add_method_description) SWEPT(ic_protocol_add_protocol) SWEPT(ic_protocol_allocate) SWEPT(
                                                    ic_protocol_conforms_to_protocol) SWEPT(ic_protocol_copy_method_description_list)
                                                    SWEPT(ic_protocol_copy_protocol_list) SWEPT(ic_protocol_dispose) SWEPT(
                                                        ic_protocol_get_method_description) SWEPT(ic_protocol_is_registered)
                                                        SWEPT(ic_protocol_lookup) SWEPT(ic_protocol_name) SWEPT(
                                                            ic_protocol_register) SWEPT(ic_release)
                                                            SWEPT(ic_retain) SWEPT(ic_runtime_version) SWEPT(
                                                                ic_sel_count) SWEPT(ic_sel_lookup)
                                                                SWEPT(ic_sel_name) SWEPT(ic_sel_register) SWEPT(
                                                                    ic_send_cache_find) SWEPT(ic_send_cache_lookup)
                                                                    SWEPT(ic_send_cache_publish) SWEPT(
                                                                        ic_send_cache_set_validated_imp) SWEPT(ic_send_cache_validated_imp)
                                                                        SWEPT(ic_signature_argument_alignment) SWEPT(
                                                                            ic_signature_argument_count) SWEPT(ic_signature_argument_size)
                                                                            SWEPT(ic_signature_argument_type) SWEPT(
                                                                                ic_signature_is_method) SWEPT(ic_signature_parse)
                                                                                SWEPT(ic_signature_return_alignment) SWEPT(
                                                                                    ic_signature_return_size) SWEPT(ic_signature_return_type)
                                                                                    SWEPT(ic_signature_types) SWEPT(
                                                                                        ic_status_name)
                                                                                        SWEPT(ic_weak_destroy) SWEPT(
                                                                                            ic_weak_load_retained)
                                                                                            SWEPT(ic_weak_store) SWEPT(
                                                                                                ic_zombies_enabled)
                                                                                                SWEPT(
                                                                                                    ic_zombies_set_enabled){
                                                                                                    NULL,
                                                                                                    NULL},
};
