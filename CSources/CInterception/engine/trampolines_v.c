/*
 * trampolines_v.c — the typed trampolines of the signatures whose result is no result (void):
 * trampoline_bodies.h over trampolines_v.def (trampolines.h says why one file per class).
 */
#define IC_TRAMPOLINE_RESULT v
#define IC_TRAMPOLINE_DEF    "trampolines_v.def"
#include "trampoline_bodies.h"
