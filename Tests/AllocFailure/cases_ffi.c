/*
 * cases_ffi.c — the sweep's cases for closure IMPs, invocations and the send cache.
 */
#include <string.h>

#include "sweep.h"

/* ---- closure IMPs */

/* A closure body: returns argument 2 + 1 (int signatures) or {1, 2, 3} (the struct one). */
static void closure_body(ic_invocation *call, void *context)
{
    ((af_counter *)context)->calls++;
    const ic_signature *sig = ic_invocation_signature(call);
    if (ic_signature_return_size(sig) == sizeof(af_vec3)) {
        af_vec3 v = {1, 2, 3};
        ic_invocation_set_return_value(call, &v);
        return;
    }
    int x = 0;
    ic_invocation_get_argument(call, 2, &x);
    x++;
    ic_invocation_set_return_value(call, &x);
}

static uint64_t closure_registers(const uint64_t *registers, void *context)
{
    ((af_counter *)context)->calls++;
    return (uint32_t)registers[2] + 1;
}

static void closure_setup(af_ctx *c)
{
    c->sig = AF_NOT_NULL(ic_signature_parse(c->value[0] ? "{v=ddd}@:" : "i@:i"));
}

static void closure_struct_setup(af_ctx *c)
{
    c->value[0] = 1;
    closure_setup(c);
}

static ic_status closure_create_run(af_ctx *c)
{
    c->imp = ic_closure_imp_create(c->sig, closure_body, &c->counter[0], af_count_release);
    return af_status_of(c->imp);
}

static ic_status closure_registers_run(af_ctx *c)
{
    c->imp = ic_closure_imp_create_with_registers(c->sig, closure_body, closure_registers,
                                                  &c->counter[0], af_count_release);
    return af_status_of(c->imp);
}

static void closure_done(af_ctx *c)
{
    AF_CHECK(ic_closure_imp_context(c->imp) == &c->counter[0], "context");
    AF_CHECK(ic_closure_imp_signature(c->imp) == c->sig, "signature");
    AF_CHECK(ic_closure_imp_kind(c->imp) != IC_CLOSURE_KIND_NONE, "kind");
    if (c->value[0]) {
        af_vec3 v = ((af_vec3(*)(ic_id, ic_sel))c->imp)(NULL, af_vec);
        AF_CHECK(v.x == 1 && v.z == 3, "the struct closure returned %g..%g", v.x, v.z);
    } else {
        int r = ((int (*)(ic_id, ic_sel, int))c->imp)(NULL, af_add, 41);
        AF_CHECK(r == 42, "the closure returned %d", r);
    }
    AF_CHECK(c->counter[0].calls == 1, "called %d times", c->counter[0].calls);
    AF_OK(ic_closure_imp_destroy(c->imp));
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
}

static void closure_untouched(af_ctx *c)
{
    AF_CHECK(c->counter[0].released == 0, "a failed creation released the context");
}

/* Destroying allocates nothing. */
static void closure_destroy_setup(af_ctx *c)
{
    closure_setup(c);
    c->imp =
        AF_NOT_NULL(ic_closure_imp_create(c->sig, closure_body, &c->counter[0], af_count_release));
}

static ic_status closure_destroy_run(af_ctx *c)
{
    return ic_closure_imp_destroy(c->imp);
}

static void closure_destroy_done(af_ctx *c)
{
    AF_CHECK(c->counter[0].released == 1, "released %d times", c->counter[0].released);
    AF_CHECK(ic_closure_imp_kind(c->imp) == IC_CLOSURE_KIND_NONE, "still a closure");
}

/* ---- invocations */

static void invocation_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->sig = AF_NOT_NULL(ic_signature_parse("i@:i"));
}

static ic_status create_run(af_ctx *c)
{
    c->inv = ic_invocation_create(c->sig);
    return af_status_of(c->inv);
}

static void invoke_check(af_ctx *c, ic_invocation *inv, int x)
{
    AF_OK(ic_invocation_set_target(inv, c->obj[0]));
    AF_OK(ic_invocation_set_selector(inv, af_add));
    AF_OK(ic_invocation_set_argument(inv, 2, &x));
    AF_OK(ic_invocation_invoke(inv));
    int r = 0;
    AF_OK(ic_invocation_get_return_value(inv, &r));
    AF_CHECK(r == x + 1, "the invocation returned %d", r);
}

static void create_done(af_ctx *c)
{
    invoke_check(c, c->inv, 1);
    ic_invocation_destroy(c->inv);
    c->inv = NULL;
}

static void copy_setup(af_ctx *c)
{
    invocation_setup(c);
    c->inv = AF_NOT_NULL(ic_invocation_create(c->sig));
    int x = 5;
    AF_OK(ic_invocation_set_argument(c->inv, 2, &x));
    AF_OK(ic_invocation_set_target(c->inv, c->obj[0]));
    AF_OK(ic_invocation_retain_arguments(c->inv));
    /* A second block: the thread's cached one (if any) goes to the copy's first attempt. */
    c->result = AF_NOT_NULL(ic_invocation_create(c->sig));
}

static ic_status copy_run(af_ctx *c)
{
    ic_invocation *copy = ic_invocation_copy(c->inv);
    c->value[0] = (long)(intptr_t)copy;
    return af_status_of(copy);
}

static void copy_done(af_ctx *c)
{
    ic_invocation *copy = (ic_invocation *)(intptr_t)c->value[0];
    int x = 0;
    AF_OK(ic_invocation_get_argument(copy, 2, &x));
    AF_CHECK(x == 5 && ic_invocation_target(copy) == c->obj[0], "the copy differs");
    invoke_check(c, copy, 5);
    ic_invocation_destroy(copy);
    c->value[0] = 0;
}

static void copy_untouched(af_ctx *c)
{
    AF_CHECK(ic_object_retain_count(c->obj[0]) == 2, "the target has %zu references",
             ic_object_retain_count(c->obj[0]));
}

static void invocation_teardown(af_ctx *c)
{
    ic_invocation_destroy(c->inv);
    ic_invocation_destroy(c->result);
    AF_CHECK(ic_object_retain_count(c->obj[0]) == 1, "the target kept %zu references",
             ic_object_retain_count(c->obj[0]));
    af_release_objects(c);
}

/* Invoking on a class whose dispatch table misses: the fill may fail, the call still runs. */
static void invoke_setup(af_ctx *c)
{
    invocation_setup(c);
    c->inv = AF_NOT_NULL(ic_invocation_create(c->sig));
}

static ic_status invoke_run(af_ctx *c)
{
    int x = 9, r = 0;
    ic_status s = ic_invocation_set_target(c->inv, c->obj[0]);
    if (!s) s = ic_invocation_set_selector(c->inv, af_add);
    if (!s) s = ic_invocation_set_argument(c->inv, 2, &x);
    if (!s) s = ic_invocation_invoke(c->inv);
    if (!s) s = ic_invocation_get_return_value(c->inv, &r);
    c->value[0] = r;
    return s;
}

static void invoke_done(af_ctx *c)
{
    AF_CHECK(c->value[0] == 10, "invoked to %ld", c->value[0]);
}

/* Everything else about an invocation allocates nothing. */
static ic_status accessors_run(af_ctx *c)
{
    unsigned char buffer[256] __attribute__((aligned(16)));
    size_t size = ic_invocation_size(c->sig);
    ic_invocation *inv = ic_invocation_init_in(buffer, sizeof buffer, c->sig);
    int x = 3, r = 0;
    bool ok = inv && size <= sizeof buffer && !ic_invocation_is_frame(inv) &&
              ic_invocation_signature(inv) == c->sig;
    ok = ok && ic_invocation_set_target(inv, c->obj[0]) == IC_OK &&
         ic_invocation_set_selector(inv, af_add) == IC_OK &&
         ic_invocation_set_argument(inv, 2, &x) == IC_OK &&
         ic_invocation_retain_arguments(inv) == IC_OK;
    ok = ok && ic_invocation_target(inv) == c->obj[0] && ic_invocation_selector(inv) == af_add &&
         ic_invocation_get_argument(inv, 2, &r) == IC_OK && r == 3 &&
         *(int *)ic_invocation_argument_pointer(inv, 2) == 3;
    ok = ok &&
         ic_invocation_invoke_imp(inv, ic_class_get_imp(ic_object_get_class(c->obj[0]), af_add)) ==
             IC_OK &&
         ic_invocation_get_return_value(inv, &r) == IC_OK && r == 4;
    x = 7;
    ok = ok && ic_invocation_set_return_value(inv, &x) == IC_OK &&
         *(int *)ic_invocation_return_pointer(inv) == 7;
    ic_invocation_destroy(inv);
    return ok ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

/* ---- the send cache: static slots, nothing allocated */

static ic_send_cache_entry entries[64];

static ic_status send_cache_run(af_ctx *c)
{
    ic_send_cache_entry *entry = &entries[c->id % 64];
    *entry = (ic_send_cache_entry){ic_object_get_class(c->obj[0]), af_add, 0x5eed + c->id, NULL};
    ic_imp imp = ic_msg_lookup(c->obj[0], af_add); /* cached by the set-up's send */
    bool ok = ic_send_cache_publish(entry) && ic_send_cache_set_validated_imp(entry, imp) &&
              ic_send_cache_validated_imp(entry) == imp &&
              ic_send_cache_find(entry->cls, af_add, entry->shape) == entry;
    ic_send_cache_hit hit = ic_send_cache_lookup(c->obj[0], af_add, entry->shape);
    return ok && hit.imp == imp && hit.entry == entry ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

static void send_cache_setup(af_ctx *c)
{
    invocation_setup(c);
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
}

const af_case af_ffi_cases[] = {
    AF_CASE(
        "ic_closure_imp_create: a libffi closure",
        "ic_closure_imp_create ic_closure_imp_context ic_closure_imp_signature ic_closure_imp_kind",
        0, closure_struct_setup, closure_create_run, closure_done, closure_untouched, NULL),
    AF_CASE("ic_closure_imp_create: a register entry", "ic_closure_imp_create", 0, closure_setup,
            closure_create_run, closure_done, closure_untouched, NULL),
    AF_CASE("ic_closure_imp_create_with_registers", "ic_closure_imp_create_with_registers", 0,
            closure_setup, closure_registers_run, closure_done, closure_untouched, NULL),
    AF_CASE("ic_closure_imp_destroy allocates nothing", "ic_closure_imp_destroy", AF_NO_ALLOCATION,
            closure_destroy_setup, closure_destroy_run, closure_destroy_done, NULL, NULL),
    AF_CASE("ic_invocation_create", "ic_invocation_create ic_invocation_destroy", 0,
            invocation_setup, create_run, create_done, NULL, invocation_teardown),
    AF_CASE("ic_invocation_copy: retaining its arguments", "ic_invocation_copy", 0, copy_setup,
            copy_run, copy_done, copy_untouched, invocation_teardown),
    AF_CASE("ic_invocation_invoke: an uncached method", "ic_invocation_invoke", AF_CANNOT_FAIL,
            invoke_setup, invoke_run, invoke_done, NULL, invocation_teardown),
    AF_CASE(
        "invocation accessors allocate nothing",
        "ic_invocation_size ic_invocation_init_in ic_invocation_is_frame ic_invocation_signature "
        "ic_invocation_set_target ic_invocation_set_selector ic_invocation_set_argument "
        "ic_invocation_retain_arguments ic_invocation_target ic_invocation_selector "
        "ic_invocation_get_argument ic_invocation_argument_pointer ic_invocation_invoke_imp "
        "ic_invocation_get_return_value ic_invocation_set_return_value "
        "ic_invocation_return_pointer",
        AF_NO_ALLOCATION, send_cache_setup, accessors_run, NULL, NULL, invocation_teardown),
    AF_CASE("the send cache allocates nothing",
            "ic_send_cache_publish ic_send_cache_set_validated_imp ic_send_cache_validated_imp "
            "ic_send_cache_find ic_send_cache_lookup",
            AF_NO_ALLOCATION, send_cache_setup, send_cache_run, NULL, NULL, invocation_teardown),
    {0},
};
