/*
 * cases_spy.c — the sweep's cases for the C spy API: key path observation (ic_observe.h),
 * hooking every method (ic_hook_every.h), value and call descriptions (ic_describe.h).
 */
#include "sweep.h"

#include <string.h>

/* ---- key path observation: a class with `next` (@ retain), `peer` (@ weak), `title` (* copy),
 * `count` (q);
 * obj[0].next = obj[1], obj[1].title = "one", obj[0].count = 5; obj[2] a spare node titled
 * "two". The recorder: counter[0].calls deliveries, value[0] the last new count (or title's
 * first letter), value[1] its status, value[2] whether it had a value. */

static ic_class *node_class(af_ctx *c)
{
    char name[96];
    snprintf(name, sizeof name, "%s_Node", c->name);
    ic_class *cls = AF_NOT_NULL(ic_class_allocate(name, NULL, 0));
    AF_NOT_NULL(ic_class_add_property(cls, "next", "@", IC_PROPERTY_RETAIN, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "peer", "@", IC_PROPERTY_WEAK, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "title", "*", IC_PROPERTY_COPY, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "count", "q", 0, NULL, NULL));
    AF_OK(ic_class_register(cls));
    return cls;
}

static void set_title(ic_id node, const char *title)
{
    AF_OK(ic_object_set_value_for_key(node, "title", "*", &title, sizeof title));
}

static void set_next(ic_id node, ic_id next)
{
    AF_OK(ic_object_set_value_for_key(node, "next", "@", &next, sizeof next));
}

static void set_peer(ic_id node, ic_id peer)
{
    AF_OK(ic_object_set_value_for_key(node, "peer", "@", &peer, sizeof peer));
}

static void set_count(ic_id node, long long count)
{
    AF_OK(ic_object_set_value_for_key(node, "count", "q", &count, sizeof count));
}

static void nodes_setup(af_ctx *c)
{
    c->cls[0] = node_class(c);
    for (int i = 0; i < 3; i++)
        c->obj[i] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    set_next(c->obj[0], c->obj[1]);
    set_title(c->obj[1], "one");
    set_title(c->obj[2], "two");
    set_count(c->obj[0], 5);
    af_take_counters(c);
}

static void record(const ic_observed_value *old_value, const ic_observed_value *new_value,
                   void *context)
{
    (void)old_value;
    af_ctx *c = context;
    c->counter[0].calls++;
    c->value[1] = new_value->status;
    c->value[2] = new_value->value != NULL;
    if (!new_value->value) return;
    const char *title = c->value[5] ? *(const char *const *)new_value->value : NULL;
    if (c->value[5]) /* a title's first letter, 0 for NULL */
        c->value[0] = title ? *title : 0;
    else
        c->value[0] = (long)*(const long long *)new_value->value;
}

static void record_release(void *context)
{
    ((af_ctx *)context)->counter[0].released++;
}

static ic_status observe_run(af_ctx *c)
{
    bool title = c->value[5];
    const char *path = c->value[6] ? "peer.title" : title ? "next.title" : "count";
    return ic_object_observe_key_path(c->obj[0], path, title ? "*" : "q", IC_OBSERVE_INITIAL,
                                      record, c, record_release,
                                      (ic_key_path_observation **)&c->result);
}

static void observe_count_setup(af_ctx *c)
{
    nodes_setup(c);
}

static void observe_title_setup(af_ctx *c)
{
    nodes_setup(c);
    c->value[5] = 1;
}

static void observe_done(af_ctx *c)
{
    bool title = c->value[5];
    AF_CHECK(c->counter[0].calls == 1 && c->value[2] && c->value[0] == (title ? 'o' : 5),
             "the initial delivery: %d calls, value %ld", c->counter[0].calls, c->value[0]);
    if (title) {
        set_next(c->obj[0], c->obj[2]);
        AF_CHECK(c->counter[0].calls == 2 && c->value[0] == 't', "after re-targeting: %ld",
                 c->value[0]);
    } else {
        set_count(c->obj[0], 6);
        AF_CHECK(c->counter[0].calls == 2 && c->value[0] == 6, "after a set: %ld", c->value[0]);
    }
}

static void observe_untouched(af_ctx *c)
{
    ic_intercept_quiesce();
    af_check_counters(c, 0, 0);
    for (int i = 0; i < 3; i++)
        AF_CHECK(ic_object_get_class(c->obj[i]) == c->cls[0], "object %d was moved", i);
    AF_CHECK(c->counter[0].calls == 0 && c->counter[0].released == 0,
             "a failed observation called back %d times, released %d times", c->counter[0].calls,
             c->counter[0].released);
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 2, "the intermediate object was kept");
}

static void observe_teardown(af_ctx *c)
{
    bool observed = c->result != NULL;
    if (observed) AF_OK(ic_key_path_observation_remove(c->result));
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == observed, "released %d times", c->counter[0].released);
    for (int i = 0; i < 3; i++)
        AF_CHECK(ic_object_get_class(c->obj[i]) == c->cls[0], "object %d stayed moved", i);
    af_release_objects(c);
}

/* ---- a set of an observed scalar allocates nothing */

static void observed_set_setup(af_ctx *c)
{
    nodes_setup(c);
    AF_OK(observe_run(c));
    set_count(c->obj[0], 7); /* warm */
    c->counter[0].calls = 0;
}

static ic_status observed_set_run(af_ctx *c)
{
    IC_MSG(IC_FN(void, long long), c->obj[0], ic_object_setter_for_key(c->obj[0], "count"), 8);
    return IC_OK;
}

static void observed_set_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].calls == 1 && c->value[0] == 8, "delivered %d times, value %ld",
             c->counter[0].calls, c->value[0]);
}

/* ---- re-targeting adds observers on the new object: a failure is delivered as a status, and
 * the next change above recovers */

static void retarget_setup(af_ctx *c)
{
    observe_title_setup(c);
    AF_OK(observe_run(c));
    ic_id warm = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    set_next(c->obj[0], warm); /* the setter path is warm: a send's cache fills are done */
    set_next(c->obj[0], c->obj[1]);
    ic_release(warm);
    c->counter[0].calls = 0;
}

static ic_status retarget_run(af_ctx *c)
{
    ic_id next = c->obj[2];
    IC_MSG(IC_FN(void, ic_id), c->obj[0], ic_object_setter_for_key(c->obj[0], "next"), next);
    return IC_OK;
}

static void retarget_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].calls == 1, "delivered %d times", c->counter[0].calls);
    bool delivered = c->value[2] && c->value[0] == 't';
    bool failed = !c->value[2] && c->value[1] == IC_ERR_OUT_OF_MEMORY;
    AF_CHECK(delivered || failed, "delivered value %ld (%d), status %s", c->value[0],
             (int)c->value[2], ic_status_name((ic_status)c->value[1]));
    set_next(c->obj[0], c->obj[2]); /* recovers */
    AF_CHECK(c->value[2] && c->value[0] == 't', "not recovered: status %s",
             ic_status_name((ic_status)c->value[1]));
    set_title(c->obj[2], "zzz");
    AF_CHECK(c->value[0] == 'z', "the new object is not observed");
    set_title(c->obj[1], "away");
    AF_CHECK(c->value[0] == 'z', "the old object is still observed");
}

/* ---- re-targeting through a weak property also watches the new object's death, which needs
 * memory: without it the object is held strongly instead; either way its death (or removal)
 * leaves nothing behind */

static void weak_retarget_setup(af_ctx *c)
{
    nodes_setup(c);
    set_peer(c->obj[0], c->obj[1]);
    c->value[5] = 1;
    c->value[6] = 1;
    AF_OK(observe_run(c));
    ic_id warm = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    set_peer(c->obj[0], warm); /* the setter path is warm */
    set_peer(c->obj[0], c->obj[1]);
    ic_release(warm);
    c->counter[0].calls = 0;
}

static ic_status weak_retarget_run(af_ctx *c)
{
    ic_id peer = c->obj[2];
    IC_MSG(IC_FN(void, ic_id), c->obj[0], ic_object_setter_for_key(c->obj[0], "peer"), peer);
    return IC_OK;
}

static void weak_retarget_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].calls == 1, "delivered %d times", c->counter[0].calls);
    bool delivered = c->value[2] && c->value[0] == 't';
    bool failed = !c->value[2] && c->value[1] == IC_ERR_OUT_OF_MEMORY;
    bool unchanged = c->value[2] && c->value[0] == 'o'; /* the weak store itself failed */
    AF_CHECK(delivered || failed || unchanged, "delivered value %ld (%d), status %s", c->value[0],
             (int)c->value[2], ic_status_name((ic_status)c->value[1]));
    ic_release(c->obj[2]); /* the last strong reference, unless the observation had to keep it */
    c->obj[2] = NULL;
    ic_id peer = NULL;
    AF_OK(ic_object_copy_value_for_key(c->obj[0], "peer", "@", &peer, sizeof peer));
    if (peer) { /* the store failed, or held strongly: no memory to watch its death */
        ic_release(peer);
        AF_CHECK(c->counter[0].calls == 1, "delivered %d times", c->counter[0].calls);
    } else {
        AF_CHECK(c->counter[0].calls == 2 && !c->value[2] && c->value[1] == IC_OK,
                 "its death delivered %d times, value %d, status %s", c->counter[0].calls,
                 (int)c->value[2], ic_status_name((ic_status)c->value[1]));
    }
}

static void weak_retarget_teardown(af_ctx *c)
{
    AF_OK(ic_key_path_observation_remove(c->result));
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
    for (int i = 0; i < 2; i++)
        AF_CHECK(ic_object_get_class(c->obj[i]) == c->cls[0], "object %d stayed moved", i);
    af_release_objects(c);
}

/* ---- removal: cannot fail */

static void remove_setup(af_ctx *c)
{
    observe_title_setup(c);
    AF_OK(observe_run(c));
    af_take_counters(c);
}

static ic_status remove_run(af_ctx *c)
{
    return ic_key_path_observation_remove(c->result);
}

static void remove_done(af_ctx *c)
{
    c->result = NULL;
    int calls = c->counter[0].calls;
    set_title(c->obj[1], "again");
    set_next(c->obj[0], c->obj[2]);
    AF_CHECK(c->counter[0].calls == calls, "called after removal");
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 1, "the intermediate object is still retained");
}

static void remove_teardown(af_ctx *c)
{
    ic_intercept_quiesce();
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
    for (int i = 0; i < 3; i++)
        AF_CHECK(ic_object_get_class(c->obj[i]) == c->cls[0], "object %d stayed moved", i);
    af_release_objects(c);
}

/* ---- is_active allocates nothing */

static ic_status is_active_run(af_ctx *c)
{
    return ic_key_path_observation_is_active(c->result) ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

/* ---- ic_object_hook_every_method */

static void every_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->cls[0] = ic_object_get_class(c->obj[0]);
    af_take_counters(c);
}

static void count_skip(ic_sel sel, ic_status status, const char *message, void *context)
{
    (void)sel, (void)status, (void)message;
    ((af_counter *)context)->deaths++; /* skips */
}

static ic_status every_run(af_ctx *c)
{
    c->counter[1].deaths = 0;
    return ic_object_hook_every_method(c->obj[0], IC_HOOK_BEFORE, 0, af_count_call, &c->counter[0],
                                       count_skip, &c->counter[1], &c->count);
}

static void every_done(af_ctx *c)
{
    AF_CHECK(c->count >= 4, "hooked %zu methods", c->count);
    AF_CHECK(ic_hook_object_is_hooked(c->obj[0], af_add), "add: is not hooked");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
    AF_CHECK(c->counter[0].calls == 1, "the hook ran %d times", c->counter[0].calls);
    size_t removed = 0;
    AF_OK(ic_hook_object_remove_all(c->obj[0], NULL, &removed));
    AF_CHECK(removed == c->count, "removed %zu of %zu", removed, c->count);
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object is not back in its class");
}

static void every_untouched(af_ctx *c)
{
    ic_intercept_quiesce();
    AF_CHECK(!ic_hook_object_is_hooked(c->obj[0], NULL), "a failed call left hooks");
    AF_CHECK(c->count == 0, "reported %zu hooked", c->count);
    af_check_counters(c, 0, 0);
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object was moved");
}

static void every_teardown(af_ctx *c)
{
    ic_hook_object_remove_all(c->obj[0], NULL, NULL);
    af_release_objects(c);
}

/* ---- ic_format_value, ic_invocation_describe: no allocation */

typedef struct spy_shape {
    double x;
    int counts[3];
    const char *name;
} spy_shape;

static ic_status format_run(af_ctx *c)
{
    spy_shape shape = {25.5, {1, 2, 3}, "a\"b"};
    int n = ic_format_value("{Shape=d[3i]*}", &shape, c->text, sizeof c->text);
    c->count = n < 0 ? 0 : (size_t)n;
    char small[4];
    double d = 0.1;
    int m = ic_format_value("d", &d, small, sizeof small);
    return n > 0 && m == 3 ? IC_OK : ic_error_status();
}

static void format_done(af_ctx *c)
{
    AF_CHECK(strcmp(c->text, "{25.5, [1, 2, 3], \"a\\\"b\"}") == 0, "formatted %s", c->text);
    AF_CHECK(c->count == strlen(c->text), "returned %zu", c->count);
}

static void describe_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->sig = AF_NOT_NULL(ic_signature_parse("i@:i"));
    c->inv = AF_NOT_NULL(ic_invocation_create(c->sig));
    AF_OK(ic_invocation_set_target(c->inv, c->obj[0]));
    AF_OK(ic_invocation_set_selector(c->inv, af_add));
    int x = 41;
    AF_OK(ic_invocation_set_argument(c->inv, 2, &x));
}

static ic_status describe_run(af_ctx *c)
{
    int n = ic_invocation_describe(c->inv, c->text, sizeof c->text);
    return n > 0 ? IC_OK : ic_error_status();
}

static void describe_done(af_ctx *c)
{
    char expected[128];
    snprintf(expected, sizeof expected, "-[%s add:] (41)", c->name);
    AF_CHECK(strcmp(c->text, expected) == 0, "described as %s", c->text);
}

static void describe_teardown(af_ctx *c)
{
    ic_invocation_destroy(c->inv);
    af_release_objects(c);
}

const af_case af_spy_cases[] = {
    AF_CASE("ic_object_observe_key_path: one key", "ic_object_observe_key_path", 0,
            observe_count_setup, observe_run, observe_done, observe_untouched, observe_teardown),
    AF_CASE("ic_object_observe_key_path: two keys (an intermediate object)",
            "ic_object_observe_key_path", 0, observe_title_setup, observe_run, observe_done,
            observe_untouched, observe_teardown),
    AF_CASE("an observed scalar's setter delivers without allocating", "ic_object_observe_key_path",
            AF_NO_ALLOCATION, observed_set_setup, observed_set_run, observed_set_done, NULL,
            observe_teardown),
    AF_CASE("re-targeting a key path: a failure is delivered, the next change recovers",
            "ic_object_observe_key_path", AF_CANNOT_FAIL, retarget_setup, retarget_run,
            retarget_done, NULL, observe_teardown),
    AF_CASE("re-targeting through a weak property: its death is watched or the object held",
            "ic_object_observe_key_path", AF_CANNOT_FAIL, weak_retarget_setup, weak_retarget_run,
            weak_retarget_done, NULL, weak_retarget_teardown),
    AF_CASE("ic_key_path_observation_remove", "ic_key_path_observation_remove", AF_CANNOT_FAIL,
            remove_setup, remove_run, remove_done, NULL, remove_teardown),
    AF_CASE("ic_key_path_observation_is_active allocates nothing",
            "ic_key_path_observation_is_active", AF_NO_ALLOCATION, remove_setup, is_active_run,
            NULL, NULL, observe_teardown),
    AF_CASE("ic_object_hook_every_method", "ic_object_hook_every_method", 0, every_setup, every_run,
            every_done, every_untouched, every_teardown),
    AF_CASE("ic_format_value allocates nothing", "ic_format_value", AF_NO_ALLOCATION, NULL,
            format_run, format_done, NULL, NULL),
    AF_CASE("ic_invocation_describe allocates nothing", "ic_invocation_describe", AF_NO_ALLOCATION,
            describe_setup, describe_run, describe_done, NULL, describe_teardown),
    {0},
};
