/*
 * observe.c — the observers and the instead hook the hook ways install (see cm.h): each compares
 * what it sees with the matrix case, byte for byte, and counts.
 */
#include <string.h>

#include "cm.h"

bool cm_arguments_are_the_case(const ict_matrix_case *m, ic_invocation *call)
{
    for (size_t i = 0; i < m->arg_count; i++) {
        const void *seen = ic_invocation_argument_pointer(call, 2 + i);
        if (!seen || !cm_same(m->arg_layouts[i], seen, m->args[i])) return false;
    }
    return true;
}

void cm_observe_before(ic_invocation *call, void *context)
{
    cm_seen *seen = context;
    seen->before++;
    if (!cm_arguments_are_the_case(seen->m, call)) seen->bad_arguments++;
}

void cm_observe_after(ic_invocation *call, void *context)
{
    cm_seen *seen = context;
    seen->after++;
    /* After the method ran: its by-value parameters were its own to overwrite (every matrix
     * method does), so the caller's values must be unchanged. */
    if (!cm_arguments_are_the_case(seen->m, call)) seen->bad_arguments++;
    if (seen->m->ret_layout) {
        cm_value result;
        memset(&result, 0, sizeof result);
        if (ic_invocation_get_return_value(call, &result) != IC_OK ||
            !cm_same(seen->m->ret_layout, &result, seen->expected))
            seen->bad_results++;
    }
}

void cm_instead_twice(ic_invocation *call, void *context)
{
    cm_seen *seen = context;
    const ict_matrix_case *m = seen->m;
    seen->instead_calls++;
    bool ok = cm_arguments_are_the_case(m, call);
    cm_value first, second;
    memset(&first, 0, sizeof first);
    memset(&second, 0, sizeof second);
    ok = ic_hook_call_original(call) == IC_OK && ok;
    if (m->ret_layout) ok = ic_invocation_get_return_value(call, &first) == IC_OK && ok;
    /* The second call gets the arguments as the first left them: still the caller's values. */
    ok = cm_arguments_are_the_case(m, call) && ok;
    ok = ic_hook_call_original(call) == IC_OK && ok;
    if (m->ret_layout) {
        ok = ic_invocation_get_return_value(call, &second) == IC_OK && ok;
        ok = cm_same(m->ret_layout, &first, &second) && ok;
    }
    ok = cm_arguments_are_the_case(m, call) && ok;
    if (!ok) seen->instead_bad++;
}

void cm_rewrite_before(ic_invocation *call, void *context)
{
    cm_seen *seen = context;
    seen->before++;
    for (size_t i = 0; i < seen->m->arg_count; i++)
        if (ic_invocation_set_argument(call, 2 + i, seen->m->args[i]) != IC_OK)
            seen->bad_arguments++;
}

void cm_rewrite_after(ic_invocation *call, void *context)
{
    cm_seen *seen = context;
    seen->after++;
    if (seen->m->ret_layout && ic_invocation_set_return_value(call, seen->expected) != IC_OK)
        seen->bad_results++;
}
