/*
 * init.c — one-time initialization of the runtime: well-known selectors, the root class, and
 * the interception engine's hooks. Runs when the library is loaded (constructor) and, in case
 * another constructor calls the runtime first, on the first call of any entry point that can
 * come before an object exists (pthread_once makes both safe).
 */
#include <pthread.h>

#include "class.h"
#include "engine.h"
#include "epoch.h"
#include "selector.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void initialize(void)
{
    ic_epoch_init();
    ic_selectors_init();
    ic_root_class_init();
    ic_engine_init();
}

void ic_runtime_init(void)
{
    pthread_once(&once, initialize);
}

__attribute__((constructor)) static void initialize_at_load(void)
{
    ic_runtime_init();
}
