/*
 * targets.c — the methods the benchmark calls, in their own translation unit and never inlined,
 * so every case pays a real call to the same code; each starts on a 64-byte boundary, so its
 * placement does not change with the code around it.
 */
#include "targets.h"

__attribute__((noinline, aligned(64))) int icb_add(ic_id self, ic_sel cmd, int x)
{
    (void)self;
    (void)cmd;
    __asm__ volatile("" ::: "memory");
    return x + 1;
}

__attribute__((noinline, aligned(64))) void icb_ping(ic_id self, ic_sel cmd)
{
    (void)self;
    (void)cmd;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline, aligned(64))) icb_vec3 icb_vec(ic_id self, ic_sel cmd, double k)
{
    (void)self;
    (void)cmd;
    __asm__ volatile("" ::: "memory");
    return (icb_vec3){k, 2 * k, 3 * k};
}

__attribute__((noinline)) int icb_add_narrow(ic_id self, ic_sel cmd, signed char a, short b)
{
    (void)self;
    (void)cmd;
    __asm__ volatile("" ::: "memory");
    return a + b;
}

int icb_swift_add(ic_id self, ic_sel cmd, int x)
{
    return icb_add(self, cmd, x);
}

long long icb_swift_sum6(ic_id self, ic_sel cmd, long long a, long long b, long long c, long long d,
                         long long e, long long f)
{
    (void)self;
    (void)cmd;
    __asm__ volatile("" ::: "memory");
    return a + b + c + d + e + f;
}
