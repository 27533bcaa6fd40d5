/*
 * zombie.c — zombies: deallocated objects kept as traps for messages (see zombie.h).
 *
 * Locking: a class's zombie class is made under ic_runtime_lock and published with a release
 * store into cls->zombie, so later deaths of the same class read it without a lock. The on/off
 * switch is one relaxed atomic, read once per root dealloc.
 */
#include "zombie.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "../support/error.h"
#include "../support/locks.h"
#include "object.h"
#include "selector.h"

static _Atomic(bool) zombies_on;

void ic_zombies_init(void)
{
    const char *value = getenv("IC_ZOMBIES");
    bool on = value && (strcmp(value, "1") == 0 || strcasecmp(value, "yes") == 0 ||
                        strcasecmp(value, "true") == 0);
    atomic_store_explicit(&zombies_on, on, memory_order_relaxed);
}

/* Whether instances can die as `cls` (the class an object counts as: never an interception
 * subclass, a metaclass or a zombie class). */
static bool can_have_zombies(const ic_class *cls)
{
    return ic_class_has_flag(cls, IC_CLASS_REGISTERED) &&
           !ic_class_has_flag(cls,
                              IC_CLASS_META | IC_CLASS_INTERCEPTION_SUBCLASS | IC_CLASS_ZOMBIE);
}

/* cls's zombie class, made if needed; NULL if memory ran out. Caller holds ic_runtime_lock. */
static ic_class *zombie_class_locked(ic_class *cls)
{
    ic_class *zombie = atomic_load_explicit(&cls->zombie, memory_order_relaxed);
    if (zombie) return zombie;
    /* "_ICZombie_<Class>", or with a number after it if a class already has that name. */
    size_t size = strlen(cls->name) + 32;
    char *name = malloc(size);
    if (!name) return NULL;
    snprintf(name, size, "_ICZombie_%s", cls->name);
    for (unsigned n = 2; ic_class_named_locked(name); n++)
        snprintf(name, size, "_ICZombie_%s_%u", cls->name, n);
    ic_status status;
    /* No superclass: nothing resolves from it, every lookup misses and traps. No metaclass of its
     * own either (its isa is the root metaclass): class objects never die, so a zombie class is
     * only ever a class, never a class object's class. */
    zombie = ic_class_allocate_bare_locked(name, &status);
    free(name);
    if (!zombie) return NULL;
    zombie->zombie_of = cls;
    atomic_fetch_or_explicit(&zombie->flags, IC_CLASS_ZOMBIE | IC_CLASS_CUSTOM_RR,
                             memory_order_relaxed);
    /* Cannot fail: no superclass, metaclass or property to make room for. */
    if (ic_class_register_locked(zombie) != IC_OK)
        ic_fatal_after("cannot register zombie class \"%s\"", zombie->name);
    atomic_store_explicit(&cls->zombie, zombie, memory_order_release);
    return zombie;
}

static bool make_zombie_class(ic_class *cls, void *context)
{
    (void)context;
    return !can_have_zombies(cls) || zombie_class_locked(cls) != NULL;
}

ic_status ic_zombies_set_enabled(bool enabled)
{
    ic_runtime_init(); /* read the environment first, so it cannot override this call later */
    if (!enabled) {
        atomic_store_explicit(&zombies_on, false, memory_order_relaxed);
        return IC_OK;
    }
    /* Every registered class gets its zombie class now, while a failure can still be reported:
     * then no deallocation needs memory. Under the lock, so that a class registered meanwhile is
     * either in the walk or registered after zombies are on (its instances make theirs). */
    ic_lock(&ic_runtime_lock);
    bool made = ic_class_each_locked(make_zombie_class, NULL);
    if (made) atomic_store_explicit(&zombies_on, true, memory_order_relaxed);
    ic_unlock(&ic_runtime_lock);
    if (!made)
        return ic_fail(IC_ERR_OUT_OF_MEMORY,
                       "out of memory making the zombie classes: zombies stay as they were");
    return IC_OK;
}

bool ic_zombies_enabled(void)
{
    ic_runtime_init();
    return atomic_load_explicit(&zombies_on, memory_order_relaxed);
}

ic_status ic_zombie_prepare(ic_class *cls)
{
    if (IC_LIKELY(!atomic_load_explicit(&zombies_on, memory_order_relaxed))) return IC_OK;
    if (atomic_load_explicit(&cls->zombie, memory_order_acquire) || !can_have_zombies(cls))
        return IC_OK;
    ic_lock(&ic_runtime_lock);
    ic_class *zombie = zombie_class_locked(cls);
    ic_unlock(&ic_runtime_lock);
    if (!zombie)
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory making the zombie class of \"%s\"",
                       cls->name);
    return IC_OK;
}

bool ic_zombie_bury(ic_id obj, ic_class *cls)
{
    if (IC_LIKELY(!atomic_load_explicit(&zombies_on, memory_order_relaxed))) return false;
    /* Made when zombies were turned on, or when the object was created or moved to `cls` with
     * zombies on (ic_zombie_prepare): a deallocation needs no memory. */
    ic_class *zombie = atomic_load_explicit(&cls->zombie, memory_order_acquire);
    if (IC_UNLIKELY(!zombie)) {
        ic_lock(&ic_runtime_lock);
        zombie = zombie_class_locked(cls);
        ic_unlock(&ic_runtime_lock);
        /* Freeing it would turn the next message into a plain use after free. */
        if (!zombie)
            ic_fatal("cannot keep a deallocated %s %p as a zombie: out of memory making its "
                     "zombie class",
                     cls->name, (void *)obj);
    }
    /* Release: whoever loads the zombie class with acquire (a late message) sees its fields. */
    atomic_store_explicit(&obj->isa, zombie, memory_order_release);
    return true;
}

void ic_zombie_message(ic_id obj, ic_class *zombie, ic_sel sel)
{
    ic_fatal("-[%s %s] sent to deallocated instance %p", zombie->zombie_of->name, ic_sel_name(sel),
             (void *)obj);
}
