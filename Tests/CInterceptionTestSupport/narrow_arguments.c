/*
 * narrow_arguments.c — a method implementation of a signature with narrow integer arguments that
 * reads them as the 32-bit registers they arrive in, for tests of callers that pass them
 * (invocations).
 */
#include "ict_types.h"

/* Called as i@:cSB (signed char, unsigned short, _Bool) but defined with int parameters: it
 * reads each argument's whole 32-bit register, as an optimized callee compiled by clang on x86-64
 * does (the System V ABI as compilers implement it has the caller extend narrow arguments to 32
 * bits), whatever the optimization level of this file. */
__attribute__((noinline)) static int narrow_sum(ic_id self, ic_sel cmd, int a, int b, int c)
{
    (void)self;
    (void)cmd;
    return a + b + c;
}

ic_imp ict_narrow_sum_imp(void)
{
    return (ic_imp)narrow_sum;
}
