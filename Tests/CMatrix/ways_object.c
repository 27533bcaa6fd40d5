/*
 * ways_object.c — the ways through one object's interception: before- and after-observers on
 * the forward path (forced: the universal trampoline, or libffi where it cannot take the
 * signature), on libffi (forced) and on the path the runtime picks (a typed trampoline when the
 * generated table has the signature's ABI key, else the forward path), observers that rewrite the
 * arguments and the result with the same values, and an instead hook that calls the original
 * twice, on each path. The entry each gets is checked (ic_intercept_entry_of).
 *
 * Each way sends the message, then invokes it through a heap invocation (the trampoline or
 * forward closure reached through libffi), checks what the observers saw, removes them and
 * checks the object went back to its class and still answers as before.
 */
#include "cm.h"

/* The path `options` must give `m`'s signature. */
static ic_intercept_path expected_path(const ict_matrix_case *m, uint32_t options)
{
    return options & (IC_INTERCEPT_FORCE_FORWARDING | IC_INTERCEPT_FORCE_LIBFFI) ? IC_PATH_FORWARDED
           : m->optimized                                                        ? IC_PATH_OPTIMIZED
                          : IC_PATH_FORWARDED;
}

/* The entry `options` must give `m`'s signature. */
static ic_intercept_entry expected_entry(const ict_matrix_case *m, uint32_t options)
{
    if (options & IC_INTERCEPT_FORCE_LIBFFI) return IC_ENTRY_LIBFFI;
    if (m->optimized && !(options & IC_INTERCEPT_FORCE_FORWARDING)) return IC_ENTRY_TYPED;
    return cm_generic_entry(m);
}

/* An object of a fresh class intercepted for the matrix selector with `options`, its path
 * checked; NULL after a failed check. */
static ic_id intercepted(cm_area *area, const ict_matrix_case *m, uint32_t options, ic_class **cls)
{
    *cls = cm_matrix_class(area, "CMObject", m);
    if (!*cls) return NULL;
    ic_id obj = ic_class_create_instance(*cls);
    if (!cm_check(area, ic_intercept_prepare_with_options(obj, cm_matrix_sel(), options) == IC_OK,
                  "ic_intercept_prepare: %s", ic_error_message())) {
        ic_release(obj);
        return NULL;
    }
    ic_intercept_path path = ic_intercept_path_of(obj, cm_matrix_sel());
    cm_check(area, path == expected_path(m, options), "path %d, expected %d", (int)path,
             (int)expected_path(m, options));
    ic_intercept_entry entry = ic_intercept_entry_of(obj, cm_matrix_sel());
    cm_check(area, entry == expected_entry(m, options), "entry %d, expected %d", (int)entry,
             (int)expected_entry(m, options));
    return obj;
}

/* Removes the hooks, checks the object is back in its class and answers as a plain object. */
static void finish(cm_area *area, const ict_matrix_case *m, ic_id obj, ic_class *cls,
                   const void *direct, const ic_observer_token *tokens, size_t count,
                   cm_outcome *out)
{
    for (size_t i = 0; i < count; i++)
        cm_check(area, ic_hook_remove(tokens[i]) == IC_OK, "removing a hook: %s",
                 ic_error_message());
    cm_check(area, ic_object_get_class(obj) == cls,
             "the object went back to its class when its last hook went");
    cm_check_invocation(area, m, obj, direct);
    out->runs++;
    ic_release(obj);
}

/* Checks the counts of a cm_seen after `calls` calls. */
static void check_seen(cm_area *area, const cm_seen *seen, size_t calls, bool observers,
                       bool instead)
{
    if (observers) {
        cm_check(area, seen->before == calls, "before-observers ran %zu times, expected %zu",
                 seen->before, calls);
        cm_check(area, seen->after == calls, "after-observers ran %zu times, expected %zu",
                 seen->after, calls);
        cm_check(area, seen->bad_arguments == 0,
                 "%zu observer calls saw arguments other than those passed", seen->bad_arguments);
        cm_check(area, seen->bad_results == 0,
                 "%zu after-observer calls saw a result other than the direct call's",
                 seen->bad_results);
    }
    if (instead) {
        cm_check(area, seen->instead_calls == calls, "the instead hook ran %zu times, expected %zu",
                 seen->instead_calls, calls);
        cm_check(area, seen->instead_bad == 0,
                 "%zu instead-hook calls saw other arguments, or two different originals",
                 seen->instead_bad);
    }
}

/* Before- and after-observers (`before`, `after`), one send and one invocation. */
static bool observed(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out,
                     uint32_t options, ic_observer_fn before, ic_observer_fn after)
{
    ic_class *cls;
    ic_id obj = intercepted(area, m, options, &cls);
    if (!obj) return false;
    cm_seen seen = {.m = m, .expected = direct};
    ic_observer_token tokens[2];
    bool ok = ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_BEFORE, 0, before, &seen, NULL,
                             &tokens[0]) == IC_OK &&
              ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_AFTER, 0, after, &seen, NULL,
                             &tokens[1]) == IC_OK;
    if (!cm_check(area, ok, "adding observers: %s", ic_error_message())) return false;
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    cm_check_invocation(area, m, obj, direct);
    check_seen(area, &seen, 2, true, false);
    out->runs = 2;
    finish(area, m, obj, cls, direct, tokens, 2, out);
    return true;
}

static bool run_observed_forwarded(cm_area *area, const ict_matrix_case *m, const void *direct,
                                   cm_outcome *out)
{
    return observed(area, m, direct, out, IC_INTERCEPT_FORCE_FORWARDING, cm_observe_before,
                    cm_observe_after);
}

static bool run_observed_optimized(cm_area *area, const ict_matrix_case *m, const void *direct,
                                   cm_outcome *out)
{
    return observed(area, m, direct, out, 0, cm_observe_before, cm_observe_after);
}

/* Observers that rewrite: a send with the case's values whose after-observer replaces the result
 * with another value, and an invocation with another value for every argument, which the
 * before-observer replaces with the case's before the method runs (the method must receive the
 * case's values, narrow integers extended as the ABI expects). */
static bool rewritten(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out,
                      uint32_t options)
{
    ic_class *cls;
    ic_id obj = intercepted(area, m, options, &cls);
    if (!obj) return false;
    if (m->ret_layout) cm_other(m->ret_layout, direct, &out->expected_copy);
    cm_seen seen = {.m = m, .expected = out->expected_copy.bytes};
    ic_observer_token tokens[2];
    bool ok = ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_BEFORE, 0, cm_rewrite_before, &seen,
                             NULL, &tokens[0]) == IC_OK &&
              ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_AFTER, 0, cm_rewrite_after, &seen, NULL,
                             &tokens[1]) == IC_OK;
    if (!cm_check(area, ok, "adding observers: %s", ic_error_message())) return false;
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    out->expected = out->expected_copy.bytes;

    ic_invocation *inv = cm_invocation(area, m, obj);
    if (inv) {
        cm_value other;
        for (size_t i = 0; i < m->arg_count; i++) {
            cm_other(m->arg_layouts[i], m->args[i], &other);
            ic_invocation_set_argument(inv, 2 + i, &other);
        }
        cm_check(area, ic_invocation_invoke(inv) == IC_OK, "invoke: %s", ic_error_message());
        cm_check_received(area, m, "arguments rewritten by the before-observer");
        if (m->ret_layout) {
            cm_value result;
            ic_invocation_get_return_value(inv, &result);
            cm_check(area, cm_same(m->ret_layout, &result, out->expected_copy.bytes),
                     "the invocation's result is not the one the after-observer wrote");
        }
        ic_invocation_destroy(inv);
    }
    cm_check(area,
             seen.before == 2 && seen.after == 2 && seen.bad_arguments == 0 &&
                 seen.bad_results == 0,
             "rewriting observers ran %zu and %zu times (expected 2 and 2), %zu and %zu failed",
             seen.before, seen.after, seen.bad_arguments, seen.bad_results);
    out->runs = 2;
    finish(area, m, obj, cls, direct, tokens, 2, out);
    return true;
}

static bool run_rewritten(cm_area *area, const ict_matrix_case *m, const void *direct,
                          cm_outcome *out)
{
    return rewritten(area, m, direct, out, 0);
}

static bool run_rewritten_forwarded(cm_area *area, const ict_matrix_case *m, const void *direct,
                                    cm_outcome *out)
{
    return rewritten(area, m, direct, out, IC_INTERCEPT_FORCE_FORWARDING);
}

static bool run_observed_libffi(cm_area *area, const ict_matrix_case *m, const void *direct,
                                cm_outcome *out)
{
    return observed(area, m, direct, out, IC_INTERCEPT_FORCE_LIBFFI, cm_observe_before,
                    cm_observe_after);
}

const cm_way cm_way_observed_forwarded = {"observed, forward path", NULL, run_observed_forwarded};
const cm_way cm_way_observed_libffi = {"observed, libffi forced", NULL, run_observed_libffi};
const cm_way cm_way_rewritten_forwarded = {"rewriting observers, forward path", NULL,
                                           run_rewritten_forwarded};
const cm_way cm_way_observed_optimized = {"observed, default path", NULL, run_observed_optimized};
const cm_way cm_way_rewritten = {"observers rewriting values", NULL, run_rewritten};

/* An instead hook calling the original twice, and an after-observer. */
static bool instead(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out,
                    uint32_t options)
{
    ic_class *cls;
    ic_id obj = intercepted(area, m, options, &cls);
    if (!obj) return false;
    cm_seen seen = {.m = m, .expected = direct};
    ic_observer_token tokens[2];
    bool ok = ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_INSTEAD, 0, cm_instead_twice, &seen,
                             NULL, &tokens[0]) == IC_OK &&
              ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_AFTER, 0, cm_observe_after, &seen, NULL,
                             &tokens[1]) == IC_OK;
    if (!cm_check(area, ok, "adding hooks: %s", ic_error_message())) return false;
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    check_seen(area, &seen, 1, false, true);
    cm_check(area, seen.after == 1 && seen.bad_arguments == 0 && seen.bad_results == 0,
             "the after-observer saw %zu calls, %zu with other arguments, %zu with another result",
             seen.after, seen.bad_arguments, seen.bad_results);
    out->runs = 2;
    finish(area, m, obj, cls, direct, tokens, 2, out);
    return true;
}

static bool run_instead_forwarded(cm_area *area, const ict_matrix_case *m, const void *direct,
                                  cm_outcome *out)
{
    return instead(area, m, direct, out, IC_INTERCEPT_FORCE_FORWARDING);
}

static bool run_instead_optimized(cm_area *area, const ict_matrix_case *m, const void *direct,
                                  cm_outcome *out)
{
    return instead(area, m, direct, out, 0);
}

static bool run_instead_libffi(cm_area *area, const ict_matrix_case *m, const void *direct,
                               cm_outcome *out)
{
    return instead(area, m, direct, out, IC_INTERCEPT_FORCE_LIBFFI);
}

const cm_way cm_way_instead_forwarded = {"instead hook, forward path", NULL, run_instead_forwarded};
const cm_way cm_way_instead_libffi = {"instead hook, libffi forced", NULL, run_instead_libffi};
const cm_way cm_way_instead_optimized = {"instead hook, default path", NULL, run_instead_optimized};
