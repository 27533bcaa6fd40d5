/*
 * ict_struct_shapes.h — the C types of the struct cases of the type matrix (type_cases.c), shared
 * with the signature matrix (matrix_cases.c, generated), so both exercise the same shapes.
 *
 * Area: type encodings, invocations, forwarding, interception.
 * Purpose: the x86-64 classification edge cases (one or two SSE or INTEGER eightbytes, mixed,
 * memory class at 17 and 24/32 bytes) and friends; each case's encoding is next to its sample
 * values in type_cases.c (ICT_CASE lines).
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

#endif /* ICT_STRUCT_SHAPES_H */
