/*
 * coverage.h — every public C function, and how the sweep covers it (coverage.c).
 */
#ifndef AF_COVERAGE_H
#define AF_COVERAGE_H

typedef struct af_function {
    const char *name;
    /* NULL: a case names it (run.sh checks the table lists exactly the functions the public
     * headers export, and the sweep that a case names each one marked NULL). Otherwise why no
     * case does. */
    const char *unswept_reason;
} af_function;

/* Ends with a zeroed entry. */
extern const af_function af_functions[];

#endif /* AF_COVERAGE_H */
