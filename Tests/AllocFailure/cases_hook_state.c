/*
 * cases_hook_state.c — the sweep's cases for the hook-state functions (issue 27): removal that
 * reports, "is active", after-dealloc hooks, "is hooked", listing and "remove all", for objects
 * and for classes.
 */
#include "sweep.h"

#include <stdlib.h>

static ic_sel dealloc_sel(void)
{
    return ic_sel_register("dealloc");
}

/* An object of a fresh class; c->imp and value[7] hold the class's own add: and vec IMPs,
 * value[6] its own dealloc method (NULL: inherited), to check a class is given back. */
static void snapshot_class(af_ctx *c)
{
    c->cls[0] = ic_object_get_class(c->obj[0]);
    c->imp = ic_method_imp(ic_class_get_own_method(c->cls[0], af_add));
    c->value[7] = (long)(intptr_t)ic_method_imp(ic_class_get_own_method(c->cls[0], af_vec));
    c->value[6] = (long)(intptr_t)ic_class_get_own_method(c->cls[0], dealloc_sel());
    af_take_counters(c);
}

static void base_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    snapshot_class(c);
}

/* Whether the class has the exact methods it had at set-up. */
static bool class_untouched(af_ctx *c)
{
    ic_method *add = ic_class_get_own_method(c->cls[0], af_add);
    ic_method *vec = ic_class_get_own_method(c->cls[0], af_vec);
    ic_method *dealloc = ic_class_get_own_method(c->cls[0], dealloc_sel());
    return add && ic_method_imp(add) == c->imp && vec &&
           (intptr_t)ic_method_imp(vec) == (intptr_t)c->value[7] &&
           (intptr_t)dealloc == (intptr_t)c->value[6];
}

/* Adds a hook at `position` on `sel` (of the object, or of the class if `class_wide`), counted by
 * counter[k], its token in token[k]. */
static void add_hook(af_ctx *c, bool class_wide, ic_sel sel, ic_hook_position position, int k)
{
    ic_observer_fn fn = position == IC_HOOK_INSTEAD ? af_instead_calls_original : af_count_call;
    AF_OK(class_wide ? ic_hook_class(c->cls[0], sel, position, 0, fn, &c->counter[k],
                                     af_count_release, &c->token[k])
                     : ic_hook_object(c->obj[0], sel, position, 0, fn, &c->counter[k],
                                      af_count_release, &c->token[k]));
}

static void count_deallocated(const void *address, ic_class *cls, void *context)
{
    (void)address;
    (void)cls;
    ((af_counter *)context)->deaths++;
}

/* Removes the tokens still set, releases the objects, and checks the class was given back. */
static void state_teardown(af_ctx *c)
{
    for (int k = 0; k < 4; k++)
        if (c->token[k]) ic_hook_remove(c->token[k]);
    af_release_objects(c);
    AF_CHECK(class_untouched(c), "the class kept a hook");
}

/* ---- ic_hook_remove_reporting: never fails, reports what it left behind */

/* value[0]: 1 for class-wide; value[1]: 1 for a second hook (an after one, counter 1). */
static void reporting_setup(af_ctx *c, bool class_wide, bool two)
{
    base_setup(c);
    c->value[0] = class_wide;
    c->value[1] = two;
    add_hook(c, class_wide, af_add, IC_HOOK_INSTEAD, 0);
    if (two) add_hook(c, class_wide, af_add, IC_HOOK_AFTER, 1);
    af_take_counters(c);
}

static void reporting_object_last(af_ctx *c)
{
    reporting_setup(c, false, false);
}

static void reporting_object_one_of_two(af_ctx *c)
{
    reporting_setup(c, false, true);
}

static void reporting_class_last(af_ctx *c)
{
    reporting_setup(c, true, false);
}

static ic_status reporting_run(af_ctx *c)
{
    uint32_t outcome = 0xffu;
    ic_status status = ic_hook_remove_reporting(c->token[0], &outcome);
    c->value[2] = (long)outcome;
    return status;
}

static void reporting_done(af_ctx *c)
{
    bool last = !c->value[1];
    AF_CHECK(c->value[2] == (last ? IC_HOOK_RESTORED : 0), "reported outcome %ld", c->value[2]);
    uint32_t outcome = 0xffu;
    AF_CHECK(ic_hook_remove_reporting(c->token[0], &outcome) == IC_ERR_OBSERVER_NOT_FOUND &&
                 outcome == 0,
             "a second removal: outcome %u", (unsigned)outcome);
    c->token[0] = 0;
    AF_CHECK(!ic_hook_is_active(c->token[0]), "still active");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    AF_CHECK(c->counter[0].calls == 0 && c->counter[1].calls == !last, "hooks ran %d and %d times",
             c->counter[0].calls, c->counter[1].calls);
    af_check_counters(c, -1, last && !c->value[0] ? -1 : 0);
    if (c->value[0]) AF_CHECK(class_untouched(c) == last, "the class's method after removal");
    if (!c->value[0] && last)
        AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0],
                 "the object is not back in its class");
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

/* ---- ic_hook_is_active: allocates nothing */

static void is_active_setup(af_ctx *c)
{
    base_setup(c);
    add_hook(c, false, af_add, IC_HOOK_BEFORE, 0);
    add_hook(c, true, af_vec, IC_HOOK_AFTER, 1);
    AF_OK(ic_hook_object(c->obj[0], af_add, IC_HOOK_AFTER, 0, af_count_call, &c->counter[2],
                         af_count_release, &c->token[2]));
    AF_OK(ic_hook_remove(c->token[2]));
}

static ic_status is_active_run(af_ctx *c)
{
    bool right = ic_hook_is_active(c->token[0]) && ic_hook_is_active(c->token[1]) &&
                 !ic_hook_is_active(c->token[2]) && !ic_hook_is_active(0);
    return right ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

static void is_active_teardown(af_ctx *c)
{
    c->token[2] = 0;
    state_teardown(c);
}

/* ---- ic_hook_object_deallocated, ic_hook_class_deallocated */

static ic_status object_deallocated_run(af_ctx *c)
{
    return ic_hook_object_deallocated(c->obj[0], count_deallocated, &c->counter[0],
                                      af_count_release, &c->token[0]);
}

static void object_deallocated_done(af_ctx *c)
{
    AF_CHECK(ic_hook_is_active(c->token[0]), "the hook is not active");
    AF_CHECK(ic_hook_object_is_hooked(c->obj[0], dealloc_sel()), "dealloc is not hooked");
    ic_release(c->obj[0]);
    c->obj[0] = NULL;
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].deaths == 1 && c->counter[0].released == 1,
             "the death was reported %d times, the context released %d times", c->counter[0].deaths,
             c->counter[0].released);
    AF_CHECK(!ic_hook_is_active(c->token[0]), "active after its object died");
    c->token[0] = 0;
    af_check_counters(c, 0, 0);
}

static void object_deallocated_untouched(af_ctx *c)
{
    af_check_counters(c, 0, 0);
    AF_CHECK(!ic_hook_object_is_hooked(c->obj[0], NULL), "a failed hook is listed");
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object was moved");
    ic_release(c->obj[0]);
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].deaths == 0 && c->counter[0].released == 0, "called after failing");
    c->obj[0] = af_make_object(c, "_again"); /* the retry hooks a fresh one */
    snapshot_class(c);
}

static ic_status class_deallocated_run(af_ctx *c)
{
    return ic_hook_class_deallocated(c->cls[0], count_deallocated, &c->counter[0], af_count_release,
                                     &c->token[0]);
}

static void class_deallocated_done(af_ctx *c)
{
    AF_CHECK(ic_hook_class_is_hooked(c->cls[0], dealloc_sel()), "dealloc is not hooked");
    ic_id other = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    ic_release(other);
    ic_release(c->obj[0]);
    c->obj[0] = NULL;
    AF_CHECK(c->counter[0].deaths == 2, "two deaths reported %d times", c->counter[0].deaths);
    AF_OK(ic_hook_remove(c->token[0]));
    c->token[0] = 0;
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
    AF_CHECK(class_untouched(c), "the class's dealloc was not given back");
}

static void class_deallocated_untouched(af_ctx *c)
{
    af_check_counters(c, 0, 0);
    AF_CHECK(!ic_hook_class_is_hooked(c->cls[0], NULL), "a failed hook is listed");
    AF_CHECK(class_untouched(c), "the class's methods changed");
    ic_id other = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    ic_release(other);
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].deaths == 0 && c->counter[0].released == 0, "called after failing");
}

/* ---- ic_hook_object_is_hooked, ic_hook_class_is_hooked: allocate nothing */

static void is_hooked_setup(af_ctx *c)
{
    base_setup(c);
    /* More than one growth of a list's worth of hooks: nothing may be collected to answer. */
    for (int i = 0; i < 10; i++) {
        AF_OK(ic_hook_object(c->obj[0], af_add, IC_HOOK_BEFORE, 0, af_count_call, &c->counter[0],
                             af_count_release, &c->token[0]));
        AF_OK(ic_hook_class(c->cls[0], af_vec, IC_HOOK_AFTER, 0, af_count_call, &c->counter[1],
                            af_count_release, &c->token[1]));
    }
    c->token[0] = c->token[1] = 0; /* removed with every other by the tear-down */
}

static ic_status is_hooked_run(af_ctx *c)
{
    bool right =
        ic_hook_object_is_hooked(c->obj[0], NULL) && ic_hook_object_is_hooked(c->obj[0], af_add) &&
        !ic_hook_object_is_hooked(c->obj[0], af_vec) && ic_hook_class_is_hooked(c->cls[0], NULL) &&
        ic_hook_class_is_hooked(c->cls[0], af_vec) && !ic_hook_class_is_hooked(c->cls[0], af_add) &&
        !ic_hook_object_is_hooked(NULL, NULL) && !ic_hook_class_is_hooked(NULL, NULL);
    return right ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

static void remove_every_hook_teardown(af_ctx *c)
{
    AF_OK(ic_hook_object_remove_all(c->obj[0], NULL, NULL));
    AF_OK(ic_hook_class_remove_all(c->cls[0], NULL, NULL));
    state_teardown(c);
}

/* ---- ic_hook_object_copy_list, ic_hook_class_copy_list */

/* value[0]: 1 for class-wide; value[1]: how many after hooks beyond the first three (a list
 * that grows). Hooks on add: are added after, instead, before (listed in call order). */
static void list_setup(af_ctx *c, bool class_wide, int extra)
{
    base_setup(c);
    c->value[0] = class_wide;
    c->value[1] = extra;
    add_hook(c, class_wide, af_add, IC_HOOK_AFTER, 0);
    add_hook(c, class_wide, af_add, IC_HOOK_INSTEAD, 1);
    add_hook(c, class_wide, af_add, IC_HOOK_BEFORE, 2);
    for (int i = 0; i < extra; i++) {
        ic_observer_token token;
        AF_OK(class_wide ? ic_hook_class(c->cls[0], af_add, IC_HOOK_AFTER, 0, af_count_call,
                                         &c->counter[3], af_count_release, &token)
                         : ic_hook_object(c->obj[0], af_add, IC_HOOK_AFTER, 0, af_count_call,
                                          &c->counter[3], af_count_release, &token));
    }
}

static void list_object(af_ctx *c)
{
    list_setup(c, false, 0);
}

static void list_object_grown(af_ctx *c)
{
    list_setup(c, false, 9);
}

static void list_class(af_ctx *c)
{
    list_setup(c, true, 0);
}

static void list_class_grown(af_ctx *c)
{
    list_setup(c, true, 9);
}

static ic_status list_run(af_ctx *c)
{
    c->count = 99;
    c->result = c->value[0] ? ic_hook_class_copy_list(c->cls[0], &c->count)
                            : ic_hook_object_copy_list(c->obj[0], &c->count);
    return af_status_of(c->result);
}

static void list_done(af_ctx *c)
{
    ic_hook_info *list = c->result;
    size_t expected = 3 + (size_t)c->value[1];
    AF_CHECK(c->count == expected, "listed %zu hooks, expected %zu", c->count, expected);
    AF_CHECK(list[0].token == c->token[2] && list[0].position == IC_HOOK_BEFORE &&
                 list[1].token == c->token[1] && list[1].position == IC_HOOK_INSTEAD &&
                 list[2].token == c->token[0] && list[2].position == IC_HOOK_AFTER,
             "not in call order");
    for (size_t i = 0; i < c->count; i++)
        AF_CHECK(list[i].sel == af_add && list[i].options == 0, "item %zu", i);
    free(list);
    c->result = NULL;
}

static void list_untouched(af_ctx *c)
{
    AF_CHECK(c->count == 0, "a failed listing gave a count of %zu", c->count);
}

static void list_teardown(af_ctx *c)
{
    c->token[0] = c->token[1] = c->token[2] = 0;
    remove_every_hook_teardown(c);
}

/* ---- ic_hook_object_remove_all, ic_hook_class_remove_all: need no memory to list */

/* value[0]: 1 for class-wide; value[1]: how many hooks on add: (counter 0); one more on vec
 * (counter 1); value[2]: 1 to remove only add:'s. */
static void remove_all_setup(af_ctx *c, bool class_wide, int hooks, bool only_add)
{
    base_setup(c);
    c->value[0] = class_wide;
    c->value[1] = hooks;
    c->value[2] = only_add;
    for (int i = 0; i < hooks; i++)
        add_hook(c, class_wide, af_add, i % 3 == 1 ? IC_HOOK_INSTEAD : IC_HOOK_BEFORE, 0);
    add_hook(c, class_wide, af_vec, IC_HOOK_AFTER, 1);
    c->token[0] = 0; /* each of add:'s is removed by the operation */
    af_take_counters(c);
}

#define REMOVE_ALL_SETUP(name, class_wide, hooks, only_add)                                        \
    static void name(af_ctx *c)                                                                    \
    {                                                                                              \
        remove_all_setup(c, class_wide, hooks, only_add);                                          \
    }
REMOVE_ALL_SETUP(remove_all_object, false, 3, false)
REMOVE_ALL_SETUP(remove_all_object_one_selector, false, 3, true)
REMOVE_ALL_SETUP(remove_all_object_batches, false, 40, false)
REMOVE_ALL_SETUP(remove_all_class, true, 3, false)
REMOVE_ALL_SETUP(remove_all_class_one_selector, true, 3, true)
REMOVE_ALL_SETUP(remove_all_class_batches, true, 40, false)

static ic_status remove_all_run(af_ctx *c)
{
    size_t removed = 99;
    ic_sel sel = c->value[2] ? af_add : NULL;
    ic_status status = c->value[0] ? ic_hook_class_remove_all(c->cls[0], sel, &removed)
                                   : ic_hook_object_remove_all(c->obj[0], sel, &removed);
    c->count = removed;
    return status;
}

static void remove_all_done(af_ctx *c)
{
    bool only_add = c->value[2];
    size_t expected = (size_t)c->value[1] + (only_add ? 0 : 1);
    AF_CHECK(c->count == expected, "removed %zu, expected %zu", c->count, expected);
    if (!only_add) c->token[1] = 0;
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    af_vec3 v = af_send_vec(c->obj[0]);
    AF_CHECK(v.x == 1 && v.z == 3, "vec returned %g..%g", v.x, v.z);
    AF_CHECK(c->counter[0].calls == 0 && c->counter[1].calls == only_add,
             "hooks ran %d and %d times", c->counter[0].calls, c->counter[1].calls);
    bool everything = !only_add;
    af_check_counters(c, -(long)expected, everything && !c->value[0] ? -1 : 0);
    if (c->value[0]) {
        AF_CHECK(!ic_hook_class_is_hooked(c->cls[0], af_add), "add: is still hooked");
        if (everything) AF_CHECK(class_untouched(c), "the class's methods were not given back");
    } else {
        AF_CHECK(!ic_hook_object_is_hooked(c->obj[0], af_add), "add: is still hooked");
        if (everything)
            AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object is not back");
    }
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == c->value[1], "add:'s hooks released %d times",
             c->counter[0].released);
    size_t again = 99;
    AF_OK(c->value[0] ? ic_hook_class_remove_all(c->cls[0], af_add, &again)
                      : ic_hook_object_remove_all(c->obj[0], af_add, &again));
    AF_CHECK(again == 0, "a second removal removed %zu", again);
}

const af_case af_hook_state_cases[] = {
    AF_CASE("ic_hook_remove_reporting: an object's last hook (restored)",
            "ic_hook_remove_reporting", AF_CANNOT_FAIL, reporting_object_last, reporting_run,
            reporting_done, NULL, state_teardown),
    AF_CASE("ic_hook_remove_reporting: one of an object's two hooks", "ic_hook_remove_reporting",
            AF_CANNOT_FAIL, reporting_object_one_of_two, reporting_run, reporting_done, NULL,
            state_teardown),
    AF_CASE("ic_hook_remove_reporting: a class's last hook (restored)", "ic_hook_remove_reporting",
            AF_CANNOT_FAIL, reporting_class_last, reporting_run, reporting_done, NULL,
            state_teardown),
    AF_CASE("ic_hook_is_active allocates nothing", "ic_hook_is_active", AF_NO_ALLOCATION,
            is_active_setup, is_active_run, NULL, NULL, is_active_teardown),
    AF_CASE("ic_hook_object_deallocated", "ic_hook_object_deallocated", 0, base_setup,
            object_deallocated_run, object_deallocated_done, object_deallocated_untouched,
            state_teardown),
    AF_CASE("ic_hook_class_deallocated", "ic_hook_class_deallocated", 0, base_setup,
            class_deallocated_run, class_deallocated_done, class_deallocated_untouched,
            state_teardown),
    AF_CASE("ic_hook_{object,class}_is_hooked allocate nothing",
            "ic_hook_object_is_hooked ic_hook_class_is_hooked", AF_NO_ALLOCATION, is_hooked_setup,
            is_hooked_run, NULL, NULL, remove_every_hook_teardown),
    AF_CASE("ic_hook_object_copy_list", "ic_hook_object_copy_list", 0, list_object, list_run,
            list_done, list_untouched, list_teardown),
    AF_CASE("ic_hook_object_copy_list: a list that grows", "ic_hook_object_copy_list", 0,
            list_object_grown, list_run, list_done, list_untouched, list_teardown),
    AF_CASE("ic_hook_class_copy_list", "ic_hook_class_copy_list", 0, list_class, list_run,
            list_done, list_untouched, list_teardown),
    AF_CASE("ic_hook_class_copy_list: a list that grows", "ic_hook_class_copy_list", 0,
            list_class_grown, list_run, list_done, list_untouched, list_teardown),
    AF_CASE("ic_hook_object_remove_all: every selector", "ic_hook_object_remove_all",
            AF_CANNOT_FAIL, remove_all_object, remove_all_run, remove_all_done, NULL,
            remove_every_hook_teardown),
    AF_CASE("ic_hook_object_remove_all: one selector", "ic_hook_object_remove_all", AF_CANNOT_FAIL,
            remove_all_object_one_selector, remove_all_run, remove_all_done, NULL,
            remove_every_hook_teardown),
    AF_CASE("ic_hook_object_remove_all: more hooks than one batch", "ic_hook_object_remove_all",
            AF_CANNOT_FAIL, remove_all_object_batches, remove_all_run, remove_all_done, NULL,
            remove_every_hook_teardown),
    AF_CASE("ic_hook_class_remove_all: every selector", "ic_hook_class_remove_all", AF_CANNOT_FAIL,
            remove_all_class, remove_all_run, remove_all_done, NULL, remove_every_hook_teardown),
    AF_CASE("ic_hook_class_remove_all: one selector", "ic_hook_class_remove_all", AF_CANNOT_FAIL,
            remove_all_class_one_selector, remove_all_run, remove_all_done, NULL,
            remove_every_hook_teardown),
    AF_CASE("ic_hook_class_remove_all: more hooks than one batch", "ic_hook_class_remove_all",
            AF_CANNOT_FAIL, remove_all_class_batches, remove_all_run, remove_all_done, NULL,
            remove_every_hook_teardown),
    {0},
};
