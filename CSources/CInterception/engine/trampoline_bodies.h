/*
 * trampoline_bodies.h — the optimized interception trampolines: typed C functions, two per ABI
 * signature of the trampolines_<R>.def lists (generated from ic_types.def by
 * tools/gen_trampolines.py): one for
 * interception subclasses (an object's hooks), one for class-wide hooks (class_hook.c). Each
 * notifies before-observers, calls the original with the original _cmd, notifies
 * after-observers with the return value, and returns it. The arguments' addresses form the
 * observers' frame invocation, so no call allocates. See hook.h for what begin/end do.
 *
 * Included once by each trampolines_<R>.c, which defines IC_TRAMPOLINE_RESULT (its result class)
 * and IC_TRAMPOLINE_DEF (its list, a string): expands the list into the functions (all static)
 * and into the table ic_trampolines_<R> (trampolines.h). Not a header to include elsewhere.
 */
#if !defined(IC_TRAMPOLINE_RESULT) || !defined(IC_TRAMPOLINE_DEF)
#error "trampoline_bodies.h: define IC_TRAMPOLINE_RESULT and IC_TRAMPOLINE_DEF first"
#endif

#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hook.h"
#include "trampolines.h"
#include "../ffi/invocation.h"
#include "../runtime/selector.h"

/* C types of the ABI classes (ic_types.def): how a value of the class is passed and returned.
 * `q` carries every 64-bit integer and every pointer (@ # : * ^): same registers, same bits.
 * `i` carries every integer of 32 bits or less (c C s S i I l L B): the trampoline passes the
 * 32-bit register through untouched, so the original receives (and the caller gets back)
 * exactly the bits a direct call would carry. Observers read such a value through the frame at
 * its real size (the low bytes: x86-64 and arm64 are little-endian); if they rewrite it, the
 * trampoline re-extends it to 32 bits where the ABI has the passing side extend it (x86-64; not
 * AArch64, whose receiving side extends: see reextend_arguments in signature.h). */
typedef void ic_abi_v;
typedef int32_t ic_abi_i;
typedef uint64_t ic_abi_q;
typedef float ic_abi_f;
typedef double ic_abi_d;

_Static_assert(sizeof(ic_abi_q) == sizeof(void *), "q carries pointers");
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "narrow values are read at offset 0");

/* An observed body's frame has the signature's argument count, known when it is compiled: the
 * length of its `args` array (see ic_invocation_init_frame_exact). */
#define IC_ARG_COUNT ((uint32_t)(sizeof args / sizeof args[0]))
/* After-observers, if any, with the return value at RET (NULL for void). */
#define IC_AFTER(RET)                                                                              \
    if (ic_hook_has_after(slot)) ic_hook_notify(slot, args, RET, 0, IC_OBSERVE_AFTER, IC_ARG_COUNT);

/* The same after an instead chain, out of line: inlined, the compiler kept the frame's fields in
 * registers across the chain for the after-observers' frame, which made every instead call save
 * and restore three more registers. */
#define IC_AFTER_OUTLINED(RET)                                                                     \
    if (IC_UNLIKELY(ic_hook_has_after(slot))) ic_hook_after_outlined(slot, args, RET, IC_ARG_COUNT);

/* Narrow integers are re-extended by ic_hook_normalize_narrow / _arguments (instead.c). */
/* After after-observers: a narrow return value back to its full 32-bit form. */
#define IC_NORMALIZE_RETURN()                                                                      \
    if (IC_UNLIKELY(slot->reextend_return)) ic_hook_normalize_narrow(&slot->sig->ret, &result);

/*
 * Each signature gets three functions for objects. The trampoline is what the interception
 * subclass runs:
 * when the object has no observer for the selector it tail-calls the original with the arguments
 * still in their registers. Otherwise it tail-calls the observed body, which takes the arguments'
 * addresses for the observers' frame, notifies, calls the original and notifies again. The third
 * handles an original IMP not yet in the dispatch table (a lookup that may lock). With every exit
 * a tail call, the trampoline needs no stack frame: no register is saved or restored on the way
 * (measured: a frame of four saved registers cost about 0.2 ns on each intercepted call).
 * A class trampoline is a single function, the observed body itself: the record comes from the
 * selector (hook.h, ic_class_hook_for_call; a selector with several typed records takes an out of
 * line search), the original from the record (an added override's: an out of line super lookup).
 */
/* With after-observers (the hint read before the call), a value-returning body calls the original
 * from its own frame and notifies them with the result (if they are still there); a void body
 * always ends so (IC_FINAL_v), the others end in a tail call (IC_FINAL_VALUE, below). */
#define IC_AFTER_PATH_v(TYPES, ...)
#define IC_AFTER_PATH_VALUE(R, TYPES, ...)                                                         \
    if (hints & IC_HINT_AFTER) {                                                                   \
        ic_abi_##R value = ((ic_abi_##R(*) TYPES)original)(__VA_ARGS__);                           \
        if (!ic_hook_has_after(slot)) return value;                                                \
        ic_abi_##R result = value; /* addressable only here: the common return stays in a reg */   \
        ic_hook_notify(slot, args, &result, 0, IC_OBSERVE_AFTER, IC_ARG_COUNT);                    \
        IC_NORMALIZE_RETURN()                                                                      \
        return result;                                                                             \
    }
#define IC_AFTER_PATH_i(...) IC_AFTER_PATH_VALUE(i, __VA_ARGS__)
#define IC_AFTER_PATH_q(...) IC_AFTER_PATH_VALUE(q, __VA_ARGS__)
#define IC_AFTER_PATH_f(...) IC_AFTER_PATH_VALUE(f, __VA_ARGS__)
#define IC_AFTER_PATH_d(...) IC_AFTER_PATH_VALUE(d, __VA_ARGS__)

/* Without after hooks (the hint read before the call: a hook registered throughout the call is
 * seen either way) an observed body ends in a guaranteed tail call to the original (IC_MUSTTAIL):
 * the frame the hooks saw is gone before the original runs, and the original returns straight to
 * the sender. A class trampoline has the original's own prototype. An object's body takes its slot
 * as one more parameter, and so calls the original with one more argument, the slot again
 * (SLOT_TAIL_CALL): musttail needs the callee's prototype to be the caller's, and the original
 * never reads an argument past its own (System V and AAPCS64 pass it in a register the callee
 * does not read, or in the stack area of the body's own caller, which made the same call).
 * Measured (add: with one before-observer, a C harness alternating it with the plain send):
 * 9.7 -> 9.3 ns, send 2.9 ns. Where the compiler lacks musttail, an ordinary call. */
#if defined(__has_attribute)
#if __has_attribute(musttail)
#define IC_MUSTTAIL __attribute__((musttail))
#endif
#endif
#ifndef IC_MUSTTAIL
#define IC_MUSTTAIL
#endif
#define IC_FINAL_v(TAIL, TYPES, ...)                                                               \
    ((void(*) TYPES)original)(__VA_ARGS__);                                                        \
    IC_AFTER(NULL)
#define IC_FINAL_VALUE(R, TAIL, TYPES, ...) IC_##TAIL##_VALUE(R, TYPES, __VA_ARGS__)
#define IC_FINAL_i(...)                     IC_FINAL_VALUE(i, __VA_ARGS__)
#define IC_FINAL_q(...)                     IC_FINAL_VALUE(q, __VA_ARGS__)
#define IC_FINAL_f(...)                     IC_FINAL_VALUE(f, __VA_ARGS__)
#define IC_FINAL_d(...)                     IC_FINAL_VALUE(d, __VA_ARGS__)
#define IC_TAIL_CALL_VALUE(R, TYPES, ...)                                                          \
    IC_MUSTTAIL return ((ic_abi_##R(*) TYPES)original)(__VA_ARGS__);
#define IC_SLOT_TAIL_CALL_VALUE(R, TYPES, ...)                                                     \
    IC_MUSTTAIL return ((ic_abi_##R(*)(IC_UNPAREN TYPES, ic_hook_slot *))original)(__VA_ARGS__,    \
                                                                                   hook_slot);

/* With instead hooks: the chain runs in place of the original (its innermost layer calls the
 * original through the signature's frame call), then the after-observers. An object's observed
 * body inlines the chain's entry (RUN = ic_hook_run_instead); a class trampoline, whose common
 * case is a before hook, calls it out of line (RUN = ic_hook_run_instead_outlined), which keeps
 * its frame as small as before. */
#define IC_INSTEAD_CALL_v(TAIL, NAME)                                                              \
    IC_RUN_INSTEAD_##TAIL(slot, args, NULL, 0, IC_ARG_COUNT, original, ic_frame_call_v_##NAME);    \
    IC_AFTER_OUTLINED(NULL)                                                                        \
    return;
#define IC_INSTEAD_CALL_VALUE(R, TAIL, NAME)                                                       \
    ic_abi_##R result = 0; /* what a chain that never sets the return value returns */             \
    IC_RUN_INSTEAD_##TAIL(slot, args, &result, 0, IC_ARG_COUNT, original,                          \
                          ic_frame_call_##R##_##NAME);                                             \
    IC_INSTEAD_FINISH_##TAIL(&result);                                                             \
    return result;
#define IC_INSTEAD_CALL_i(TAIL, NAME) IC_INSTEAD_CALL_VALUE(i, TAIL, NAME)
#define IC_INSTEAD_CALL_q(TAIL, NAME) IC_INSTEAD_CALL_VALUE(q, TAIL, NAME)
#define IC_INSTEAD_CALL_f(TAIL, NAME) IC_INSTEAD_CALL_VALUE(f, TAIL, NAME)
#define IC_INSTEAD_CALL_d(TAIL, NAME) IC_INSTEAD_CALL_VALUE(d, TAIL, NAME)
/* After a value-returning chain: the after-observers, then the narrow result's re-extension. An
 * object's body tests both with one load and one test of the hints word (IC_HINT_REEXTEND_RETURN
 * mirrors slot->reextend_return), and does both out of line with the word it loaded
 * (ic_hook_instead_finish): callgrind, two instructions fewer per instead call. A class
 * trampoline keeps its tests (its common case is a before hook, whose code can move with the
 * instead path's: see IC_DEFINE_OBSERVED). */
#define IC_INSTEAD_FINISH_SLOT_TAIL_CALL(RET)                                                      \
    uint32_t finish_hints = ic_hook_hints(slot);                                                   \
    if (IC_UNLIKELY(finish_hints & (IC_HINT_AFTER | IC_HINT_REEXTEND_RETURN)))                     \
        ic_hook_instead_finish(slot, args, RET, IC_ARG_COUNT, finish_hints);
#define IC_INSTEAD_FINISH_TAIL_CALL(RET)                                                           \
    IC_AFTER_OUTLINED(RET)                                                                         \
    IC_NORMALIZE_RETURN()
#define IC_RUN_INSTEAD_SLOT_TAIL_CALL ic_hook_run_instead
#define IC_RUN_INSTEAD_TAIL_CALL      ic_hook_run_instead_outlined

/* The frame call of a signature (ic_hook_original_fn): the original called with the arguments
 * the frame points at, typed, straight through registers (no libffi on the optimized path).
 * The forward path's frame call (ic_forward_original_for) differs only for the `i` return class:
 * a libffi closure returns a narrow integer widened to a whole ffi_arg by its type
 * (ic_closure_store_return); the other classes are stored the same way by both. */
#define IC_FRAME_STORE_v(RET, CALL)        CALL;
#define IC_FRAME_STORE_VALUE(R, RET, CALL) *(ic_abi_##R *)(RET) = CALL;
#define IC_FRAME_STORE_i(RET, CALL)        IC_FRAME_STORE_VALUE(i, RET, CALL)
#define IC_FRAME_STORE_q(RET, CALL)        IC_FRAME_STORE_VALUE(q, RET, CALL)
#define IC_FRAME_STORE_f(RET, CALL)        IC_FRAME_STORE_VALUE(f, RET, CALL)
#define IC_FRAME_STORE_d(RET, CALL)        IC_FRAME_STORE_VALUE(d, RET, CALL)
#define IC_CLOSURE_FRAME_CALL_DEFINE_v(NAME, TYPES, LOADS)
#define IC_CLOSURE_FRAME_CALL_DEFINE_q(NAME, TYPES, LOADS)
#define IC_CLOSURE_FRAME_CALL_DEFINE_f(NAME, TYPES, LOADS)
#define IC_CLOSURE_FRAME_CALL_DEFINE_d(NAME, TYPES, LOADS)
#define IC_CLOSURE_FRAME_CALL_DEFINE_i(NAME, TYPES, LOADS)                                         \
    static ic_status ic_closure_frame_call_i_##NAME(const ic_signature *sig, ic_imp imp,           \
                                                    void **args, void *ret)                        \
    {                                                                                              \
        ic_abi_i value =                                                                           \
            ((ic_abi_i(*) TYPES)imp)(*(ic_id *)args[0], *(ic_sel *)args[1] IC_UNPAREN LOADS);      \
        ic_closure_store_return(sig, ret, &value);                                                 \
        return IC_OK;                                                                              \
    }
#define IC_CLOSURE_FRAME_CALL_v(NAME) ic_frame_call_v_##NAME
#define IC_CLOSURE_FRAME_CALL_q(NAME) ic_frame_call_q_##NAME
#define IC_CLOSURE_FRAME_CALL_f(NAME) ic_frame_call_f_##NAME
#define IC_CLOSURE_FRAME_CALL_d(NAME) ic_frame_call_d_##NAME
#define IC_CLOSURE_FRAME_CALL_i(NAME) ic_closure_frame_call_i_##NAME

/* An observed body: FN(self, cmd, args… EXTRA) runs FIND (statements that may declare the hook),
 * notifies, runs the original ORIGINAL (an expression of self, cmd and the hook) or the instead
 * chain, notifies again. The object trampolines pass their slot as an extra parameter; a class
 * trampoline is itself the body and finds its record first (see below). Narrow arguments are
 * re-extended only after before-observers ran, a narrow result only after after-observers: with
 * none, the registers pass through untouched. The result is addressable only once
 * after-observers run, so a call without them returns it straight from its register.
 * The slot's hints are one word: loaded before the before phase and again after it (the observers
 * may have added or removed hooks), and a call then tests "instead, after or re-extension" once
 * (IC_HINT_REEXTEND is cleared when no observer ran: nothing rewrote the arguments). The original
 * is looked up before the re-extension, which changes no receiver or selector, and goes through
 * it (ic_hook_normalize_arguments_passing), so it is kept in no callee-saved register.
 * Tried and left out: a jump to the chain for a call with instead hooks only (hints ==
 * IC_HINT_INSTEAD), past the general path's tests: 5 instructions fewer per instead call, but it
 * moved the before-observers' block of every object body to a later cache line
 * (swift_hook_before_typed about 0.1 ns slower in alternating runs), and the instead call was
 * no faster than without it (swift_hook_instead_typed, medians of six alternating runs: 13.73
 * with it, 13.58 ns without). */
#define IC_DEFINE_OBSERVED(R, NAME, FN, PARAMS, TYPES, ADDRS, EXTRA, FIND, SLOT, ORIGINAL, TAIL,   \
                           ...)                                                                    \
    static IC_HOT_ENTRY __attribute__((noinline)) ic_abi_##R FN(                                   \
        ic_id self, ic_sel cmd IC_UNPAREN PARAMS IC_UNPAREN EXTRA)                                 \
    {                                                                                              \
        FIND;                                                                                      \
        const ic_hook_slot *slot = (SLOT);                                                         \
        /* As received, still in its register (ORIGINAL may use it: see below). */                 \
        __attribute__((unused)) ic_sel cmd_in = cmd;                                               \
        void *args[] = {&self, &cmd IC_UNPAREN ADDRS};                                             \
        ic_imp original;                                                                           \
        uint32_t hints = ic_hook_hints(slot);                                                      \
        if (hints & IC_HINT_BEFORE) {                                                              \
            ic_hook_notify(slot, args, NULL, 0, IC_OBSERVE_BEFORE, IC_ARG_COUNT);                  \
            hints = ic_hook_hints(slot);                                                           \
            original = ORIGINAL(&self, cmd); /* as the observers left them */                      \
        } else {                                                                                   \
            hints &= ~IC_HINT_REEXTEND;                                                            \
            original = ORIGINAL(&self, cmd_in); /* nothing ran: not reloaded from the frame */     \
        }                                                                                          \
        if (IC_UNLIKELY(hints & (IC_HINT_INSTEAD | IC_HINT_AFTER | IC_HINT_REEXTEND))) {           \
            if (hints & IC_HINT_REEXTEND) {                                                        \
                original = ic_hook_normalize_arguments_passing(slot->sig, args, original);         \
                hints = ic_hook_hints(slot);                                                       \
            }                                                                                      \
            if (hints & IC_HINT_INSTEAD) {                                                         \
                IC_INSTEAD_CALL_##R(TAIL, NAME)                                                    \
            }                                                                                      \
            IC_AFTER_PATH_##R(TYPES, self, cmd, ##__VA_ARGS__)                                     \
        }                                                                                          \
        IC_FINAL_##R(TAIL, TYPES, self, cmd, ##__VA_ARGS__)                                        \
    }

/* NAME: function name suffix; PARAMS: parenthesized parameter list after self and _cmd;
 * TYPES: the original's parameter types; ADDRS: the arguments' addresses; LOADS: the arguments
 * loaded from a frame's `args`; ARGS: the arguments.
 * A class trampoline is the observed body itself, with no "has observers" test and no tail call
 * in front: a class runs it only while the record has hooks (the last removal gives the class
 * its IMP back), so a call that finds none (racing that removal) just runs the original through
 * the body with every phase skipped. Measured with the result kept in its register (above):
 * class_hook_before from about 15.1 to 13.7 ns, optimized_1_observer from 16.7 to 15.8 ns. */
#define IC_DEFINE_TRAMPOLINE(R, NAME, PARAMS, TYPES, ADDRS, LOADS, ...)                            \
    static IC_HOT_ENTRY ic_status ic_frame_call_##R##_##NAME(const ic_signature *sig, ic_imp imp,  \
                                                             void **args, void *ret)               \
    {                                                                                              \
        (void)sig;                                                                                 \
        (void)ret;                                                                                 \
        IC_FRAME_STORE_##R(ret, ((ic_abi_##R(*) TYPES)imp)(*(ic_id *)args[0],                      \
                                                           *(ic_sel *)args[1] IC_UNPAREN LOADS));  \
        return IC_OK;                                                                              \
    }                                                                                              \
    IC_CLOSURE_FRAME_CALL_DEFINE_##R(NAME, TYPES, LOADS)                                           \
        IC_DEFINE_OBSERVED(R, NAME, ic_observed_##R##_##NAME, PARAMS, TYPES, ADDRS,                \
                           (, ic_hook_slot * hook_slot), , hook_slot, IC_ORIGINAL_OF_SLOT,         \
                           SLOT_TAIL_CALL, ##__VA_ARGS__) static __attribute__((noinline))         \
        ic_abi_##R ic_uncached_##R##_##NAME(ic_id self, ic_sel cmd IC_UNPAREN PARAMS)              \
    {                                                                                              \
        return ((ic_abi_##R(*) TYPES)ic_engine_original_imp(self, cmd))(self, cmd, ##__VA_ARGS__); \
    }                                                                                              \
    static IC_HOT_ENTRY ic_abi_##R ic_trampoline_##R##_##NAME(ic_id self,                          \
                                                              ic_sel cmd IC_UNPAREN PARAMS)        \
    {                                                                                              \
        ic_hook_slot *slot = ic_hook_find_slot(self, cmd);                                         \
        if (ic_hook_is_observed(slot))                                                             \
            return ic_observed_##R##_##NAME(self, cmd, ##__VA_ARGS__, slot);                       \
        ic_imp original = ic_hook_original_imp_if_cached(slot, self, cmd);                         \
        if (IC_UNLIKELY(!original)) return ic_uncached_##R##_##NAME(self, cmd, ##__VA_ARGS__);     \
        return ((ic_abi_##R(*) TYPES)original)(self, cmd, ##__VA_ARGS__);                          \
    }                                                                                              \
    IC_DEFINE_OBSERVED(R, NAME, ic_class_trampoline_##R##_##NAME, PARAMS, TYPES, ADDRS, (),        \
                       const ic_class_hook *hook = ic_class_hook_for_call(self, cmd), &hook->slot, \
                       IC_ORIGINAL_OF_CLASS_HOOK, TAIL_CALL, ##__VA_ARGS__)
/* ORIGINAL(SELF, CMD): the original IMP, with *SELF and CMD the receiver and selector as the
 * before-observers left them, or as received when none ran. An object's is looked up from the
 * selector: without observers, the selector in its register (not reloaded from the frame after
 * the hint's acquire load, which the compiler does not forward across); measured on
 * hook_instead_optimized, 21.2 -> 20.5 ns. The receiver is read (from the frame) only when the
 * dispatch table misses: passed by value, it was loaded on every call for that rare path. A class
 * hook's is its saved IMP, which needs neither: only an added override's super lookup reads them,
 * out of line, from the frame (passed them, the common path loaded both for nothing). */
#define IC_ORIGINAL_OF_SLOT(SELF, CMD)       ic_engine_original_imp_from_at(hook_slot, SELF, CMD)
#define IC_ORIGINAL_OF_CLASS_HOOK(SELF, CMD) ic_class_hook_original(hook, args)
#define IC_UNPAREN(...)                      __VA_ARGS__

#define IC_LOAD(A, I)     *(ic_abi_##A *)args[I]
#define IC_TRAMPOLINE0(R) IC_DEFINE_TRAMPOLINE(R, , (), (ic_id, ic_sel), (), ())
#define IC_TRAMPOLINE1(R, A)                                                                       \
    IC_DEFINE_TRAMPOLINE(R, A, (, ic_abi_##A a), (ic_id, ic_sel, ic_abi_##A), (, &a),              \
                         (, IC_LOAD(A, 2)), a)
#define IC_TRAMPOLINE2(R, A, B)                                                                    \
    IC_DEFINE_TRAMPOLINE(R, A##B, (, ic_abi_##A a, ic_abi_##B b),                                  \
                         (ic_id, ic_sel, ic_abi_##A, ic_abi_##B), (, &a, &b),                      \
                         (, IC_LOAD(A, 2), IC_LOAD(B, 3)), a, b)
#define IC_TRAMPOLINE3(R, A, B, C)                                                                 \
    IC_DEFINE_TRAMPOLINE(R, A##B##C, (, ic_abi_##A a, ic_abi_##B b, ic_abi_##C c),                 \
                         (ic_id, ic_sel, ic_abi_##A, ic_abi_##B, ic_abi_##C), (, &a, &b, &c),      \
                         (, IC_LOAD(A, 2), IC_LOAD(B, 3), IC_LOAD(C, 4)), a, b, c)
#define IC_TRAMPOLINE4(R, A, B, C, D)                                                              \
    IC_DEFINE_TRAMPOLINE(                                                                          \
        R, A##B##C##D, (, ic_abi_##A a, ic_abi_##B b, ic_abi_##C c, ic_abi_##D d),                 \
        (ic_id, ic_sel, ic_abi_##A, ic_abi_##B, ic_abi_##C, ic_abi_##D), (, &a, &b, &c, &d),       \
        (, IC_LOAD(A, 2), IC_LOAD(B, 3), IC_LOAD(C, 4), IC_LOAD(D, 5)), a, b, c, d)
#include IC_TRAMPOLINE_DEF
#undef IC_TRAMPOLINE0
#undef IC_TRAMPOLINE1
#undef IC_TRAMPOLINE2
#undef IC_TRAMPOLINE3
#undef IC_TRAMPOLINE4

/* This result class's table, in the list's order (sorted by key). */
static const ic_trampoline_entry entries[] = {
#define IC_ENTRY(R, NAME, KEY)                                                                     \
    {#R ":" KEY, (ic_imp)ic_trampoline_##R##_##NAME, (ic_imp)ic_class_trampoline_##R##_##NAME,     \
     IC_CLOSURE_FRAME_CALL_##R(NAME)},
#define IC_TRAMPOLINE0(R)             IC_ENTRY(R, , "")
#define IC_TRAMPOLINE1(R, A)          IC_ENTRY(R, A, #A)
#define IC_TRAMPOLINE2(R, A, B)       IC_ENTRY(R, A##B, #A #B)
#define IC_TRAMPOLINE3(R, A, B, C)    IC_ENTRY(R, A##B##C, #A #B #C)
#define IC_TRAMPOLINE4(R, A, B, C, D) IC_ENTRY(R, A##B##C##D, #A #B #C #D)
#include IC_TRAMPOLINE_DEF
#undef IC_TRAMPOLINE0
#undef IC_TRAMPOLINE1
#undef IC_TRAMPOLINE2
#undef IC_TRAMPOLINE3
#undef IC_TRAMPOLINE4
};

#define IC_TRAMPOLINE_CAT_(A, B) A##B
#define IC_TRAMPOLINE_CAT(A, B)  IC_TRAMPOLINE_CAT_(A, B)
const ic_trampoline_table IC_TRAMPOLINE_CAT(ic_trampolines_, IC_TRAMPOLINE_RESULT) = {
    entries, sizeof entries / sizeof entries[0]};
