/*
 * cases_protocol.c — the sweep's cases for protocols: making them, incorporating, adopting and
 * listing.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* A registered protocol "<name>_base" describing -add: (required) and +make (optional). */
static ic_protocol *base_protocol(af_ctx *c)
{
    char name[96];
    snprintf(name, sizeof name, "%s_base", c->name);
    ic_protocol *p = AF_NOT_NULL(ic_protocol_allocate(name));
    AF_OK(ic_protocol_add_method_description(p, af_add, "i@:i", true, true));
    AF_OK(ic_protocol_add_method_description(p, af_ping, "v@:", false, false));
    AF_OK(ic_protocol_register(p));
    return p;
}

/* ---- ic_protocol_allocate, ic_protocol_dispose */

static ic_status allocate_run(af_ctx *c)
{
    c->protocol[0] = ic_protocol_allocate(c->name);
    return af_status_of(c->protocol[0]);
}

static void allocate_done(af_ctx *c)
{
    AF_CHECK(strcmp(ic_protocol_name(c->protocol[0]), c->name) == 0, "name");
    AF_CHECK(!ic_protocol_is_registered(c->protocol[0]), "registered");
    AF_CHECK(ic_protocol_allocate(c->name) == NULL && ic_error_status() == IC_ERR_DUPLICATE_CLASS,
             "the name is free");
}

static void allocate_teardown(af_ctx *c)
{
    if (c->protocol[0]) AF_OK(ic_protocol_dispose(c->protocol[0]));
}

/* ---- ic_protocol_add_method_description */

static void describe_setup(af_ctx *c)
{
    c->protocol[0] = AF_NOT_NULL(ic_protocol_allocate(c->name));
    for (int i = 0; i < (int)c->value[0]; i++) { /* value[0] descriptions already */
        char sel[96];
        snprintf(sel, sizeof sel, "%s_m%d", c->name, i);
        AF_OK(ic_protocol_add_method_description(c->protocol[0], AF_NOT_NULL(ic_sel_register(sel)),
                                                 "v@:", true, true));
    }
}

static void describe_more_setup(af_ctx *c)
{
    c->value[0] = 4; /* the fifth grows the list */
    describe_setup(c);
}

static ic_status describe_run(af_ctx *c)
{
    return ic_protocol_add_method_description(c->protocol[0], af_add, "i@:i", true, true);
}

static void describe_done(af_ctx *c)
{
    ic_method_description d;
    AF_CHECK(ic_protocol_get_method_description(c->protocol[0], af_add, true, true, &d) &&
                 strcmp(d.types, "i@:i") == 0,
             "no description");
    size_t n = 0;
    ic_method_description *list =
        ic_protocol_copy_method_description_list(c->protocol[0], true, true, &n);
    AF_CHECK(n == (size_t)c->value[0] + 1 && list[n - 1].sel == af_add, "listed %zu", n);
    free(list);
}

static void describe_untouched(af_ctx *c)
{
    ic_method_description d;
    AF_CHECK(!ic_protocol_get_method_description(c->protocol[0], af_add, true, true, &d),
             "described although it failed");
}

/* ---- ic_protocol_add_protocol, ic_protocol_register */

static void incorporate_setup(af_ctx *c)
{
    c->protocol[1] = base_protocol(c);
    c->protocol[0] = AF_NOT_NULL(ic_protocol_allocate(c->name));
}

static ic_status incorporate_run(af_ctx *c)
{
    return ic_protocol_add_protocol(c->protocol[0], c->protocol[1]);
}

static void incorporate_done(af_ctx *c)
{
    size_t n = 0;
    ic_protocol **list = ic_protocol_copy_protocol_list(c->protocol[0], &n);
    AF_CHECK(n == 1 && list[0] == c->protocol[1], "incorporates %zu", n);
    free(list);
    AF_CHECK(ic_protocol_conforms_to_protocol(c->protocol[0], c->protocol[1]), "conforms");
}

static void incorporate_untouched(af_ctx *c)
{
    AF_CHECK(!ic_protocol_conforms_to_protocol(c->protocol[0], c->protocol[1]),
             "incorporated although it failed");
}

static void register_setup(af_ctx *c)
{
    incorporate_setup(c);
    AF_OK(ic_protocol_add_protocol(c->protocol[0], c->protocol[1]));
    AF_OK(ic_protocol_add_method_description(c->protocol[0], af_vec, "{v=ddd}@:", true, true));
}

static ic_status register_run(af_ctx *c)
{
    return ic_protocol_register(c->protocol[0]);
}

static void register_done(af_ctx *c)
{
    AF_CHECK(ic_protocol_is_registered(c->protocol[0]), "not registered");
    AF_CHECK(ic_protocol_lookup(c->name) == c->protocol[0], "not found by name");
    ic_method_description d;
    AF_CHECK(ic_protocol_get_method_description(c->protocol[0], af_add, true, true, &d),
             "the incorporated description is not found");
}

static void register_untouched(af_ctx *c)
{
    AF_CHECK(!ic_protocol_is_registered(c->protocol[0]), "registered although it failed");
    AF_CHECK(ic_protocol_lookup(c->name) == NULL, "found by name although it failed");
}

/* ---- ic_class_add_protocol */

static void adopt_setup(af_ctx *c)
{
    c->protocol[0] = base_protocol(c);
    c->cls[0] = af_make_class(c, "");
}

static ic_status adopt_run(af_ctx *c)
{
    return ic_class_add_protocol(c->cls[0], c->protocol[0]);
}

static void adopt_done(af_ctx *c)
{
    AF_CHECK(ic_class_conforms_to_protocol(c->cls[0], c->protocol[0]), "does not conform");
    size_t n = 0;
    ic_protocol **list = ic_class_copy_protocol_list(c->cls[0], &n);
    AF_CHECK(n == 1 && list[0] == c->protocol[0], "adopted %zu", n);
    free(list);
    ic_id obj = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    AF_CHECK(IC_MSG(IC_FN(bool, const ic_protocol *), obj, ic_sel_register("conformsToProtocol:"),
                    c->protocol[0]),
             "conformsToProtocol: says no");
    ic_release(obj);
}

static void adopt_untouched(af_ctx *c)
{
    AF_CHECK(!ic_class_conforms_to_protocol(c->cls[0], c->protocol[0]),
             "conforms although it failed");
}

/* ---- the lists (allocated copies) */

static void lists_setup(af_ctx *c)
{
    register_setup(c);
    AF_OK(ic_protocol_register(c->protocol[0]));
    c->cls[0] = af_make_class(c, "");
    AF_OK(ic_class_add_protocol(c->cls[0], c->protocol[0]));
}

static ic_status lists_run(af_ctx *c)
{
    size_t n = 0;
    void *list = ic_protocol_copy_protocol_list(c->protocol[0], &n);
    ic_status s = af_status_of(list);
    free(list);
    if (s == IC_OK) {
        list = ic_protocol_copy_method_description_list(c->protocol[0], true, true, &n);
        s = af_status_of(list);
        free(list);
    }
    if (s == IC_OK) {
        list = ic_class_copy_protocol_list(c->cls[0], &n);
        s = af_status_of(list);
        free(list);
    }
    return s;
}

const af_case af_protocol_cases[] = {
    AF_CASE("ic_protocol_allocate",
            "ic_protocol_allocate ic_protocol_dispose ic_protocol_name ic_protocol_is_registered",
            0, NULL, allocate_run, allocate_done, NULL, allocate_teardown),
    AF_CASE("ic_protocol_add_method_description: a first one",
            "ic_protocol_add_method_description ic_protocol_get_method_description "
            "ic_protocol_copy_method_description_list",
            0, describe_setup, describe_run, describe_done, describe_untouched, allocate_teardown),
    AF_CASE("ic_protocol_add_method_description: a fifth one", "ic_protocol_add_method_description",
            0, describe_more_setup, describe_run, describe_done, describe_untouched,
            allocate_teardown),
    AF_CASE(
        "ic_protocol_add_protocol",
        "ic_protocol_add_protocol ic_protocol_copy_protocol_list ic_protocol_conforms_to_protocol",
        0, incorporate_setup, incorporate_run, incorporate_done, incorporate_untouched,
        allocate_teardown),
    AF_CASE("ic_protocol_register", "ic_protocol_register ic_protocol_lookup", 0, register_setup,
            register_run, register_done, register_untouched, NULL),
    AF_CASE("ic_class_add_protocol",
            "ic_class_add_protocol ic_class_conforms_to_protocol ic_class_copy_protocol_list", 0,
            adopt_setup, adopt_run, adopt_done, adopt_untouched, NULL),
    AF_CASE("the protocol lists",
            "ic_protocol_copy_protocol_list ic_protocol_copy_method_description_list "
            "ic_class_copy_protocol_list",
            0, lists_setup, lists_run, NULL, NULL, NULL),
    {0},
};
