/*
 * type_cases.c — the type matrix (see ict_types.h).
 *
 * Scalar cases are generated from the runtime's own table, ic_types.def; struct cases are listed
 * below (mixed integer/float fields around the x86-64 eightbyte rules, a 17-byte and a 32-byte
 * struct, arrays and nesting; AArch64's homogeneous floating-point aggregates and their limits).
 */
#include "ict_types.h"
#include "ict_struct_shapes.h"

#include <string.h>

/* The last argument stored by a take IMP; per thread because tests run in parallel. */
static _Thread_local union {
    long double align;
    unsigned char bytes[64];
} taken;

const void *ict_taken(void)
{
    return taken.bytes;
}

/* Scalar samples by kind: values with the high bit set where it matters, so a wrong sign or
 * zero extension shows. */
#define ICT_SAMPLE_SINT(T)     ((T)-100)
#define ICT_OTHER_SINT(T)      ((T)77)
#define ICT_SAMPLE_UINT(T)     ((T)(~(T)0 - 7))
#define ICT_OTHER_UINT(T)      ((T)99)
#define ICT_SAMPLE_FLOAT(T)    ((T)-3.25)
#define ICT_OTHER_FLOAT(T)     ((T)1.0e10)
#define ICT_SAMPLE_BOOL(T)     ((T)1)
#define ICT_OTHER_BOOL(T)      ((T)0)
#define ICT_SAMPLE_CSTRING(T)  ((T) "sample")
#define ICT_OTHER_CSTRING(T)   ((T) "other")
#define ICT_SAMPLE_OBJECT(T)   ((T)(uintptr_t)0x7f00001230ULL)
#define ICT_OTHER_OBJECT(T)    ((T)(uintptr_t)0x7f00004560ULL)
#define ICT_SAMPLE_CLASS(T)    ((T)(uintptr_t)0x7f00007890ULL)
#define ICT_OTHER_CLASS(T)     ((T)(uintptr_t)0x7f0000abc0ULL)
#define ICT_SAMPLE_SELECTOR(T) ((T)(uintptr_t)0x7f0000def0ULL)
#define ICT_OTHER_SELECTOR(T)  ((T)(uintptr_t)0x7f00001110ULL)

/* Everything one case needs, for a type T named NAME. */
#define ICT_DEFINE_FUNCTIONS(NAME, T)                                                              \
    static T ict_echo_##NAME(ic_id self, ic_sel cmd, T a)                                          \
    {                                                                                              \
        (void)self;                                                                                \
        (void)cmd;                                                                                 \
        return a;                                                                                  \
    }                                                                                              \
    static T ict_make_##NAME(ic_id self, ic_sel cmd)                                               \
    {                                                                                              \
        (void)self;                                                                                \
        (void)cmd;                                                                                 \
        return ict_sample_##NAME;                                                                  \
    }                                                                                              \
    static void ict_take_##NAME(ic_id self, ic_sel cmd, T a)                                       \
    {                                                                                              \
        (void)self;                                                                                \
        (void)cmd;                                                                                 \
        _Static_assert(sizeof(T) <= sizeof taken.bytes, "taken buffer too small");                 \
        memcpy(taken.bytes, &a, sizeof a);                                                         \
    }                                                                                              \
    static void ict_send_echo_##NAME(ic_id r, ic_sel s, const void *in, void *out)                 \
    {                                                                                              \
        T a;                                                                                       \
        memcpy(&a, in, sizeof a);                                                                  \
        T v = IC_MSG(IC_FN(T, T), r, s, a);                                                        \
        memcpy(out, &v, sizeof v);                                                                 \
    }                                                                                              \
    static void ict_send_make_##NAME(ic_id r, ic_sel s, void *out)                                 \
    {                                                                                              \
        T v = IC_MSG(IC_FN(T), r, s);                                                              \
        memcpy(out, &v, sizeof v);                                                                 \
    }                                                                                              \
    static void ict_send_take_##NAME(ic_id r, ic_sel s, const void *in)                            \
    {                                                                                              \
        T a;                                                                                       \
        memcpy(&a, in, sizeof a);                                                                  \
        IC_MSG(IC_FN(void, T), r, s, a);                                                           \
    }                                                                                              \
    static void ict_direct_##NAME(const void *in, void *out)                                       \
    {                                                                                              \
        T (*volatile fn)(ic_id, ic_sel, T) = ict_echo_##NAME;                                      \
        T a;                                                                                       \
        memcpy(&a, in, sizeof a);                                                                  \
        T v = fn(NULL, NULL, a);                                                                   \
        memcpy(out, &v, sizeof v);                                                                 \
    }

/* ---- scalars, from the runtime's table ---------------------------------------------------- */

#define IC_SCALAR(CODE, NAME, CTYPE, FFI, KIND, ABI)                                               \
    typedef CTYPE ict_##NAME##_t;                                                                  \
    static const ict_##NAME##_t ict_sample_##NAME = ICT_SAMPLE_##KIND(ict_##NAME##_t);             \
    static const ict_##NAME##_t ict_other_##NAME = ICT_OTHER_##KIND(ict_##NAME##_t);               \
    static bool ict_equal_##NAME(const void *a, const void *b)                                     \
    {                                                                                              \
        ict_##NAME##_t x, y;                                                                       \
        memcpy(&x, a, sizeof x);                                                                   \
        memcpy(&y, b, sizeof y);                                                                   \
        return x == y;                                                                             \
    }                                                                                              \
    ICT_DEFINE_FUNCTIONS(NAME, ict_##NAME##_t)
#include "../../CSources/CInterception/types/ic_types.def"
#undef IC_SCALAR

/* ---- structs: the x86-64 classification edge cases and friends ---------------------------- */

#define ICT_EQUAL(NAME)                                                                            \
    static bool ict_equal_##NAME(const void *pa, const void *pb)                                   \
    {                                                                                              \
        ict_##NAME##_t a, b;                                                                       \
        memcpy(&a, pa, sizeof a);                                                                  \
        memcpy(&b, pb, sizeof b);                                                                  \
        return ict_fields_equal_##NAME(&a, &b);                                                    \
    }                                                                                              \
    ICT_DEFINE_FUNCTIONS(NAME, ict_##NAME##_t)

/* two floats: one SSE eightbyte */
static const ict_struct_ff_t ict_sample_struct_ff = {1.5f, -2.25f}, ict_other_struct_ff = {7, 8};
static bool ict_fields_equal_struct_ff(const ict_struct_ff_t *a, const ict_struct_ff_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_ff)

/* two doubles: two SSE eightbytes */
static const ict_struct_dd_t ict_sample_struct_dd = {1.5, -2.25}, ict_other_struct_dd = {7, 8};
static bool ict_fields_equal_struct_dd(const ict_struct_dd_t *a, const ict_struct_dd_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_dd)

/* float and int in one eightbyte: INTEGER class wins */
static const ict_struct_fi_t ict_sample_struct_fi = {1.5f, -7}, ict_other_struct_fi = {3, 4};
static bool ict_fields_equal_struct_fi(const ict_struct_fi_t *a, const ict_struct_fi_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_fi)

/* int then double: one INTEGER and one SSE eightbyte */
static const ict_struct_id_t ict_sample_struct_id = {-7, 2.5}, ict_other_struct_id = {3, 4};
static bool ict_fields_equal_struct_id(const ict_struct_id_t *a, const ict_struct_id_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_id)

/* double then long long: SSE then INTEGER */
static const ict_struct_dq_t ict_sample_struct_dq = {2.5, -1234567890123LL},
                             ict_other_struct_dq = {1, 2};
static bool ict_fields_equal_struct_dq(const ict_struct_dq_t *a, const ict_struct_dq_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_dq)

/* three doubles: 24 bytes, returned in memory */
static const ict_struct_ddd_t ict_sample_struct_ddd = {1.25, -2.5, 3.75},
                              ict_other_struct_ddd = {4, 5, 6};
static bool ict_fields_equal_struct_ddd(const ict_struct_ddd_t *a, const ict_struct_ddd_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c;
}
ICT_EQUAL(struct_ddd)

/* char, float, char: padding inside and at the end */
static const ict_struct_cfc_t ict_sample_struct_cfc = {-3, 1.5f, 9},
                              ict_other_struct_cfc = {1, 2, 3};
static bool ict_fields_equal_struct_cfc(const ict_struct_cfc_t *a, const ict_struct_cfc_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c;
}
ICT_EQUAL(struct_cfc)

/* 17 bytes: just over two eightbytes, memory class */
static const ict_struct_17_t ict_sample_struct_17 = {{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
                                                      15, 16, 255}},
                             ict_other_struct_17 = {{9}};
static bool ict_fields_equal_struct_17(const ict_struct_17_t *a, const ict_struct_17_t *b)
{
    return memcmp(a->a, b->a, sizeof a->a) == 0;
}
ICT_EQUAL(struct_17)

/* 32 bytes of integers */
static const ict_struct_32_t ict_sample_struct_32 = {-1, 2, -3, 4},
                             ict_other_struct_32 = {5, 6, 7, 8};
static bool ict_fields_equal_struct_32(const ict_struct_32_t *a, const ict_struct_32_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c && a->d == b->d;
}
ICT_EQUAL(struct_32)

/* nesting and an array member */
static const ict_struct_nested_t ict_sample_struct_nested = {-5, {1.5f, -8.25}, {1, -2, 3}},
                                 ict_other_struct_nested = {1, {2, 3}, {4, 5, 6}};
static bool ict_fields_equal_struct_nested(const ict_struct_nested_t *a,
                                           const ict_struct_nested_t *b)
{
    return a->s == b->s && a->in.f == b->in.f && a->in.d == b->in.d &&
           memcmp(a->c, b->c, sizeof a->c) == 0;
}
ICT_EQUAL(struct_nested)

/* a pointer and an int */
static const ict_struct_pi_t ict_sample_struct_pi = {(void *)0x1000, -1},
                             ict_other_struct_pi = {(void *)0x2000, 2};
static bool ict_fields_equal_struct_pi(const ict_struct_pi_t *a, const ict_struct_pi_t *b)
{
    return a->p == b->p && a->i == b->i;
}
ICT_EQUAL(struct_pi)

/* ---- structs: the AAPCS64 (AArch64) shapes ------------------------------------------------ */

/* one float: an HFA of one */
static const ict_struct_f1_t ict_sample_struct_f1 = {-6.5f}, ict_other_struct_f1 = {2};
static bool ict_fields_equal_struct_f1(const ict_struct_f1_t *a, const ict_struct_f1_t *b)
{
    return a->a == b->a;
}
ICT_EQUAL(struct_f1)

/* three floats: an HFA of three */
static const ict_struct_fff_t ict_sample_struct_fff = {1.5f, -2.25f, 3.125f},
                              ict_other_struct_fff = {4, 5, 6};
static bool ict_fields_equal_struct_fff(const ict_struct_fff_t *a, const ict_struct_fff_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c;
}
ICT_EQUAL(struct_fff)

/* four floats: an HFA of four */
static const ict_struct_ffff_t ict_sample_struct_ffff = {1.5f, -2.25f, 3.125f, -4.0625f},
                               ict_other_struct_ffff = {5, 6, 7, 8};
static bool ict_fields_equal_struct_ffff(const ict_struct_ffff_t *a, const ict_struct_ffff_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c && a->d == b->d;
}
ICT_EQUAL(struct_ffff)

/* four doubles: an HFA of four */
static const ict_struct_dddd_t ict_sample_struct_dddd = {1.25, -2.5, 3.75, -5.125},
                               ict_other_struct_dddd = {6, 7, 8, 9};
static bool ict_fields_equal_struct_dddd(const ict_struct_dddd_t *a, const ict_struct_dddd_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c && a->d == b->d;
}
ICT_EQUAL(struct_dddd)

/* an array of four floats: an HFA through an array member */
static const ict_struct_fa4_t ict_sample_struct_fa4 = {{0.5f, -1.75f, 2.25f, -3.5f}},
                              ict_other_struct_fa4 = {{9, 10, 11, 12}};
static bool ict_fields_equal_struct_fa4(const ict_struct_fa4_t *a, const ict_struct_fa4_t *b)
{
    return a->a[0] == b->a[0] && a->a[1] == b->a[1] && a->a[2] == b->a[2] && a->a[3] == b->a[3];
}
ICT_EQUAL(struct_fa4)

/* two long doubles: an HFA of two quads on AArch64 (values a double cannot hold) */
static const ict_struct_DD_t ict_sample_struct_DD = {-1.0L / 3, 2.0L / 7},
                             ict_other_struct_DD = {5, 6};
static bool ict_fields_equal_struct_DD(const ict_struct_DD_t *a, const ict_struct_DD_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_DD)

/* five doubles: one too many for an HFA */
static const ict_struct_d5_t ict_sample_struct_d5 = {1.25, -2.5, 3.75, -5.125, 6.0625},
                             ict_other_struct_d5 = {7, 8, 9, 10, 11};
static bool ict_fields_equal_struct_d5(const ict_struct_d5_t *a, const ict_struct_d5_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c && a->d == b->d && a->e == b->e;
}
ICT_EQUAL(struct_d5)

/* float then double: not homogeneous */
static const ict_struct_fd_t ict_sample_struct_fd = {-1.5f, 2.75}, ict_other_struct_fd = {3, 4};
static bool ict_fields_equal_struct_fd(const ict_struct_fd_t *a, const ict_struct_fd_t *b)
{
    return a->a == b->a && a->b == b->b;
}
ICT_EQUAL(struct_fd)

/* three ints: 12 bytes in two general registers */
static const ict_struct_iii_t ict_sample_struct_iii = {-1, 2, -3}, ict_other_struct_iii = {4, 5, 6};
static bool ict_fields_equal_struct_iii(const ict_struct_iii_t *a, const ict_struct_iii_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c;
}
ICT_EQUAL(struct_iii)

/* three chars: 3 bytes */
static const ict_struct_c3_t ict_sample_struct_c3 = {-1, 2, -3}, ict_other_struct_c3 = {4, 5, 6};
static bool ict_fields_equal_struct_c3(const ict_struct_c3_t *a, const ict_struct_c3_t *b)
{
    return a->a == b->a && a->b == b->b && a->c == b->c;
}
ICT_EQUAL(struct_c3)

/* ---- the table ----------------------------------------------------------------------------- */

#define ICT_CASE(NAME, ENC, T)                                                                     \
    {#NAME,                                                                                        \
     ENC,                                                                                          \
     sizeof(T),                                                                                    \
     &ict_sample_##NAME,                                                                           \
     &ict_other_##NAME,                                                                            \
     ict_equal_##NAME,                                                                             \
     (ic_imp)ict_echo_##NAME,                                                                      \
     (ic_imp)ict_make_##NAME,                                                                      \
     (ic_imp)ict_take_##NAME,                                                                      \
     ict_send_echo_##NAME,                                                                         \
     ict_send_make_##NAME,                                                                         \
     ict_send_take_##NAME,                                                                         \
     ict_direct_##NAME},

/* One case per line: the matrix generator (tools/gen_matrix.py) reads these lines. */
/* clang-format off */
static const ict_type_case cases[] = {
#define IC_SCALAR(CODE, NAME, CTYPE, FFI, KIND, ABI) ICT_CASE(NAME, ((const char[]){CODE, 0}), CTYPE)
#include "../../CSources/CInterception/types/ic_types.def"
#undef IC_SCALAR
    ICT_CASE(struct_ff, "{ff=ff}", ict_struct_ff_t)
    ICT_CASE(struct_dd, "{dd=dd}", ict_struct_dd_t)
    ICT_CASE(struct_fi, "{fi=fi}", ict_struct_fi_t)
    ICT_CASE(struct_id, "{id=id}", ict_struct_id_t)
    ICT_CASE(struct_dq, "{dq=dq}", ict_struct_dq_t)
    ICT_CASE(struct_ddd, "{ddd=ddd}", ict_struct_ddd_t)
    ICT_CASE(struct_cfc, "{cfc=cfc}", ict_struct_cfc_t)
    ICT_CASE(struct_17, "{b17=[17C]}", ict_struct_17_t)
    ICT_CASE(struct_32, "{q4=qqqq}", ict_struct_32_t)
    ICT_CASE(struct_nested, "{outer=s{inner=fd}[3c]}", ict_struct_nested_t)
    ICT_CASE(struct_pi, "{pi=^vi}", ict_struct_pi_t)
    ICT_CASE(struct_f1, "{f1=f}", ict_struct_f1_t)
    ICT_CASE(struct_fff, "{fff=fff}", ict_struct_fff_t)
    ICT_CASE(struct_ffff, "{ffff=ffff}", ict_struct_ffff_t)
    ICT_CASE(struct_dddd, "{dddd=dddd}", ict_struct_dddd_t)
    ICT_CASE(struct_fa4, "{fa4=[4f]}", ict_struct_fa4_t)
    ICT_CASE(struct_DD, "{DD=DD}", ict_struct_DD_t)
    ICT_CASE(struct_d5, "{d5=ddddd}", ict_struct_d5_t)
    ICT_CASE(struct_fd, "{fd=fd}", ict_struct_fd_t)
    ICT_CASE(struct_iii, "{iii=iii}", ict_struct_iii_t)
    ICT_CASE(struct_c3, "{c3=ccc}", ict_struct_c3_t)
};
/* clang-format on */

enum {
#define IC_SCALAR(CODE, NAME, CTYPE, FFI, KIND, ABI) +1
    scalar_count = 0
#include "../../CSources/CInterception/types/ic_types.def"
#undef IC_SCALAR
};

const ict_type_case *ict_type_cases(size_t *count)
{
    *count = sizeof cases / sizeof cases[0];
    return cases;
}

size_t ict_scalar_case_count(void)
{
    return scalar_count;
}
