/*
 * cases_hook.c — the sweep's cases for hooks: object and class-wide hooks at every position,
 * one-shot hooks, removal (the last hook of a class gives its method back) and hooked calls.
 */
#include "sweep.h"

/* value[0]: the position; value[1]: options; value[2]: 1 for class-wide. */
static void object_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->cls[0] = ic_object_get_class(c->obj[0]);
    c->imp = ic_method_imp(ic_class_get_own_method(c->cls[0], af_add));
    c->result = (void *)ic_method_imp(ic_class_get_own_method(c->cls[0], af_vec));
    af_take_counters(c);
}

/* cls[0] inherits add: from cls[1]: a class-wide hook adds an override. */
static void inherited_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super");
    char name[96];
    snprintf(name, sizeof name, "%s_sub", c->name);
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(name, c->cls[1], 0));
    AF_OK(ic_class_register(c->cls[0]));
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    af_take_counters(c);
}

static ic_observer_fn hook_fn(ic_hook_position position)
{
    return position == IC_HOOK_INSTEAD ? af_instead_calls_original : af_count_call;
}

static ic_status hook_run(af_ctx *c)
{
    ic_hook_position position = (ic_hook_position)c->value[0];
    uint32_t options = (uint32_t)c->value[1];
    if (c->value[2])
        return ic_hook_class(c->cls[0], c->value[3] ? af_vec : af_add, position, options,
                             hook_fn(position), &c->counter[0], af_count_release, &c->token[0]);
    return ic_hook_object(c->obj[0], c->value[3] ? af_vec : af_add, position, options,
                          hook_fn(position), &c->counter[0], af_count_release, &c->token[0]);
}

static void send(af_ctx *c)
{
    if (c->value[3]) {
        af_vec3 v = af_send_vec(c->obj[0]);
        AF_CHECK(v.x == 1 && v.z == 3, "vec returned %g..%g", v.x, v.z);
    } else {
        AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add: returned another value");
    }
}

/* Whether the class's method is the one it had before any hook. */
static bool class_untouched(af_ctx *c)
{
    ic_method *own = ic_class_get_own_method(c->cls[0], c->value[3] ? af_vec : af_add);
    ic_imp original = c->value[3] ? (ic_imp)c->result : c->imp;
    return c->cls[1] ? own == NULL : own && ic_method_imp(own) == original;
}

static void hook_done(af_ctx *c)
{
    send(c);
    send(c);
    bool one_shot = c->value[1] & IC_HOOK_ONE_SHOT;
    AF_CHECK(c->counter[0].calls == (one_shot ? 1 : 2), "the hook ran %d times",
             c->counter[0].calls);
    af_check_counters(c, one_shot ? 0 : 1, c->value[2] || one_shot ? 0 : 1);
    if (c->value[2]) AF_CHECK(!class_untouched(c) || one_shot, "the class is not hooked");
    if (one_shot) {
        ic_intercept_quiesce();
        AF_CHECK(c->counter[0].released == 1, "a fired one-shot hook was released %d times",
                 c->counter[0].released);
        AF_CHECK(!c->value[2] || class_untouched(c), "the class kept its hook");
    }
}

static void hook_untouched(af_ctx *c)
{
    send(c);
    AF_CHECK(c->counter[0].calls == 0 && c->counter[0].released == 0,
             "a failed hook ran %d times, was released %d times", c->counter[0].calls,
             c->counter[0].released);
    af_check_counters(c, 0, 0);
    if (c->value[2]) AF_CHECK(class_untouched(c), "the class's method changed");
    if (!c->value[2]) AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object was moved");
}

static void hook_teardown(af_ctx *c)
{
    if (c->token[0]) ic_hook_remove(c->token[0]); /* NOT_FOUND after a one-shot fired */
    af_release_objects(c);
    AF_CHECK(c->counter[0].released == (c->token[0] != 0), "released %d times",
             c->counter[0].released);
    AF_CHECK(!c->value[2] || class_untouched(c), "the class kept its hook");
}

#define HOOK_SETUP(name, base, position, options, class_wide, forward)                             \
    static void name(af_ctx *c)                                                                    \
    {                                                                                              \
        base(c);                                                                                   \
        c->value[0] = position;                                                                    \
        c->value[1] = options;                                                                     \
        c->value[2] = class_wide;                                                                  \
        c->value[3] = forward;                                                                     \
    }
HOOK_SETUP(object_before, object_setup, IC_HOOK_BEFORE, 0, 0, 0)
HOOK_SETUP(object_instead, object_setup, IC_HOOK_INSTEAD, 0, 0, 0)
HOOK_SETUP(object_after, object_setup, IC_HOOK_AFTER, 0, 0, 0)
HOOK_SETUP(object_instead_forward, object_setup, IC_HOOK_INSTEAD, 0, 0, 1)
HOOK_SETUP(object_one_shot, object_setup, IC_HOOK_BEFORE, IC_HOOK_ONE_SHOT, 0, 0)
HOOK_SETUP(class_before, object_setup, IC_HOOK_BEFORE, 0, 1, 0)
HOOK_SETUP(class_instead, object_setup, IC_HOOK_INSTEAD, 0, 1, 0)
HOOK_SETUP(class_after, object_setup, IC_HOOK_AFTER, 0, 1, 0)
HOOK_SETUP(class_inherited, inherited_setup, IC_HOOK_BEFORE, 0, 1, 0)
HOOK_SETUP(class_closure, object_setup, IC_HOOK_AFTER, 0, 1, 1)
HOOK_SETUP(class_one_shot, object_setup, IC_HOOK_INSTEAD, IC_HOOK_ONE_SHOT, 1, 0)

/* ---- ic_hook_remove: never fails; the last hook of a class gives its method back */

/* value[4]: how many hooks (1 or 2); the second (counter 1) is an after hook. */
static void removal_setup(af_ctx *c, void (*base)(af_ctx *), bool class_wide, int hooks,
                          int forward)
{
    base(c);
    c->value[0] = IC_HOOK_INSTEAD;
    c->value[2] = class_wide;
    c->value[3] = forward;
    c->value[4] = hooks;
    AF_OK(hook_run(c));
    if (hooks == 2) {
        ic_sel sel = forward ? af_vec : af_add;
        AF_OK(class_wide ? ic_hook_class(c->cls[0], sel, IC_HOOK_AFTER, 0, af_count_call,
                                         &c->counter[1], af_count_release, &c->token[1])
                         : ic_hook_object(c->obj[0], sel, IC_HOOK_AFTER, 0, af_count_call,
                                          &c->counter[1], af_count_release, &c->token[1]));
    }
    af_take_counters(c);
}

#define REMOVAL_SETUP(name, base, class_wide, hooks, forward)                                      \
    static void name(af_ctx *c)                                                                    \
    {                                                                                              \
        removal_setup(c, base, class_wide, hooks, forward);                                        \
    }
REMOVAL_SETUP(remove_class_last, object_setup, 1, 1, 0)
REMOVAL_SETUP(remove_class_last_inherited, inherited_setup, 1, 1, 0)
REMOVAL_SETUP(remove_class_last_closure, object_setup, 1, 1, 1)
REMOVAL_SETUP(remove_class_one_of_two, object_setup, 1, 2, 0)
REMOVAL_SETUP(remove_object_one_of_two, object_setup, 0, 2, 0)
REMOVAL_SETUP(remove_object_one_of_two_forward, object_setup, 0, 2, 1)

static ic_status remove_run(af_ctx *c)
{
    return ic_hook_remove(c->token[0]);
}

static void remove_done(af_ctx *c)
{
    AF_CHECK(ic_hook_remove(c->token[0]) == IC_ERR_OBSERVER_NOT_FOUND, "still registered");
    c->token[0] = 0;
    send(c);
    AF_CHECK(c->counter[0].calls == 0, "the removed hook ran %d times", c->counter[0].calls);
    AF_CHECK(c->counter[1].calls == (c->value[4] == 2), "the other ran %d times",
             c->counter[1].calls);
    bool last = c->value[4] == 1;
    af_check_counters(c, -1, last && !c->value[2] ? -1 : 0);
    if (c->value[2]) AF_CHECK(class_untouched(c) == last, "the class's method after removal");
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

static void removal_teardown(af_ctx *c)
{
    if (c->token[1]) AF_OK(ic_hook_remove(c->token[1]));
    af_release_objects(c);
    AF_CHECK(!c->value[2] || class_untouched(c), "the class kept its hook");
}

/* ---- hooked calls allocate nothing: one-shot hooks firing (and removing themselves), a hook
 * removing itself, class-wide calls */

static void one_shot_among_others_setup(af_ctx *c)
{
    object_one_shot(c);
    AF_OK(ic_hook_object(c->obj[0], af_add, IC_HOOK_AFTER, 0, af_count_call, &c->counter[1],
                         af_count_release, &c->token[1]));
    af_warm(c, c->obj[0]);
    AF_OK(hook_run(c));
    af_take_counters(c);
}

static void class_one_shot_among_others_setup(af_ctx *c)
{
    class_one_shot(c);
    AF_OK(ic_hook_class(c->cls[0], af_add, IC_HOOK_BEFORE, 0, af_count_call, &c->counter[1],
                        af_count_release, &c->token[1]));
    af_warm(c, c->obj[0]);
    AF_OK(hook_run(c));
    af_take_counters(c);
}

static void one_shot_alone_setup(af_ctx *c)
{
    object_one_shot(c);
    AF_OK(ic_intercept_prepare(c->obj[0], af_add));
    af_warm(c, c->obj[0]);
    AF_OK(hook_run(c));
    af_take_counters(c);
}

static ic_status send_run(af_ctx *c)
{
    send(c);
    return IC_OK;
}

static void fired_done(af_ctx *c)
{
    send(c);
    AF_CHECK(c->counter[0].calls == 1, "the one-shot hook ran %d times", c->counter[0].calls);
    AF_CHECK(c->counter[1].calls == (c->token[1] ? 2 : 0), "the other hook ran %d times",
             c->counter[1].calls);
    AF_CHECK(ic_hook_remove(c->token[0]) == IC_ERR_OBSERVER_NOT_FOUND, "still registered");
    c->token[0] = 0;
    bool last = !c->token[1];
    af_check_counters(c, -1, last && !c->value[2] ? -1 : 0);
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

static void hooked_calls_setup(af_ctx *c)
{
    remove_class_one_of_two(c);
    AF_OK(ic_hook_object(c->obj[0], af_add, IC_HOOK_INSTEAD, 0, af_instead_calls_original,
                         &c->counter[2], af_count_release, &c->token[2]));
    AF_OK(ic_hook_class(c->cls[0], af_vec, IC_HOOK_AFTER, 0, af_count_call, &c->counter[3],
                        af_count_release, &c->token[3]));
    af_warm(c, c->obj[0]);
}

static ic_status hooked_calls_run(af_ctx *c)
{
    send(c);
    c->value[3] = 1;
    send(c);
    c->value[3] = 0;
    return ic_hook_class_path_of(c->cls[0], af_add) == IC_PATH_OPTIMIZED &&
                   ic_hook_class_path_of(c->cls[0], af_vec) == IC_PATH_FORWARDED &&
                   ic_hook_class_entry_of(c->cls[0], af_add) == IC_ENTRY_TYPED &&
                   ic_hook_class_entry_of(c->cls[0], af_vec) == IC_ENTRY_UNIVERSAL
               ? IC_OK
               : IC_ERR_INVALID_ARGUMENT;
}

static void hooked_calls_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].calls == 1 && c->counter[1].calls == 1 && c->counter[2].calls == 1 &&
                 c->counter[3].calls == 1,
             "hooks ran %d, %d, %d, %d times", c->counter[0].calls, c->counter[1].calls,
             c->counter[2].calls, c->counter[3].calls);
}

static void hooked_calls_teardown(af_ctx *c)
{
    AF_OK(ic_hook_remove(c->token[3]));
    AF_OK(ic_hook_remove(c->token[2]));
    AF_OK(ic_hook_remove(c->token[0]));
    c->token[0] = 0;
    removal_teardown(c);
}

const af_case af_hook_cases[] = {
    AF_CASE("ic_hook_object: before", "ic_hook_object", 0, object_before, hook_run, hook_done,
            hook_untouched, hook_teardown),
    AF_CASE("ic_hook_object: instead", "ic_hook_object ic_hook_call_original", 0, object_instead,
            hook_run, hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_object: after", "ic_hook_object", 0, object_after, hook_run, hook_done,
            hook_untouched, hook_teardown),
    AF_CASE("ic_hook_object: instead, forward path", "ic_hook_object", 0, object_instead_forward,
            hook_run, hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_object: one-shot", "ic_hook_object", 0, object_one_shot, hook_run, hook_done,
            hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: before (class trampoline)", "ic_hook_class", 0, class_before, hook_run,
            hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: instead", "ic_hook_class", 0, class_instead, hook_run, hook_done,
            hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: after", "ic_hook_class", 0, class_after, hook_run, hook_done,
            hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: an inherited method (an added override)", "ic_hook_class", 0,
            class_inherited, hook_run, hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: a struct return (libffi closure)", "ic_hook_class", 0, class_closure,
            hook_run, hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_class: one-shot instead", "ic_hook_class", 0, class_one_shot, hook_run,
            hook_done, hook_untouched, hook_teardown),
    AF_CASE("ic_hook_remove: a class's last hook gives the method back", "ic_hook_remove",
            AF_CANNOT_FAIL, remove_class_last, remove_run, remove_done, NULL, removal_teardown),
    AF_CASE("ic_hook_remove: a class's last hook on an inherited method", "ic_hook_remove",
            AF_CANNOT_FAIL, remove_class_last_inherited, remove_run, remove_done, NULL,
            removal_teardown),
    AF_CASE("ic_hook_remove: a class's last hook, libffi closure", "ic_hook_remove", AF_CANNOT_FAIL,
            remove_class_last_closure, remove_run, remove_done, NULL, removal_teardown),
    AF_CASE("ic_hook_remove: one of a class's two hooks", "ic_hook_remove", AF_CANNOT_FAIL,
            remove_class_one_of_two, remove_run, remove_done, NULL, removal_teardown),
    AF_CASE("ic_hook_remove: one of an object's two hooks", "ic_hook_remove", AF_CANNOT_FAIL,
            remove_object_one_of_two, remove_run, remove_done, NULL, removal_teardown),
    AF_CASE("ic_hook_remove: one of an object's two hooks, forward path", "ic_hook_remove",
            AF_CANNOT_FAIL, remove_object_one_of_two_forward, remove_run, remove_done, NULL,
            removal_teardown),
    AF_CASE("a one-shot hook firing alone allocates nothing", "ic_hook_object", AF_NO_ALLOCATION,
            one_shot_alone_setup, send_run, fired_done, NULL, removal_teardown),
    AF_CASE("a one-shot hook firing among others allocates nothing", "ic_hook_object",
            AF_NO_ALLOCATION, one_shot_among_others_setup, send_run, fired_done, NULL,
            removal_teardown),
    AF_CASE("a class's one-shot hook firing among others allocates nothing", "ic_hook_class",
            AF_NO_ALLOCATION, class_one_shot_among_others_setup, send_run, fired_done, NULL,
            removal_teardown),
    AF_CASE("hooked calls allocate nothing (object over class, trampoline and closure)",
            "ic_hook_class_path_of ic_hook_class_entry_of ic_hook_call_original", AF_NO_ALLOCATION,
            hooked_calls_setup, hooked_calls_run, hooked_calls_done, NULL, hooked_calls_teardown),
    {0},
};
