/*
 * epoch.h — epoch-based protection for lock-free readers (the trampolines), with waiting for
 * in-flight readers (removal of an observer) and deferred reclamation of retired memory.
 *
 * The essay is in docs/ARCHITECTURE.md ("Observer lists, removal and the epoch reclaimer").
 * In short:
 *
 *   reader:  ic_epoch_enter(); p = load_acquire(shared); ... use *p ...; ic_epoch_exit();
 *   writer:  (under its own lock) publish a new version; ic_epoch_retire(&old->node, old, fn);
 *            (no lock held) ic_epoch_synchronize() when it must know no reader still runs old
 *            code; reclamation happens in ic_epoch_reclaim().
 *
 * A reader section costs one thread-local load, one load of the global epoch word and two plain
 * thread-local stores (entering, and restoring the word on exit): the store-load ordering it
 * needs is supplied by the writer's membarrier() system call, which makes every running thread
 * of the process execute a full barrier. Where the kernel lacks MEMBARRIER_CMD_PRIVATE_EXPEDITED,
 * readers execute the fence themselves.
 */
#ifndef IC_EPOCH_H
#define IC_EPOCH_H

#include "../support/ic_config.h"

/* One per thread that ever entered a section; linked into the reader list while the thread
 * lives (registered on first entry, unregistered by a thread-exit destructor). */
typedef struct ic_epoch_reader {
    /* 0 outside sections; inside, the epoch at which the outermost section began, shifted left
     * by IC_EPOCH_DEPTH_BITS, plus the section depth. One word, so entering and leaving a
     * section is one thread-local load and one store. Written by its thread only (release),
     * read by writers scanning readers (acquire). */
    _Atomic(uint64_t) active;
    /* 0 when the thread is registered and writers can use membarrier(): the only thing entry
     * checks, OR-ed into `active` (one test for "outermost, fast"). Otherwise non-zero (1 from
     * thread start, by the initializer) and entry takes ic_epoch_enter_slow (registration, or a
     * fence per entry). Thread-private. */
    uint64_t slow_entry;
    /* Set (seq_cst) while the thread, inside a section, waits in ic_epoch_synchronize: other
     * synchronizers then treat it as unable to call anything it has not re-checked. */
    _Atomic(bool) waiting;
    bool registered;              /* thread-private */
    struct ic_epoch_reader *next; /* reader list; guarded by ic_epoch_lock */
    struct ic_epoch_reader *prev;
} ic_epoch_reader;

IC_PRIVATE extern __thread ic_epoch_reader ic_epoch_self __attribute__((tls_model("initial-exec")));
/* The current epoch as the `active` word of an outermost section begun in it:
 * (epoch << IC_EPOCH_DEPTH_BITS) | 1, so that entry stores it as loaded. Writers advance it by
 * IC_EPOCH_STEP. The epoch starts at 1 (0 means "not in a section" in ic_epoch_reader.active). */
IC_PRIVATE extern _Atomic(uint64_t) ic_epoch_global;
/* Whether writers can use membarrier(); otherwise readers fence on entry. Set once at init. */
IC_PRIVATE extern bool ic_epoch_membarrier_ok;

IC_PRIVATE void ic_epoch_register_self(void);

/* Outermost entry for a thread with `slow_entry`: registers it if needed; fences if writers
 * cannot use membarrier(). Stores `active` like the fast path. */
IC_PRIVATE void ic_epoch_enter_slow(void);

#define IC_EPOCH_DEPTH_BITS 20 /* a million nested sections; 44 bits of epochs */
#define IC_EPOCH_STEP       (UINT64_C(1) << IC_EPOCH_DEPTH_BITS) /* one epoch in ic_epoch_global */

/* The epoch a reader's `active` word says its outermost section began in (0: none). */
static inline uint64_t ic_epoch_of(uint64_t active)
{
    return active >> IC_EPOCH_DEPTH_BITS;
}

/* The fast path of ic_epoch_enter alone: enters an outermost section and returns true when the
 * thread is outside any section and may take the fast entry; otherwise does nothing and returns
 * false, and the caller takes an out-of-line path that uses ic_epoch_enter. Leave its section
 * with ic_epoch_exit(0): inlined into a trampoline, no `outer` word is kept across the section
 * (one callee-saved register fewer in every hooked call). */
__attribute__((always_inline, warn_unused_result)) static inline bool ic_epoch_enter_fast(void)
{
    ic_epoch_reader *self = &ic_epoch_self;
    uint64_t outer = atomic_load_explicit(&self->active, memory_order_relaxed);
    /* Nested, or not yet registered, or no membarrier(): one test for all three. */
    if (IC_UNLIKELY((outer | self->slow_entry) != 0)) return false;
    /* Acquire: a reader that sees an epoch bumped after a retirement also sees the publication
     * that preceded the bump. */
    uint64_t entered = atomic_load_explicit(&ic_epoch_global, memory_order_acquire);
    /* Release: whoever reads this value also sees everything this thread did before (its
     * earlier sections' reads of memory now being reclaimed). */
    atomic_store_explicit(&self->active, entered, memory_order_release);
    atomic_signal_fence(memory_order_seq_cst); /* the writer's membarrier() is the fence */
    return true;
}

/* Enters a read-side section (nestable). Lock-free, no atomic read-modify-write. Returns what
 * ic_epoch_exit must be given: the thread's `active` word from before (0 outside any section).
 * Sections nest strictly (each is left in the function that entered it), so leaving one is
 * restoring that word: one store, with no depth arithmetic. */
__attribute__((always_inline, warn_unused_result)) static inline uint64_t ic_epoch_enter(void)
{
    if (IC_LIKELY(ic_epoch_enter_fast())) return 0;
    ic_epoch_reader *self = &ic_epoch_self;
    uint64_t outer = atomic_load_explicit(&self->active, memory_order_relaxed);
    if (outer != 0)
        atomic_store_explicit(&self->active, outer + 1, memory_order_relaxed); /* nested */
    else
        ic_epoch_enter_slow();
    return outer;
}

/* Leaves the read-side section that ic_epoch_enter returned `outer` for. */
__attribute__((always_inline)) static inline void ic_epoch_exit(uint64_t outer)
{
    atomic_store_explicit(&ic_epoch_self.active, outer, memory_order_release);
}

/* Whether the calling thread is inside a section. */
static inline bool ic_epoch_in_section(void)
{
    return atomic_load_explicit(&ic_epoch_self.active, memory_order_relaxed) != 0;
}

/*
 * Waits until every other thread that was inside a section when this call began has left that
 * section (threads that entered later are not waited for; neither is the calling thread, nor a
 * thread that is itself waiting here from inside a section). Must be called with no runtime lock
 * held. Then reclaims what can be.
 */
IC_PRIVATE void ic_epoch_synchronize(void);

/* What the reclaimer keeps of one retired object until it destroys it: embedded in the object
 * (allocated with it), so that retiring allocates nothing and cannot fail. Hot paths retire: a
 * hook removing itself from inside its call, the teardown of a deallocated object. */
typedef struct ic_epoch_node {
    struct ic_epoch_node *next; /* the limbo list; guarded by limbo_lock */
    void (*destroy)(void *object);
    void *object;
    uint64_t tag; /* the epoch it was retired in */
} ic_epoch_node;

/*
 * Hands `object` to the reclaimer through `node`, a node inside it (or inside memory that lives
 * as long): `destroy(object)` runs once no reader section that began before this call is still
 * running, and may free the node with the object. Call after unpublishing `object`; a node is
 * retired at most once. Never blocks on readers, never allocates, so it cannot fail; callable
 * under any runtime lock (it takes limbo_lock, a leaf) and from inside a section.
 */
IC_PRIVATE void ic_epoch_retire(ic_epoch_node *node, void *object, void (*destroy)(void *object));

/* Destroys the retired objects that no reader can still see. Never blocks on readers. Does
 * nothing when called from inside a section (see epoch.c). */
IC_PRIVATE void ic_epoch_reclaim(void);

/*
 * Waits until every object retired before this call has been destroyed, i.e. until every
 * section that began before it has ended, including those of threads waiting in
 * ic_epoch_synchronize (which ic_epoch_synchronize itself does not wait for), and until other
 * threads have finished destroying what they took. From inside a section or a destroy function
 * it can only synchronize: the caller's own section or batch holds the rest back.
 */
IC_PRIVATE void ic_epoch_drain(void);

/* Number of retired objects not yet destroyed (diagnostics and tests). */
IC_PRIVATE size_t ic_epoch_pending(void);

/* Initializes membarrier support (ic_runtime_init). */
IC_PRIVATE void ic_epoch_init(void);

#endif /* IC_EPOCH_H */
