/*
 * trampolines_d.c — the typed trampolines of the signatures whose result is a double:
 * trampoline_bodies.h over trampolines_d.def (trampolines.h says why one file per class).
 */
#define IC_TRAMPOLINE_RESULT d
#define IC_TRAMPOLINE_DEF    "trampolines_d.def"
#include "trampoline_bodies.h"
