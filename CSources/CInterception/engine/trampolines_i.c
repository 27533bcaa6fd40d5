/*
 * trampolines_i.c — the typed trampolines of the signatures whose result is an integer of 32 bits
 * or less (the `i` class): trampoline_bodies.h over trampolines_i.def (trampolines.h says why one
 * file per class).
 */
#define IC_TRAMPOLINE_RESULT i
#define IC_TRAMPOLINE_DEF    "trampolines_i.def"
#include "trampoline_bodies.h"
