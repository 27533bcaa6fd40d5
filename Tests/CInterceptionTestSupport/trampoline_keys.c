/*
 * trampoline_keys.c — the trampoline table's keys, from the runtime's generated trampolines.def,
 * so the tests exercise exactly the signatures the runtime has trampolines for.
 */
#include "ict_types.h"

static const char *const keys[] = {
#define IC_TRAMPOLINE0(R) #R ":",
#define IC_TRAMPOLINE1(R, A) #R ":" #A,
#define IC_TRAMPOLINE2(R, A, B) #R ":" #A #B,
#define IC_TRAMPOLINE3(R, A, B, C) #R ":" #A #B #C,
#include "../../CSources/CInterception/trampolines.def"
};

const char *const *ict_trampoline_keys(size_t *count)
{
    *count = sizeof keys / sizeof keys[0];
    return keys;
}
