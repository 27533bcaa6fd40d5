/*
 * ict_struct_shapes.h — the C types of the struct cases of the type matrix (type_cases.c), shared
 * with the signature matrix (matrix_cases.c, generated), so both exercise the same shapes.
 *
 * Area: type encodings, invocations, forwarding, interception.
 * Purpose: the System V x86-64 classification edge cases (one or two SSE or INTEGER eightbytes,
 * mixed, memory class at 17 and 24/32 bytes), the AAPCS64 ones (homogeneous floating-point
 * aggregates of 1 to 4 floats, doubles or long doubles, through an array too, in vector registers;
 * 5 doubles, one too many for an HFA, by reference; mixed floats, which are no HFA, in general
 * registers; odd sizes) and friends; each case's encoding is next to its sample values in
 * type_cases.c (ICT_CASE lines). How each ABI passes each shape: the header of matrix_cases.c.
 */
#ifndef ICT_STRUCT_SHAPES_H
#define ICT_STRUCT_SHAPES_H

/* two floats: one SSE eightbyte */
typedef struct {
    float a, b;
} ict_struct_ff_t;

/* two doubles: two SSE eightbytes */
typedef struct {
    double a, b;
} ict_struct_dd_t;

/* float and int in one eightbyte: INTEGER class wins */
typedef struct {
    float a;
    int b;
} ict_struct_fi_t;

/* int then double: one INTEGER and one SSE eightbyte */
typedef struct {
    int a;
    double b;
} ict_struct_id_t;

/* double then long long: SSE then INTEGER */
typedef struct {
    double a;
    long long b;
} ict_struct_dq_t;

/* three doubles: 24 bytes, returned in memory */
typedef struct {
    double a, b, c;
} ict_struct_ddd_t;

/* char, float, char: padding inside and at the end */
typedef struct {
    signed char a;
    float b;
    signed char c;
} ict_struct_cfc_t;

/* 17 bytes: just over two eightbytes, memory class */
typedef struct {
    unsigned char a[17];
} ict_struct_17_t;

/* 32 bytes of integers */
typedef struct {
    long long a, b, c, d;
} ict_struct_32_t;

/* a pointer and an int */
typedef struct {
    void *p;
    int i;
} ict_struct_pi_t;

/* nesting and an array member */
typedef struct {
    short s;
    struct {
        float f;
        double d;
    } in;
    signed char c[3];
} ict_struct_nested_t;

/* ---- AAPCS64 (AArch64) shapes ------------------------------------------------------------ */

/* one float: an HFA of one (s0); x86-64: one SSE eightbyte */
typedef struct {
    float a;
} ict_struct_f1_t;

/* three floats, 12 bytes: an HFA of three (s0-s2); x86-64: two SSE eightbytes */
typedef struct {
    float a, b, c;
} ict_struct_fff_t;

/* four floats, 16 bytes: an HFA of four (s0-s3) */
typedef struct {
    float a, b, c, d;
} ict_struct_ffff_t;

/* four doubles, 32 bytes: an HFA of four (d0-d3); x86-64: memory */
typedef struct {
    double a, b, c, d;
} ict_struct_dddd_t;

/* an array of four floats: an HFA through an array member */
typedef struct {
    float a[4];
} ict_struct_fa4_t;

/* two long doubles, 32 bytes: an HFA of two 128-bit quads (q0-q1); x86-64: memory (x87) */
typedef struct {
    long double a, b;
} ict_struct_DD_t;

/* five doubles, 40 bytes: one member too many for an HFA: by reference, result through x8 */
typedef struct {
    double a, b, c, d, e;
} ict_struct_d5_t;

/* float then double: floating-point but not homogeneous: two general registers (x0-x1);
 * x86-64: two SSE eightbytes */
typedef struct {
    float a;
    double b;
} ict_struct_fd_t;

/* three ints, 12 bytes: two general registers, the second half used */
typedef struct {
    int a, b, c;
} ict_struct_iii_t;

/* three chars, 3 bytes: part of one general register */
typedef struct {
    signed char a, b, c;
} ict_struct_c3_t;

#endif /* ICT_STRUCT_SHAPES_H */
