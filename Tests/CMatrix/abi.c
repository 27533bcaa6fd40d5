/*
 * abi.c — the ABI area: the facts of this ABI the rest of the program (and the runtime) relies
 * on, stated independently of the runtime's headers and checked against them, and the table of
 * how this ABI passes every type of the matrix (generated: matrix_cases.c).
 *
 *   x86-64 (System V): 6 general and 8 vector argument registers; long double is x87's 80-bit
 *     extended format in 16 bytes (10 significant); structs of up to 16 bytes by eightbyte class
 *     (INTEGER, SSE), larger ones in memory (arguments copied onto the stack, results through a
 *     hidden pointer in rdi).
 *   AArch64 (AAPCS64): 8 general and 8 vector argument registers; long double is a 128-bit IEEE
 *     quad in a vector register; homogeneous floating-point aggregates of up to four members in
 *     vector registers; other composites of up to 16 bytes in general registers; larger ones by
 *     reference to a copy the callee owns, results through x8.
 */
#include <float.h>
#include <stdio.h>
#include <string.h>

#include "cm.h"

#if defined(__x86_64__)
#define CM_ABI_NAME         "x86-64 (System V)"
#define CM_GENERAL_ARGUMENT 6
#define CM_LDBL_MANT_DIG    64
#elif defined(__aarch64__)
#define CM_ABI_NAME         "AArch64 (AAPCS64)"
#define CM_GENERAL_ARGUMENT 8
#define CM_LDBL_MANT_DIG    113
#endif
#define CM_VECTOR_ARGUMENT 8

void cm_run_abi(void)
{
    cm_area *area = cm_area_named("ABI facts");
    cm_label("%s", CM_ABI_NAME);
    printf("ABI: %s\n", CM_ABI_NAME);

    cm_case(area);
    cm_check(area, IC_CLOSURE_INTEGER_REGISTERS == CM_GENERAL_ARGUMENT,
             "register entries save %d general argument registers; the ABI has %d",
             IC_CLOSURE_INTEGER_REGISTERS, CM_GENERAL_ARGUMENT);
    cm_check(area, IC_CLOSURE_VECTOR_REGISTERS == CM_VECTOR_ARGUMENT,
             "register entries save %d vector argument registers; the ABI has %d",
             IC_CLOSURE_VECTOR_REGISTERS, CM_VECTOR_ARGUMENT);

    cm_case(area);
    cm_check(area, sizeof(long double) == 16 && _Alignof(long double) == 16,
             "long double is %zu bytes aligned to %zu", sizeof(long double), _Alignof(long double));
    cm_check(area, LDBL_MANT_DIG == CM_LDBL_MANT_DIG, "long double has %d mantissa bits",
             LDBL_MANT_DIG);
    size_t ld_size = 0, ld_align = 0;
    cm_check(area,
             ic_encoding_size_and_alignment("D", &ld_size, &ld_align, NULL) == IC_OK &&
                 ld_size == sizeof(long double) && ld_align == _Alignof(long double),
             "the runtime sizes long double as %zu bytes aligned to %zu", ld_size, ld_align);
    /* The matrix's long double values carry bits a double cannot hold, so a path that narrows
     * one to a double (or to x87's precision, on AArch64) shows. */
    volatile long double value = (long double)-3.25 * (1.0L + 8 * LDBL_EPSILON);
    cm_check(area, (long double)(double)value != value,
             "the matrix's long double values fit a double");

    size_t count;
    const ict_matrix_layout *layouts = ict_matrix_layouts(&count);
    printf("How this ABI passes the %zu types of the matrix:\n", count);
    for (size_t i = 0; i < count; i++)
        printf("  %-12s %-12s %s\n", layouts[i].name, layouts[i].encoding, layouts[i].abi);

    const ict_matrix_case *cases = ict_matrix_cases(&count);
    size_t shaped = 0, edges = 0;
    for (size_t i = 0; i < count; i++) {
        shaped += cm_register_shape(&cases[i]);
        edges += cases[i].edge != NULL;
    }
    printf("%zu signatures, %zu of them at the edges of the argument registers; %zu fit this "
           "ABI's register entries (%d general and %d vector registers)\n",
           count, edges, shaped, IC_CLOSURE_INTEGER_REGISTERS, IC_CLOSURE_VECTOR_REGISTERS);
}
