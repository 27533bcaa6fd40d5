/*
 * ways_class.c — the ways through class-wide hooks: before- and after-hooks on a class, an
 * instead hook on a class calling the original twice, an object's hooks layered over its class's
 * (the object's instead chain calls the class's layer, whose instead hook calls the method), and
 * hooks on a class method (the metaclass), the message sent to the class object.
 *
 * Class-wide hooks run a class trampoline when the generated table has the signature's ABI key
 * (IC_PATH_OPTIMIZED), else the universal class entry, or a libffi closure for what that cannot
 * take; the environment switches force the latter two (the "forward path" and "libffi" ways).
 * The last hook removed must give the class its exact IMP back.
 */
#include <stdlib.h>
#include <string.h>

#include "cm.h"

/* The environment switch the current way hooks under (IC_HOOK_FORCE_FORWARDING: the universal
 * trampoline instead of the typed table; IC_HOOK_FORCE_LIBFFI), or NULL; and the options its
 * object layer is prepared with. */
static const char *forced;
static uint32_t object_options;

static ic_observer_token add_class_hook(cm_area *area, ic_class *cls, ic_hook_position position,
                                        ic_observer_fn fn, cm_seen *seen)
{
    ic_observer_token token = 0;
    if (forced) setenv(forced, "1", 1);
    cm_check(area,
             ic_hook_class(cls, cm_matrix_sel(), position, 0, fn, seen, NULL, &token) == IC_OK,
             "ic_hook_class: %s", ic_error_message());
    if (forced) unsetenv(forced);
    return token;
}

/* Removes the hooks and checks the class (or metaclass) has its method's IMP back. */
static void remove_and_check(cm_area *area, const ict_matrix_case *m, ic_class *cls,
                             const ic_observer_token *tokens, size_t count)
{
    for (size_t i = 0; i < count; i++)
        cm_check(area, ic_hook_remove(tokens[i]) == IC_OK, "removing a hook: %s",
                 ic_error_message());
    cm_check(area, ic_class_get_imp(cls, cm_matrix_sel()) == m->imp,
             "the class got its exact IMP back when its last hook went");
}

static void check_path(cm_area *area, const ict_matrix_case *m, ic_class *cls)
{
    ic_intercept_entry entry_expected = !forced && m->optimized ? IC_ENTRY_TYPED
                                        : forced && strcmp(forced, "IC_HOOK_FORCE_LIBFFI") == 0
                                            ? IC_ENTRY_LIBFFI
                                            : cm_generic_entry(m);
    ic_intercept_path path = ic_hook_class_path_of(cls, cm_matrix_sel());
    ic_intercept_path expected =
        entry_expected == IC_ENTRY_TYPED ? IC_PATH_OPTIMIZED : IC_PATH_FORWARDED;
    cm_check(area, path == expected, "class hook path %d, expected %d", (int)path, (int)expected);
    ic_intercept_entry entry = ic_hook_class_entry_of(cls, cm_matrix_sel());
    cm_check(area, entry == entry_expected, "class hook entry %d, expected %d", (int)entry,
             (int)entry_expected);
}

static bool run_class_observed(cm_area *area, const ict_matrix_case *m, const void *direct,
                               cm_outcome *out)
{
    ic_class *cls = cm_matrix_class(area, "CMClassObserved", m);
    if (!cls) return false;
    cm_seen seen = {.m = m, .expected = direct};
    ic_observer_token tokens[2] = {
        add_class_hook(area, cls, IC_HOOK_BEFORE, cm_observe_before, &seen),
        add_class_hook(area, cls, IC_HOOK_AFTER, cm_observe_after, &seen)};
    check_path(area, m, cls);
    ic_id obj = ic_class_create_instance(cls);
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    cm_check_invocation(area, m, obj, direct);
    cm_check(area, seen.before == 2 && seen.after == 2,
             "class hooks ran %zu times before and %zu after, expected 2 and 2", seen.before,
             seen.after);
    cm_check(area, seen.bad_arguments == 0 && seen.bad_results == 0,
             "class hooks saw %zu calls with other arguments, %zu with another result",
             seen.bad_arguments, seen.bad_results);
    remove_and_check(area, m, cls, tokens, 2);
    ic_release(obj);
    out->runs = 2;
    return true;
}

const cm_way cm_way_class_observed = {"class-wide before/after", NULL, run_class_observed};

static bool run_class_instead(cm_area *area, const ict_matrix_case *m, const void *direct,
                              cm_outcome *out)
{
    ic_class *cls = cm_matrix_class(area, "CMClassInstead", m);
    if (!cls) return false;
    cm_seen seen = {.m = m, .expected = direct};
    ic_observer_token tokens[2] = {
        add_class_hook(area, cls, IC_HOOK_INSTEAD, cm_instead_twice, &seen),
        add_class_hook(area, cls, IC_HOOK_AFTER, cm_observe_after, &seen)};
    check_path(area, m, cls);
    ic_id obj = ic_class_create_instance(cls);
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    cm_check(area, seen.instead_calls == 1 && seen.instead_bad == 0,
             "the class's instead hook ran %zu times (expected 1), %zu bad", seen.instead_calls,
             seen.instead_bad);
    cm_check(
        area, seen.after == 1 && seen.bad_arguments == 0 && seen.bad_results == 0,
        "the class's after hook ran %zu times (expected 1): %zu bad arguments, %zu bad results",
        seen.after, seen.bad_arguments, seen.bad_results);
    remove_and_check(area, m, cls, tokens, 2);
    ic_release(obj);
    out->runs = 2;
    return true;
}

const cm_way cm_way_class_instead = {"class-wide instead", NULL, run_class_instead};

/* Object layer: before, instead (twice), after; class layer: instead (twice), after. The method
 * runs 2 × 2 times. */
static bool run_layered(cm_area *area, const ict_matrix_case *m, const void *direct,
                        cm_outcome *out)
{
    ic_class *cls = cm_matrix_class(area, "CMLayered", m);
    if (!cls) return false;
    cm_seen class_seen = {.m = m, .expected = direct};
    cm_seen object_seen = {.m = m, .expected = direct};
    ic_observer_token class_tokens[2] = {
        add_class_hook(area, cls, IC_HOOK_INSTEAD, cm_instead_twice, &class_seen),
        add_class_hook(area, cls, IC_HOOK_AFTER, cm_observe_after, &class_seen)};
    check_path(area, m, cls);
    ic_id obj = ic_class_create_instance(cls);
    if (object_options)
        cm_check(area,
                 ic_intercept_prepare_with_options(obj, cm_matrix_sel(), object_options) == IC_OK,
                 "ic_intercept_prepare_with_options: %s", ic_error_message());
    ic_observer_token object_tokens[3];
    bool ok = ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_BEFORE, 0, cm_observe_before,
                             &object_seen, NULL, &object_tokens[0]) == IC_OK &&
              ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_INSTEAD, 0, cm_instead_twice,
                             &object_seen, NULL, &object_tokens[1]) == IC_OK &&
              ic_hook_object(obj, cm_matrix_sel(), IC_HOOK_AFTER, 0, cm_observe_after, &object_seen,
                             NULL, &object_tokens[2]) == IC_OK;
    if (!cm_check(area, ok, "adding object hooks: %s", ic_error_message())) {
        ic_release(obj);
        return false;
    }
    m->send(obj, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    cm_check(area,
             object_seen.before == 1 && object_seen.instead_calls == 1 && object_seen.after == 1,
             "object hooks ran %zu/%zu/%zu times, expected once each", object_seen.before,
             object_seen.instead_calls, object_seen.after);
    cm_check(area, class_seen.instead_calls == 2 && class_seen.after == 2,
             "class hooks ran %zu/%zu times, expected twice each (the object's instead hook calls "
             "the class layer twice)",
             class_seen.instead_calls, class_seen.after);
    cm_check(area,
             object_seen.bad_arguments + object_seen.bad_results + object_seen.instead_bad +
                     class_seen.bad_arguments + class_seen.bad_results + class_seen.instead_bad ==
                 0,
             "a layer saw other arguments or another result");
    for (size_t i = 0; i < 3; i++)
        cm_check(area, ic_hook_remove(object_tokens[i]) == IC_OK, "removing an object hook");
    remove_and_check(area, m, cls, class_tokens, 2);
    ic_release(obj);
    out->runs = 4;
    return true;
}

const cm_way cm_way_layered = {"object hooks over class hooks", NULL, run_layered};

/* A class method: the matrix IMP on the metaclass, hooked there, sent to the class object. */
static bool run_metaclass(cm_area *area, const ict_matrix_case *m, const void *direct,
                          cm_outcome *out)
{
    const cm_method method = {"m", m->imp, m->encoding, true};
    ic_class *cls = cm_class(area, "CMMeta", NULL, 0, &method, 1);
    if (!cls) return false;
    ic_class *meta = ic_class_metaclass(cls);
    cm_seen seen = {.m = m, .expected = direct};
    ic_observer_token tokens[3] = {
        add_class_hook(area, meta, IC_HOOK_BEFORE, cm_observe_before, &seen),
        add_class_hook(area, meta, IC_HOOK_INSTEAD, cm_instead_twice, &seen),
        add_class_hook(area, meta, IC_HOOK_AFTER, cm_observe_after, &seen)};
    check_path(area, m, meta);
    ic_id class_object = (ic_id)cls;
    m->send(class_object, cm_matrix_sel(), out->result.bytes);
    out->has_result = m->ret_layout != NULL;
    cm_check_invocation(area, m, class_object, direct);
    cm_check(area, seen.before == 2 && seen.instead_calls == 2 && seen.after == 2,
             "metaclass hooks ran %zu/%zu/%zu times, expected twice each", seen.before,
             seen.instead_calls, seen.after);
    cm_check(area, seen.bad_arguments + seen.bad_results + seen.instead_bad == 0,
             "metaclass hooks saw other arguments or another result");
    remove_and_check(area, m, meta, tokens, 3);
    out->runs = 4;
    return true;
}

const cm_way cm_way_metaclass = {"class method, metaclass hooks", NULL, run_metaclass};

/* The same ways with the universal trampoline (or libffi) forced where the typed table would
 * serve. */
static bool with_forced(const char *env, uint32_t options,
                        bool (*way)(cm_area *, const ict_matrix_case *, const void *, cm_outcome *),
                        cm_area *area, const ict_matrix_case *m, const void *direct,
                        cm_outcome *out)
{
    forced = env;
    object_options = options;
    bool ran = way(area, m, direct, out);
    forced = NULL;
    object_options = 0;
    return ran;
}

static bool run_class_observed_universal(cm_area *area, const ict_matrix_case *m,
                                         const void *direct, cm_outcome *out)
{
    return with_forced("IC_HOOK_FORCE_FORWARDING", 0, run_class_observed, area, m, direct, out);
}

static bool run_class_instead_universal(cm_area *area, const ict_matrix_case *m, const void *direct,
                                        cm_outcome *out)
{
    return with_forced("IC_HOOK_FORCE_FORWARDING", 0, run_class_instead, area, m, direct, out);
}

static bool run_layered_universal(cm_area *area, const ict_matrix_case *m, const void *direct,
                                  cm_outcome *out)
{
    return with_forced("IC_HOOK_FORCE_FORWARDING", IC_INTERCEPT_FORCE_FORWARDING, run_layered, area,
                       m, direct, out);
}

static bool run_class_instead_libffi(cm_area *area, const ict_matrix_case *m, const void *direct,
                                     cm_outcome *out)
{
    return with_forced("IC_HOOK_FORCE_LIBFFI", 0, run_class_instead, area, m, direct, out);
}

const cm_way cm_way_class_observed_universal = {"class before/after, forward path", NULL,
                                                run_class_observed_universal};
const cm_way cm_way_class_instead_universal = {"class instead, forward path", NULL,
                                               run_class_instead_universal};
const cm_way cm_way_layered_universal = {"object over class, forward path", NULL,
                                         run_layered_universal};
const cm_way cm_way_class_instead_libffi = {"class instead, libffi forced", NULL,
                                            run_class_instead_libffi};
