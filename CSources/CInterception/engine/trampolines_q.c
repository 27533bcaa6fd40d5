/*
 * trampolines_q.c — the typed trampolines of the signatures whose result is a 64-bit integer or a
 * pointer (the `q` class): trampoline_bodies.h over trampolines_q.def (trampolines.h says why one
 * file per class).
 */
#define IC_TRAMPOLINE_RESULT q
#define IC_TRAMPOLINE_DEF    "trampolines_q.def"
#include "trampoline_bodies.h"
