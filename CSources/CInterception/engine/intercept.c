/*
 * intercept.c — the engine's public operations: preparing an interception, adding and removing
 * observers, dealloc observers, the object teardown, queries and counters, and the observer token
 * registry the hook API (hook_api.c) shares.
 *
 * Locking: ic_intercept_lock guards the token registry, every object's ic_object_engine, every
 * slot's list publication and the counters. Nothing here calls user code while holding it:
 * observers' release functions run from the epoch reclaimer, dealloc-after observers after the
 * lock is dropped. ic_epoch_synchronize is only called with no lock held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/class.h"
#include "engine.h"
#include "epoch.h"
#include "../ffi/invocation.h"
#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"
#include "../runtime/object.h"
#include "../runtime/selector.h"
#include "../runtime/side.h"
#include "universal.h"

ic_imp ic_engine_original_imp_uncached(ic_id self, ic_class *start, ic_sel sel)
{
    ic_super super = {self, start};
    return ic_msg_lookup_super(&super, sel);
}

/* token → ic_observer. Guarded by ic_intercept_lock. */
static ic_map registry = IC_MAP_INIT(IC_MAP_WORD_KEYS);
static ic_observer_token next_token = 1;

/* ---------------------------------------------------------------------------------------------
 * Retirement helpers (run by the epoch reclaimer, outside every lock)
 * ------------------------------------------------------------------------------------------- */

ic_observer ic_observer_unlisted = {.removed = true};
ic_observer_list ic_observer_list_none;

static void destroy_observer(void *p)
{
    ic_observer *o = p;
    if (o->release) o->release(o->context);
    free(o);
}

static void retire_observer(ic_observer *o)
{
    ic_epoch_retire(&o->retire, o, destroy_observer);
}

/* How a republish retires the snapshot it replaced: allocated with the new snapshot, so a
 * republish fails (cleanly) rather than publishing what it could not retire. */
typedef struct retired_list {
    ic_epoch_node node;
    ic_observer_list *list;
} retired_list;

static void free_retired_list(void *p)
{
    retired_list *retired = p;
    free(retired->list);
    free(retired);
}

static void destroy_object_engine(void *p)
{
    ic_object_engine *engine = p;
    free(engine->deallocated);
    free(engine);
}

/* ---------------------------------------------------------------------------------------------
 * Per-object state
 * ------------------------------------------------------------------------------------------- */

/* The object's engine state, created on first use. Caller holds ic_intercept_lock. */
static ic_object_engine *object_engine_locked(ic_id obj, ic_side **side_out, ic_status *status)
{
    ic_side *side = ic_side_get_or_create(obj);
    if (!side) {
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting an object");
        return NULL;
    }
    if (!side->engine) {
        side->engine = calloc(1, sizeof(ic_object_engine));
        if (!side->engine) {
            *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting an object");
            return NULL;
        }
    }
    *side_out = side;
    return side->engine;
}

/* Hook tables are never freed while their object lives (trampolines read them without an
 * epoch section); a replaced table is kept on a chain through this header, freed at teardown. */
typedef struct table_box {
    struct table_box *previous;
    ic_epoch_node retire; /* the teardown retires the newest box, its slots and older boxes */
    ic_hook_table table;  /* flexible: must be last */
} table_box;

static table_box *box_of(const ic_hook_table *table)
{
    return (table_box *)((char *)table - offsetof(table_box, table));
}

/* The object's slot for `sel`, added (with a new table) if missing. Caller holds
 * ic_intercept_lock. */
static ic_hook_slot *slot_locked(ic_side *side, ic_sel sel, ic_hook_method *method,
                                 ic_status *status)
{
    ic_hook_table *table = atomic_load_explicit(&side->hooks, memory_order_relaxed);
    uint32_t count = table ? table->count : 0;
    for (uint32_t i = 0; i < count; i++)
        if (table->slots[i]->sel == sel) return table->slots[i];

    ic_hook_slot *slot = ic_engine_calloc_line(sizeof *slot);
    table_box *box = calloc(1, sizeof *box + (count + 1) * sizeof(ic_hook_slot *));
    if (!slot || !box) {
        free(slot);
        free(box);
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory intercepting %s", sel->name);
        return NULL;
    }
    slot->sel = sel;
    slot->sig = method->sig;
    /* The plan the method's universal entry was chosen from, cached on the signature. */
    if (method->path == IC_HOOK_UNIVERSAL) {
        slot->universal_plan = atomic_load_explicit(&((ic_signature *)method->sig)->universal_plan,
                                                    memory_order_acquire);
        slot->universal_general = ic_universal_plan_general(slot->universal_plan);
    }
    slot->original = method->original;
    slot->reextend_arguments = method->sig->reextend_arguments != 0;
    slot->reextend_return = method->sig->reextend_return;
    atomic_init(&slot->list, &ic_observer_list_none);
    atomic_init(&slot->hints, ic_hook_slot_hints(slot, (const uint32_t[3]){0, 0, 0}));
    box->previous = table ? box_of(table) : NULL;
    box->table.count = count + 1;
    if (count) memcpy(box->table.slots, table->slots, count * sizeof(ic_hook_slot *));
    box->table.slots[count] = slot;
    /* Release: a trampoline that sees the table sees its slots initialized. */
    atomic_store_explicit(&side->hooks, &box->table, memory_order_release);
    return slot;
}

bool ic_intercept_is_forbidden(ic_sel sel)
{
    return sel == ic_sels.class_ || sel == ic_sels.responds_to_selector ||
           sel == ic_sels.method_signature_for_selector || sel == ic_sels.forward_invocation ||
           sel == ic_sels.retain || sel == ic_sels.release;
}

/* Class objects are not intercepted one by one (docs/ARCHITECTURE.md, "Metaclasses"): the
 * metaclass, whose only instance the class object is, takes class-wide hooks instead. */
static ic_status refuse_class_object(const ic_class *meta, ic_sel sel)
{
    return ic_fail(IC_ERR_INVALID_ARGUMENT,
                   "cannot intercept +[%s %s] on the class object: class objects are not moved "
                   "into interception subclasses; hook the class method with ic_hook_class on "
                   "ic_class_metaclass(%s)",
                   meta->name, sel->name, meta->name);
}

/*
 * The object's slot for `sel`, with the interception in place and the object moved into its
 * interception subclass (`*moved` tells whether this call moved it). What a failure leaves is
 * invisible: the object stays where it was; records made on the way (the object's engine state
 * and slot, the class's interception subclass and its method) are caches kept for the next
 * request. Caller holds ic_intercept_lock.
 */
static ic_hook_slot *prepare_locked(ic_id obj, ic_sel sel, uint32_t options,
                                    ic_object_engine **engine_out, bool *moved, ic_status *status)
{
    *moved = false;
    ic_class *isa = ic_object_isa(obj);
    if (ic_intercept_is_forbidden(sel)) {
        *status = ic_fail(IC_ERR_FORBIDDEN_SELECTOR,
                          "%c[%s %s] must not be intercepted: the runtime and the engine rely on "
                          "it",
                          ic_class_sign(isa), isa->name, sel->name);
        return NULL;
    }
    if (ic_class_has_flag(isa, IC_CLASS_META)) {
        *status = refuse_class_object(isa, sel);
        return NULL;
    }
    if (ic_object_is_deallocating(obj)) {
        *status = ic_fail(IC_ERR_DEALLOCATING,
                          "cannot intercept -[%s %s]: the object is "
                          "deallocating",
                          isa->name, sel->name);
        return NULL;
    }
    ic_side *side;
    ic_object_engine *engine = object_engine_locked(obj, &side, status);
    if (!engine) return NULL;

    /* Which class is the object's own, and is anyone else moving it around? */
    ic_class *original;
    if (engine->in_subclass) {
        if (isa != engine->subclass) {
            *status = ic_fail(IC_ERR_CLASS_SWAPPED,
                              "cannot intercept -[%s %s]: the object was moved from %s to %s by "
                              "someone else",
                              engine->original->name, sel->name, engine->subclass->name, isa->name);
            return NULL;
        }
        original = engine->original;
    } else {
        if (ic_engine_first_subclass(isa)) {
            *status = ic_fail(IC_ERR_CLASS_SWAPPED,
                              "cannot intercept -[%s %s]: the object's class %s derives from an "
                              "interception subclass, but the engine did not put the object "
                              "there",
                              isa->name, sel->name, isa->name);
            return NULL;
        }
        if (engine->original && isa != engine->original) {
            *status = ic_fail(IC_ERR_CLASS_SWAPPED,
                              "cannot intercept -[%s %s]: the object's class changed from %s "
                              "since it was first intercepted",
                              isa->name, sel->name, engine->original->name);
            return NULL;
        }
        original = isa;
    }

    ic_class *subclass = ic_interception_subclass_locked(original, status);
    if (!subclass) return NULL;
    ic_hook_method *method = ic_hook_method_locked(subclass, sel, options, status);
    if (!method) return NULL;
    ic_hook_slot *slot = slot_locked(side, sel, method, status);
    if (!slot) return NULL;

    if (!engine->in_subclass) {
        /* The slot is published before the object can reach a trampoline. */
        ic_class *expected = original;
        if (!atomic_compare_exchange_strong_explicit(&obj->isa, &expected, subclass,
                                                     memory_order_acq_rel, memory_order_acquire)) {
            *status = ic_fail(IC_ERR_COLLISION,
                              "cannot intercept -[%s %s]: the object's class changed to %s while "
                              "it was being moved",
                              original->name, sel->name, expected->name);
            return NULL;
        }
        engine->original = original;
        engine->subclass = subclass;
        engine->in_subclass = true;
        *moved = true;
        IC_COUNT(ic_class_engine_locked(original), intercepted_objects, 1);
    }
    *engine_out = engine;
    return slot;
}

/* Moves the object back to its class when nothing observes its calls any more, unless its
 * interception subclass runs a foreign IMP, which the object then keeps running (SPEC 16.3).
 * Returns what ic_hook_remove_reporting reports: IC_HOOK_RESTORED (back in its class, and no
 * hook or observer left on it, after-dealloc ones included), IC_HOOK_FOREIGN_KEPT, or 0. Caller
 * holds ic_intercept_lock. */
static uint32_t restore_if_unobserved_locked(ic_id obj, ic_object_engine *engine)
{
    if (engine->observer_count != 0 || engine->dead) return 0;
    uint32_t restored = engine->deallocated_count ? 0 : IC_HOOK_RESTORED;
    if (!engine->in_subclass) return restored;
    if (ic_interception_subclass_has_foreign_locked(engine->subclass)) return IC_HOOK_FOREIGN_KEPT;
    ic_class *expected = engine->subclass;
    if (atomic_compare_exchange_strong_explicit(&obj->isa, &expected, engine->original,
                                                memory_order_acq_rel, memory_order_acquire)) {
        engine->in_subclass = false;
        IC_COUNT(ic_class_engine_locked(engine->original), intercepted_objects, (size_t)-1);
        return restored;
    }
    /* If someone else moved the object meanwhile, leave it: the next prepare reports it. */
    return 0;
}

/* Marks `list` stale (engine.h, ic_observer_list): its `single` word and `outermost_instead`
 * first, so that no call takes the single observer's or the outermost hook's fast path once
 * `stale` reads true. Caller holds ic_intercept_lock. */
static void ic_observer_list_mark_stale(ic_observer_list *list)
{
    atomic_store_explicit(&list->single, 0, memory_order_seq_cst);
    atomic_store_explicit(&list->outermost_instead, NULL, memory_order_seq_cst);
    atomic_store_explicit(&list->stale, true, memory_order_seq_cst);
}

/* Publishes `list` (NULL: no observer left) as `slot`'s snapshot with its hints: `counts` are the
 * live observers of each phase, in call order. Marks the snapshot it replaces stale and retires
 * it through `retired` (allocated by the caller; NULL when there is none to retire). Caller holds
 * ic_intercept_lock. */
static void publish_locked(ic_hook_slot *slot, ic_observer_list *list, const uint32_t counts[3],
                           retired_list *retired)
{
    ic_observer_list *old = ic_hook_slot_list_locked(slot);
    /* No longer current: a call still holding it checks its observers' `removed` flags. */
    if (old) ic_observer_list_mark_stale(old);
    atomic_store_explicit(&slot->list, list ? list : &ic_observer_list_none, memory_order_release);
    atomic_store_explicit(&slot->hints, ic_hook_slot_hints(slot, counts), memory_order_release);
    if (old) {
        retired->list = old;
        ic_epoch_retire(&retired->node, retired, free_retired_list);
    }
}

/* Publishes `slot`'s observers with `added` included or `removed` left out, in call order:
 * before, instead, after (each in the order added); also drops the entries earlier removals took
 * out in place. Allocates the new snapshot and the node that retires the old one. Caller holds
 * ic_intercept_lock; on failure nothing changed. */
ic_status ic_intercept_republish_locked(ic_hook_slot *slot, ic_observer *added,
                                        ic_observer *removed)
{
    static const ic_hook_position order[3] = {IC_HOOK_BEFORE, IC_HOOK_INSTEAD, IC_HOOK_AFTER};
    ic_observer_list *old = ic_hook_slot_list_locked(slot);
    uint32_t old_counts[3] = {old ? old->before_count : 0, old ? old->instead_count : 0,
                              old ? old->after_count : 0};
    uint32_t total = old_counts[0] + old_counts[1] + old_counts[2];
    uint32_t live = added ? 1 : 0;
    for (uint32_t i = 0; i < total; i++) {
        ic_observer *o = atomic_load_explicit(&old->items[i].observer, memory_order_relaxed);
        /* Removed: the one leaving now, or one an earlier removal took out in place. */
        if (o != removed && !atomic_load_explicit(&o->removed, memory_order_relaxed)) live++;
    }
    ic_observer_list *list =
        live ? ic_engine_calloc_line(sizeof *list + live * sizeof(ic_observer_entry)) : NULL;
    retired_list *retired = old ? malloc(sizeof *retired) : NULL;
    if ((live && !list) || (old && !retired)) {
        free(list);
        free(retired);
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory updating observers");
    }
    uint32_t n = 0, begin = 0, counts[3] = {0, 0, 0};
    for (int k = 0; list && k < 3; k++) {
        for (uint32_t i = begin; i < begin + old_counts[k]; i++) {
            ic_observer *o = atomic_load_explicit(&old->items[i].observer, memory_order_relaxed);
            if (o == removed || atomic_load_explicit(&o->removed, memory_order_relaxed)) continue;
            atomic_init(&list->items[n].observer, o);
            list->items[n].fn = old->items[i].fn;
            list->items[n].call_context = old->items[i].call_context;
            n++;
            counts[k]++;
        }
        begin += old_counts[k];
        if (added && added->phase == order[k]) {
            atomic_init(&list->items[n].observer, added);
            list->items[n].fn = added->fn;
            list->items[n].call_context = added->call_context;
            n++;
            counts[k]++;
        }
    }
    if (list) {
        list->before_count = counts[0];
        list->instead_count = counts[1];
        list->after_count = counts[2];
        list->direct_level = slot->reextend_arguments ? 0 : counts[1];
        atomic_init(&list->outermost_instead,
                    counts[1] ? &list->items[counts[0] + counts[1] - 1] : NULL);
        list->first_after = &list->items[counts[0] + counts[1]];
        atomic_init(&list->stale, false);
        atomic_init(&list->single, (counts[0] == 1 ? IC_SINGLE_BEFORE : 0) |
                                       (counts[2] == 1 ? IC_SINGLE_AFTER : 0));
    }
    publish_locked(slot, list, counts, retired);
    return IC_OK;
}

/* Takes `removed` (already marked removed, its snapshot marked stale) out of `slot`'s current
 * snapshot without a new one: its entries point at ic_observer_unlisted from now on, and the
 * hints count only the observers left (with none left, calls skip the slot altogether). What a
 * removal does from inside a call (a hooked call allocates nothing) or when memory for a new
 * snapshot runs out: it allocates nothing and cannot fail. The snapshot stays published, stale,
 * until the slot's next republish drops its unlisted entries, or its object's teardown frees it.
 * Caller holds ic_intercept_lock. */
static void unlist_in_place_locked(ic_hook_slot *slot, ic_observer *removed)
{
    ic_observer_list *list = ic_hook_slot_list_locked(slot);
    if (!list) return;
    uint32_t bounds[3] = {list->before_count, list->before_count + list->instead_count,
                          list->before_count + list->instead_count + list->after_count};
    uint32_t counts[3] = {0, 0, 0};
    for (uint32_t i = 0, k = 0; i < bounds[2]; i++) {
        while (i >= bounds[k])
            k++;
        ic_observer *o = atomic_load_explicit(&list->items[i].observer, memory_order_relaxed);
        if (o == removed) {
            atomic_store_explicit(&list->items[i].observer, &ic_observer_unlisted,
                                  memory_order_relaxed);
            continue;
        }
        if (!atomic_load_explicit(&o->removed, memory_order_relaxed)) counts[k]++;
    }
    atomic_store_explicit(&slot->hints, ic_hook_slot_hints(slot, counts), memory_order_release);
}

/* The call-observer function of a "before dealloc" observer: its context is the observer. */
static void dealloc_adapter(ic_invocation *call, void *observer)
{
    ic_observer *o = observer;
    o->dealloc_fn(ic_invocation_target(call), o->context);
}

/* The call function of a class's after-dealloc hook (ic_hook_class_deallocated), an after hook
 * of its `dealloc` record: the frame's receiver is the former address, and its third argument
 * slot the dealloc call, which has the class (dealloc_hook.c). */
void ic_intercept_deallocated_adapter(ic_invocation *call, void *observer)
{
    ic_observer *o = observer;
    ic_id address;
    memcpy(&address, call->args[0], sizeof address);
    const ic_dealloc_call *dealloc = call->args[2];
    o->deallocated_fn(address, dealloc->cls, o->context);
}

/* A new observer calling `fn(call, context)`, or, with `dealloc_fn`, `dealloc_fn(object,
 * context)`. */
ic_observer *ic_observer_new(ic_hook_position phase, ic_observer_fn fn,
                             ic_dealloc_observer_fn dealloc_fn, void *context,
                             ic_context_release_fn release)
{
    ic_observer *o = calloc(1, sizeof *o);
    if (o) {
        o->phase = (uint8_t)phase;
        o->fn = fn ? fn : dealloc_adapter;
        o->call_context = fn ? context : o;
        atomic_init(&o->fired, false);
        o->dealloc_fn = dealloc_fn;
        o->context = context;
        o->release = release;
        atomic_init(&o->removed, false);
    }
    return o;
}

/* Registers `o` under a fresh token. Caller holds ic_intercept_lock. */
bool ic_observer_register_locked(ic_observer *o)
{
    o->token = next_token++;
    return ic_map_put(&registry, (uintptr_t)o->token, o);
}

ic_observer *ic_observer_lookup_locked(ic_observer_token token)
{
    return ic_map_get(&registry, (uintptr_t)token);
}

void ic_observer_unregister_locked(const ic_observer *o)
{
    ic_map_remove(&registry, (uintptr_t)o->token);
}

/* Intercepts `sel` on `obj` and adds `o` (phase and callback set) to the object's slot: registry,
 * snapshot, counts. Caller holds ic_intercept_lock; on failure nothing is left registered and an
 * object this call moved is moved back. */
ic_status ic_intercept_attach_locked(ic_observer *o, ic_id obj, ic_sel sel)
{
    ic_status status = IC_OK;
    ic_object_engine *engine;
    bool moved;
    ic_hook_slot *slot = prepare_locked(obj, sel, 0, &engine, &moved, &status);
    if (!slot) return status;
    o->slot = slot;
    o->engine = engine;
    o->counted_class = engine->original;
    if (!ic_observer_register_locked(o)) {
        status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding an observer");
    } else if ((status = ic_intercept_republish_locked(slot, o, NULL)) != IC_OK) {
        ic_map_remove(&registry, (uintptr_t)o->token);
    }
    if (status != IC_OK) {
        if (moved) restore_if_unobserved_locked(obj, engine);
        return status;
    }
    engine->observer_count++;
    IC_COUNT(ic_class_engine_locked(engine->original), live_observers, 1);
    return IC_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Public operations
 * ------------------------------------------------------------------------------------------- */

ic_status ic_intercept_prepare_with_options(ic_id obj, ic_sel sel, uint32_t options)
{
    if (!obj || !sel)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_intercept_prepare: %s is NULL",
                       !obj ? "object" : "selector");
    ic_status status = IC_OK;
    ic_object_engine *engine;
    bool moved;
    ic_lock(&ic_intercept_lock);
    ic_hook_slot *slot = prepare_locked(obj, sel, options, &engine, &moved, &status);
    ic_unlock(&ic_intercept_lock);
    return slot ? IC_OK : status;
}

ic_status ic_intercept_prepare(ic_id obj, ic_sel sel)
{
    return ic_intercept_prepare_with_options(obj, sel, 0);
}

ic_status ic_intercept_add_observer(ic_id obj, ic_sel sel, ic_observer_phase phase,
                                    ic_observer_fn fn, void *context, ic_context_release_fn release,
                                    ic_observer_token *token)
{
    if (!obj || !sel || !fn || !token)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_intercept_add_observer: %s is NULL",
                       !obj   ? "object"
                       : !sel ? "selector"
                       : !fn  ? "fn"
                              : "token");
    if (phase != IC_OBSERVE_BEFORE && phase != IC_OBSERVE_AFTER)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "unknown observer phase %d", (int)phase);
    if (sel == ic_sels.dealloc && phase == IC_OBSERVE_AFTER)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "observe the end of dealloc with ic_intercept_add_dealloc_observer: "
                       "after dealloc the object is gone");
    ic_observer *o = ic_observer_new((ic_hook_position)phase, fn, NULL, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding an observer");
    o->object = obj;

    ic_lock(&ic_intercept_lock);
    ic_status status = ic_intercept_attach_locked(o, obj, sel);
    if (status == IC_OK) *token = o->token;
    ic_unlock(&ic_intercept_lock);
    if (status != IC_OK) free(o);
    ic_epoch_reclaim();
    return status;
}

/* Adds `o` to the object's after-dealloc observers (fired by its teardown). Caller holds
 * ic_intercept_lock; on failure nothing is left registered. */
ic_status ic_intercept_attach_deallocated_locked(ic_observer *o, ic_id obj)
{
    ic_status status = IC_OK;
    ic_side *side;
    ic_object_engine *engine = NULL;
    if (ic_class_has_flag(ic_object_isa(obj), IC_CLASS_META))
        return refuse_class_object(ic_object_isa(obj), ic_sels.dealloc);
    if (ic_object_is_deallocating(obj))
        return ic_fail(IC_ERR_DEALLOCATING,
                       "cannot observe the deallocation of a %s that is deallocating",
                       ic_object_isa(obj)->name);
    engine = object_engine_locked(obj, &side, &status);
    if (!engine) return status;
    if (engine->deallocated_count == engine->deallocated_capacity) {
        size_t capacity = engine->deallocated_capacity ? engine->deallocated_capacity * 2 : 2;
        ic_observer **grown = realloc(engine->deallocated, capacity * sizeof *grown);
        if (!grown) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding an observer");
        engine->deallocated = grown;
        engine->deallocated_capacity = capacity;
    }
    ic_class *counted = engine->in_subclass ? engine->original : ic_object_isa(obj);
    /* The counting class's record is made now, so the removal and the teardown, which must not
     * fail, find it. */
    if (!ic_class_engine_locked(counted) || !ic_observer_register_locked(o))
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding an observer");
    o->engine = engine;
    engine->deallocated[engine->deallocated_count++] = o;
    o->counted_class = counted;
    IC_COUNT(ic_class_engine_locked(counted), live_observers, 1);
    return IC_OK;
}

ic_status ic_intercept_add_dealloc_observer(ic_id obj, ic_observer_phase phase,
                                            ic_dealloc_observer_fn fn, void *context,
                                            ic_context_release_fn release, ic_observer_token *token)
{
    if (!obj || !fn || !token)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_intercept_add_dealloc_observer: %s is NULL",
                       !obj  ? "object"
                       : !fn ? "fn"
                             : "token");
    if (phase != IC_OBSERVE_BEFORE && phase != IC_OBSERVE_AFTER)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "unknown observer phase %d", (int)phase);
    ic_observer *o = ic_observer_new((ic_hook_position)phase, NULL, fn, context, release);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding an observer");
    o->object = obj;

    ic_status status = IC_OK;
    ic_lock(&ic_intercept_lock);
    if (phase == IC_OBSERVE_BEFORE)
        status = ic_intercept_attach_locked(o, obj, ic_sels.dealloc);
    else
        status = ic_intercept_attach_deallocated_locked(o, obj);
    if (status == IC_OK) *token = o->token;
    ic_unlock(&ic_intercept_lock);
    if (status != IC_OK) free(o);
    ic_epoch_reclaim();
    return status;
}

/* Removes the observer of `token`; `*outcome` gets what ic_hook_remove_reporting reports. */
ic_status ic_intercept_remove_reporting(ic_observer_token token, uint32_t *outcome)
{
    *outcome = 0;
    ic_lock(&ic_intercept_lock);
    ic_observer *o = token ? ic_map_remove(&registry, (uintptr_t)token) : NULL;
    if (!o) {
        ic_unlock(&ic_intercept_lock);
        return ic_fail(IC_ERR_OBSERVER_NOT_FOUND,
                       "no observer with token %llu (removed already, or its object was "
                       "deallocated)",
                       (unsigned long long)token);
    }
    atomic_store_explicit(&o->removed, true, memory_order_seq_cst);
    /* Calls check `removed` only in stale snapshots (hook.h, ic_hook_entry_live): mark the one
     * listing it stale now, before anything can wait. */
    ic_observer_list *listed = o->slot ? ic_hook_slot_list_locked(o->slot) : NULL;
    if (listed) ic_observer_list_mark_stale(listed);
    /* Registered, so its object's teardown has not released the engine state (nor the slots).
     * Unpublish it even if the object is gone (`dead`): the teardown collects the observers
     * still listed, and must never find one that this removal may free. From inside a call
     * (a one-shot hook, a hook removing itself) nothing is allocated: the entry is taken out of
     * the snapshot in place; from outside, a compact snapshot is published if memory allows. */
    ic_object_engine *engine = o->class_wide ? NULL : o->engine;
    if (o->slot) {
        if (ic_epoch_in_section() || ic_intercept_republish_locked(o->slot, NULL, o) != IC_OK)
            unlist_in_place_locked(o->slot, o);
    }
    if (o->class_wide) {
        if (!(atomic_load_explicit(&o->slot->hints, memory_order_relaxed) & IC_HINT_OBSERVED))
            *outcome = ic_class_hook_uninstall_locked(o->class_hook);
    } else if (o->slot) {
        engine->observer_count--;
        *outcome = restore_if_unobserved_locked((ic_id)o->object, engine); /* not once dead */
    } else {
        for (size_t i = 0; i < engine->deallocated_count; i++) {
            if (engine->deallocated[i] != o) continue;
            if (engine->dead) {
                /* The teardown is walking the list: leave the others where they are. */
                engine->deallocated[i] = NULL;
            } else {
                /* Kept in the order added: they run in that order. */
                memmove(&engine->deallocated[i], &engine->deallocated[i + 1],
                        (engine->deallocated_count - i - 1) * sizeof *engine->deallocated);
                engine->deallocated_count--;
            }
            break;
        }
        if (!engine->dead && engine->observer_count == 0 && !engine->in_subclass &&
            engine->deallocated_count == 0)
            *outcome = IC_HOOK_RESTORED;
    }
    IC_COUNT(ic_class_engine_locked(o->counted_class), live_observers, (size_t)-1);
    ic_unlock(&ic_intercept_lock);

    ic_epoch_synchronize(); /* no other thread is in (or about to enter) one of its calls */
    retire_observer(o);
    ic_epoch_reclaim();
    return IC_OK;
}

ic_status ic_intercept_remove_observer(ic_observer_token token)
{
    uint32_t outcome;
    return ic_intercept_remove_reporting(token, &outcome);
}

ic_intercept_path ic_intercept_path_of(ic_id obj, ic_sel sel)
{
    if (!obj || !sel) return IC_PATH_NONE;
    ic_intercept_path path = IC_PATH_NONE;
    ic_lock(&ic_intercept_lock);
    ic_side *side = ic_side_get(obj);
    ic_object_engine *engine = side ? side->engine : NULL;
    if (engine && engine->in_subclass) {
        for (ic_hook_method *h = ((ic_fake_class *)engine->subclass->engine)->hooks; h; h = h->next)
            if (h->sel == sel)
                path = h->path == IC_HOOK_FORWARDED || h->path == IC_HOOK_UNIVERSAL
                           ? IC_PATH_FORWARDED
                           : IC_PATH_OPTIMIZED;
    }
    ic_unlock(&ic_intercept_lock);
    return path;
}

ic_intercept_entry ic_intercept_entry_of(ic_id obj, ic_sel sel)
{
    if (!obj || !sel) return IC_ENTRY_NONE;
    ic_intercept_entry entry = IC_ENTRY_NONE;
    ic_lock(&ic_intercept_lock);
    ic_side *side = ic_side_get(obj);
    ic_object_engine *engine = side ? side->engine : NULL;
    if (engine && engine->in_subclass) {
        for (ic_hook_method *h = ((ic_fake_class *)engine->subclass->engine)->hooks; h; h = h->next)
            if (h->sel == sel)
                entry = h->path == IC_HOOK_FORWARDED   ? IC_ENTRY_LIBFFI
                        : h->path == IC_HOOK_UNIVERSAL ? IC_ENTRY_UNIVERSAL
                                                       : IC_ENTRY_TYPED;
    }
    ic_unlock(&ic_intercept_lock);
    return entry;
}

ic_class *ic_intercept_original_class(ic_id obj)
{
    if (!obj) return NULL;
    ic_class *isa = ic_object_isa(obj);
    ic_class *sub = ic_engine_first_subclass(isa);
    return sub ? sub->superclass : isa;
}

void ic_intercept_quiesce(void)
{
    ic_epoch_drain();
}

static void fill_counters(const ic_engine_counts *c, size_t live, ic_intercept_counters *out)
{
    out->dynamic_subclasses = c->dynamic_subclasses;
    out->forwarding_classes = c->forwarding_classes;
    out->optimized_methods = c->optimized_methods;
    out->forwarded_methods = c->forwarded_methods;
    out->live_objects = live;
    out->live_observers = c->live_observers;
    out->intercepted_objects = c->intercepted_objects;
}

void ic_intercept_get_counters(ic_intercept_counters *out)
{
    if (!out) return;
    ic_lock(&ic_intercept_lock);
    fill_counters(&ic_engine_totals, ic_object_live_count(), out);
    ic_unlock(&ic_intercept_lock);
}

ic_status ic_intercept_get_class_counters(const ic_class *cls, ic_intercept_counters *out)
{
    if (!cls || !out)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_intercept_get_class_counters: %s is NULL",
                       !cls ? "class" : "out");
    static const ic_engine_counts zero;
    ic_lock(&ic_intercept_lock);
    const ic_class_engine *engine = cls->engine;
    bool is_subclass = ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS);
    fill_counters(engine && !is_subclass ? &engine->counts : &zero,
                  ic_class_live_instance_count(cls), out);
    ic_unlock(&ic_intercept_lock);
    return IC_OK;
}

/* ---------------------------------------------------------------------------------------------
 * Teardown: the object's memory is gone (called from the root dealloc through the side record)
 * ------------------------------------------------------------------------------------------- */

/* Frees an object's hook tables (the newest, `p`, and every older one it chains to), with the
 * slots (every slot is in the newest table) and their last snapshots. */
static void free_hook_tables(void *p)
{
    table_box *box = p;
    for (uint32_t s = 0; s < box->table.count; s++) {
        ic_hook_slot *slot = box->table.slots[s];
        free(ic_hook_slot_list_locked(slot));
        free(slot);
    }
    while (box) {
        table_box *previous = box->previous;
        free(box);
        box = previous;
    }
}

/* Before the object's memory is freed: from here on no removal touches the object. */
static void engine_object_dying(ic_side *side, ic_id obj)
{
    if (!side->engine) return;
    ic_lock(&ic_intercept_lock);
    ic_object_engine *engine = side->engine;
    engine->dead = true;
    engine->dead_class = ic_intercept_original_class(obj);
    ic_unlock(&ic_intercept_lock);
}

/* Unregisters `o` if it still is (else a concurrent removal owns it) and retires it. Caller holds
 * ic_intercept_lock and is inside a section (a removal that claimed `o` waits for it). */
static void take_observer_locked(ic_observer *o)
{
    if (!o || ic_map_get(&registry, (uintptr_t)o->token) != o) return;
    ic_map_remove(&registry, (uintptr_t)o->token);
    IC_COUNT(ic_class_engine_locked(o->counted_class), live_observers, (size_t)-1);
    retire_observer(o); /* the reclaimer releases its context */
}

/* After the object's memory was freed: its teardown, now or, if a hooked dealloc layer of the
 * object must return first, when it does (dealloc_hook.c). The teardown allocates nothing (a
 * deallocation must not need memory): it walks the object's own lists instead of collecting
 * them, and retires through the nodes the records carry. */
static void engine_object_freed(ic_side *side, const void *address)
{
    ic_hook_table *table = atomic_load_explicit(&side->hooks, memory_order_acquire);
    ic_object_engine *engine = side->engine;
    if (!engine && !table) return;
    if (ic_dealloc_defer_teardown(address, table, engine)) return;
    ic_engine_teardown(table, engine, address);
}

void ic_engine_teardown(ic_hook_table *table, ic_object_engine *engine, const void *address)
{
    /* One section from reading the observers until they are unregistered: a removal that claims
     * one of them meanwhile waits for it before freeing the observer. */
    uint64_t outer_section = ic_epoch_enter();

    /* 1. Fire "after dealloc" with no lock held, one at a time. They are still registered: a
     *    removal may still claim one (it then sets its entry to NULL, since the object is
     *    `dead`, and nothing can add one to a dead object). */
    for (size_t i = 0; engine; i++) {
        ic_lock(&ic_intercept_lock);
        ic_observer *o = i < engine->deallocated_count ? engine->deallocated[i] : NULL;
        bool more = i < engine->deallocated_count;
        ic_unlock(&ic_intercept_lock);
        if (!more) break;
        if (!o || atomic_load_explicit(&o->removed, memory_order_seq_cst)) continue;
        if (o->after_dealloc)
            o->deallocated_fn(address, engine->dead_class, o->context);
        else
            o->dealloc_fn((ic_id)address, o->context);
    }

    /* 2. Unregister; whatever was still registered is ours to retire. Every registered observer
     *    of a slot is in its current snapshot. */
    ic_lock(&ic_intercept_lock);
    for (size_t i = 0; engine && i < engine->deallocated_count; i++)
        take_observer_locked(engine->deallocated[i]);
    for (uint32_t s = 0; table && s < table->count; s++) {
        ic_observer_list *list = ic_hook_slot_list_locked(table->slots[s]);
        for (uint32_t i = 0;
             list && i < list->before_count + list->instead_count + list->after_count; i++)
            take_observer_locked(
                atomic_load_explicit(&list->items[i].observer, memory_order_relaxed));
    }
    if (engine && engine->in_subclass) {
        IC_COUNT(ic_class_engine_locked(engine->original), intercepted_objects, (size_t)-1);
        engine->in_subclass = false;
    }
    ic_unlock(&ic_intercept_lock);
    ic_epoch_exit(outer_section);

    /* 3. Retire the tables (with the slots and their snapshots) and the engine state. */
    if (table) ic_epoch_retire(&box_of(table)->retire, box_of(table), free_hook_tables);
    if (engine) ic_epoch_retire(&engine->retire, engine, destroy_object_engine);
    ic_epoch_reclaim();
}

void ic_engine_init(void)
{
    ic_side_dying_hook = engine_object_dying;
    ic_side_teardown_hook = engine_object_freed;
}
