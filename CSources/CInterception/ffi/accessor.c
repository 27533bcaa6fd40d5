/*
 * accessor.c — synthesized property accessors, and ic_class_add_property, which declares a
 * property (runtime/property.c) and adds its accessors as methods.
 *
 * Most types get the typed C functions of runtime/typed_accessor.c: ordinary functions shared
 * by every property of the type, no libffi. The others (structs, unions, long double, and a
 * subclass redeclaring an accessor of a superclass's typed property) get a closure of the
 * getter's (`T@:`) or setter's (`v@:T`) signature whose context is the property record: the
 * callback reads or writes the slot the record names. It is made as the runtime's other own
 * closures are (ic_closure_make_unregistered): a universal trampoline stub while one is free, so
 * no libffi on the call (13.6-13.7 ns against 19.8-20.1 for a 24-byte struct getter, bench
 * property_struct_get and property_libffi_struct_get), else, or with IC_CLOSURE_FORCE_LIBFFI
 * set, a libffi closure.
 *
 * Locking: ic_class_add_property holds ic_runtime_lock while it validates, makes the closures and
 * adds the methods, so a concurrent declaration of the same name or selector sees all or nothing.
 * Closures are made under it (allocation, signature parsing and planning, and the stubs' free
 * list under ic_closure_lock: leaf locks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/class.h"
#include "../runtime/property.h"
#include "../runtime/typed_accessor.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "../types/signature.h"
#include "closure.h"
#include "invocation.h"

/* The accessor closures of a property that has no typed C functions (records of
 * ic_closure_make_unregistered, owned; NULL for none). */
typedef struct accessors {
    void *getter_closure;
    void *setter_closure;
} accessors;

/* The getter's closure callback: loads the slot into the call's return storage. A libffi
 * closure's storage holds a narrow integer widened to ffi_arg (plain_ret_size 0), which
 * ic_invocation_set_return_value writes; a universal stub's (plain) holds the value as is. */
static void getter_frame(ic_invocation *inv, void *context)
{
    const ic_property *p = context;
    ic_id self = *(ic_id *)inv->args[0];
    if (inv->plain_ret_size || p->size >= sizeof(ffi_arg)) {
        ic_property_load(self, p, inv->ret);
    } else {
        alignas(8) unsigned char value[sizeof(ffi_arg)];
        ic_property_load(self, p, value);
        ic_invocation_set_return_value(inv, value);
    }
}

static void setter_frame(ic_invocation *inv, void *context)
{
    ic_property_store(*(ic_id *)inv->args[0], context, inv->args[2]);
}

static void release_accessors(ic_property *p)
{
    accessors *a = p->accessors;
    if (!a) return;
    if (a->getter_closure) ic_closure_free_unregistered(a->getter_closure);
    if (a->setter_closure) ic_closure_free_unregistered(a->setter_closure);
    free(a);
    p->accessors = NULL;
}

/* "v@:" + type */
static const ic_signature *setter_signature(const char *type)
{
    size_t n = strlen(type);
    char *types = malloc(n + 4);
    if (!types) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory making a setter signature");
        return NULL;
    }
    memcpy(types, "v@:", 3);
    memcpy(types + 3, type, n + 1);
    const ic_signature *sig = ic_signature_parse(types);
    free(types);
    return sig;
}

/* Adds the accessors as methods of the property's class. Caller holds ic_runtime_lock. */
static ic_status add_accessor_methods_locked(ic_property *p, ic_imp getter_imp,
                                             const char *getter_types, ic_imp setter_imp,
                                             const char *setter_types, bool typed)
{
    ic_class *cls = p->owner;
    ic_status s = ic_class_add_method_locked(cls, p->getter, getter_imp, getter_types);
    if (s) return s;
    p->getter_imp = getter_imp;
    if (setter_imp) {
        s = ic_class_add_method_locked(cls, p->setter, setter_imp, setter_types);
        if (s) {
            /* Undo the getter: the class is unregistered, so its list is private to us. */
            cls->method_count--;
            free((void *)cls->methods[cls->method_count]->types);
            free(cls->methods[cls->method_count]);
            p->getter_imp = NULL;
            return s;
        }
    }
    p->typed = typed;
    return IC_OK;
}

/* Makes the accessors (the typed functions of runtime/typed_accessor.c when the type has them,
 * universal closure stubs or libffi closures otherwise) and adds them as methods of the property's
 * class. Caller holds ic_runtime_lock. */
static ic_status synthesize_locked(ic_property *p)
{
    ic_class *cls = p->owner;
    if (ic_class_own_method_locked(cls, p->getter) ||
        (p->setter && ic_class_own_method_locked(cls, p->setter)))
        return ic_fail(
            IC_ERR_METHOD_EXISTS,
            "cannot synthesize property \"%s\": class \"%s\" already has a method "
            "\"%s\" (declare the property IC_PROPERTY_DYNAMIC to write it by hand)",
            p->name, cls->name,
            ic_sel_name(ic_class_own_method_locked(cls, p->getter) ? p->getter : p->setter));
    ic_imp getter_imp = NULL, setter_imp = NULL;
    if (ic_typed_accessors_for_locked(p, &getter_imp, &setter_imp)) {
        char getter_types[256], setter_types[256];
        int g = snprintf(getter_types, sizeof getter_types, "%s@:", p->type);
        int s = snprintf(setter_types, sizeof setter_types, "v@:%s", p->type);
        if (g > 0 && (size_t)g < sizeof getter_types && s > 0 && (size_t)s < sizeof setter_types)
            return add_accessor_methods_locked(p, getter_imp, getter_types, setter_imp,
                                               setter_types, true);
    }
    accessors *a = calloc(1, sizeof *a);
    if (!a) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory synthesizing \"%s\"", p->name);
    p->accessors = a;
    p->release_accessors = release_accessors;
    char getter_types[256];
    int n = snprintf(getter_types, sizeof getter_types, "%s@:", p->type);
    const ic_signature *getter_sig =
        (n > 0 && (size_t)n < sizeof getter_types) ? ic_signature_parse(getter_types) : NULL;
    const ic_signature *set_sig = p->setter ? setter_signature(p->type) : NULL;
    if (!getter_sig || (p->setter && !set_sig)) {
        if (!getter_sig && !(n > 0 && (size_t)n < sizeof getter_types))
            return ic_fail(IC_ERR_LIMIT, "property \"%s\": type encoding too long", p->name);
        return ic_error_status();
    }
    a->getter_closure = ic_closure_make_unregistered(getter_sig, getter_frame, p, &getter_imp);
    if (!a->getter_closure) return ic_error_status();
    if (set_sig) {
        a->setter_closure = ic_closure_make_unregistered(set_sig, setter_frame, p, &setter_imp);
        if (!a->setter_closure) return ic_error_status();
    }
    return add_accessor_methods_locked(p, getter_imp, getter_sig->types, setter_imp,
                                       set_sig ? set_sig->types : NULL, false);
}

ic_property *ic_class_add_property(ic_class *cls, const char *name, const char *type,
                                   unsigned attributes, const char *getter, const char *setter)
{
    if (!cls) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_add_property: class is NULL");
        return NULL;
    }
    ic_lock(&ic_runtime_lock);
    /* Room in the list first: once the accessors are methods of the class, nothing may fail. */
    ic_property *p = NULL;
    if (!ic_class_reserve_property_locked(cls))
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory declaring property \"%s\"", name);
    else
        p = ic_property_create_locked(cls, name, type, attributes, getter, setter);
    ic_status s = p ? IC_OK : ic_error_status();
    if (p && !(attributes & IC_PROPERTY_DYNAMIC)) s = synthesize_locked(p);
    if (p && s) {
        ic_property_discard_locked(p);
        p = NULL;
    }
    if (p) ic_class_append_property_locked(cls, p);
    ic_unlock(&ic_runtime_lock);
    return p;
}
