/*
 * matrix.c — the matrix area: every way (the table below) over every signature of the generated
 * matrix, each compared with a direct call of the same C function.
 *
 * For each case: the direct call gives the reference result and the arguments the method
 * receives (the case's values). Then each way runs with the result buffer poisoned, and must
 * give the same result bytes (or the zero a message to NULL gives), run the method exactly as
 * many times as it says, and the method's last run must have received the case's arguments,
 * byte for byte, and widened its narrow integer arguments to what the direct call's did. Each way
 * is an area of its own in the summary.
 */
#include <stdio.h>
#include <string.h>

#include "cm.h"

/* Adding a path through the runtime is adding a line here. */
static const cm_way *const ways[] = {
    &cm_way_send,
    &cm_way_invocation,
    &cm_way_invoke_imp,
    &cm_way_nil_send,
    &cm_way_nil_invocation,
    &cm_way_forward_invocation,
    &cm_way_observed_forwarded,
    &cm_way_observed_optimized,
    &cm_way_rewritten,
    &cm_way_instead_forwarded,
    &cm_way_instead_optimized,
    &cm_way_class_observed,
    &cm_way_class_instead,
    &cm_way_layered,
    &cm_way_metaclass,
    &cm_way_observed_libffi,
    &cm_way_rewritten_forwarded,
    &cm_way_instead_libffi,
    &cm_way_class_observed_universal,
    &cm_way_class_instead_universal,
    &cm_way_layered_universal,
    &cm_way_class_instead_libffi,
    &cm_way_closure_frame,
    &cm_way_closure_registers,
};

/* The direct call of case `m`: its result in `direct`, and a check that the method received the
 * case's values (the generated direct call passes them). */
static void call_direct(cm_area *area, const ict_matrix_case *m, cm_value *direct)
{
    memset(direct, 0xA5, sizeof *direct);
    size_t calls = ict_matrix_calls();
    m->call_direct(direct->bytes);
    cm_check(area, ict_matrix_calls() == calls + 1, "the direct call ran the method once");
    for (size_t i = 0; i < m->arg_count; i++) {
        cm_check(area, cm_same(m->arg_layouts[i], ict_matrix_received(i), m->args[i]),
                 "the direct call passed argument %zu", i);
        cm_direct_wide[i] = ict_matrix_received_wide(i);
    }
    if (m->ret_layout)
        cm_check(area, cm_same(m->ret_layout, direct->bytes, m->ret),
                 "the direct call returned the case's value");
}

static void run_way(const cm_way *way, const ict_matrix_case *m, size_t index,
                    const cm_value *direct)
{
    cm_area *area = cm_area_named(way->name);
    cm_label("case %zu %s, %s", index, m->encoding, way->name);
    const char *reason = way->skip ? way->skip(m) : NULL;
    if (reason) {
        cm_skip(area, reason);
        return;
    }
    cm_case(area);
    cm_outcome out;
    memset(&out, 0, sizeof out);
    memset(&out.result, 0xA5, sizeof out.result);
    size_t calls = ict_matrix_calls();
    if (!way->run(area, m, m->ret_layout ? direct->bytes : NULL, &out)) return;
    cm_check(area, ict_matrix_calls() == calls + out.runs, "the method ran %zu times, expected %zu",
             ict_matrix_calls() - calls, out.runs);
    if (out.runs > 0) cm_check_received(area, m, "the last run");
    if (out.has_result) {
        const void *expected = out.expected ? out.expected : direct->bytes;
        cm_check(area, cm_same(m->ret_layout, out.result.bytes, expected),
                 "the result (%s) differs from %s", m->ret_layout->name,
                 out.expected ? "the expected value" : "the direct call's");
    }
}

void cm_run_matrix(void)
{
    size_t count;
    const ict_matrix_case *cases = ict_matrix_cases(&count);
    cm_area *direct_area = cm_area_named("direct call");
    for (size_t n = 0; n < count; n++) {
        const ict_matrix_case *m = &cases[n];
        cm_label("case %zu %s, direct", n, m->encoding);
        cm_case(direct_area);
        cm_value direct;
        call_direct(direct_area, m, &direct);
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++)
            run_way(ways[w], m, n, &direct);
    }
    ic_intercept_quiesce();
}
