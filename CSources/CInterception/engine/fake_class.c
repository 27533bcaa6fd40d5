/*
 * fake_class.c — interception subclasses: one per original class, named
 * "_ICIntercepted_<original>" (or, if a class of that name exists, the first free
 * "_ICIntercepted_<original>_<n>"), created on first use and reused by every intercepted instance
 * of that class; their `class` override; and their hooked methods (typed trampoline, universal
 * trampoline or forward closure, one per selector, created once).
 *
 * Locking: every function here is called with ic_intercept_lock held (the engine records), and
 * takes ic_runtime_lock through the public class functions it calls (lock order: locks.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "../ffi/closure.h"
#include "engine.h"
#include "universal.h"
#include "../support/env.h"
#include "../support/error.h"
#include "../runtime/class.h"
#include "../runtime/object.h"
#include "../support/locks.h"
#include "../runtime/selector.h"

#define IC_INTERCEPTION_PREFIX "_ICIntercepted_"

ic_engine_counts ic_engine_totals;

/* `class` of an interception subclass: what the class it was made for answers. That class's
 * `class` may be the root's (which answers the real class pointer, i.e. the interception
 * subclass: skip it) or a foreign dynamic subclass's override (answer what it answers). */
static ic_class *subclass_class(ic_id self, ic_sel cmd)
{
    ic_class *isa = ic_object_isa(self);
    ic_class *sub = ic_engine_first_subclass(isa);
    ic_super super = {self, sub ? sub->superclass : isa};
    ic_class *answer =
        ((ic_class * (*)(ic_id, ic_sel)) ic_msg_lookup_super(&super, cmd))(self, cmd);
    while (answer && ic_class_has_flag(answer, IC_CLASS_INTERCEPTION_SUBCLASS))
        answer = answer->superclass;
    return answer;
}

ic_class_engine *ic_class_engine_locked(ic_class *cls)
{
    if (!cls->engine) cls->engine = calloc(1, sizeof(ic_class_engine));
    return cls->engine;
}

ic_class *ic_interception_subclass_locked(ic_class *original, ic_status *status)
{
    ic_class_engine *engine = ic_class_engine_locked(original);
    if (!engine) {
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting %s", original->name);
        return NULL;
    }
    if (engine->subclass) return engine->subclass;

    ic_fake_class *record = calloc(1, sizeof *record);
    if (!record) {
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting %s", original->name);
        return NULL;
    }
    /* A user's class may have the name already (SPEC 16.3): take the first free one. */
    ic_class *sub = NULL;
    char name[512];
    for (unsigned attempt = 0; !sub; attempt++) {
        int n = attempt ? snprintf(name, sizeof name, IC_INTERCEPTION_PREFIX "%s_%u",
                                   original->name, attempt)
                        : snprintf(name, sizeof name, IC_INTERCEPTION_PREFIX "%s", original->name);
        if (n < 0 || (size_t)n >= sizeof name) {
            free(record);
            *status =
                ic_fail(IC_ERR_LIMIT, "class name \"%s\" is too long to intercept", original->name);
            return NULL;
        }
        sub = ic_class_allocate(name, original, 0);
        if (!sub && ic_error_status() != IC_ERR_DUPLICATE_CLASS) {
            free(record);
            *status = ic_error_status();
            return NULL;
        }
    }
    record->original = original;
    sub->engine = record;
    atomic_fetch_or_explicit(&sub->flags, IC_CLASS_INTERCEPTION_SUBCLASS, memory_order_release);
    ic_status s = ic_class_add_method(sub, ic_sels.class_, (ic_imp)subclass_class, "#@:");
    if (s == IC_OK) s = ic_class_register(sub);
    if (s != IC_OK) {
        ic_class_dispose(sub);
        free(record);
        *status = s;
        return NULL;
    }
    engine->subclass = sub;
    IC_COUNT(engine, dynamic_subclasses, 1);
    return sub;
}

ic_hook_method *ic_hook_method_locked(ic_class *subclass, ic_sel sel, uint32_t options,
                                      ic_status *status)
{
    ic_fake_class *record = subclass->engine;
    for (ic_hook_method *h = record->hooks; h; h = h->next)
        if (h->sel == sel) return h;

    ic_class *original = record->original;
    ic_method *method = ic_class_get_method(original, sel);
    if (!method) {
        *status = ic_fail(IC_ERR_METHOD_NOT_FOUND,
                          "cannot intercept -[%s %s]: the class does not implement it (only "
                          "implemented methods can be intercepted)",
                          original->name, sel->name);
        return NULL;
    }
    const ic_signature *sig = ic_method_signature(method);
    if (!sig) {
        /* Out of memory parsing it is not the method's fault: report it as such. */
        *status = ic_error_status() == IC_ERR_OUT_OF_MEMORY
                      ? IC_ERR_OUT_OF_MEMORY
                      : ic_fail_restating(IC_ERR_UNSUPPORTED_SIGNATURE, "cannot intercept -[%s %s]",
                                          original->name, sel->name);
        return NULL;
    }
    if (ic_class_get_own_method(subclass, sel)) {
        *status = ic_fail(IC_ERR_COLLISION,
                          "cannot intercept -[%s %s]: interception subclass %s already has a "
                          "method for it that the engine did not install",
                          original->name, sel->name, subclass->name);
        return NULL;
    }

    ic_hook_method *hook = calloc(1, sizeof *hook);
    if (!hook) {
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting -[%s %s]",
                          original->name, sel->name);
        return NULL;
    }
    hook->sel = sel;
    hook->sig = sig;
    hook->original = original;
    ic_imp trampoline = NULL;
    bool libffi =
        (options & IC_INTERCEPT_FORCE_LIBFFI) || ic_env_switch("IC_INTERCEPT_FORCE_LIBFFI");
    bool oom = false;
    const ic_universal_plan *plan = NULL;
    if (sel == ic_sels.dealloc) {
        hook->path = IC_HOOK_DEALLOC;
        hook->imp = ic_trampoline_dealloc();
    } else if (!libffi && !(options & IC_INTERCEPT_FORCE_FORWARDING) &&
               (trampoline = ic_trampoline_for(sig)) != NULL) {
        hook->path = IC_HOOK_OPTIMIZED;
        hook->imp = trampoline;
    } else if (!libffi && (plan = ic_universal_plan_for(sig, &oom)) != NULL) {
        hook->path = IC_HOOK_UNIVERSAL;
        hook->imp = ic_universal_object_entry_for(plan);
    } else if (oom) {
        free(hook);
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting -[%s %s]",
                          original->name, sel->name);
        return NULL;
    } else {
        hook->path = IC_HOOK_FORWARDED;
        ic_status s = ic_forward_hook_create(hook);
        if (s != IC_OK) {
            free(hook);
            *status = s;
            return NULL;
        }
    }
    ic_status s = ic_class_add_method(subclass, sel, hook->imp, method->types);
    if (s != IC_OK) {
        if (hook->closure) ic_closure_free_raw(hook->closure);
        free(hook);
        *status = s;
        return NULL;
    }
    hook->next = record->hooks;
    record->hooks = hook;

    ic_class_engine *engine = ic_class_engine_locked(original);
    if (hook->path == IC_HOOK_FORWARDED || hook->path == IC_HOOK_UNIVERSAL) {
        IC_COUNT(engine, forwarded_methods, 1);
        if (!record->forwarding) {
            record->forwarding = true;
            IC_COUNT(engine, forwarding_classes, 1);
        }
    } else {
        IC_COUNT(engine, optimized_methods, 1);
    }
    return hook;
}

bool ic_interception_subclass_has_foreign_locked(ic_class *subclass)
{
    const ic_fake_class *record = subclass->engine;
    /* Read in place under the runtime lock (taken after ic_intercept_lock, as everywhere): a
     * removal, which calls this, must not need memory (a copied list would). */
    bool foreign = false;
    ic_lock(&ic_runtime_lock);
    for (size_t i = 0; i < subclass->method_count && !foreign; i++) {
        ic_sel sel = ic_method_selector(subclass->methods[i]);
        ic_imp imp = ic_method_imp(subclass->methods[i]);
        if (sel == ic_sels.class_ && imp == (ic_imp)subclass_class) continue;
        foreign = true;
        for (const ic_hook_method *h = record->hooks; h; h = h->next)
            if (h->sel == sel && h->imp == imp) foreign = false;
    }
    ic_unlock(&ic_runtime_lock);
    return foreign;
}
