/*
 * kvc.c — key-value coding: reading and writing values by key and key path through accessor
 * messages, with the caller's type checked against the accessor's encoding.
 *
 * A set always sends the setter (so interception, hooks and property observation see it). A get
 * sends the getter too, except when the object's getter is still the synthesized accessor of a
 * declared property: then the slot is read directly, which is what the getter would do, with the
 * retain or copy taken under the slot's lock. Calls go through invocations on the stack, so every
 * type encoding libffi can call works.
 *
 * Locking: only what the callees take (ic_runtime_lock briefly to resolve a declared property).
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/class.h"
#include "../runtime/object.h"
#include "../runtime/property.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "../types/signature.h"
#include "invocation.h"

/* Longest key or selector name built here (keys longer than this are refused). */
#define MAX_KEY 256

/* How a key is read or written on one object. */
typedef struct key_access {
    ic_sel sel;                  /* the accessor */
    const ic_signature *sig;     /* its signature (of the receiver's class) */
    const ic_property *property; /* the declared property, if any */
} key_access;

static bool responds(ic_id obj, ic_sel sel)
{
    return sel && ic_class_responds_to(ic_object_isa(obj), sel);
}

/* The selector "prefixKey" (key capitalized), or "key" + suffix, if it is registered (a method
 * needs a registered selector, so an unregistered name has no method: resolving a key registers
 * nothing and allocates nothing). */
static ic_sel selector_for(const char *prefix, const char *key, const char *suffix)
{
    char name[MAX_KEY + 8];
    size_t p = strlen(prefix), k = strlen(key), s = strlen(suffix);
    if (p + k + s >= sizeof name) return NULL;
    memcpy(name, prefix, p);
    memcpy(name + p, key, k);
    memcpy(name + p + k, suffix, s + 1);
    if (p && name[p] >= 'a' && name[p] <= 'z') name[p] = (char)(name[p] - 'a' + 'A');
    return ic_sel_lookup(name);
}

static const ic_property *declared_property(ic_id obj, const char *key)
{
    return ic_class_get_property(ic_object_isa(obj), key);
}

static ic_status unknown_key(ic_id obj, const char *key, const char *what)
{
    return ic_fail(IC_ERR_UNKNOWN_KEY, "class \"%s\" has no %s for key \"%s\"",
                   ic_object_isa(obj)->name, what, key);
}

static ic_status accessor_signature(ic_id obj, key_access *access)
{
    const char *types = ic_class_method_types(ic_object_isa(obj), access->sel);
    access->sig = types ? ic_signature_parse(types) : NULL;
    return access->sig ? IC_OK : ic_error_status();
}

static ic_status resolve_getter(ic_id obj, const char *key, key_access *access)
{
    if (strlen(key) > MAX_KEY)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "key \"%.32s...\" is too long", key);
    access->property = declared_property(obj, key);
    access->sel = NULL;
    if (access->property && responds(obj, access->property->getter)) {
        access->sel = access->property->getter;
    } else {
        access->property = NULL;
        ic_sel candidates[3] = {selector_for("get", key, ""), selector_for("", key, ""),
                                selector_for("is", key, "")};
        for (int i = 0; i < 3 && !access->sel; i++)
            if (responds(obj, candidates[i])) access->sel = candidates[i];
    }
    if (!access->sel) return unknown_key(obj, key, "getter");
    ic_status s = accessor_signature(obj, access);
    if (s) return s;
    if (access->sig->arg_count != 2 || access->sig->ret.type->kind == IC_KIND_VOID)
        return ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                       "%c[%s %s] (\"%s\") is not a getter: it must take no argument and return "
                       "a value",
                       ic_class_sign(ic_object_isa(obj)), ic_object_isa(obj)->name,
                       ic_sel_name(access->sel), access->sig->types);
    return IC_OK;
}

static ic_status resolve_setter(ic_id obj, const char *key, key_access *access)
{
    if (strlen(key) > MAX_KEY)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "key \"%.32s...\" is too long", key);
    access->property = declared_property(obj, key);
    if (access->property && (access->property->attributes & IC_PROPERTY_READONLY))
        return ic_fail(IC_ERR_READONLY_KEY, "property \"%s\" of \"%s\" is readonly", key,
                       ic_object_isa(obj)->name);
    access->sel = access->property ? access->property->setter : selector_for("set", key, ":");
    if (!responds(obj, access->sel)) return unknown_key(obj, key, "setter");
    ic_status s = accessor_signature(obj, access);
    if (s) return s;
    if (access->sig->arg_count != 3 || access->sig->ret.type->kind != IC_KIND_VOID)
        return ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                       "%c[%s %s] (\"%s\") is not a setter: it must take one argument and return "
                       "void",
                       ic_class_sign(ic_object_isa(obj)), ic_object_isa(obj)->name,
                       ic_sel_name(access->sel), access->sig->types);
    return IC_OK;
}

/* Whether a value of `type` is exactly a value of `expected`: the same encoding, or integers of
 * the same signedness and size (`l` is `i` and `L` is `I`: 32-bit in encodings, ic_types.def). */
static bool same_value(const ic_sig_value *type, const ic_sig_value *expected)
{
    if (strcmp(type->encoding, expected->encoding) == 0) return true;
    ic_type_kind kind = type->type->kind;
    return (kind == IC_KIND_SINT || kind == IC_KIND_UINT) && kind == expected->type->kind &&
           type->size == expected->size;
}

/* Whether the caller's `type` is `expected` (normalized) or the same values (same_value), with a
 * buffer of `size` bytes. */
static ic_status check_type(ic_id obj, const char *key, const ic_sig_value *expected,
                            const char *type, size_t size)
{
    char types[MAX_KEY];
    int n = snprintf(types, sizeof types, "%s@:", type);
    if (n <= 0 || (size_t)n >= sizeof types)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "type encoding \"%.32s...\" is too long", type);
    const ic_signature *caller = ic_signature_parse(types);
    if (!caller) return ic_error_status();
    if (!caller->is_method || caller->arg_count != 2 || !same_value(&caller->ret, expected))
        return ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                       "key \"%s\" of \"%s\" has type \"%s\", not \"%s\"", key,
                       ic_object_isa(obj)->name, expected->encoding, type);
    if (size < expected->size)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "key \"%s\": a buffer of %zu bytes cannot hold a \"%s\" (%zu bytes)", key,
                       size, expected->encoding, expected->size);
    return IC_OK;
}

/* Sends an accessor through a stack invocation; `arg` is the setter's argument or NULL, `out`
 * receives the getter's result or is NULL. */
static ic_status send_accessor(ic_id obj, const key_access *access, const void *arg, void *out)
{
    size_t bytes = ic_invocation_size(access->sig);
    void *buffer = bytes <= 512 ? alloca(bytes) : malloc(bytes);
    if (!buffer) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory sending an accessor");
    ic_invocation *inv = ic_invocation_init_in(buffer, bytes, access->sig);
    ic_status s = inv ? IC_OK : ic_error_status();
    if (!s) s = ic_invocation_set_target(inv, obj);
    if (!s) s = ic_invocation_set_selector(inv, access->sel);
    if (!s && arg) s = ic_invocation_set_argument(inv, 2, arg);
    if (!s) s = ic_invocation_invoke(inv);
    if (!s && out) s = ic_invocation_get_return_value(inv, out);
    if (inv) ic_invocation_destroy(inv);
    if (bytes > 512) free(buffer);
    return s;
}

/* Makes a value the getter returned +0 owned by the caller (objects retained, strings copied). */
static ic_status take_ownership(const ic_sig_value *type, void *value)
{
    if (type->type->kind == IC_KIND_OBJECT) {
        ic_retain(*(ic_id *)value);
    } else if (type->type->kind == IC_KIND_CSTRING && *(char **)value) {
        char *copy = strdup(*(char **)value);
        if (!copy) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying a string value");
        *(char **)value = copy;
    }
    return IC_OK;
}

/* Whether the object's getter is still the synthesized one (not replaced, intercepted or
 * overridden): then reading the slot is exactly what it would do. Lock-free. */
static bool getter_is_synthesized(ic_id obj, const ic_property *p)
{
    return p && p->getter_imp && ic_msg_lookup(obj, p->getter) == p->getter_imp;
}

ic_status ic_object_copy_value_for_key(ic_id obj, const char *key, const char *type, void *out,
                                       size_t size)
{
    if (!obj || !key || !type || !out)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_copy_value_for_key: %s is NULL",
                       !obj    ? "obj"
                       : !key  ? "key"
                       : !type ? "type"
                               : "out");
    key_access access;
    ic_status s = resolve_getter(obj, key, &access);
    if (!s) s = check_type(obj, key, &access.sig->ret, type, size);
    if (s) return s;
    if (getter_is_synthesized(obj, access.property)) {
        if (!ic_property_load_owned(obj, access.property, out))
            return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying a string value");
        return IC_OK;
    }
    s = send_accessor(obj, &access, NULL, out);
    return s ? s : take_ownership(&access.sig->ret, out);
}

ic_status ic_object_set_value_for_key(ic_id obj, const char *key, const char *type,
                                      const void *value, size_t size)
{
    if (!obj || !key || !type || !value)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_set_value_for_key: %s is NULL",
                       !obj    ? "obj"
                       : !key  ? "key"
                       : !type ? "type"
                               : "value");
    key_access access;
    ic_status s = resolve_setter(obj, key, &access);
    if (!s) s = check_type(obj, key, &access.sig->args[2], type, size);
    if (s) return s;
    /* A synthesized setter that cannot store (no memory for a string's copy or a weak
     * reference's registration) keeps the old value and counts the failure: report it. */
    unsigned failures = ic_property_store_failures();
    s = send_accessor(obj, &access, value, NULL);
    if (!s && ic_property_store_failures() != failures)
        s = ic_fail(IC_ERR_OUT_OF_MEMORY,
                    "out of memory setting key \"%s\" of \"%s\": the value was not stored", key,
                    ic_object_isa(obj)->name);
    return s;
}

const char *ic_object_value_type_for_key(ic_id obj, const char *key)
{
    if (!obj || !key) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_value_type_for_key: %s is NULL",
                !obj ? "obj" : "key");
        return NULL;
    }
    key_access access;
    return resolve_getter(obj, key, &access) ? NULL : access.sig->ret.encoding;
}

ic_sel ic_object_setter_for_key(ic_id obj, const char *key)
{
    if (!obj || !key) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_setter_for_key: %s is NULL",
                !obj ? "obj" : "key");
        return NULL;
    }
    key_access access;
    return resolve_setter(obj, key, &access) ? NULL : access.sel;
}

static ic_status copy_checked_property_value(ic_id obj, const ic_property *property, void *out);

ic_status ic_object_copy_property_value(ic_id obj, const ic_property *property, void *out,
                                        size_t size)
{
    if (!obj || !property || !out)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_copy_property_value: %s is NULL",
                       !obj        ? "obj"
                       : !property ? "property"
                                   : "out");
    if (size < property->size)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\": a buffer of %zu bytes cannot hold a \"%s\" (%zu bytes)",
                       property->name, size, property->type, property->size);
    if (!ic_class_is_subclass_of(ic_object_isa(obj), property->owner))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" belongs to \"%s\", not to an instance of \"%s\"",
                       property->name, property->owner->name, ic_object_isa(obj)->name);
    return copy_checked_property_value(obj, property, out);
}

static ic_status copy_checked_property_value(ic_id obj, const ic_property *property, void *out)
{
    if (getter_is_synthesized(obj, property)) {
        if (!ic_property_load_owned(obj, property, out))
            return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying a string value");
        return IC_OK;
    }
    key_access access = {.sel = property->getter, .sig = NULL, .property = property};
    if (!responds(obj, access.sel)) return unknown_key(obj, property->name, "getter");
    ic_status s = accessor_signature(obj, &access);
    if (s) return s;
    if (access.sig->arg_count != 2 || strcmp(access.sig->ret.encoding, property->type) != 0)
        return ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                       "%c[%s %s] (\"%s\") is not the getter of property \"%s\" (\"%s\")",
                       ic_class_sign(ic_object_isa(obj)), ic_object_isa(obj)->name,
                       ic_sel_name(access.sel), access.sig->types, property->name, property->type);
    s = send_accessor(obj, &access, NULL, out);
    return s ? s : take_ownership(&access.sig->ret, out);
}

ic_status ic_object_copy_checked_property_value(ic_id obj, const ic_property *property, void *out)
{
    /* NULL stays refused (three predictable branches); the class and size checks are the
     * caller's, done once. */
    if (IC_UNLIKELY(!obj || !property || !out))
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_copy_checked_property_value: %s is NULL",
                       !obj        ? "obj"
                       : !property ? "property"
                                   : "out");
    return copy_checked_property_value(obj, property, out);
}

/* ---------------------------------------------------------------------------------------------
 * Key paths
 * ------------------------------------------------------------------------------------------- */

/* Follows every key of `path` but the last from `obj`. Returns the object the last key applies
 * to, retained (NULL when an object on the way is NULL), and points *last at the last key (a
 * copy in `scratch`). */
static ic_status follow_path(ic_id obj, const char *path, char *scratch, size_t scratch_size,
                             ic_id *target, const char **last)
{
    size_t n = strlen(path);
    if (n >= scratch_size)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "key path \"%.32s...\" is too long", path);
    memcpy(scratch, path, n + 1);
    ic_id current = ic_retain(obj);
    char *key = scratch;
    for (char *dot = strchr(key, '.'); dot; dot = strchr(key, '.')) {
        *dot = '\0';
        if (!*key) {
            ic_release(current);
            return ic_fail(IC_ERR_INVALID_ARGUMENT, "key path \"%s\" has an empty key", path);
        }
        ic_id next = NULL;
        ic_status s =
            current ? ic_object_copy_value_for_key(current, key, "@", &next, sizeof next) : IC_OK;
        ic_release(current);
        if (s) return s;
        current = next;
        key = dot + 1;
    }
    if (!*key) {
        ic_release(current);
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "key path \"%s\" has an empty key", path);
    }
    *target = current;
    *last = key;
    return IC_OK;
}

/* Reads into `out` (when `value` is NULL) or sets from `value` the last key of `key_path`. */
static ic_status access_key_path(const char *function, ic_id obj, const char *key_path,
                                 const char *type, void *out, const void *value, size_t size)
{
    if (!obj || !key_path || !type || !(out || value))
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "%s: %s is NULL", function,
                       !obj        ? "obj"
                       : !key_path ? "key path"
                       : !type     ? "type"
                       : out       ? "out"
                                   : "value");
    char scratch[4 * MAX_KEY];
    ic_id target = NULL;
    const char *last = NULL;
    ic_status s = follow_path(obj, key_path, scratch, sizeof scratch, &target, &last);
    if (s) return s;
    if (target) {
        s = value ? ic_object_set_value_for_key(target, last, type, value, size)
                  : ic_object_copy_value_for_key(target, last, type, out, size);
        ic_release(target);
        return s;
    }
    if (value) return IC_OK; /* a set through nil does nothing */
    /* A read through nil: a zero value of the caller's type. */
    size_t bytes = 0, align = 0;
    s = ic_encoding_size_and_alignment(type, &bytes, &align, NULL);
    if (s) return s;
    if (size < bytes)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "key path \"%s\": a buffer of %zu bytes cannot hold a \"%s\"", key_path,
                       size, type);
    memset(out, 0, bytes);
    return IC_OK;
}

ic_status ic_object_copy_value_for_key_path(ic_id obj, const char *key_path, const char *type,
                                            void *out, size_t size)
{
    /* `out` NULL would read as a set: refuse it here. */
    if (!out && obj && key_path && type)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_copy_value_for_key_path: out is NULL");
    return access_key_path("ic_object_copy_value_for_key_path", obj, key_path, type, out, NULL,
                           size);
}

ic_status ic_object_set_value_for_key_path(ic_id obj, const char *key_path, const char *type,
                                           const void *value, size_t size)
{
    if (!value && obj && key_path && type)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_set_value_for_key_path: value is NULL");
    return access_key_path("ic_object_set_value_for_key_path", obj, key_path, type, NULL, value,
                           size);
}
