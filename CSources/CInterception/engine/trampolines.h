/*
 * trampolines.h — the tables of generated typed trampolines, one per result class.
 *
 * tools/gen_trampolines.py writes one X-macro list per result class (trampolines_v.def, _i, _q,
 * _f, _d: 101 signatures each); trampolines_<R>.c expands its list through trampoline_bodies.h
 * into the typed functions and a table sorted by key. Five files instead of one let a parallel
 * build compile the 505 signatures' functions on every core: as one file they were 55 s of a
 * 76 s build. trampolines.c finds a signature's entry in its result class's table.
 */
#ifndef IC_ENGINE_TRAMPOLINES_H
#define IC_ENGINE_TRAMPOLINES_H

#include "engine.h"
#include "hook.h"

/* One signature's typed functions. */
typedef struct ic_trampoline_entry {
    const char *key;                  /* "<return class>:<argument classes>", e.g. "i:qd" */
    ic_imp imp;                       /* the object trampoline (interception subclasses) */
    ic_imp class_imp;                 /* the class trampoline (class-wide hooks) */
    ic_hook_original_fn closure_call; /* the forward path's typed original call */
} ic_trampoline_entry;

/* A result class's entries, sorted by key (strcmp order: the generator sorts), for bsearch. */
typedef struct ic_trampoline_table {
    const ic_trampoline_entry *entries;
    size_t count;
} ic_trampoline_table;

/* Defined by trampolines_v.c, trampolines_i.c, trampolines_q.c, trampolines_f.c and
 * trampolines_d.c. */
IC_PRIVATE extern const ic_trampoline_table ic_trampolines_v;
IC_PRIVATE extern const ic_trampoline_table ic_trampolines_i;
IC_PRIVATE extern const ic_trampoline_table ic_trampolines_q;
IC_PRIVATE extern const ic_trampoline_table ic_trampolines_f;
IC_PRIVATE extern const ic_trampoline_table ic_trampolines_d;

#endif /* IC_ENGINE_TRAMPOLINES_H */
