/*
 * cases_engine.c — the sweep's cases for the interception engine: preparing, observers, dealloc
 * observers, removal (from outside and from inside a call), observed calls and the teardown of
 * an intercepted object.
 */
#include "sweep.h"

/* obj[0]: a fresh object of a fresh class cls[0]; counters taken. */
static void object_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->cls[0] = ic_object_get_class(c->obj[0]);
    af_take_counters(c);
}

/* A further instance of a class already intercepted (its subclass and method exist). */
static void next_instance_setup(af_ctx *c)
{
    object_setup(c);
    c->obj[1] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    AF_OK(ic_intercept_prepare(c->obj[1], af_add));
    AF_OK(ic_intercept_prepare(c->obj[1], af_vec));
    af_take_counters(c);
}

/* Intercepted already for ping: the next selector grows its hook table. */
static void second_selector_setup(af_ctx *c)
{
    object_setup(c);
    AF_OK(ic_intercept_prepare(c->obj[0], af_ping));
    af_take_counters(c);
}

/* ---- ic_intercept_prepare */

static ic_status prepare_run(af_ctx *c)
{
    return ic_intercept_prepare(c->obj[0], af_add);
}

static ic_status prepare_forwarded_run(af_ctx *c)
{
    return ic_intercept_prepare_with_options(c->obj[0], af_add, IC_INTERCEPT_FORCE_FORWARDING);
}

static void prepared(af_ctx *c, ic_intercept_path path)
{
    AF_CHECK(ic_intercept_path_of(c->obj[0], af_add) == path, "path %d, expected %d",
             (int)ic_intercept_path_of(c->obj[0], af_add), (int)path);
    AF_CHECK(ic_class_is_interception_subclass(ic_object_get_class(c->obj[0])), "not moved");
    AF_CHECK(ic_intercept_original_class(c->obj[0]) == c->cls[0], "original class");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add: through the interception");
    bool moved_before = ic_intercept_path_of(c->obj[0], af_ping) != IC_PATH_NONE;
    af_check_counters(c, 0, moved_before ? 0 : 1);
}

static void prepare_done(af_ctx *c)
{
    prepared(c, c->obj[1] ? ic_intercept_path_of(c->obj[1], af_add) : IC_PATH_OPTIMIZED);
}

static void prepare_forwarded_done(af_ctx *c)
{
    prepared(c, IC_PATH_FORWARDED);
}

static void prepare_untouched(af_ctx *c)
{
    /* An object already in its interception subclass (for ping) runs add: through the subclass's
     * trampoline as soon as the subclass has one (made for the class, kept): only an object
     * still in its class shows that nothing happened to it. */
    bool moved_before = ic_intercept_path_of(c->obj[0], af_ping) != IC_PATH_NONE;
    AF_CHECK(moved_before || ic_intercept_path_of(c->obj[0], af_add) == IC_PATH_NONE,
             "intercepted");
    AF_CHECK(moved_before || ic_object_get_class(c->obj[0]) == c->cls[0], "moved");
    af_check_counters(c, 0, 0);
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
}

/* ---- ic_intercept_add_observer */

static ic_status observe_before_run(af_ctx *c)
{
    return ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_BEFORE, af_count_call,
                                     &c->counter[0], af_count_release, &c->token[0]);
}

static ic_status observe_after_forwarded_run(af_ctx *c)
{
    return ic_intercept_add_observer(c->obj[0], af_vec, IC_OBSERVE_AFTER, af_count_call,
                                     &c->counter[0], af_count_release, &c->token[0]);
}

static void send_both(af_ctx *c)
{
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    af_vec3 v = af_send_vec(c->obj[0]);
    AF_CHECK(v.x == 1 && v.z == 3, "vec returned %g..%g", v.x, v.z);
}

static void observe_done(af_ctx *c)
{
    send_both(c);
    AF_CHECK(c->counter[0].calls == 1, "observed %d calls", c->counter[0].calls);
    bool moved_before = ic_intercept_path_of(c->obj[0], af_ping) != IC_PATH_NONE;
    af_check_counters(c, 1, moved_before ? 0 : 1);
}

static void observe_untouched(af_ctx *c)
{
    send_both(c);
    AF_CHECK(c->counter[0].calls == 0, "observed %d calls", c->counter[0].calls);
    AF_CHECK(c->counter[0].released == 0, "the context was released");
    af_check_counters(c, 0, 0);
}

static void observe_teardown(af_ctx *c)
{
    af_release_objects(c);
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

/* ---- ic_intercept_add_dealloc_observer */

static ic_status dealloc_before_run(af_ctx *c)
{
    return ic_intercept_add_dealloc_observer(c->obj[0], IC_OBSERVE_BEFORE, af_count_dealloc,
                                             &c->counter[0], af_count_release, &c->token[0]);
}

static ic_status dealloc_after_run(af_ctx *c)
{
    return ic_intercept_add_dealloc_observer(c->obj[0], IC_OBSERVE_AFTER, af_count_dealloc,
                                             &c->counter[0], af_count_release, &c->token[0]);
}

static void dealloc_observed_done(af_ctx *c)
{
    af_check_counters(c, 1, c->value[0]);
    ic_release(c->obj[0]);
    c->obj[0] = NULL;
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].deaths == 1 && c->counter[0].released == 1,
             "the death was reported %d times, the context released %d times", c->counter[0].deaths,
             c->counter[0].released);
    af_check_counters(c, 0, 0);
}

static void dealloc_before_setup(af_ctx *c)
{
    object_setup(c);
    c->value[0] = 1; /* observing the start of dealloc moves the object */
}

static void dealloc_untouched(af_ctx *c)
{
    af_check_counters(c, 0, 0);
    ic_release(c->obj[0]);
    c->obj[0] = af_make_object(c, "_again"); /* the retry observes a fresh one */
    c->cls[0] = ic_object_get_class(c->obj[0]);
    af_take_counters(c);
    AF_CHECK(c->counter[0].deaths == 0 && c->counter[0].released == 0, "called after failing");
}

/* A third dealloc-after observer grows the list. */
static void dealloc_after_more_setup(af_ctx *c)
{
    object_setup(c);
    for (int i = 1; i < 3; i++)
        AF_OK(ic_intercept_add_dealloc_observer(c->obj[0], IC_OBSERVE_AFTER, af_count_dealloc,
                                                &c->counter[i], af_count_release, &c->token[i]));
    af_take_counters(c);
}

/* ---- ic_intercept_remove_observer: never fails; from outside it may allocate (and survives
 * a failure), from inside a call it allocates nothing */

/* obj[0] observed twice on add: (counter 0 before, counter 1 after), and on vec (forwarded). */
static void remove_setup(af_ctx *c)
{
    object_setup(c);
    AF_OK(ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_BEFORE, af_count_call,
                                    &c->counter[0], af_count_release, &c->token[0]));
    AF_OK(ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_AFTER, af_count_call,
                                    &c->counter[1], af_count_release, &c->token[1]));
    af_take_counters(c);
}

static ic_status remove_first_run(af_ctx *c)
{
    return ic_intercept_remove_observer(c->token[0]);
}

static void remove_first_done(af_ctx *c)
{
    AF_CHECK(ic_intercept_remove_observer(c->token[0]) == IC_ERR_OBSERVER_NOT_FOUND,
             "the token is still known");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    AF_CHECK(c->counter[0].calls == 0 && c->counter[1].calls == 1,
             "after removal: removed one called %d times, the other %d times", c->counter[0].calls,
             c->counter[1].calls);
    af_check_counters(c, -1, 0);
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "the removed context was released %d times",
             c->counter[0].released);
    /* The slot still works: observe again, then remove the last observer. */
    AF_OK(ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_BEFORE, af_count_call,
                                    &c->counter[2], af_count_release, &c->token[2]));
    AF_CHECK(af_send_add(c->obj[0], 1) == 2 && c->counter[2].calls == 1 && c->counter[1].calls == 2,
             "a new observer is not called");
    AF_OK(ic_intercept_remove_observer(c->token[2]));
    AF_OK(ic_intercept_remove_observer(c->token[1]));
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "not moved back after the last one");
}

static void remove_teardown(af_ctx *c)
{
    af_release_objects(c);
    for (int i = 0; i < 3; i++)
        AF_CHECK(c->counter[i].released == (c->token[i] != 0), "context %d released %d times", i,
                 c->counter[i].released);
}

/* An observer that removes itself from inside its call. */
static void remove_self(ic_invocation *call, void *context)
{
    (void)call;
    af_ctx *c = context;
    c->counter[0].calls++;
    c->value[0] = ic_intercept_remove_observer(c->token[0]);
}

static void release_self_counter(void *context)
{
    ((af_ctx *)context)->counter[0].released++;
}

static void remove_inside_setup(af_ctx *c)
{
    object_setup(c);
    AF_OK(ic_intercept_prepare(c->obj[0], af_add));
    af_warm(c, c->obj[0]);
    AF_OK(ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_BEFORE, remove_self, c,
                                    release_self_counter, &c->token[0]));
    if (c->value[1]) /* another observer stays */
        AF_OK(ic_intercept_add_observer(c->obj[0], af_add, IC_OBSERVE_AFTER, af_count_call,
                                        &c->counter[1], af_count_release, &c->token[1]));
    af_take_counters(c);
}

static void remove_inside_with_other_setup(af_ctx *c)
{
    c->value[1] = 1;
    remove_inside_setup(c);
}

static ic_status send_run(af_ctx *c)
{
    c->value[2] = af_send_add(c->obj[0], 1);
    return IC_OK;
}

static void remove_inside_done(af_ctx *c)
{
    AF_CHECK(c->value[0] == IC_OK && c->value[2] == 2, "the removal returned %s",
             ic_status_name((ic_status)c->value[0]));
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    AF_CHECK(c->counter[0].calls == 1, "called %d times", c->counter[0].calls);
    AF_CHECK(c->counter[1].calls == (c->value[1] ? 2 : 0), "the other called %d times",
             c->counter[1].calls);
    af_check_counters(c, -1, c->value[1] ? 0 : -1);
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

/* ---- observed calls and the teardown of an observed object allocate nothing */

static void observed_setup(af_ctx *c)
{
    remove_setup(c);
    AF_OK(ic_intercept_add_observer(c->obj[0], af_vec, IC_OBSERVE_BEFORE, af_count_call,
                                    &c->counter[2], af_count_release, &c->token[2]));
    af_warm(c, c->obj[0]);
}

static ic_status observed_run(af_ctx *c)
{
    send_both(c);
    return IC_OK;
}

static void observed_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].calls == 1 && c->counter[1].calls == 1 && c->counter[2].calls == 1,
             "observed %d, %d, %d calls", c->counter[0].calls, c->counter[1].calls,
             c->counter[2].calls);
}

static void teardown_setup(af_ctx *c)
{
    observed_setup(c);
    af_warm_dealloc(c->obj[0]);
    AF_OK(ic_intercept_add_dealloc_observer(c->obj[0], IC_OBSERVE_BEFORE, af_count_dealloc,
                                            &c->counter[0], NULL, &c->token[0]));
    AF_OK(ic_intercept_add_dealloc_observer(c->obj[0], IC_OBSERVE_AFTER, af_count_dealloc,
                                            &c->counter[1], NULL, &c->token[1]));
    af_take_counters(c);
}

static ic_status release_run(af_ctx *c)
{
    ic_release(c->obj[0]);
    c->obj[0] = NULL;
    return IC_OK;
}

static void teardown_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].deaths == 1 && c->counter[1].deaths == 1, "deaths %d and %d",
             c->counter[0].deaths, c->counter[1].deaths);
    af_check_counters(c, -5, -1);
    ic_intercept_quiesce();
    for (int i = 0; i < 3; i++)
        AF_CHECK(c->counter[i].released == 1, "context %d released %d times", i,
                 c->counter[i].released);
}

/* ---- queries */

static ic_status queries_run(af_ctx *c)
{
    ic_intercept_counters counters;
    ic_intercept_get_counters(&counters);
    bool ok = counters.live_observers >= 2 &&
              ic_intercept_get_class_counters(c->cls[0], &counters) == IC_OK &&
              counters.live_observers == 2 && counters.intercepted_objects == 1;
    ok = ok && ic_intercept_path_of(c->obj[0], af_add) == IC_PATH_OPTIMIZED &&
         ic_intercept_entry_of(c->obj[0], af_add) == IC_ENTRY_TYPED &&
         ic_intercept_original_class(c->obj[0]) == c->cls[0];
    ic_intercept_quiesce();
    return ok ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

const af_case af_engine_cases[] = {
    AF_CASE("ic_intercept_prepare: the first instance of a class", "ic_intercept_prepare", 0,
            object_setup, prepare_run, prepare_done, prepare_untouched, af_release_objects),
    AF_CASE("ic_intercept_prepare: a further instance", "ic_intercept_prepare", 0,
            next_instance_setup, prepare_run, prepare_done, prepare_untouched, af_release_objects),
    AF_CASE("ic_intercept_prepare: a second selector", "ic_intercept_prepare", 0,
            second_selector_setup, prepare_run, prepare_done, prepare_untouched,
            af_release_objects),
    AF_CASE("ic_intercept_prepare_with_options: forced forwarding",
            "ic_intercept_prepare_with_options", 0, object_setup, prepare_forwarded_run,
            prepare_forwarded_done, prepare_untouched, af_release_objects),
    AF_CASE("ic_intercept_add_observer: before, optimized", "ic_intercept_add_observer", 0,
            object_setup, observe_before_run, observe_done, observe_untouched, observe_teardown),
    AF_CASE("ic_intercept_add_observer: after, forward path", "ic_intercept_add_observer", 0,
            object_setup, observe_after_forwarded_run, observe_done, observe_untouched,
            observe_teardown),
    AF_CASE("ic_intercept_add_observer: a further instance", "ic_intercept_add_observer", 0,
            next_instance_setup, observe_before_run, observe_done, observe_untouched,
            observe_teardown),
    AF_CASE("ic_intercept_add_observer: a second selector", "ic_intercept_add_observer", 0,
            second_selector_setup, observe_before_run, observe_done, observe_untouched,
            observe_teardown),
    AF_CASE("ic_intercept_add_dealloc_observer: before", "ic_intercept_add_dealloc_observer", 0,
            dealloc_before_setup, dealloc_before_run, dealloc_observed_done, dealloc_untouched,
            af_release_objects),
    AF_CASE("ic_intercept_add_dealloc_observer: after", "ic_intercept_add_dealloc_observer", 0,
            object_setup, dealloc_after_run, dealloc_observed_done, dealloc_untouched,
            af_release_objects),
    AF_CASE("ic_intercept_add_dealloc_observer: a third after", "ic_intercept_add_dealloc_observer",
            0, dealloc_after_more_setup, dealloc_after_run, NULL, NULL, af_release_objects),
    AF_CASE("ic_intercept_remove_observer: one of two", "ic_intercept_remove_observer",
            AF_CANNOT_FAIL, remove_setup, remove_first_run, remove_first_done, NULL,
            remove_teardown),
    AF_CASE("ic_intercept_remove_observer: from inside its own call, the last one",
            "ic_intercept_remove_observer", AF_NO_ALLOCATION, remove_inside_setup, send_run,
            remove_inside_done, NULL, af_release_objects),
    AF_CASE("ic_intercept_remove_observer: from inside its own call, another one stays",
            "ic_intercept_remove_observer", AF_NO_ALLOCATION, remove_inside_with_other_setup,
            send_run, remove_inside_done, NULL, af_release_objects),
    AF_CASE("an observed call allocates nothing (optimized and forward paths)", "ic_msg_lookup",
            AF_NO_ALLOCATION, observed_setup, observed_run, observed_done, NULL,
            af_release_objects),
    AF_CASE("ic_release: the teardown of an observed object", "ic_release", AF_NO_ALLOCATION,
            teardown_setup, release_run, teardown_done, NULL, af_release_objects),
    AF_CASE("engine queries allocate nothing",
            "ic_intercept_get_counters ic_intercept_get_class_counters ic_intercept_path_of "
            "ic_intercept_entry_of ic_intercept_original_class ic_intercept_quiesce",
            AF_NO_ALLOCATION, remove_setup, queries_run, NULL, NULL, remove_teardown),
    {0},
};
