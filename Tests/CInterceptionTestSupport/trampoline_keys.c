/*
 * trampoline_keys.c — the trampoline tables' keys, from the runtime's generated lists
 * (trampolines_<R>.def), so the tests exercise exactly the signatures the runtime has
 * trampolines for.
 */
#include "ict_types.h"

static const char *const keys[] = {
#define IC_TRAMPOLINE0(R)             #R ":",
#define IC_TRAMPOLINE1(R, A)          #R ":" #A,
#define IC_TRAMPOLINE2(R, A, B)       #R ":" #A #B,
#define IC_TRAMPOLINE3(R, A, B, C)    #R ":" #A #B #C,
#define IC_TRAMPOLINE4(R, A, B, C, D) #R ":" #A #B #C #D,
#include "../../CSources/CInterception/engine/trampolines_v.def"
#include "../../CSources/CInterception/engine/trampolines_i.def"
#include "../../CSources/CInterception/engine/trampolines_q.def"
#include "../../CSources/CInterception/engine/trampolines_f.def"
#include "../../CSources/CInterception/engine/trampolines_d.def"
};

const char *const *ict_trampoline_keys(size_t *count)
{
    *count = sizeof keys / sizeof keys[0];
    return keys;
}

int ict_send_schar_widened(ic_id receiver, ic_sel sel, int x)
{
    return IC_MSG(IC_FN(signed char, signed char), receiver, sel, (signed char)x);
}

int ict_send_ushort_widened(ic_id receiver, ic_sel sel, int x)
{
    return IC_MSG(IC_FN(unsigned short, unsigned short), receiver, sel, (unsigned short)x);
}
