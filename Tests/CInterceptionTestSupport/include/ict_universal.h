/*
 * ict_universal.h — which universal trampoline entry (engine/universal_*.S) an IMP is: the entry
 * that saves all the vector argument registers, the _vec2 one (the first two; on x86-64 also its
 * _vec1 twin, the first alone) or the _novec one,
 * for results in registers or (x86-64) through a caller's buffer.
 *
 * Area: the universal trampoline's entry choice (engine/universal.c, ic_universal_*_entry_for).
 * Purpose: the entries are internal (hidden) symbols; this file names them as weak references, so
 * a program that links the runtime's objects (SwiftPM's test targets) can compare an installed IMP
 * with them, and one that links the shared library (the C matrix program, where they are not
 * exported) gets ICT_UNIVERSAL_UNKNOWN instead of a link error.
 */
#ifndef ICT_UNIVERSAL_H
#define ICT_UNIVERSAL_H

#include <interception/interception.h>

typedef enum ict_universal_entry {
    ICT_UNIVERSAL_UNKNOWN = 0,    /* the entries' symbols are not linked into this program */
    ICT_UNIVERSAL_NOT_ENTRY = 1,  /* `imp` is none of the universal entries */
    ICT_UNIVERSAL_FULL = 2,       /* saves and restores all eight vector argument registers */
    ICT_UNIVERSAL_VEC2 = 3,       /* the first two only (x86-64 _vec1: the first alone) */
    ICT_UNIVERSAL_NOVEC = 4,      /* leaves the vector registers alone */
    ICT_UNIVERSAL_SRET_FULL = 5,  /* x86-64, result through rdi: all eight */
    ICT_UNIVERSAL_SRET_VEC2 = 6,  /* x86-64, result through rdi: the first two */
    ICT_UNIVERSAL_SRET_NOVEC = 7, /* x86-64, result through rdi: none */
    ICT_UNIVERSAL_X87_FULL = 8,   /* x86-64, long double result on the x87 stack: all eight */
    ICT_UNIVERSAL_X87_VEC2 = 9,   /* x86-64, long double result on the x87 stack: the first two */
    ICT_UNIVERSAL_X87_NOVEC = 10  /* x86-64, long double result on the x87 stack: none */
} ict_universal_entry;

/* Which entry `imp` is among the object entries (an interception subclass's method) or, with
 * `class_entry`, among the class-wide hook entries. */
ict_universal_entry ict_universal_entry_kind(ic_imp imp, bool class_entry);

#endif /* ICT_UNIVERSAL_H */
