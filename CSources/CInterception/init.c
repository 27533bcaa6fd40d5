/*
 * init.c — the composition root: one-time initialization of every layer (the engine's epoch
 * reclaimer, well-known selectors, the root class, the forwarding resolver the runtime calls on
 * a lookup miss, the universal trampoline's closure stubs for closure IMPs, the interception
 * engine's dealloc hooks). It sits above all the layer folders:
 * it is the one file that includes from every one of them, and the only place where a lower
 * layer is handed a function of a higher one. Runs when the library is loaded (constructor) and, in
 * case another constructor calls the runtime first, on the first call of any entry point that can
 * come before an object exists (pthread_once makes both safe).
 */
#include <pthread.h>

#include "engine/engine.h"
#include "engine/epoch.h"
#include "engine/universal_closure.h"
#include "ffi/forward.h"
#include "ffi/invocation.h"
#include "runtime/class.h"
#include "runtime/message.h"
#include "runtime/selector.h"
#include "runtime/zombie.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void initialize(void)
{
    ic_epoch_init();
    ic_zombies_init();
    ic_selectors_init();
    ic_message_unrecognized = ic_forward_resolve;
    ic_invocation_typed_call_resolver = ic_frame_call_for;
    ic_closure_universal_take = ic_universal_closure_take;
    ic_closure_universal_give_back = ic_universal_closure_give_back;
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
