/*
 * Area: the public headers in ISO C. Purpose: the umbrella header and the ISO forms of the
 * message macros (IC_FN with and without argument types, IC_SEND with and without message
 * arguments) compile clean under `-std=c11 -pedantic -Werror -Wall -Wextra`
 * (scripts/check-pedantic.sh, in CI's lint step). The GNU forms (IC_MSG, IC_MSG_SUPER,
 * IC_MSG_NAMED) are compiled the same way with -std=gnu11, where they are clean.
 */
#include <interception/interception.h>

#include <stdio.h>

typedef struct point {
    double x, y;
} point;

int pedantic_sends(ic_id obj, ic_sel none, ic_sel one, ic_sel many, ic_sel pt);

int pedantic_sends(ic_id obj, ic_sel none, ic_sel one, ic_sel many, ic_sel pt)
{
    double d = ((IC_FN(double))ic_msg_lookup(obj, none))(obj, none);
    IC_SEND(IC_FN(void), obj, none);
    int r = IC_SEND(IC_FN(int, int), obj, one, 41);
    long l = IC_SEND(IC_FN(long, int, double, const char *, ic_id), obj, many, 1, 2.5, "s", obj);
    point p = IC_SEND(IC_FN(point, point), obj, pt, (point){1, 2});
#ifdef PEDANTIC_GNU_FORMS
    ic_super sup = {obj, ic_object_get_class(obj)};
    r += IC_MSG(IC_FN(int, int), obj, one, 1);
    d += IC_MSG(IC_FN(double), obj, none);
    r += IC_MSG_SUPER(IC_FN(int, int), &sup, one, 2);
    r += IC_MSG_NAMED(IC_FN(int, int), obj, "add:", 3);
#endif
    printf("%f %ld %f\n", d, l, p.x);
    return r;
}
