/*
 * targets.h — the benchmark's method implementations (targets.c).
 */
#ifndef ICB_TARGETS_H
#define ICB_TARGETS_H

#include <interception/interception.h>

typedef struct icb_vec3 {
    double x, y, z;
} icb_vec3;

int icb_add(ic_id self, ic_sel cmd, int x);                         /* i@:i */
void icb_ping(ic_id self, ic_sel cmd);                              /* v@: */
icb_vec3 icb_vec(ic_id self, ic_sel cmd, double k);                 /* {icb_vec3=ddd}@:d */
int icb_add_narrow(ic_id self, ic_sel cmd, signed char a, short b); /* i@:cs */

#endif /* ICB_TARGETS_H */
