/*
 * trampolines.c — the optimized interception trampolines: typed C functions, one per ABI
 * signature of trampolines.def (generated from ic_types.def by tools/gen_trampolines.py), each
 * notifying before-observers, calling the original with the original _cmd, notifying
 * after-observers with the return value, and returning it. The arguments' addresses form the
 * observers' frame invocation, so no call allocates. See hook.h for what begin/end do.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "hook.h"
#include "selector.h"

/* C types of the ABI classes (ic_types.def): how a value of the class is passed and returned.
 * `q` carries every 64-bit integer and every pointer (@ # : * ^): same registers, same bits. */
typedef void ic_abi_v;
typedef signed char ic_abi_c;
typedef unsigned char ic_abi_C;
typedef short ic_abi_s;
typedef unsigned short ic_abi_S;
typedef int32_t ic_abi_i;
typedef uint64_t ic_abi_q;
typedef float ic_abi_f;
typedef double ic_abi_d;

_Static_assert(sizeof(ic_abi_q) == sizeof(void *), "q carries pointers");
_Static_assert(sizeof(_Bool) == sizeof(ic_abi_C), "B travels as C");

/* The call of the original and the return, per return class. */
#define IC_CALL_v(TYPES, ...)                                                                      \
    ((void(*) TYPES)original)(__VA_ARGS__);                                                        \
    ic_hook_end(&call, NULL);
#define IC_CALL_VALUE(R, TYPES, ...)                                                               \
    ic_abi_##R result = ((ic_abi_##R(*) TYPES)original)(__VA_ARGS__);                              \
    ic_hook_end(&call, &result);                                                                   \
    return result;
#define IC_CALL_c(...) IC_CALL_VALUE(c, __VA_ARGS__)
#define IC_CALL_C(...) IC_CALL_VALUE(C, __VA_ARGS__)
#define IC_CALL_s(...) IC_CALL_VALUE(s, __VA_ARGS__)
#define IC_CALL_S(...) IC_CALL_VALUE(S, __VA_ARGS__)
#define IC_CALL_i(...) IC_CALL_VALUE(i, __VA_ARGS__)
#define IC_CALL_q(...) IC_CALL_VALUE(q, __VA_ARGS__)
#define IC_CALL_f(...) IC_CALL_VALUE(f, __VA_ARGS__)
#define IC_CALL_d(...) IC_CALL_VALUE(d, __VA_ARGS__)

#define IC_TRAMPOLINE0(R)                                                                          \
    static ic_abi_##R ic_trampoline_##R##_(ic_id self, ic_sel cmd)                                 \
    {                                                                                              \
        void *args[] = {&self, &cmd};                                                              \
        ic_hook_call call;                                                                         \
        ic_imp original = ic_hook_begin(&call, self, cmd, args, 0);                                \
        IC_CALL_##R((ic_id, ic_sel), self, cmd)                                                    \
    }
#define IC_TRAMPOLINE1(R, A)                                                                       \
    static ic_abi_##R ic_trampoline_##R##_##A(ic_id self, ic_sel cmd, ic_abi_##A a)                \
    {                                                                                              \
        void *args[] = {&self, &cmd, &a};                                                          \
        ic_hook_call call;                                                                         \
        ic_imp original = ic_hook_begin(&call, self, cmd, args, 0);                                \
        IC_CALL_##R((ic_id, ic_sel, ic_abi_##A), self, cmd, a)                                     \
    }
#define IC_TRAMPOLINE2(R, A, B)                                                                    \
    static ic_abi_##R ic_trampoline_##R##_##A##B(ic_id self, ic_sel cmd, ic_abi_##A a,             \
                                                 ic_abi_##B b)                                     \
    {                                                                                              \
        void *args[] = {&self, &cmd, &a, &b};                                                      \
        ic_hook_call call;                                                                         \
        ic_imp original = ic_hook_begin(&call, self, cmd, args, 0);                                \
        IC_CALL_##R((ic_id, ic_sel, ic_abi_##A, ic_abi_##B), self, cmd, a, b)                      \
    }
#define IC_TRAMPOLINE3(R, A, B, C)                                                                 \
    static ic_abi_##R ic_trampoline_##R##_##A##B##C(ic_id self, ic_sel cmd, ic_abi_##A a,          \
                                                    ic_abi_##B b, ic_abi_##C c)                    \
    {                                                                                              \
        void *args[] = {&self, &cmd, &a, &b, &c};                                                  \
        ic_hook_call call;                                                                         \
        ic_imp original = ic_hook_begin(&call, self, cmd, args, 0);                                \
        IC_CALL_##R((ic_id, ic_sel, ic_abi_##A, ic_abi_##B, ic_abi_##C), self, cmd, a, b, c)       \
    }
#include "trampolines.def"
#undef IC_TRAMPOLINE0
#undef IC_TRAMPOLINE1
#undef IC_TRAMPOLINE2
#undef IC_TRAMPOLINE3

typedef struct trampoline_entry {
    const char *key; /* "<return class>:<argument classes>", e.g. "i:qd" */
    ic_imp imp;
} trampoline_entry;

/* Sorted by key (the generator sorts), for bsearch. */
static const trampoline_entry table[] = {
#define IC_TRAMPOLINE0(R) {#R ":", (ic_imp)ic_trampoline_##R##_},
#define IC_TRAMPOLINE1(R, A) {#R ":" #A, (ic_imp)ic_trampoline_##R##_##A},
#define IC_TRAMPOLINE2(R, A, B) {#R ":" #A #B, (ic_imp)ic_trampoline_##R##_##A##B},
#define IC_TRAMPOLINE3(R, A, B, C) {#R ":" #A #B #C, (ic_imp)ic_trampoline_##R##_##A##B##C},
#include "trampolines.def"
#undef IC_TRAMPOLINE0
#undef IC_TRAMPOLINE1
#undef IC_TRAMPOLINE2
#undef IC_TRAMPOLINE3
};

static int compare_key(const void *key, const void *entry)
{
    return strcmp(key, ((const trampoline_entry *)entry)->key);
}

ic_imp ic_trampoline_for(const ic_signature *sig)
{
    if (!sig->is_method || sig->arg_count - 2 > 3)
        return NULL;
    char key[8];
    size_t n = 0;
    key[n++] = sig->ret.abi;
    key[n++] = ':';
    for (size_t i = 2; i < sig->arg_count; i++)
        key[n++] = sig->args[i].abi;
    key[n] = '\0';
    for (size_t i = 0; i < n; i++)
        if (key[i] == 0 || key[i] == 'D')
            return NULL; /* structs and long double take the forward path */
    const trampoline_entry *e = bsearch(key, table, sizeof table / sizeof table[0],
                                        sizeof table[0], compare_key);
    return e ? e->imp : NULL;
}

/* dealloc: before-observers, then the original. Nothing after: the memory is gone. */
static void dealloc_trampoline(ic_id self, ic_sel cmd)
{
    void *args[] = {&self, &cmd};
    ic_hook_call call;
    ic_imp original = ic_hook_begin(&call, self, cmd, args, 0);
    ((void (*)(ic_id, ic_sel))original)(self, cmd);
}

ic_imp ic_trampoline_dealloc(void) { return (ic_imp)dealloc_trampoline; }

/* Number of optimized trampolines (for tests). */
IC_PRIVATE size_t ic_trampoline_count(void);
size_t ic_trampoline_count(void) { return sizeof table / sizeof table[0]; }
