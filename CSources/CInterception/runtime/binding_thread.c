/*
 * binding_thread.c — the per-thread words reserved for language bindings (ic_binding_thread.h).
 * Only defined here: the runtime never reads or writes them.
 */
#include "ic_binding_thread.h"

_Thread_local ic_binding_thread_words ic_binding_thread IC_BINDING_TLS_MODEL;
