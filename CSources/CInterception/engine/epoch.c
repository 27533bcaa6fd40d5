/*
 * epoch.c — reader registration, waiting for readers, and deferred reclamation.
 *
 * Locking: ic_epoch_lock guards the reader list (registration, unregistration, scans).
 * limbo_lock guards the list of retired objects. Neither is held while destroying retired
 * objects (destroy functions may call user code: observer context release functions).
 *
 * Why readers are safe (the argument for ic_epoch_retire/ic_epoch_reclaim):
 *   A writer unpublishes p, then retires it with tag T = ++global (seq_cst RMW). A reader that
 *   can still see p loaded its pointer in a section that began before its epoch load observed T,
 *   so its `active` is non-zero and < T. The reclaimer first runs membarrier() — after it, every
 *   reader's `active` store that precedes a load of p (in that reader's program order) is
 *   visible — then frees p only if every reader's `active` is 0 or >= T, and only if T was
 *   retired before the scan (T <= the epoch the reclaimer read before its barrier): a reader
 *   that the scan saw outside any section may enter one right after it and load p if p is
 *   unpublished later.
 */
#include "epoch.h"

#include <errno.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../support/error.h"
#include "../support/locks.h"

__thread ic_epoch_reader ic_epoch_self
    __attribute__((tls_model("initial-exec"))) = {.slow_entry = 1};
_Atomic(uint64_t) ic_epoch_global = IC_EPOCH_STEP | 1;
bool ic_epoch_membarrier_ok;

/* Registered readers. Guarded by ic_epoch_lock. */
static ic_epoch_reader *readers;
static pthread_key_t exit_key;

static pthread_mutex_t limbo_lock = PTHREAD_MUTEX_INITIALIZER;
static ic_epoch_node *limbo; /* guarded by limbo_lock */
static size_t limbo_count;

/* A batch taken off the limbo list that a reclaimer is destroying (on its stack), so that
 * ic_epoch_drain also waits for destructions already under way. Guarded by limbo_lock. */
typedef struct destroying_batch {
    struct destroying_batch *next;
    uint64_t oldest_tag;
} destroying_batch;
static destroying_batch *destroying;
/* How many destroy loops this thread is inside (destroy functions may call the runtime). */
static __thread unsigned destroying_depth;

/* Advances the global epoch; returns the new epoch. */
static uint64_t advance_epoch(void)
{
    return ic_epoch_of(
        atomic_fetch_add_explicit(&ic_epoch_global, IC_EPOCH_STEP, memory_order_seq_cst) +
        IC_EPOCH_STEP);
}

/* The current epoch. */
static uint64_t current_epoch(void)
{
    return ic_epoch_of(atomic_load_explicit(&ic_epoch_global, memory_order_seq_cst));
}

static long membarrier(int cmd)
{
    return syscall(SYS_membarrier, cmd, 0, 0);
}

static void unregister_at_exit(void *value)
{
    ic_epoch_reader *self = value;
    ic_lock(&ic_epoch_lock);
    if (self->prev)
        self->prev->next = self->next;
    else
        readers = self->next;
    if (self->next) self->next->prev = self->prev;
    ic_unlock(&ic_epoch_lock);
    self->registered = false;
    self->slow_entry = 1;
}

void ic_epoch_init(void)
{
    if (pthread_key_create(&exit_key, unregister_at_exit) != 0)
        ic_fatal("cannot create the epoch reclaimer's thread-exit key");
    long supported = membarrier(MEMBARRIER_CMD_QUERY);
    if (supported >= 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
        membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
        ic_epoch_membarrier_ok = true;
}

void ic_epoch_register_self(void)
{
    ic_runtime_init(); /* exit_key and membarrier state */
    ic_epoch_reader *self = &ic_epoch_self;
    ic_lock(&ic_epoch_lock);
    self->prev = NULL;
    self->next = readers;
    if (readers) readers->prev = self;
    readers = self;
    ic_unlock(&ic_epoch_lock);
    self->registered = true;
    self->slow_entry = !ic_epoch_membarrier_ok;
    /* The destructor runs when the thread exits, before its thread-local storage goes away. */
    pthread_setspecific(exit_key, self);
}

void ic_epoch_enter_slow(void)
{
    ic_epoch_reader *self = &ic_epoch_self;
    if (!self->registered) ic_epoch_register_self();
    uint64_t entered = atomic_load_explicit(&ic_epoch_global, memory_order_acquire);
    atomic_store_explicit(&self->active, entered, memory_order_release);
    /* Without membarrier() the reader itself must order its `active` store before the loads
     * of the section (a store-load barrier). */
    atomic_thread_fence(memory_order_seq_cst);
}

/* A full barrier on every running thread of the process (or a local one, if readers fence). */
static void heavy_barrier(void)
{
    if (ic_epoch_membarrier_ok)
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

static void pause_briefly(unsigned spins)
{
    if (spins < 64) {
        sched_yield();
        return;
    }
    struct timespec ts = {0, spins < 1024 ? 20000 : 200000};
    nanosleep(&ts, NULL);
}

void ic_epoch_synchronize(void)
{
    ic_epoch_reader *self = &ic_epoch_self;
    bool nested = ic_epoch_in_section();
    if (nested) atomic_store_explicit(&self->waiting, true, memory_order_seq_cst);
    uint64_t target = advance_epoch();
    heavy_barrier();
    /* The lock is held only for one scan at a time, never while waiting: a reader that is in a
     * section may itself be waiting for a thread that needs the lock (to register, to exit, or
     * to reclaim), and holding it across the wait would deadlock the three. Rescanning from the
     * start each round is what lets the list change between rounds. */
    for (unsigned spins = 0;; spins++) {
        bool blocked = false;
        ic_lock(&ic_epoch_lock);
        for (ic_epoch_reader *r = readers; r && !blocked; r = r->next) {
            if (r == self) continue;
            uint64_t active = ic_epoch_of(atomic_load_explicit(&r->active, memory_order_acquire));
            if (active == 0 || active >= target) continue;
            if (atomic_load_explicit(&r->waiting, memory_order_seq_cst)) continue;
            blocked = true;
        }
        ic_unlock(&ic_epoch_lock);
        if (!blocked) break;
        pause_briefly(spins);
    }
    if (nested) atomic_store_explicit(&self->waiting, false, memory_order_seq_cst);
    ic_epoch_reclaim();
}

void ic_epoch_retire(ic_epoch_node *r, void *object, void (*destroy)(void *object))
{
    r->object = object;
    r->destroy = destroy;
    r->tag = advance_epoch();
    ic_lock(&limbo_lock);
    r->next = limbo;
    limbo = r;
    limbo_count++;
    ic_unlock(&limbo_lock);
}

void ic_epoch_reclaim(void)
{
    /* Never from inside a section: the section holds back everything retired since it began,
     * and destroy functions run users' release code, which should not run nested inside an
     * observer's call. What is pending is reclaimed by the next call made outside a section. */
    if (ic_epoch_in_section()) return;
    ic_lock(&limbo_lock);
    bool empty = limbo == NULL;
    ic_unlock(&limbo_lock);
    if (empty) return;

    /* The scan below only speaks for what was retired before it began: a reader entering a
     * section after the scan may still hold something retired after it (its tag is above the
     * epoch read here), so the bound starts at the current epoch, not at "everything". */
    uint64_t oldest = current_epoch();
    heavy_barrier();
    ic_lock(&ic_epoch_lock);
    for (ic_epoch_reader *r = readers; r; r = r->next) {
        uint64_t active = ic_epoch_of(atomic_load_explicit(&r->active, memory_order_acquire));
        if (active != 0 && active < oldest)
            oldest = active; /* the oldest section still running anywhere */
    }
    ic_unlock(&ic_epoch_lock);

    ic_epoch_node *ready = NULL;
    destroying_batch batch = {NULL, UINT64_MAX};
    ic_lock(&limbo_lock);
    for (ic_epoch_node **link = &limbo; *link;) {
        ic_epoch_node *r = *link;
        if (r->tag <= oldest) {
            *link = r->next;
            r->next = ready;
            ready = r;
            limbo_count--;
            if (r->tag < batch.oldest_tag) batch.oldest_tag = r->tag;
        } else {
            link = &r->next;
        }
    }
    if (ready) {
        batch.next = destroying;
        destroying = &batch;
    }
    ic_unlock(&limbo_lock);
    if (!ready) return;

    destroying_depth++;
    while (ready) {
        ic_epoch_node *next = ready->next; /* read first: destroy frees the node */
        ready->destroy(ready->object);
        ready = next;
    }
    destroying_depth--;
    ic_lock(&limbo_lock);
    destroying_batch **link = &destroying;
    while (*link != &batch)
        link = &(*link)->next;
    *link = batch.next;
    ic_unlock(&limbo_lock);
}

/* Whether something retired with a tag at or below `tag` is not destroyed yet: still in the
 * limbo list, or in a batch another thread is destroying. */
static bool pending_since(uint64_t tag)
{
    bool found = false;
    ic_lock(&limbo_lock);
    for (ic_epoch_node *r = limbo; r && !found; r = r->next)
        found = r->tag <= tag;
    for (destroying_batch *b = destroying; b && !found; b = b->next)
        found = b->oldest_tag <= tag;
    ic_unlock(&limbo_lock);
    return found;
}

void ic_epoch_drain(void)
{
    if (ic_epoch_in_section() || destroying_depth) {
        /* The caller's own section holds back what was retired before it began; a destroy
         * function calling this cannot wait for its own batch. */
        ic_epoch_synchronize();
        return;
    }
    /* One synchronize is not enough: it does not wait for a thread that is itself waiting in
     * ic_epoch_synchronize from inside a section (two such threads would otherwise wait for each
     * other), and that thread's section still holds back reclamation. So wait, without
     * holding anything, until everything retired before this call is gone. */
    uint64_t start = current_epoch();
    for (unsigned spins = 0;; spins++) {
        ic_epoch_synchronize();
        if (!pending_since(start)) return;
        pause_briefly(spins);
    }
}

size_t ic_epoch_pending(void)
{
    ic_lock(&limbo_lock);
    size_t n = limbo_count;
    ic_unlock(&limbo_lock);
    return n;
}
