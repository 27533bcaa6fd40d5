/*
 * observe_key_path.c — property observation in C (ic_observe.h): the old and new value of a key
 * path after each setter call along it, re-targeted when an intermediate object is replaced.
 *
 * Each level i of the path ("a.b.c": levels a, b, c) watches one object with an after observer
 * on the setter of its key. A setter call at level i re-reads the path from level i down
 * (replacing the objects of the levels below when they changed, moving their observers), reads
 * the final value and delivers it with the previous one.
 *
 * Holding: the observation keeps alive nothing its path does not. The observed object, and every
 * object (intermediate or the value itself) read through a weak property, is held weakly: not
 * retained, watched by a before-dealloc observer. Its death is a change: the observed object's
 * ends the observation; another's re-reads the path from the level above (the weak property now
 * reads nil) and delivers it. An object read through a strong property is retained while on the
 * path or while it is the current value (its holder keeps it anyway; the observation's reference
 * only outlives the holder's until the setter's after observer moves the path on).
 *
 * Locking: one lock per observation, held while the path is re-read and the callback runs, so
 * deliveries are serialized and each one's old value is the previous one's new value. The lock is
 * re-entrant on its owner thread: a setter call made from inside the callback only marks the path
 * dirty, and the delivering loop delivers once more after the callback returns. Removing an
 * engine observer waits for its calls on other threads (ic_intercept_remove_observer), which may
 * be waiting for this lock: removals (and releases of the objects the observation retained) are
 * therefore queued under the lock and done by whoever releases it last, after unlocking.
 *
 * Lifetime: a reference count: one for the caller (dropped by ic_key_path_observation_remove) and
 * one per engine observer (dropped by its context release, once none of its calls can run). The
 * last one releases the caller's context and frees the observation.
 */
#include "ic_observe.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../support/error.h"
#include "../support/locks.h"
#include "interception.h"

typedef struct kp_observation kp_observation;

/* One level of the path: the context of its engine observers. */
typedef struct kp_level {
    kp_observation *obs;
    unsigned index;
    const char *key;
    ic_id object; /* NULL: a NULL object at this level (or none read yet) */
    bool weak;    /* `object` (level > 0) is not retained: it was read through a weak property */
    ic_observer_token setter;  /* the after observer of the key's setter on `object`, or 0 */
    ic_observer_token dealloc; /* level > 0, `weak`: the before-dealloc observer of `object` */
    ic_status status;          /* why this level is not observed (IC_OK: it is, or no object) */
} kp_level;

/* What a lock holder leaves for after unlocking: observers to remove, objects to release. */
enum { KP_DROPS = 4 * (IC_KEY_PATH_MAX_KEYS + 2) };

struct kp_observation {
    pthread_mutex_t lock;
    _Atomic(const void *) owner; /* the thread holding `lock` (kp_thread_marker's address) */
    unsigned depth;              /* how many times the owner entered */
    atomic_uint refs;
    atomic_bool ended; /* the first object died */
    bool removed;
    bool delivered_end; /* the last change (to none) was delivered */
    int dirty;          /* the first level to re-read, or -1 */
    ic_key_path_observer_fn fn;
    void *context;
    ic_context_release_fn release;
    ic_observer_token dealloc; /* the first object's before-dealloc observer */
    char *type;                /* the value's type encoding */
    size_t size;               /* its size */
    unsigned char *current;    /* the current value (`size` bytes) */
    unsigned char *next;       /* the value being delivered */
    ic_observed_value current_view;
    bool current_unretained;         /* the current value is an object held weakly */
    ic_observer_token value_dealloc; /* then: its before-dealloc observer */
    size_t token_drops, object_drops;
    ic_observer_token dropped_tokens[KP_DROPS];
    ic_id dropped_objects[KP_DROPS];
    unsigned count;
    kp_level levels[];
};

static _Thread_local char kp_thread_marker;

/* ---- the lock and what waits for its release */

static void kp_enter(kp_observation *o)
{
    const void *me = &kp_thread_marker;
    if (atomic_load_explicit(&o->owner, memory_order_relaxed) == me) {
        o->depth++;
        return;
    }
    ic_lock(&o->lock);
    atomic_store_explicit(&o->owner, me, memory_order_relaxed);
    o->depth = 1;
}

/* Leaves; the last leave unlocks, then removes and releases what was dropped. `o` may be freed
 * by then: not used after unlocking. */
static void kp_leave(kp_observation *o)
{
    if (--o->depth > 0) return;
    ic_observer_token tokens[KP_DROPS];
    ic_id objects[KP_DROPS];
    size_t token_count = o->token_drops, object_count = o->object_drops;
    memcpy(tokens, o->dropped_tokens, token_count * sizeof *tokens);
    memcpy(objects, o->dropped_objects, object_count * sizeof *objects);
    o->token_drops = o->object_drops = 0;
    atomic_store_explicit(&o->owner, NULL, memory_order_relaxed);
    ic_unlock(&o->lock);
    for (size_t i = 0; i < token_count; i++)
        ic_intercept_remove_observer(tokens[i]); /* NOT_FOUND: gone with its object */
    for (size_t i = 0; i < object_count; i++)
        ic_release(objects[i]);
}

static void drop_token(kp_observation *o, ic_observer_token *token)
{
    if (*token) o->dropped_tokens[o->token_drops++] = *token;
    *token = 0;
}

static void drop_object(kp_observation *o, ic_id object)
{
    if (object) o->dropped_objects[o->object_drops++] = object;
}

static void kp_unref(kp_observation *o)
{
    if (atomic_fetch_sub_explicit(&o->refs, 1, memory_order_acq_rel) != 1) return;
    if (o->release) o->release(o->context);
    free(o);
}

static void kp_release_context(void *context)
{
    kp_unref(((kp_level *)context)->obs);
}

/* ---- the value */

static bool is_object_type(const kp_observation *o)
{
    return o->type[0] == '@';
}

static bool is_string_type(const kp_observation *o)
{
    return o->type[0] == '*';
}

/* Gives up the value in `buffer` (an object is released after unlocking, a string freed). */
static void clear_value(kp_observation *o, unsigned char *buffer, ic_observed_value *view)
{
    if (view->value && is_object_type(o)) {
        ic_id object;
        memcpy(&object, buffer, sizeof object);
        drop_object(o, object);
    } else if (view->value && is_string_type(o)) {
        char *string;
        memcpy(&string, buffer, sizeof string);
        free(string);
    }
    memset(buffer, 0, o->size);
    *view = (ic_observed_value){.value = NULL, .status = IC_OK};
}

/* Gives up the current value (an object held weakly: its observer, not a reference). */
static void clear_current(kp_observation *o)
{
    drop_token(o, &o->value_dealloc);
    if (o->current_unretained) {
        memset(o->current, 0, o->size);
        o->current_view = (ic_observed_value){.value = NULL, .status = IC_OK};
        o->current_unretained = false;
        return;
    }
    clear_value(o, o->current, &o->current_view);
}

/* Whether `object`'s property `key` is a weak reference (what it reads is then held weakly). */
static bool reads_weakly(ic_id object, const char *key)
{
    const ic_property *property = ic_class_get_property(ic_object_get_class(object), key);
    return property && (ic_property_attributes(property) & IC_PROPERTY_WEAK);
}

/* Reads `key` of `object` (+1 for an object). What the getter parks in the calling thread's
 * autorelease pool (a weak property's value) is released here rather than left to whenever the
 * setter's thread pops its pool: the observation keeps alive nothing the path does not. */
static ic_status read_key(ic_id object, const char *key, const char *type, void *out, size_t size)
{
    size_t mark = ic_autorelease_pool_push();
    ic_status status = ic_object_copy_value_for_key(object, key, type, out, size);
    ic_autorelease_pool_pop(mark);
    return status;
}

/* ---- levels */

static void kp_setter_called(ic_invocation *call, void *context);
static void kp_object_died(ic_id object, void *context);
static void kp_value_died(ic_id object, void *context);

static void kp_first_object_died(ic_id object, void *context);

/* Watches `object`'s death with `fn` (context `level`), the observer's reference taken; `*token`
 * is 0 if that failed. */
static ic_status watch_death(kp_observation *o, kp_level *level, ic_id object,
                             ic_dealloc_observer_fn fn, ic_observer_token *token)
{
    *token = 0;
    atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
    ic_status status = ic_intercept_add_dealloc_observer(object, IC_OBSERVE_BEFORE, fn, level,
                                                         kp_release_context, token);
    if (status != IC_OK) atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed);
    return status;
}

/* Detaches levels `from`.. (their observers and retained objects queued). */
static void detach_from(kp_observation *o, unsigned from)
{
    for (unsigned i = from; i < o->count; i++) {
        kp_level *level = &o->levels[i];
        drop_token(o, &level->setter);
        drop_token(o, &level->dealloc);
        if (i > 0 && !level->weak) drop_object(o, level->object);
        if (i > 0) level->object = NULL;
        level->weak = false;
        level->status = IC_OK;
    }
}

/* Observes the setter of level `i`'s key on its object. */
static ic_status attach(kp_observation *o, unsigned i)
{
    kp_level *level = &o->levels[i];
    ic_sel setter = ic_object_setter_for_key(level->object, level->key);
    if (!setter) return ic_error_status();
    atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
    ic_status status =
        ic_intercept_add_observer(level->object, setter, IC_OBSERVE_AFTER, kp_setter_called, level,
                                  kp_release_context, &level->setter);
    if (status != IC_OK) atomic_fetch_sub_explicit(&o->refs, 1, memory_order_relaxed);
    return status;
}

/* Re-reads the objects of the levels below `from` (which changed, or was just attached). Returns
 * the first status that stopped it (IC_OK: every level with an object is observed). */
static ic_status resolve(kp_observation *o, unsigned from, bool from_attached)
{
    for (unsigned i = from; i + 1 < o->count; i++) {
        kp_level *level = &o->levels[i];
        if (level->status != IC_OK) return level->status;
        ic_id child = NULL;
        if (level->object) {
            ic_status status = read_key(level->object, level->key, "@", &child, sizeof child);
            if (status != IC_OK) {
                detach_from(o, i + 1);
                level->status = status;
                return status;
            }
        }
        kp_level *below = &o->levels[i + 1];
        if (child == below->object && (child == NULL || below->setter) && !from_attached) {
            drop_object(o, child); /* unchanged: the levels below are as they were */
            return IC_OK;
        }
        from_attached = true; /* everything below is new */
        detach_from(o, i + 1);
        below->object = child; /* the +1 of the read: retained while on the path, unless weak */
        if (child && reads_weakly(level->object, level->key)) {
            /* Out of memory, `child` is held strongly instead. */
            below->weak = watch_death(o, below, child, kp_object_died, &below->dealloc) == IC_OK;
            if (below->weak) drop_object(o, child); /* released once unlocked */
        }
        if (child) below->status = attach(o, i + 1);
        if (below->status != IC_OK) return below->status;
    }
    return IC_OK;
}

/* Reads the final value into o->next; returns its view. */
static ic_observed_value read_value(kp_observation *o, ic_status path_status)
{
    memset(o->next, 0, o->size);
    const kp_level *last = &o->levels[o->count - 1];
    if (atomic_load_explicit(&o->ended, memory_order_relaxed) || !last->object)
        return (ic_observed_value){.value = NULL, .status = IC_OK};
    if (path_status == IC_OK) path_status = last->status;
    if (path_status != IC_OK) return (ic_observed_value){.value = NULL, .status = path_status};
    ic_status status = read_key(last->object, last->key, o->type, o->next, o->size);
    if (status != IC_OK) return (ic_observed_value){.value = NULL, .status = status};
    return (ic_observed_value){.value = o->next, .status = IC_OK};
}

/* The status of the first level that is not observed (above the last object). */
static ic_status path_status(const kp_observation *o)
{
    for (unsigned i = 0; i < o->count; i++) {
        if (o->levels[i].status != IC_OK) return o->levels[i].status;
        if (!o->levels[i].object) return IC_OK;
    }
    return IC_OK;
}

/* Holds the new current value weakly if it is an object read through a weak property. */
static void hold_current(kp_observation *o)
{
    kp_level *last = &o->levels[o->count - 1];
    if (!o->current_view.value || !is_object_type(o) || !last->object ||
        !reads_weakly(last->object, last->key))
        return;
    ic_id value;
    memcpy(&value, o->current, sizeof value);
    if (!value) return;
    if (watch_death(o, last, value, kp_value_died, &o->value_dealloc) != IC_OK)
        return; /* out of memory: held strongly instead */
    o->current_unretained = true;
    drop_object(o, value); /* the read's reference, released once unlocked */
}

/* Delivers changes from level `from` until none is pending. Caller entered once (depth 1). */
static void deliver_changes(kp_observation *o, int from)
{
    o->dirty = from;
    while (o->dirty >= 0 && !o->removed && !o->delivered_end) {
        unsigned level = (unsigned)o->dirty;
        o->dirty = -1;
        bool ended = atomic_load_explicit(&o->ended, memory_order_relaxed);
        if (!ended) resolve(o, level, false);
        ic_observed_value next = read_value(o, path_status(o));
        if (ended && !o->current_view.value && o->current_view.status == IC_OK) {
            o->delivered_end = true; /* none to none: nothing to deliver */
            break;
        }
        ic_observed_value old = o->current_view;
        o->fn(&old, &next, o->context);
        if (o->removed) { /* from inside fn: the removal cleared the current value */
            clear_value(o, o->next, &next);
            break;
        }
        clear_current(o);
        unsigned char *swap = o->current;
        o->current = o->next;
        o->next = swap;
        o->current_view = next;
        if (next.value) o->current_view.value = o->current;
        if (!ended) hold_current(o);
        if (ended) o->delivered_end = true;
        /* Unlocks between deliveries (another thread may deliver in between, from the state
         * left here), so that what this one dropped is removed and released now. The caller's
         * engine call (or its reference) keeps `o`. */
        kp_leave(o);
        kp_enter(o);
    }
}

/* ---- engine callbacks */

static void kp_setter_called(ic_invocation *call, void *context)
{
    kp_level *level = context;
    kp_observation *o = level->obs;
    kp_enter(o);
    bool relevant = !o->removed && !atomic_load_explicit(&o->ended, memory_order_relaxed) &&
                    ic_invocation_target(call) == level->object;
    if (relevant && o->depth > 1) {
        /* From inside a delivery on this thread: delivered after it. */
        if (o->dirty < 0 || (unsigned)o->dirty > level->index) o->dirty = (int)level->index;
    } else if (relevant) {
        deliver_changes(o, (int)level->index);
    }
    kp_leave(o);
}

/* Re-reads the path from level `from` and delivers, or after the delivery running on this
 * thread if there is one. */
static void change_from(kp_observation *o, unsigned from)
{
    if (o->depth == 1)
        deliver_changes(o, (int)from);
    else if (o->dirty < 0 || (unsigned)o->dirty > from)
        o->dirty = (int)from;
}

/* An object read through a weak property died: the property now reads nil. */
static void kp_object_died(ic_id object, void *context)
{
    kp_level *level = context;
    kp_observation *o = level->obs;
    kp_enter(o);
    if (!o->removed && !atomic_load_explicit(&o->ended, memory_order_relaxed) && level->weak &&
        level->object == object) {
        level->dealloc = 0; /* goes with its object */
        detach_from(o, level->index);
        change_from(o, level->index - 1);
    }
    kp_leave(o);
}

/* The current value, an object read through a weak property, died. */
static void kp_value_died(ic_id object, void *context)
{
    kp_level *level = context;
    kp_observation *o = level->obs;
    kp_enter(o);
    ic_id current = NULL;
    if (o->current_unretained && o->current_view.value)
        memcpy(&current, o->current, sizeof current);
    if (!o->removed && !atomic_load_explicit(&o->ended, memory_order_relaxed) && current &&
        current == object) {
        o->value_dealloc = 0; /* goes with its object */
        change_from(o, level->index);
    }
    kp_leave(o);
}

static void kp_first_object_died(ic_id object, void *context)
{
    (void)object;
    kp_observation *o = ((kp_level *)context)->obs;
    kp_enter(o);
    if (!o->removed) {
        atomic_store_explicit(&o->ended, true, memory_order_relaxed);
        detach_from(o, 0);
        o->dealloc = 0; /* goes with its object */
        o->levels[0].object = NULL;
        change_from(o, 0);
    }
    kp_leave(o);
}

/* ---- the public functions */

/* Splits `key_path` into `keys` (a copy with NUL separators); returns the key count, or 0 with
 * the error recorded. */
static unsigned split_keys(const char *key_path, char *keys, const char *starts[])
{
    unsigned count = 0;
    memcpy(keys, key_path, strlen(key_path) + 1);
    for (char *key = keys;; count++) {
        char *dot = strchr(key, '.');
        if (dot) *dot = '\0';
        if (!*key) {
            ic_fail(IC_ERR_INVALID_ARGUMENT,
                    "ic_object_observe_key_path: key path \"%s\" has an "
                    "empty key",
                    key_path);
            return 0;
        }
        if (count == IC_KEY_PATH_MAX_KEYS) {
            ic_fail(IC_ERR_INVALID_ARGUMENT,
                    "ic_object_observe_key_path: key path \"%s\" has more than %d keys", key_path,
                    IC_KEY_PATH_MAX_KEYS);
            return 0;
        }
        starts[count] = key;
        if (!dot) return count + 1;
        key = dot + 1;
    }
}

static size_t round_up(size_t n)
{
    return (n + 15) & ~(size_t)15;
}

ic_status ic_object_observe_key_path(ic_id obj, const char *key_path, const char *type,
                                     uint32_t options, ic_key_path_observer_fn fn, void *context,
                                     ic_context_release_fn release,
                                     ic_key_path_observation **observation)
{
    if (!obj || !key_path || !type || !fn || !observation)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_observe_key_path: %s is NULL",
                       !obj        ? "object"
                       : !key_path ? "key path"
                       : !type     ? "type"
                       : !fn       ? "fn"
                                   : "observation");
    if (options & ~(uint32_t)IC_OBSERVE_INITIAL)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_object_observe_key_path: unknown option 0x%x",
                       (unsigned)(options & ~(uint32_t)IC_OBSERVE_INITIAL));
    if (ic_object_as_class(obj))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "ic_object_observe_key_path: a class object cannot be observed");
    size_t size = 0, alignment = 0;
    const char *end = NULL;
    ic_status status = ic_encoding_size_and_alignment(type, &size, &alignment, &end);
    if (status != IC_OK) return status;
    if (*end != '\0' || size == 0)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "ic_object_observe_key_path: type \"%s\" is not one value's type", type);

    /* Counts the keys first: one allocation holds everything. */
    size_t path_length = strlen(key_path), type_length = strlen(type);
    unsigned count = 1;
    for (const char *p = key_path; *p; p++)
        count += *p == '.';
    if (count > IC_KEY_PATH_MAX_KEYS) count = IC_KEY_PATH_MAX_KEYS + 1; /* split_keys reports */
    size_t header = round_up(sizeof(kp_observation) + count * sizeof(kp_level));
    size_t value_size = round_up(size);
    kp_observation *o =
        calloc(1, header + 2 * value_size + round_up(path_length + 1) + type_length + 1);
    if (!o) return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory observing a key path");
    unsigned char *bytes = (unsigned char *)o;
    o->current = bytes + header;
    o->next = o->current + value_size;
    char *keys = (char *)(o->next + value_size);
    o->type = keys + round_up(path_length + 1);
    memcpy(o->type, type, type_length + 1);
    const char *starts[IC_KEY_PATH_MAX_KEYS + 1];
    count = split_keys(key_path, keys, starts);
    if (count == 0) {
        free(o);
        return ic_error_status();
    }
    o->lock = (pthread_mutex_t)PTHREAD_MUTEX_INITIALIZER;
    atomic_init(&o->refs, 1);
    o->fn = fn;
    o->context = context;
    o->release = release;
    o->size = size;
    o->count = count;
    o->dirty = -1;
    for (unsigned i = 0; i < count; i++)
        o->levels[i] = (kp_level){.obs = o, .index = i, .key = starts[i]};
    o->levels[0].object = obj;

    kp_enter(o);
    status = watch_death(o, &o->levels[0], obj, kp_first_object_died, &o->dealloc);
    if (status == IC_OK) status = o->levels[0].status = attach(o, 0);
    if (status == IC_OK) status = resolve(o, 0, true);
    ic_observed_value value = {0};
    if (status == IC_OK) {
        value = read_value(o, IC_OK);
        status = value.status;
    }
    if (status != IC_OK) {
        /* Nothing stays: the observers and objects go once unlocked; the caller's context is
         * not released (the last reference drops without it). */
        o->removed = true;
        o->release = NULL;
        detach_from(o, 0);
        drop_token(o, &o->dealloc);
        clear_value(o, o->next, &value);
        kp_leave(o);
        kp_unref(o);
        return status;
    }
    *observation = (ic_key_path_observation *)o;
    /* Keeps `o` until this function returns, whoever removes it meanwhile. */
    atomic_fetch_add_explicit(&o->refs, 1, memory_order_relaxed);
    if (options & IC_OBSERVE_INITIAL) {
        ic_observed_value none = {.value = NULL, .status = IC_OK};
        fn(&none, &value, context);
        if (o->removed) { /* from inside fn */
            clear_value(o, o->next, &value);
            kp_leave(o);
            kp_unref(o);
            return IC_OK;
        }
    }
    unsigned char *swap = o->current;
    o->current = o->next;
    o->next = swap;
    o->current_view = value;
    if (value.value) o->current_view.value = o->current;
    hold_current(o);
    /* A change made meanwhile (from the initial delivery) is delivered now. */
    if (o->dirty >= 0 && !o->removed) deliver_changes(o, o->dirty);
    kp_leave(o);
    kp_unref(o);
    return IC_OK;
}

ic_status ic_key_path_observation_remove(ic_key_path_observation *observation)
{
    if (!observation)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_key_path_observation_remove: NULL");
    kp_observation *o = (kp_observation *)observation;
    kp_enter(o);
    o->removed = true;
    detach_from(o, 0);
    drop_token(o, &o->dealloc);
    clear_current(o);
    kp_leave(o);
    kp_unref(o);
    return IC_OK;
}

bool ic_key_path_observation_is_active(const ic_key_path_observation *observation)
{
    const kp_observation *o = (const kp_observation *)observation;
    return o && !atomic_load_explicit(&o->ended, memory_order_relaxed);
}
