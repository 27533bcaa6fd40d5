/*
 * zombie.h — zombies (NSZombieEnabled for this runtime), a debugging mode.
 *
 * With zombies on, the root dealloc does not free an object's memory: it moves the object into
 * the zombie class of its class ("_ICZombie_<Class>", made on first use, registered, immortal).
 * A zombie class has no methods and its dispatch table is never filled, so every message to a
 * zombie misses the cache and reaches the lookup slow path, which traps with
 * "-[Class selector] sent to deallocated instance 0x…" (message.c). Zombie classes are flagged
 * custom retain/release, so ic_retain and ic_release send messages and trap the same way. The
 * send fast path is untouched: nothing checks for zombies until a lookup has already missed.
 */
#ifndef IC_ZOMBIE_H
#define IC_ZOMBIE_H

#include "../support/ic_config.h"
#include "class.h"

/* Reads IC_ZOMBIES from the environment (ic_runtime_init). */
IC_PRIVATE void ic_zombies_init(void);

/* If zombies are on, makes sure `cls` (the class instances count as: not an interception
 * subclass) has its zombie class, so that the deallocation of an instance needs no memory:
 * ic_class_create_instance and ic_object_set_class call it, where a failure can be reported.
 * Returns IC_OK, or IC_ERR_OUT_OF_MEMORY. Takes ic_runtime_lock when it makes one. */
IC_PRIVATE ic_status ic_zombie_prepare(ic_class *cls);

/* If zombies are on, moves the dead `obj` (of original class `cls`, an interception subclass
 * already skipped) into cls's zombie class and returns true: its memory must not be freed.
 * False if zombies are off. The zombie class exists (made when zombies were turned on, or when
 * the object was created or moved with zombies on): nothing is allocated. */
IC_PRIVATE bool ic_zombie_bury(ic_id obj, ic_class *cls);

/* Traps: a message `sel` reached the zombie `obj`, whose class is the zombie class `zombie`. */
IC_PRIVATE IC_NORETURN void ic_zombie_message(ic_id obj, ic_class *zombie, ic_sel sel);

#endif /* IC_ZOMBIE_H */
