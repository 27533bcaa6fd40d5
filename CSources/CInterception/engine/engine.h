/*
 * engine.h — the interception engine's records (internal). The design, with who reads what
 * without a lock, is in docs/ARCHITECTURE.md, "The interception engine".
 */
#ifndef IC_ENGINE_H
#define IC_ENGINE_H

#include <stdlib.h>
#include <string.h>

#include "../support/ic_config.h"
#include "epoch.h"
#include "ic_hook.h"
#include "ic_intercept.h"
#include "../types/signature.h"

/* Calls the original IMP `imp` of signature `sig` with the arguments at `args`, storing its
 * result at `ret` (NULL for void); returns IC_OK (a status, so that ic_hook_call_original can
 * end in a tail call to it). How an instead chain's innermost layer, and the forward path, run
 * the original: one typed function per trampoline signature (trampolines.c) or ffi_call
 * (forward_hook.c). */
typedef ic_status (*ic_hook_original_fn)(const ic_signature *sig, ic_imp imp, void **args,
                                         void *ret);

/* How a hooked method is implemented in the interception subclass. */
typedef enum ic_hook_path {
    IC_HOOK_OPTIMIZED = 1, /* a typed trampoline from the generated table */
    IC_HOOK_FORWARDED = 2, /* a libffi closure running the generic forward-invocation path */
    IC_HOOK_DEALLOC = 3,   /* the dealloc trampoline (before-observers only) */
    IC_HOOK_UNIVERSAL = 4, /* the universal assembly trampoline (universal.h) */
} ic_hook_path;

/* One hooked method of an interception subclass. Immortal; immutable once published. */
typedef struct ic_hook_method {
    struct ic_hook_method *next; /* the subclass's list; guarded by ic_intercept_lock */
    ic_sel sel;
    const ic_signature *sig; /* the original method's signature */
    ic_hook_path path;
    ic_class *original;                /* the interception subclass's superclass, where the original
                                          implementation is looked up (dispatch table: always current) */
    ic_imp imp;                        /* what the interception subclass runs for `sel` */
    void *closure;                     /* forward path: the closure record (closure.c), owned */
    ic_hook_original_fn call_original; /* forward path: ic_forward_original_for(sig) */
} ic_hook_method;

/* Counters of one original class (and, summed, of the whole runtime). Guarded by
 * ic_intercept_lock. */
typedef struct ic_engine_counts {
    size_t dynamic_subclasses;
    size_t forwarding_classes;
    size_t optimized_methods;
    size_t forwarded_methods;
    size_t live_observers;
    size_t intercepted_objects;
} ic_engine_counts;

struct ic_class_hook; /* below */

/* The engine's record of an original class (ic_class.engine). Guarded by ic_intercept_lock. */
typedef struct ic_class_engine {
    ic_class *subclass; /* its interception subclass, once made */
    ic_engine_counts counts;
    struct ic_class_hook *class_hooks; /* methods hooked class-wide (class_hook.c) */
} ic_class_engine;

/* The engine's record of an interception subclass (its ic_class.engine). */
typedef struct ic_fake_class {
    ic_class *original;    /* the superclass it was made for; immutable */
    ic_hook_method *hooks; /* guarded by ic_intercept_lock */
    bool forwarding;       /* has at least one forwarded method */
} ic_fake_class;

typedef struct ic_observer ic_observer;

/* One observer as a call sees it: what to call is copied next to the observer (immutable after
 * registration), so a call loads it without first loading the observer. */
typedef struct ic_observer_entry {
    /* The observer, or ic_observer_unlisted once its removal has taken it out of this snapshot
     * in place (a removal that must not allocate: intercept.c, unlist_in_place_locked). Written
     * only under ic_intercept_lock, after the snapshot was marked stale; a call reads it only in
     * a stale snapshot (ic_hook_entry_live), where either value reads `removed`. */
    _Atomic(ic_observer *) observer;
    ic_observer_fn fn;  /* observer->fn; immutable */
    void *call_context; /* observer->call_context; immutable */
} ic_observer_entry;

/* An immutable snapshot of a slot's observers (only an entry's `observer` may change, see
 * ic_observer_entry). Items in call order: before-observers (and before hooks), then instead
 * hooks, then after-observers, each group in the order added.
 * `stale` is set (seq_cst, under ic_intercept_lock) when the snapshot stops being current, and on
 * the current one as soon as one of its observers is marked removed (before the removal
 * republishes or waits). A call checks it, in the header line it has loaded anyway, before each
 * observer it runs; only on a stale snapshot does it load the observer's `removed` flag. A
 * snapshot that is not stale holds no observer whose removal has begun, so this is the same test
 * as checking `removed` every time, with two dependent loads (entry → observer → flag) fewer on
 * the common path and one cache line (the observer's) not touched. In the benchmark's hot loop,
 * where that line is cached, the difference was within the noise (class_hook_before ~14 ns). */
#define IC_SINGLE_BEFORE 1u
#define IC_SINGLE_AFTER  2u

typedef struct ic_observer_list {
    uint32_t before_count;
    uint32_t instead_count;
    uint32_t after_count;
    /* The instead layer from which ic_hook_call_original may call the original at once (a tail
     * call): the innermost, instead_count, when the slot's signature has no narrow integer
     * argument to re-extend first; else 0, which no layer is (ic_hook_chain.level starts at 1). */
    uint32_t direct_level;
    _Atomic(bool) stale;
    /* IC_SINGLE_BEFORE / IC_SINGLE_AFTER while the phase has exactly one observer and the
     * snapshot is not stale; 0 from just before `stale` is set (seq_cst, the same stores). A call
     * of the common single observer tests this word once instead of the count and `stale`: a set
     * bit reads as "not stale" did (ic_hook_entry_live), so the observer is called without more
     * checks. */
    _Atomic(uint32_t) single;
    /* The last instead hook (the outermost layer, which a call runs first) while the snapshot is
     * not stale, else NULL: one load instead of an index computation on every instead call.
     * NULL from just before `stale` is set (seq_cst, the same stores, as `single`): a call that
     * loads it non-NULL calls that hook without testing `stale` (one load fewer per instead call;
     * the hooked paths are bound by their loads and stores, Performance.md), and one that loads
     * NULL enters the chain out of line, which checks every layer (ic_hook_enter_chain). */
    _Atomic(const ic_observer_entry *) outermost_instead;
    /* The first after-observer (items + before_count + instead_count; past the last item when
     * there is none): one load instead of an index computation on every after phase. */
    const ic_observer_entry *first_after;
    ic_observer_entry items[];
} ic_observer_list;

/* The snapshot of a slot without observers (never NULL: a call loads the snapshot and tests its
 * `single` word or counts, with no NULL test first). Immortal, all zero, never marked stale;
 * writers see it as "none" through ic_hook_slot_list_locked. */
IC_PRIVATE extern ic_observer_list ic_observer_list_none;

/* One intercepted selector of one object. Lives until the object dies; the engine's teardown
 * retires it. */
typedef struct ic_hook_slot {
    ic_sel sel;              /* immutable */
    const ic_signature *sig; /* immutable: method->sig, one load closer */
    /* Immutable: the universal trampoline's plan of `sig` (engine/universal.h) when the slot's
     * method runs a universal entry, one load closer for its dispatchers; else NULL. */
    const struct ic_universal_plan *universal_plan;
    ic_class *original;      /* immutable: method->original, one load closer */
    bool reextend_arguments; /* immutable: sig->reextend_arguments != 0 */
    bool reextend_return;    /* immutable: sig->reextend_return */
    /* Immutable: universal_plan has GATHER or INDIRECT arguments (universal.c's run_general),
     * told from the slot (and its hints: IC_HINT_UNIVERSAL_GENERAL) so that a universal call of
     * the common signature reads its plan only where it needs it; false without a plan. */
    bool universal_general;
    /* Published by ic_intercept_lock holders; &ic_observer_list_none when there is none. */
    _Atomic(ic_observer_list *) list;
    /* Hints for calls, one word (IC_HINT_*): which phases have live observers, so a call skips
     * those with none, and the whole call with none at all. Stored (release) by
     * ic_intercept_lock holders after `list`; read (acquire) once per test. One word, not a
     * count per phase: an observed body tests it once for "instead, after or re-extension"
     * (one load and one test instead of three of each). */
    _Atomic(uint32_t) hints;
} ic_hook_slot;

/* The current snapshot of `slot`, or NULL for none (ic_observer_list_none). Caller holds
 * ic_intercept_lock (or owns the slot, as its object's teardown does). */
static inline ic_observer_list *ic_hook_slot_list_locked(const ic_hook_slot *slot)
{
    ic_observer_list *list =
        atomic_load_explicit(&((ic_hook_slot *)slot)->list, memory_order_relaxed);
    return list == &ic_observer_list_none ? NULL : list;
}

/* The bits of ic_hook_slot.hints. BEFORE, INSTEAD and AFTER: the current snapshot has a live
 * observer of that phase. REEXTEND: reextend_arguments, immutable, kept in the word so that the
 * test after before-observers covers it too. UNIVERSAL_GENERAL: universal_general, immutable,
 * kept in the word so that a universal dispatcher tells every path of an observed call from the
 * one load that told it the call is observed. REEXTEND_RETURN: reextend_return, immutable, kept
 * in the word so that an object's typed body tests "after-observers or a narrow result" once
 * after its instead chain (trampoline_bodies.h). A test for an exact word must mask it out. */
#define IC_HINT_BEFORE            1u
#define IC_HINT_INSTEAD           2u
#define IC_HINT_AFTER             4u
#define IC_HINT_OBSERVED          (IC_HINT_BEFORE | IC_HINT_INSTEAD | IC_HINT_AFTER)
#define IC_HINT_REEXTEND          8u
#define IC_HINT_UNIVERSAL_GENERAL 16u
#define IC_HINT_REEXTEND_RETURN   32u

/* The hints word of a slot whose live observers per phase (before, instead, after) are
 * `counts`. */
static inline uint32_t ic_hook_slot_hints(const ic_hook_slot *slot, const uint32_t counts[3])
{
    return (counts[0] ? IC_HINT_BEFORE : 0) | (counts[1] ? IC_HINT_INSTEAD : 0) |
           (counts[2] ? IC_HINT_AFTER : 0) | (slot->reextend_arguments ? IC_HINT_REEXTEND : 0) |
           (slot->universal_general ? IC_HINT_UNIVERSAL_GENERAL : 0) |
           (slot->reextend_return ? IC_HINT_REEXTEND_RETURN : 0);
}

/* A method hooked class-wide (ic_hook_class): one per (class, selector), made on first use and
 * immortal (calls may hold its IMP long after). While installed, the class's own method for the
 * selector runs `imp`: the class trampoline of the signature (trampolines.c) when the generated
 * table has one and no related class has a typed record of the selector (see `typed_next`), or
 * else a libffi closure whose user data is this record. A call must know which class's hooks it
 * runs without being misled by a subclass that overrides the method and calls super: the closure
 * knows from its user data; a class trampoline finds the typed records of its selector
 * (ic_class_hook_typed) — one in the common case, else the one whose class is in the receiver's
 * chain, of which there is at most one. The slot carries the hooks exactly as an object's slot
 * does (list, counts), and `slot.sig` is the method's signature. Fields but the slot's atomics
 * and `saved` are guarded by ic_intercept_lock; `typed` and `typed_next` are immutable once the
 * record is published. */
typedef struct ic_class_hook {
    ic_hook_slot slot;          /* the hooks (and the signature, in slot.sig) */
    struct ic_class_hook *next; /* the class record's list */
    ic_class *cls;
    ic_imp imp;    /* what the class runs while hooked: class trampoline or closure */
    void *closure; /* the closure record (closure.c), owned; NULL for a class trampoline */
    ic_hook_original_fn call_original; /* closure: ic_forward_original_for(slot.sig) */
    bool typed;                        /* `imp` is a class trampoline */
    bool universal;                    /* ... the universal class entry (universal.h) */
    bool installed;                    /* the class's method runs `imp` now */
    bool added;          /* the class did not implement the selector: the hook added an override */
    ic_method *detached; /* that override, taken out while not installed (`added` only) */
    /* The class's own IMP from before; NULL for an added override (the original is then the
     * superclass's method, looked up per call). Read by calls. */
    _Atomic(ic_imp) saved;
    /* The next older typed record of the same selector (the selector's `engine` heads the list).
     * No two typed records of one selector have classes where one inherits from the other, so a
     * receiver's chain holds at most one of them. */
    struct ic_class_hook *typed_next;
    /* The next older record of every class and selector (class_hook.c's list, for a class
     * trampoline called through a method it was not installed on). Immutable once published. */
    struct ic_class_hook *all_next;
} ic_class_hook;

/* An object's hook table (side->hooks): immutable snapshot, replaced when a slot is added. */
typedef struct ic_hook_table {
    uint32_t count;
    ic_hook_slot *slots[];
} ic_hook_table;

/* An object's engine state besides its hook table (side->dealloc_observers). Guarded by
 * ic_intercept_lock. */
typedef struct ic_object_engine {
    /* The teardown retires the record through it. First, with what the teardown reads: written
     * into the record's first cache line, not into a line it would otherwise not touch. */
    ic_epoch_node retire;
    bool in_subclass; /* currently moved (its isa is `subclass`) */
    bool dead;        /* its teardown has begun: never moved between classes again */
    /* "After dealloc" observers. Once `dead`, a removal sets its entry to NULL instead of moving
     * the last one into it, so the teardown can walk the list with the lock dropped between
     * entries (it calls each observer without the lock). */
    size_t deallocated_count;
    ic_class *original; /* the class the object was moved from, or NULL */
    ic_observer **deallocated;
    ic_class *subclass;    /* the interception subclass it was moved into, or NULL */
    size_t observer_count; /* observers on its slots (dealloc-after ones excluded) */
    size_t deallocated_capacity;
    ic_class *dead_class; /* once `dead`: its class (what `class` answered), for the
                             after-dealloc hooks */
} ic_object_engine;

/* An observer. Owned by whoever removes it from the registry. The fields a call reads come
 * first, in one cache line. 120 bytes, like the record before it carried its epoch node: the
 * flags share the first word and the fields no observer uses together share their words (a
 * 152-byte record left glibc's fast bins: dealloc_with_deallocating_subscriber, 40000 objects
 * released in a row, measured about 25 % slower with records padded by that much). */
struct ic_observer {
    _Atomic(bool) removed; /* set (seq_cst) before a removal waits; checked before a call */
    _Atomic(bool) fired;   /* one-shot hooks: set by the call that runs it */
    bool class_wide;       /* a class-wide hook: `class_hook` (not `engine`) is its record */
    uint8_t phase;         /* ic_hook_position; IC_HOOK_BEFORE/AFTER are IC_OBSERVE_BEFORE/AFTER */
    bool hook;             /* added by ic_hook_* (listed, counted by "is hooked", removed by
                              "remove all"); rx observers are not */
    bool after_dealloc;    /* an after-dealloc hook: `deallocated_fn` is the user's function */
    ic_observer_fn fn;     /* what a call runs: the user's, a hook_api.c or intercept.c adapter */
    void *call_context;    /* what `fn` gets: the user's context, or the observer itself */
    /* Its removal or its object's teardown retires it through this node: in the first line,
     * which both read anyway. */
    ic_epoch_node retire;
    ic_observer_token token;
    void *context;
    ic_context_release_fn release;
    union {
        ic_dealloc_observer_fn dealloc_fn; /* dealloc observers: the user's function */
        ic_observer_fn user_fn; /* one-shot hooks (`fn` is one_shot_adapter): the user's */
        ic_deallocated_fn deallocated_fn; /* `after_dealloc`: the user's function */
    };
    ic_hook_slot *slot; /* NULL for dealloc-after observers */
    union {
        ic_object_engine *engine; /* its object's engine state: alive while it is registered */
        struct ic_class_hook *class_hook; /* `class_wide`: its record (`slot` is its slot) */
    };
    ic_class *counted_class; /* whose counters count it */
    const void *object;      /* the observed object's address (never dereferenced late) */
};

_Static_assert(sizeof(struct ic_observer) <= 120, "an observer stays in glibc's fast bins");

/* What a snapshot's entry points at once its observer was taken out of it in place: removed, and
 * never registered (intercept.c). Immortal. */
IC_PRIVATE extern ic_observer ic_observer_unlisted;

/* The first interception subclass in `cls`'s superclass chain (cls itself included), or NULL. */
static inline ic_class *ic_engine_first_subclass(ic_class *cls);

/* The IMP the original class runs for `sel` for `self`, resolved from the superclass of the
 * first interception subclass in self's chain (or from its class if it was moved back).
 * Lock-free when cached. */
static inline ic_imp ic_engine_original_imp(ic_id self, ic_sel sel);

/* The same, for a call that found its slot: the original class is the hook's. */
static inline ic_imp ic_engine_original_imp_from(const ic_hook_slot *slot, ic_id self, ic_sel sel);

/* ic_engine_original_imp's uncached case (a super lookup from `start`), kept out of line so the
 * trampolines' fast path needs no stack frame (intercept.c). */
IC_PRIVATE __attribute__((noinline)) ic_imp
ic_engine_original_imp_uncached(ic_id self, ic_class *start, ic_sel sel);

/* The trampoline for a signature's ABI key, or NULL (trampolines.c). */
IC_PRIVATE ic_imp ic_trampoline_for(const ic_signature *sig);
/* The class trampoline (class-wide hooks) for a signature's ABI key, or NULL (trampolines.c). */
IC_PRIVATE ic_imp ic_class_trampoline_for(const ic_signature *sig);
/* The dealloc trampoline (trampolines.c). */
IC_PRIVATE ic_imp ic_trampoline_dealloc(void);

/* The forward path's ic_hook_original_fn through libffi: ffi_call (forward_hook.c). */
IC_PRIVATE ic_status ic_forward_call_original(const ic_signature *sig, ic_imp imp, void **args,
                                              void *ret);

/* How the forward path calls the original of a signature: the typed frame call of its
 * trampoline signature storing the result as a libffi closure returns it (trampolines.c), when
 * the generated table has one, else ic_forward_call_original. Measured on hook_instead_forwarded
 * (i@:i forced through the forward path): 187 ns with ffi_call, 84 ns with the typed call, with
 * libffi_floor at 127 ns in the same runs. */
IC_PRIVATE ic_hook_original_fn ic_forward_original_for(const ic_signature *sig);

/* The typed frame call of a signature (as ic_forward_original_for, results stored as ffi_call
 * stores them), or NULL if the generated table has none (trampolines.c). ic_frame_call_for,
 * which init.c installs as ic_invocation_call's typed call, answers it first. */
IC_PRIVATE ic_hook_original_fn ic_typed_frame_call_for(const ic_signature *sig);

/* The frame call ic_invocation_call makes for `sig`: ic_typed_frame_call_for's, else the universal
 * trampoline's when it takes the signature, else NULL (ffi_call). Installed by init.c
 * (frame_call.c). */
IC_PRIVATE ic_hook_original_fn ic_frame_call_for(const ic_signature *sig);

/* Creates the forward-path closure for a hooked method (forward_hook.c). */
IC_PRIVATE ic_status ic_forward_hook_create(ic_hook_method *method);

/* ---- class-wide hook calls (class_hook.c); no lock */

/* The typed record of `sel` whose class is in `self`'s chain, when the selector has several
 * (class_hook.c). If none is (a class trampoline moved to another method: an exchange, or its IMP
 * copied), the record it was installed for, found under ic_intercept_lock: the calls of a moved
 * trampoline run that record's hooks and original, as a moved IMP would (SPEC 16.3). Traps only
 * if no record of the trampoline exists at all (a class trampoline called directly). */
IC_PRIVATE __attribute__((noinline)) ic_class_hook *ic_class_hook_find_typed(ic_id self,
                                                                             ic_sel sel);

/* The original of an added override: the superclass's method for the receiver, looked up now,
 * so a change there is honoured (class_hook.c). `args` are the call's argument addresses (self
 * and _cmd first): read here, so that the caller's common path does not load them. */
IC_PRIVATE __attribute__((noinline)) ic_imp ic_class_hook_inherited_imp(const ic_class_hook *hook,
                                                                        void **args);

/* ---- class-wide hooks (class_hook.c); caller holds ic_intercept_lock */

/* The record of `sel` hooked class-wide on `cls`, made on first use, and installed in the class
 * (its IMP swapped, or an override added) if it is not. */
IC_PRIVATE ic_class_hook *ic_class_hook_install_locked(ic_class *cls, ic_sel sel,
                                                       ic_status *status);

/* Gives the class back its exact method once the record's last hook is gone: its saved IMP, or
 * no override at all; a method of the class or of a subclass still holding the record's moved
 * trampoline gets the saved IMP too. Leaves a foreign IMP set on the method alone. Returns
 * IC_HOOK_RESTORED, or IC_HOOK_FOREIGN_KEPT if the method was not ours any more. */
IC_PRIVATE uint32_t ic_class_hook_uninstall_locked(ic_class_hook *hook);

/* ---- dealloc hooks (dealloc_hook.c) */

/* One dealloc call going through a hooked layer — an object's dealloc trampoline, or the handler
 * of a class-wide `dealloc` record — on the calling thread's stack, listed in a thread-local
 * stack of them. A hooked dealloc's frame has a third argument slot past self and _cmd pointing
 * here (a `dealloc` signature has two arguments, so no hook can see or write it). */
typedef struct ic_dealloc_call {
    ic_id self;                    /* the object; only its address once freed */
    ic_class *cls;                 /* what its `class` answered, read while it was whole */
    bool original_ran;             /* the original dealloc was called (it runs at most once) */
    bool defers;                   /* the object's teardown must wait for this layer to return */
    struct ic_dealloc_call *outer; /* the thread's enclosing hooked dealloc call, or NULL */
    /* The object's teardown, handed over by ic_dealloc_defer_teardown: run when this layer
     * returns (`torn_down`), with what the side record held. */
    bool torn_down;
    ic_hook_table *teardown_table;
    ic_object_engine *teardown_engine;
} ic_dealloc_call;

/* The dealloc trampoline's body when `slot` (the object's `dealloc` slot) has hooks: before,
 * instead (the original called once whatever the hooks do), then the object's teardown if it was
 * deferred to this layer. */
IC_PRIVATE __attribute__((noinline)) void ic_dealloc_object_hooked(const ic_hook_slot *slot,
                                                                   ic_id self, ic_sel cmd);

/* The same for a class-wide `dealloc` record's closure, whose after hooks are after-dealloc hooks
 * (ic_hook_class_deallocated): `args` are libffi's (self and _cmd). */
IC_PRIVATE void ic_dealloc_class_hooked(const ic_class_hook *hook, void **args);

/* Called by the object's teardown (it runs inside the innermost original: the root dealloc frees
 * the memory, then tears down): if a hooked dealloc layer of the object at `address` on this
 * thread's stack has after or instead hooks, hands the teardown to the outermost such layer and
 * returns true; the layer runs it (ic_engine_teardown) when it returns, so that the object's
 * after-dealloc observers run after every layer's own after hooks and instead chains (SPEC
 * 10.1). */
IC_PRIVATE bool ic_dealloc_defer_teardown(const void *address, ic_hook_table *table,
                                          ic_object_engine *engine);

/* The object's teardown once its memory is freed (intercept.c): fires its after-dealloc
 * observers, unregisters every observer of the object, retires its tables and state. */
IC_PRIVATE void ic_engine_teardown(ic_hook_table *table, ic_object_engine *engine,
                                   const void *address);

/* Installs the engine's teardown into the side record (intercept.c); called at init. */
IC_PRIVATE void ic_engine_init(void);

/* ---- interception subclasses and their methods (fake_class.c); caller holds ic_intercept_lock */

/* The engine record of an original class, created on first use (NULL if memory ran out). */
IC_PRIVATE ic_class_engine *ic_class_engine_locked(ic_class *cls);

/* The interception subclass of `original`, created on first use. */
IC_PRIVATE ic_class *ic_interception_subclass_locked(ic_class *original, ic_status *status);

/* The hook of `sel` in interception subclass `subclass`, created and installed on first use. */
IC_PRIVATE ic_hook_method *ic_hook_method_locked(ic_class *subclass, ic_sel sel, uint32_t options,
                                                 ic_status *status);

/* Whether `subclass` runs an IMP the engine did not put there: a method of its own that is
 * neither its `class` override nor one of its hooks with the hook's IMP (someone set an IMP on it
 * or added a method). An object in it then stays there when its hooks go, so that the foreign IMP
 * keeps running (SPEC 16.3). */
IC_PRIVATE bool ic_interception_subclass_has_foreign_locked(ic_class *subclass);

/* ---- the observer registry (intercept.c), shared with the hook API (hook_api.c) ---------------
 * Every observer and hook has a token in one registry; "_locked": the caller holds
 * ic_intercept_lock. */

/* A new observer calling `fn(call, context)`, or, with `dealloc_fn`, `dealloc_fn(object,
 * context)`; NULL when out of memory. Not registered yet. */
IC_PRIVATE ic_observer *ic_observer_new(ic_hook_position phase, ic_observer_fn fn,
                                        ic_dealloc_observer_fn dealloc_fn, void *context,
                                        ic_context_release_fn release);
/* Registers `o` under a fresh token; false when out of memory. */
IC_PRIVATE bool ic_observer_register_locked(ic_observer *o);
/* The registered observer of `token`, or NULL. */
IC_PRIVATE ic_observer *ic_observer_lookup_locked(ic_observer_token token);
/* Takes `o`'s token out of the registry (undoing ic_observer_register_locked). */
IC_PRIVATE void ic_observer_unregister_locked(const ic_observer *o);
/* Intercepts `sel` on `obj` and adds `o` (phase and callback set) to the object's slot: registry,
 * snapshot, counts. On failure nothing is left registered and an object this call moved is moved
 * back. */
IC_PRIVATE ic_status ic_intercept_attach_locked(ic_observer *o, ic_id obj, ic_sel sel);
/* Adds `o` to the object's after-dealloc observers (fired by its teardown). On failure nothing
 * is left registered. */
IC_PRIVATE ic_status ic_intercept_attach_deallocated_locked(ic_observer *o, ic_id obj);
/* Publishes `slot`'s observers with `added` included or `removed` left out, in call order (see
 * intercept.c). On failure nothing changed. */
IC_PRIVATE ic_status ic_intercept_republish_locked(ic_hook_slot *slot, ic_observer *added,
                                                   ic_observer *removed);
/* Removes the observer of `token` (takes the lock itself); `*outcome` gets what
 * ic_hook_remove_reporting reports. */
IC_PRIVATE ic_status ic_intercept_remove_reporting(ic_observer_token token, uint32_t *outcome);
/* Whether `sel` may never be observed or hooked (the runtime's own machinery). */
IC_PRIVATE bool ic_intercept_is_forbidden(ic_sel sel);
/* The call function of a class's after-dealloc hook (ic_hook_class_deallocated). */
IC_PRIVATE void ic_intercept_deallocated_adapter(ic_invocation *call, void *observer);

/* Zeroed memory that starts on a cache line, freed with free(): for what a hooked call reads (a
 * slot, a class-wide record, an observer snapshot's header with its first entries), so that a
 * call touches as few lines as it can. */
static inline void *ic_engine_calloc_line(size_t size)
{
    size_t rounded = (size + 63) & ~(size_t)63;
    void *p = aligned_alloc(64, rounded);
    if (p) memset(p, 0, rounded);
    return p;
}

/* Adjusts a counter of `original`'s record and of the runtime's totals. */
#define IC_COUNT(ORIGINAL_ENGINE, FIELD, DELTA)                                                    \
    do {                                                                                           \
        (ORIGINAL_ENGINE)->counts.FIELD += (DELTA);                                                \
        ic_engine_totals.FIELD += (DELTA);                                                         \
    } while (0)

/* The runtime's totals. Guarded by ic_intercept_lock. */
IC_PRIVATE extern ic_engine_counts ic_engine_totals;

#include "../runtime/class.h"
#include "../runtime/dtable.h"
#include "../runtime/object.h"

static inline ic_class *ic_engine_first_subclass(ic_class *cls)
{
    for (; cls; cls = cls->superclass)
        if (ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS)) return cls;
    return NULL;
}

/* The class whose dispatch table holds the original IMP of a call on `self`. Usually self's
 * class is the interception subclass itself: one flag test. If the object was moved back to its
 * class while this call was on its way, there is no interception subclass in the chain and the
 * class itself holds the original. */
__attribute__((always_inline)) static inline ic_class *ic_engine_original_start(ic_id self)
{
    ic_class *cls = ic_object_isa(self);
    ic_class *subclass = ic_engine_first_subclass(cls);
    return subclass ? subclass->superclass : cls;
}

/* ic_engine_original_imp when the dispatch table has it cached, else NULL. It makes no call, so
 * a trampoline's fast path using it needs no stack frame (its slow path is a separate function
 * reached by a tail call). */
__attribute__((always_inline)) static inline ic_imp ic_engine_original_imp_if_cached(ic_id self,
                                                                                     ic_sel sel)
{
    return ic_dtable_get(&ic_engine_original_start(self)->dtable, sel);
}

__attribute__((always_inline)) static inline ic_imp ic_engine_original_imp(ic_id self, ic_sel sel)
{
    ic_class *start = ic_engine_original_start(self);
    ic_imp imp = ic_dtable_get(&start->dtable, sel);
    if (IC_LIKELY(imp != NULL)) return imp;
    return ic_engine_original_imp_uncached(self, start, sel);
}

__attribute__((always_inline)) static inline ic_imp
ic_engine_original_imp_from(const ic_hook_slot *slot, ic_id self, ic_sel sel)
{
    ic_imp imp = ic_dtable_get(&slot->original->dtable, sel);
    if (IC_LIKELY(imp != NULL)) return imp;
    return ic_engine_original_imp_uncached(self, slot->original, sel);
}

/* ic_engine_original_imp_from with the receiver read from `self` only when the dispatch table
 * misses: a caller whose receiver lives in a frame does not load it on every call (the table's
 * acquire loads keep the compiler from moving that load into the rare path itself). */
__attribute__((always_inline)) static inline ic_imp
ic_engine_original_imp_from_at(const ic_hook_slot *slot, const ic_id *self, ic_sel sel)
{
    ic_imp imp = ic_dtable_get(&slot->original->dtable, sel);
    if (IC_LIKELY(imp != NULL)) return imp;
    return ic_engine_original_imp_uncached(*self, slot->original, sel);
}

#endif /* IC_ENGINE_H */
