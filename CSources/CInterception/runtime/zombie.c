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

void ic_zombies_set_enabled(bool enabled)
{
    ic_runtime_init(); /* read the environment first, so it cannot override this call later */
    atomic_store_explicit(&zombies_on, enabled, memory_order_relaxed);
}

bool ic_zombies_enabled(void)
{
    ic_runtime_init();
    return atomic_load_explicit(&zombies_on, memory_order_relaxed);
}

/* cls's zombie class, made if needed; NULL if it cannot be (out of memory, or a class already
 * has its name). */
static ic_class *zombie_class_for(ic_class *cls)
{
    ic_class *zombie = atomic_load_explicit(&cls->zombie, memory_order_acquire);
    if (zombie) return zombie;
    char name[256];
    int length = snprintf(name, sizeof name, "_ICZombie_%s", cls->name);
    if (length < 0 || (size_t)length >= sizeof name) return NULL;
    ic_lock(&ic_runtime_lock);
    zombie = atomic_load_explicit(&cls->zombie, memory_order_relaxed);
    if (!zombie && !ic_class_named_locked(name)) {
        ic_status status;
        /* No superclass: nothing resolves from it, every lookup misses and traps. No metaclass
         * of its own either (its isa is the root metaclass): class objects never die, so a
         * zombie class is only ever a class, never a class object's class. */
        zombie = ic_class_allocate_bare_locked(name, &status);
        if (zombie) {
            zombie->zombie_of = cls;
            atomic_fetch_or_explicit(&zombie->flags, IC_CLASS_ZOMBIE | IC_CLASS_CUSTOM_RR,
                                     memory_order_relaxed);
            if (ic_class_register_locked(zombie) != IC_OK)
                ic_fatal("cannot register zombie class \"%s\": %s", name, ic_error_message());
            atomic_store_explicit(&cls->zombie, zombie, memory_order_release);
        }
    }
    ic_unlock(&ic_runtime_lock);
    return zombie;
}

bool ic_zombie_bury(ic_id obj, ic_class *cls)
{
    if (IC_LIKELY(!atomic_load_explicit(&zombies_on, memory_order_relaxed))) return false;
    ic_class *zombie = zombie_class_for(cls);
    if (!zombie) return false;
    /* Release: whoever loads the zombie class with acquire (a late message) sees its fields. */
    atomic_store_explicit(&obj->isa, zombie, memory_order_release);
    return true;
}

void ic_zombie_message(ic_id obj, ic_class *zombie, ic_sel sel)
{
    ic_fatal("-[%s %s] sent to deallocated instance %p", zombie->zombie_of->name, ic_sel_name(sel),
             (void *)obj);
}
