/*
 * method.c — method lists: add, replace, find through the superclass chain, set IMPs, list.
 *
 * Locking: ic_runtime_lock guards every class's method array and every IMP write; each write is
 * followed, under the same lock hold, by the cache invalidation it requires. Method records are
 * immortal, so handles returned to callers stay valid and ic_method_imp reads without a lock.
 */
#include <stdlib.h>
#include <string.h>

#include "class.h"
#include "../types/encoding.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "selector.h"

ic_method *ic_class_own_method_locked(const ic_class *cls, ic_sel sel)
{
    for (size_t i = 0; i < cls->method_count; i++)
        if (cls->methods[i]->sel == sel) return cls->methods[i];
    return NULL;
}

ic_method *ic_class_method_locked(const ic_class *cls, ic_sel sel)
{
    for (; cls; cls = cls->superclass) {
        ic_method *m = ic_class_own_method_locked(cls, sel);
        if (m) return m;
    }
    return NULL;
}

/* Marks `cls` and its subclasses as overriding retain/release. Caller holds ic_runtime_lock. */
static void mark_custom_rr_locked(ic_class *cls)
{
    atomic_fetch_or_explicit(&cls->flags, IC_CLASS_CUSTOM_RR, memory_order_release);
    for (size_t i = 0; i < cls->subclass_count; i++)
        mark_custom_rr_locked(cls->subclasses[i]);
}

/* What a method change invalidates, beyond its own selector's slots. */
static void invalidate_locked(ic_class *cls, ic_sel sel)
{
    if (sel == ic_sels.method_signature_for_selector || sel == ic_sels.forward_invocation)
        ic_class_flush_all_locked(cls); /* cached forwarding closures depended on them */
    else
        ic_class_flush_selector_locked(cls, sel);
    if (cls != ic_root_class && (sel == ic_sels.retain || sel == ic_sels.release) &&
        ic_class_has_flag(cls, IC_CLASS_REGISTERED))
        mark_custom_rr_locked(cls);
}

/* Makes room for one more entry in `cls`'s method list. Caller holds ic_runtime_lock. */
static ic_status reserve_method_locked(ic_class *cls, ic_sel sel)
{
    if (cls->method_count < cls->method_capacity) return IC_OK;
    size_t capacity = cls->method_capacity ? cls->method_capacity * 2 : 8;
    ic_method **grown = realloc(cls->methods, capacity * sizeof *grown);
    if (!grown)
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding %c[%s %s]", ic_class_sign(cls),
                       cls->name, sel->name);
    cls->methods = grown;
    cls->method_capacity = capacity;
    return IC_OK;
}

ic_status ic_class_add_method_locked(ic_class *cls, ic_sel sel, ic_imp imp, const char *types)
{
    ic_status reserved = reserve_method_locked(cls, sel);
    if (reserved != IC_OK) return reserved;
    ic_method *m = calloc(1, sizeof *m);
    char *copy = strdup(types);
    if (!m || !copy) {
        free(m);
        free(copy);
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding %c[%s %s]", ic_class_sign(cls),
                       cls->name, sel->name);
    }
    m->sel = sel;
    atomic_init(&m->imp, imp);
    m->types = copy;
    atomic_init(&m->sig, NULL);
    m->owner = cls;
    cls->methods[cls->method_count++] = m;
    invalidate_locked(cls, sel);
    return IC_OK;
}

/* Validates a method encoding: well-formed, and self then _cmd first. Takes no lock. */
static ic_status check_method_types(const ic_class *cls, ic_sel sel, const char *types)
{
    ic_arena arena = IC_ARENA_INIT;
    ic_type **list;
    size_t count;
    ic_status s = ic_encoding_parse_list(&arena, types, &list, &count);
    if (s == IC_OK &&
        (count < 3 || list[1]->kind != IC_KIND_OBJECT || list[2]->kind != IC_KIND_SELECTOR))
        s = ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                    "%c[%s %s]: method encoding \"%s\" must take '@' (self) and ':' (_cmd) "
                    "as its first two arguments",
                    ic_class_sign(cls), cls->name, sel->name, types);
    ic_arena_free(&arena);
    return s;
}

ic_status ic_class_add_method(ic_class *cls, ic_sel sel, ic_imp imp, const char *types)
{
    if (!cls || !sel || !imp || !types)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_add_method: %s is NULL",
                       !cls   ? "class"
                       : !sel ? "selector"
                       : !imp ? "imp"
                              : "types");
    ic_status s = check_method_types(cls, sel, types);
    if (s) return s;
    ic_lock(&ic_runtime_lock);
    if (ic_class_own_method_locked(cls, sel))
        s = ic_fail(IC_ERR_METHOD_EXISTS, "%c[%s %s] already exists; use ic_class_replace_method",
                    ic_class_sign(cls), cls->name, sel->name);
    else
        s = ic_class_add_method_locked(cls, sel, imp, types);
    ic_unlock(&ic_runtime_lock);
    return s;
}

ic_method *ic_class_detach_method(ic_class *cls, ic_sel sel, ic_imp expected)
{
    ic_lock(&ic_runtime_lock);
    size_t index = cls->method_count;
    for (size_t i = 0; i < cls->method_count; i++)
        if (cls->methods[i]->sel == sel) index = i;
    ic_method *m = index < cls->method_count ? cls->methods[index] : NULL;
    if (!m) {
        ic_unlock(&ic_runtime_lock);
        ic_fail(IC_ERR_METHOD_NOT_FOUND, "%c[%s %s] is not the class's own method",
                ic_class_sign(cls), cls->name, sel->name);
        return NULL;
    }
    if (atomic_load_explicit(&m->imp, memory_order_acquire) != expected) {
        ic_unlock(&ic_runtime_lock);
        ic_fail(IC_ERR_COLLISION, "%c[%s %s] was replaced by someone else", ic_class_sign(cls),
                cls->name, sel->name);
        return NULL;
    }
    memmove(&cls->methods[index], &cls->methods[index + 1],
            (cls->method_count - index - 1) * sizeof *cls->methods);
    cls->method_count--;
    invalidate_locked(cls, sel);
    ic_unlock(&ic_runtime_lock);
    return m;
}

ic_status ic_class_attach_method(ic_class *cls, ic_method *method, ic_imp imp)
{
    ic_status s = IC_OK;
    ic_lock(&ic_runtime_lock);
    if (ic_class_own_method_locked(cls, method->sel))
        s = ic_fail(IC_ERR_METHOD_EXISTS, "%c[%s %s] already exists", ic_class_sign(cls), cls->name,
                    method->sel->name);
    else
        s = reserve_method_locked(cls, method->sel);
    if (s == IC_OK) {
        atomic_store_explicit(&method->imp, imp, memory_order_release);
        cls->methods[cls->method_count++] = method;
        invalidate_locked(cls, method->sel);
    }
    ic_unlock(&ic_runtime_lock);
    return s;
}

ic_status ic_class_replace_method(ic_class *cls, ic_sel sel, ic_imp imp, const char *types,
                                  ic_imp *old_imp)
{
    if (old_imp) *old_imp = NULL;
    if (!cls || !sel || !imp)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_replace_method: %s is NULL",
                       !cls   ? "class"
                       : !sel ? "selector"
                              : "imp");
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_own_method_locked(cls, sel);
    if (m) {
        ic_imp old = atomic_exchange_explicit(&m->imp, imp, memory_order_acq_rel);
        invalidate_locked(cls, sel);
        ic_unlock(&ic_runtime_lock);
        if (old_imp) *old_imp = old;
        return IC_OK;
    }
    ic_unlock(&ic_runtime_lock);

    if (!types)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "%c[%s %s] does not exist in the class: types are needed to add it",
                       ic_class_sign(cls), cls->name, sel->name);
    ic_status s = check_method_types(cls, sel, types);
    if (s) return s;
    ic_lock(&ic_runtime_lock);
    m = ic_class_own_method_locked(cls, sel); /* re-check: the lock was dropped to parse */
    if (m) {
        ic_imp old = atomic_exchange_explicit(&m->imp, imp, memory_order_acq_rel);
        invalidate_locked(cls, sel);
        if (old_imp) *old_imp = old;
    } else {
        s = ic_class_add_method_locked(cls, sel, imp, types);
    }
    ic_unlock(&ic_runtime_lock);
    return s;
}

ic_method *ic_class_get_method(const ic_class *cls, ic_sel sel)
{
    if (!cls || !sel) return NULL;
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_method_locked(cls, sel);
    ic_unlock(&ic_runtime_lock);
    return m;
}

ic_status ic_class_add_class_method(ic_class *cls, ic_sel sel, ic_imp imp, const char *types)
{
    if (!cls) return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_add_class_method: class is NULL");
    return ic_class_add_method(ic_class_isa(cls), sel, imp, types);
}

ic_method *ic_class_get_class_method(const ic_class *cls, ic_sel sel)
{
    return cls ? ic_class_get_method(ic_class_isa(cls), sel) : NULL;
}

ic_method *ic_class_get_own_method(const ic_class *cls, ic_sel sel)
{
    if (!cls || !sel) return NULL;
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_own_method_locked(cls, sel);
    ic_unlock(&ic_runtime_lock);
    return m;
}

const char *ic_class_method_types(const ic_class *cls, ic_sel sel)
{
    ic_method *m = ic_class_get_method(cls, sel);
    return m ? m->types : NULL;
}

bool ic_class_responds_to(const ic_class *cls, ic_sel sel)
{
    return ic_class_get_imp(cls, sel) != NULL;
}

ic_imp ic_class_get_imp(const ic_class *cls, ic_sel sel)
{
    if (!cls || !sel) return NULL;
    /* Not the dispatch table: it may also hold forwarding closures, and this is not a hot
     * path (message lookup is). */
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_method_locked(cls, sel);
    ic_imp imp = m ? atomic_load_explicit(&m->imp, memory_order_acquire) : NULL;
    ic_unlock(&ic_runtime_lock);
    return imp;
}

bool ic_class_forwards_invocations(const ic_class *cls)
{
    if (!cls) return false;
    ic_lock(&ic_runtime_lock);
    ic_method *m = ic_class_method_locked(cls, ic_sels.forward_invocation);
    bool forwards = m && m->owner != ic_root_class;
    ic_unlock(&ic_runtime_lock);
    return forwards;
}

ic_method **ic_class_copy_method_list(const ic_class *cls, size_t *count)
{
    if (count) *count = 0;
    if (!cls || !count) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_copy_method_list: %s is NULL",
                !cls ? "class" : "count");
        return NULL;
    }
    ic_lock(&ic_runtime_lock);
    size_t n = cls->method_count;
    ic_method **list = n ? malloc(n * sizeof *list) : NULL;
    if (list) memcpy(list, cls->methods, n * sizeof *list);
    ic_unlock(&ic_runtime_lock);
    if (n && !list) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory listing the methods of %s", cls->name);
        return NULL;
    }
    *count = n;
    return list;
}

ic_sel ic_method_selector(const ic_method *method)
{
    return method ? method->sel : NULL;
}

ic_imp ic_method_imp(const ic_method *method)
{
    return method ? atomic_load_explicit(&((ic_method *)method)->imp, memory_order_acquire) : NULL;
}

ic_imp ic_method_set_imp(ic_method *method, ic_imp imp)
{
    if (!method || !imp) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_method_set_imp: %s is NULL",
                !method ? "method" : "imp");
        return NULL;
    }
    ic_lock(&ic_runtime_lock);
    ic_imp old = atomic_exchange_explicit(&method->imp, imp, memory_order_acq_rel);
    invalidate_locked(method->owner, method->sel);
    ic_unlock(&ic_runtime_lock);
    return old;
}

ic_status ic_method_exchange_imps(ic_method *a, ic_method *b)
{
    if (!a || !b)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_method_exchange_imps: a method is NULL");
    ic_lock(&ic_runtime_lock);
    ic_imp ia = atomic_load_explicit(&a->imp, memory_order_relaxed);
    ic_imp ib = atomic_load_explicit(&b->imp, memory_order_relaxed);
    atomic_store_explicit(&a->imp, ib, memory_order_release);
    atomic_store_explicit(&b->imp, ia, memory_order_release);
    invalidate_locked(a->owner, a->sel);
    invalidate_locked(b->owner, b->sel);
    ic_unlock(&ic_runtime_lock);
    return IC_OK;
}

const char *ic_method_types(const ic_method *method)
{
    return method ? method->types : NULL;
}

const ic_signature *ic_method_signature(ic_method *method)
{
    if (!method) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "method is NULL");
        return NULL;
    }
    const ic_signature *sig = atomic_load_explicit(&method->sig, memory_order_acquire);
    if (sig) return sig;
    sig = ic_signature_parse(method->types);
    if (sig) /* signatures are interned: racing threads store the same pointer */
        atomic_store_explicit(&method->sig, sig, memory_order_release);
    return sig;
}
