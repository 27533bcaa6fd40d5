/*
 * epoch.h — epoch-based protection for lock-free readers (the trampolines), with waiting for
 * in-flight readers (removal of an observer) and deferred reclamation of retired memory.
 *
 * The essay is in docs/ARCHITECTURE.md ("Observer lists, removal and the epoch reclaimer").
 * In short:
 *
 *   reader:  ic_epoch_enter(); p = load_acquire(shared); ... use *p ...; ic_epoch_exit();
 *   writer:  (under its own lock) publish a new version; ic_epoch_retire(old, free_fn);
 *            (no lock held) ic_epoch_synchronize() when it must know no reader still runs old
 *            code; reclamation happens in ic_epoch_reclaim().
 *
 * A reader section costs two plain thread-local stores and one load of the global epoch: the
 * store-load ordering it needs is supplied by the writer's membarrier() system call, which makes
 * every running thread of the process execute a full barrier. Where the kernel lacks
 * MEMBARRIER_CMD_PRIVATE_EXPEDITED, readers execute the fence themselves.
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
    /* Set (seq_cst) while the thread, inside a section, waits in ic_epoch_synchronize: other
     * synchronizers then treat it as unable to call anything it has not re-checked. */
    _Atomic(bool) waiting;
    bool registered; /* thread-private */
    /* registered, and writers can use membarrier(): the only thing entry checks (one byte).
     * Otherwise entry takes ic_epoch_enter_slow (registration, or a fence per entry). */
    bool fast_entry;              /* thread-private */
    struct ic_epoch_reader *next; /* reader list; guarded by ic_epoch_lock */
    struct ic_epoch_reader *prev;
} ic_epoch_reader;

IC_PRIVATE extern __thread ic_epoch_reader ic_epoch_self __attribute__((tls_model("initial-exec")));
/* Starts at 1 (0 means "not in a section" in ic_epoch_reader.active). */
IC_PRIVATE extern _Atomic(uint64_t) ic_epoch_global;
/* Whether writers can use membarrier(); otherwise readers fence on entry. Set once at init. */
IC_PRIVATE extern bool ic_epoch_membarrier_ok;

IC_PRIVATE void ic_epoch_register_self(void);

/* Entry for a thread without fast_entry: registers it if needed; fences if writers cannot use
 * membarrier(). Stores `active` like the fast path. */
IC_PRIVATE void ic_epoch_enter_slow(void);

#define IC_EPOCH_DEPTH_BITS 20 /* a million nested sections; 44 bits of epochs */
#define IC_EPOCH_DEPTH_MASK ((UINT64_C(1) << IC_EPOCH_DEPTH_BITS) - 1)

/* The epoch a reader's `active` word says its outermost section began in (0: none). */
static inline uint64_t ic_epoch_of(uint64_t active)
{
    return active >> IC_EPOCH_DEPTH_BITS;
}

/* Enters a read-side section (nestable). Lock-free, no atomic read-modify-write. */
__attribute__((always_inline)) static inline void ic_epoch_enter(void)
{
    ic_epoch_reader *self = &ic_epoch_self;
    uint64_t active = atomic_load_explicit(&self->active, memory_order_relaxed);
    if (IC_UNLIKELY(active != 0)) { /* the outermost section is the one laid out straight */
        atomic_store_explicit(&self->active, active + 1, memory_order_relaxed); /* nested */
        return;
    }
    if (IC_UNLIKELY(!self->fast_entry)) {
        ic_epoch_enter_slow();
        return;
    }
    /* Acquire: a reader that sees an epoch bumped after a retirement also sees the publication
     * that preceded the bump. */
    uint64_t epoch = atomic_load_explicit(&ic_epoch_global, memory_order_acquire);
    /* Release: whoever reads this value also sees everything this thread did before (its
     * earlier sections' reads of memory now being reclaimed). */
    atomic_store_explicit(&self->active, (epoch << IC_EPOCH_DEPTH_BITS) | 1, memory_order_release);
    atomic_signal_fence(memory_order_seq_cst); /* the writer's membarrier() is the fence */
}

/* Leaves a read-side section. */
__attribute__((always_inline)) static inline void ic_epoch_exit(void)
{
    ic_epoch_reader *self = &ic_epoch_self;
    uint64_t active = atomic_load_explicit(&self->active, memory_order_relaxed) - 1;
    atomic_store_explicit(&self->active, (active & IC_EPOCH_DEPTH_MASK) ? active : 0,
                          memory_order_release);
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

/*
 * Hands `object` to the reclaimer: `destroy(object)` runs once no reader section that began
 * before this call is still running. Call after unpublishing `object`. Never blocks on readers.
 */
IC_PRIVATE void ic_epoch_retire(void *object, void (*destroy)(void *object));

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
