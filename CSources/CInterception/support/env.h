/*
 * env.h — the runtime's environment switches (IC_INTERCEPT_FORCE_LIBFFI, IC_HOOK_FORCE_FORWARDING,
 * IC_HOOK_FORCE_LIBFFI, IC_CLOSURE_FORCE_LIBFFI): on when set to anything but empty or "0". Read
 * where a path is chosen (a method first intercepted or hooked, a closure made), never per call.
 */
#ifndef IC_ENV_H
#define IC_ENV_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

static inline bool ic_env_switch(const char *name)
{
    const char *value = getenv(name);
    return value && *value && strcmp(value, "0") != 0;
}

#endif /* IC_ENV_H */
