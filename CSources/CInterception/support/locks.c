/*
 * locks.c — the runtime's locks (their order and what each guards: locks.h).
 */
#include "locks.h"

#include "hashmap.h"

pthread_mutex_t ic_intercept_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_runtime_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_selector_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_signature_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_closure_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_epoch_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_mutex_t ic_protocol_lock = PTHREAD_MUTEX_INITIALIZER;

#define S  PTHREAD_MUTEX_INITIALIZER
#define S8 S, S, S, S, S, S, S, S
_Static_assert(IC_ASSOC_LOCK_COUNT == 64, "the initializer below lists 64 mutexes");
pthread_mutex_t ic_assoc_locks[IC_ASSOC_LOCK_COUNT] = {S8, S8, S8, S8, S8, S8, S8, S8};
#undef S8
#undef S

pthread_mutex_t *ic_assoc_lock_for(const void *object)
{
    return &ic_assoc_locks[ic_hash_word((uintptr_t)object) & (IC_ASSOC_LOCK_COUNT - 1)];
}
