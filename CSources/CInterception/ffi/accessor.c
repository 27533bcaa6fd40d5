/*
 * accessor.c — synthesized property accessors, and ic_class_add_property, which declares a
 * property (runtime/property.c) and adds its accessors as methods.
 *
 * Most types get the typed C functions of runtime/typed_accessor.c: ordinary functions shared
 * by every property of the type, no libffi. The others (structs, unions, long double, and a
 * subclass redeclaring an accessor of a superclass's typed property) get a closure of the
 * getter's (`T@:`) or setter's (`v@:T`) signature whose context is the property record: the
 * handler reads or writes the slot the record names. That closure is a universal trampoline
 * stub (engine/universal_closure.h, through ic_closure_universal_take: no libffi on the call:
 * 13.4-13.6 ns against 17.9 for a 24-byte struct getter, bench property_struct_get and
 * property_libffi_struct_get) when the signature has a universal plan and a stub is free (the
 * stubs are shared with ic_closure_imp_create's, first come), and a raw libffi closure otherwise
 * (or with IC_CLOSURE_FORCE_LIBFFI set).
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
#include "../support/env.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "../types/signature.h"
#include "closure.h"
#include "invocation.h"

typedef struct accessors {
    const ic_signature *getter_sig;
    void *getter_closure; /* raw libffi closure handles, owned; NULL for a stub */
    void *setter_closure;
    int getter_stub; /* universal closure stub indices, owned; -1 for none */
    int setter_stub;
} accessors;

static void getter_handler(void *cif, void *ret, void **args, void *user_data)
{
    (void)cif;
    const ic_property *p = user_data;
    ic_id self = *(ic_id *)args[0];
    if (p->size < sizeof(ffi_arg)) {
        alignas(8) unsigned char value[sizeof(ffi_arg)];
        ic_property_load(self, p, value);
        ic_closure_store_return(((const accessors *)p->accessors)->getter_sig, ret, value);
    } else {
        ic_property_load(self, p, ret);
    }
}

static void setter_handler(void *cif, void *ret, void **args, void *user_data)
{
    (void)cif;
    (void)ret;
    ic_property_store(*(ic_id *)args[0], user_data, args[2]);
}

/* The same on a universal stub's frame: its return storage holds the whole type, stored as is
 * (a plain frame: nothing to widen). */
static void getter_frame(ic_invocation *inv, void *context)
{
    ic_property_load(*(ic_id *)inv->args[0], context, inv->ret);
}

static void setter_frame(ic_invocation *inv, void *context)
{
    ic_property_store(*(ic_id *)inv->args[0], context, inv->args[2]);
}

/* A universal stub running `fn` for `p` (its IMP in *imp, its index in *stub), or false: no plan
 * for `sig`, no free stub, or libffi forced. */
static bool take_stub(const ic_signature *sig, ic_closure_fn fn, ic_property *p, ic_imp *imp,
                      int *stub)
{
    if (!ic_closure_universal_take || ic_env_switch("IC_CLOSURE_FORCE_LIBFFI")) return false;
    *imp = ic_closure_universal_take(sig, fn, p, stub);
    return *imp != NULL;
}

/* A stub as take_stub makes it, or else a raw libffi closure running `handler`. */
static ic_status make_accessor(const ic_signature *sig, ic_closure_fn fn,
                               ic_raw_closure_handler handler, ic_property *p, ic_imp *imp,
                               int *stub, void **closure)
{
    if (take_stub(sig, fn, p, imp, stub)) return IC_OK;
    *closure = ic_closure_make_raw(sig, handler, p, imp);
    return *closure ? IC_OK : ic_error_status();
}

static void release_accessors(ic_property *p)
{
    accessors *a = p->accessors;
    if (!a) return;
    if (a->getter_closure) ic_closure_free_raw(a->getter_closure);
    if (a->setter_closure) ic_closure_free_raw(a->setter_closure);
    if (a->getter_stub >= 0) ic_closure_universal_give_back(a->getter_stub);
    if (a->setter_stub >= 0) ic_closure_universal_give_back(a->setter_stub);
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
    a->getter_stub = a->setter_stub = -1;
    p->accessors = a;
    p->release_accessors = release_accessors;
    char getter_types[256];
    int n = snprintf(getter_types, sizeof getter_types, "%s@:", p->type);
    a->getter_sig =
        (n > 0 && (size_t)n < sizeof getter_types) ? ic_signature_parse(getter_types) : NULL;
    const ic_signature *set_sig = p->setter ? setter_signature(p->type) : NULL;
    if (!a->getter_sig || (p->setter && !set_sig)) {
        if (!a->getter_sig && !(n > 0 && (size_t)n < sizeof getter_types))
            return ic_fail(IC_ERR_LIMIT, "property \"%s\": type encoding too long", p->name);
        return ic_error_status();
    }
    ic_status s = make_accessor(a->getter_sig, getter_frame, getter_handler, p, &getter_imp,
                                &a->getter_stub, &a->getter_closure);
    if (s) return s;
    if (set_sig) {
        s = make_accessor(set_sig, setter_frame, setter_handler, p, &setter_imp, &a->setter_stub,
                          &a->setter_closure);
        if (s) return s;
    }
    return add_accessor_methods_locked(p, getter_imp, a->getter_sig->types, setter_imp,
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
