/*
 * ways_send.c — the ways that call a matrix method without interception: a send, a heap
 * invocation (invoked twice: a method's by-value parameters are its own, so the second call must
 * pass the same values), an invocation of the IMP itself, messages to NULL (a send and an
 * invocation), and a proxy's forwardInvocation: re-targeting an unknown message.
 */
#include <string.h>

#include "cm.h"

/* ---- send ------------------------------------------------------------------------------------ */

static bool run_send(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out)
{
    (void)direct;
    ic_class *cls = cm_matrix_class(area, "CMSend", m);
    if (!cls) return false;
    ic_id obj = ic_class_create_instance(cls);
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    ic_release(obj);
    out->has_result = m->ret_layout != NULL;
    out->runs = 1;
    return true;
}

const cm_way cm_way_send = {"send", NULL, run_send};

/* ---- invocations ----------------------------------------------------------------------------- */

/* Copies an invocation's return value into the outcome. */
static void take_result(const ict_matrix_case *m, ic_invocation *inv, cm_outcome *out)
{
    out->has_result = m->ret_layout != NULL;
    if (out->has_result) ic_invocation_get_return_value(inv, out->result.bytes);
}

static bool run_invocation(cm_area *area, const ict_matrix_case *m, const void *direct,
                           cm_outcome *out)
{
    (void)direct;
    ic_class *cls = cm_matrix_class(area, "CMInvocation", m);
    if (!cls) return false;
    ic_id obj = ic_class_create_instance(cls);
    ic_invocation *inv = cm_invocation(area, m, obj);
    if (!inv) {
        ic_release(obj);
        return false;
    }
    cm_check(area, ic_invocation_invoke(inv) == IC_OK, "first invoke: %s", ic_error_message());
    cm_check(area, cm_arguments_are_the_case(m, inv),
             "the invocation's arguments changed with the method's parameters");
    cm_check(area, ic_invocation_invoke(inv) == IC_OK, "second invoke: %s", ic_error_message());
    take_result(m, inv, out);
    out->runs = 2;
    ic_invocation_destroy(inv);
    ic_release(obj);
    return true;
}

const cm_way cm_way_invocation = {"invocation (twice)", NULL, run_invocation};

static bool run_invoke_imp(cm_area *area, const ict_matrix_case *m, const void *direct,
                           cm_outcome *out)
{
    (void)direct;
    ic_invocation *inv = cm_invocation(area, m, NULL);
    if (!inv) return false;
    cm_check(area, ic_invocation_invoke_imp(inv, m->imp) == IC_OK, "invoke_imp: %s",
             ic_error_message());
    take_result(m, inv, out);
    out->runs = 1;
    ic_invocation_destroy(inv);
    return true;
}

const cm_way cm_way_invoke_imp = {"invocation of the IMP", NULL, run_invoke_imp};

/* ---- messages to NULL ------------------------------------------------------------------------ */

static const cm_value zero_value;

static bool run_nil_send(cm_area *area, const ict_matrix_case *m, const void *direct,
                         cm_outcome *out)
{
    (void)area, (void)direct;
    /* The direct call just before leaves the case's (non-zero) result in the result registers,
     * so a register ic_nil_imp failed to clear shows. */
    cm_value scratch;
    m->call_direct(scratch.bytes);
    m->send(NULL, cm_matrix_sel(), out->result.bytes);
    /* ic_nil_imp clears the result registers of this ABI; a result in memory is not written. */
    out->has_result = m->ret_layout && m->ret_layout->nil_returns_zero;
    out->expected = zero_value.bytes;
    out->runs = 1; /* the direct call */
    return true;
}

const cm_way cm_way_nil_send = {"send to NULL", NULL, run_nil_send};

static bool run_nil_invocation(cm_area *area, const ict_matrix_case *m, const void *direct,
                               cm_outcome *out)
{
    (void)direct;
    ic_invocation *inv = cm_invocation(area, m, NULL);
    if (!inv) return false;
    if (m->ret_layout) memset(ic_invocation_return_pointer(inv), 0x5A, m->ret_layout->size);
    cm_check(area, ic_invocation_invoke(inv) == IC_OK, "invoke: %s", ic_error_message());
    take_result(m, inv, out);
    out->expected = zero_value.bytes; /* a zero result, whatever its size */
    out->runs = 0;
    ic_invocation_destroy(inv);
    return true;
}

const cm_way cm_way_nil_invocation = {"invocation to NULL", NULL, run_nil_invocation};

/* ---- forwardInvocation: ---------------------------------------------------------------------- */

/* A proxy whose storage holds its target: it answers methodSignatureForSelector: with the
 * target's and forwards every invocation to it. */
static ic_id proxy_target(ic_id self)
{
    ic_id target;
    memcpy(&target, ic_object_storage(self), sizeof target);
    return target;
}

static const ic_signature *proxy_signature(ic_id self, ic_sel cmd, ic_sel sel)
{
    ic_id target = proxy_target(self);
    return IC_MSG(IC_FN(const ic_signature *, ic_sel), target, cmd, sel);
}

static void proxy_forward(ic_id self, ic_sel cmd, ic_invocation *inv)
{
    (void)cmd;
    ic_invocation_set_target(inv, proxy_target(self));
    ic_invocation_invoke(inv);
}

static bool run_forward_invocation(cm_area *area, const ict_matrix_case *m, const void *direct,
                                   cm_outcome *out)
{
    (void)direct;
    static const cm_method proxy_methods[] = {
        {"methodSignatureForSelector:", (ic_imp)proxy_signature, "^v@::", false},
        {"forwardInvocation:", (ic_imp)proxy_forward, "v@:^v", false},
    };
    ic_class *target_class = cm_matrix_class(area, "CMForwardTarget", m);
    ic_class *proxy_class = cm_class(area, "CMProxy", NULL, sizeof(ic_id), proxy_methods, 2);
    if (!target_class || !proxy_class) return false;
    ic_id target = ic_class_create_instance(target_class);
    ic_id proxy = ic_class_create_instance(proxy_class);
    memcpy(ic_object_storage(proxy), &target, sizeof target);
    m->send(proxy, cm_matrix_sel(), out->result.bytes);
    cm_check(area, ic_class_forwards_invocations(proxy_class), "the proxy class forwards");
    out->has_result = m->ret_layout != NULL;
    out->runs = 1;
    ic_release(proxy);
    ic_release(target);
    return true;
}

const cm_way cm_way_forward_invocation = {"forwardInvocation:", NULL, run_forward_invocation};
