/*
 * trampolines_f.c — the typed trampolines of the signatures whose result is a float:
 * trampoline_bodies.h over trampolines_f.def (trampolines.h says why one file per class).
 */
#define IC_TRAMPOLINE_RESULT f
#define IC_TRAMPOLINE_DEF    "trampolines_f.def"
#include "trampoline_bodies.h"
