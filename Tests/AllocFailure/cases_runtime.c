/*
 * cases_runtime.c — the sweep's cases for selectors, classes, methods, type encodings and
 * signatures, and message lookup.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

static int seven(ic_id self, ic_sel cmd)
{
    (void)self, (void)cmd;
    return 7;
}

static int eight(ic_id self, ic_sel cmd)
{
    (void)self, (void)cmd;
    return 8;
}

/* ---- ic_sel_register */

static void sel_setup(af_ctx *c)
{
    snprintf(c->text, sizeof c->text, "%s_selector:", c->name);
    c->count = ic_sel_count();
}

static ic_status sel_run(af_ctx *c)
{
    c->sel[0] = ic_sel_register(c->text);
    return af_status_of(c->sel[0]);
}

static void sel_done(af_ctx *c)
{
    AF_CHECK(ic_sel_lookup(c->text) == c->sel[0], "the selector is not found by name");
    AF_CHECK(strcmp(ic_sel_name(c->sel[0]), c->text) == 0, "the selector's name differs");
    AF_CHECK(ic_sel_count() == c->count + 1, "selector count %zu, expected %zu", ic_sel_count(),
             c->count + 1);
    AF_CHECK(ic_sel_register(c->text) == c->sel[0], "registering it again gave another selector");
}

static void sel_untouched(af_ctx *c)
{
    AF_CHECK(ic_sel_lookup(c->text) == NULL, "a failed registration left the selector");
    AF_CHECK(ic_sel_count() == c->count, "a failed registration changed the count");
}

/* ---- ic_class_allocate, ic_class_dispose */

static ic_status allocate_run(af_ctx *c)
{
    c->cls[0] = ic_class_allocate(c->name, c->cls[1], 24);
    return af_status_of(c->cls[0]);
}

static void allocate_subclass_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super");
}

static void allocate_done(af_ctx *c)
{
    ic_class *cls = c->cls[0];
    AF_CHECK(strcmp(ic_class_name(cls), c->name) == 0, "wrong name");
    AF_CHECK(!ic_class_is_registered(cls), "registered by allocation");
    AF_CHECK(ic_class_superclass(cls) == (c->cls[1] ? c->cls[1] : ic_class_root()),
             "wrong superclass");
    AF_CHECK(ic_class_storage_size(cls) == 24, "wrong storage size");
    AF_CHECK(ic_class_is_metaclass(ic_class_metaclass(cls)), "no metaclass");
    AF_CHECK(ic_class_allocate(c->name, NULL, 0) == NULL &&
                 ic_error_status() == IC_ERR_DUPLICATE_CLASS,
             "the name is not taken");
}

static void allocate_untouched(af_ctx *c)
{
    /* The retry allocates the same name: it must be free (checked by the retry itself). */
    AF_CHECK(ic_class_lookup(c->name) == NULL, "a failed allocation left a class");
}

static void allocate_teardown(af_ctx *c)
{
    if (c->cls[0]) AF_OK(ic_class_dispose(c->cls[0]));
}

/* ---- ic_class_add_method, ic_class_add_class_method */

static void add_method_setup(af_ctx *c)
{
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, NULL, 0));
    snprintf(c->text, sizeof c->text, "%s_method", c->name);
    c->sel[0] = AF_NOT_NULL(ic_sel_register(c->text));
}

static ic_status add_method_run(af_ctx *c)
{
    return ic_class_add_method(c->cls[0], c->sel[0], (ic_imp)seven, "i@:");
}

static void add_method_done(af_ctx *c)
{
    ic_method *m = ic_class_get_own_method(c->cls[0], c->sel[0]);
    AF_CHECK(m && ic_method_imp(m) == (ic_imp)seven, "the method is not there");
    AF_CHECK(strcmp(ic_method_types(m), "i@:") == 0, "wrong types");
    size_t n = 0;
    ic_method **list = ic_class_copy_method_list(c->cls[0], &n);
    AF_CHECK(n == 1 && list && list[0] == m, "the method list has %zu methods", n);
    free(list);
}

static void add_method_untouched(af_ctx *c)
{
    AF_CHECK(ic_class_get_own_method(c->cls[0], c->sel[0]) == NULL, "the method was added");
    size_t n = 1;
    free(ic_class_copy_method_list(c->cls[0], &n));
    AF_CHECK(n == 0, "the method list has %zu methods", n);
}

/* Added to a registered class whose subclass's instance cached its sends: the cache must see it. */
static void add_method_registered_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super");
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, c->cls[1], 0));
    AF_OK(ic_class_register(c->cls[0]));
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add: before");
    snprintf(c->text, sizeof c->text, "%s_method", c->name);
    c->sel[0] = AF_NOT_NULL(ic_sel_register(c->text));
    AF_CHECK(!ic_class_responds_to(c->cls[0], c->sel[0]), "responds before");
}

static ic_status add_method_registered_run(af_ctx *c)
{
    return ic_class_add_method(c->cls[1], c->sel[0], (ic_imp)seven, "i@:");
}

static void add_method_registered_done(af_ctx *c)
{
    AF_CHECK(IC_MSG(IC_FN(int), c->obj[0], c->sel[0]) == 7, "the subclass's instance misses it");
}

static void add_method_registered_untouched(af_ctx *c)
{
    AF_CHECK(!ic_class_responds_to(c->cls[0], c->sel[0]), "the method was added");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add: after");
}

static void add_class_method_setup(af_ctx *c)
{
    c->cls[0] = af_make_class(c, "");
    snprintf(c->text, sizeof c->text, "%s_classMethod", c->name);
    c->sel[0] = AF_NOT_NULL(ic_sel_register(c->text));
}

static ic_status add_class_method_run(af_ctx *c)
{
    return ic_class_add_class_method(c->cls[0], c->sel[0], (ic_imp)seven, "i@:");
}

static void add_class_method_done(af_ctx *c)
{
    AF_CHECK(ic_class_get_class_method(c->cls[0], c->sel[0]) != NULL, "no class method");
    AF_CHECK(IC_MSG(IC_FN(int), ic_class_object(c->cls[0]), c->sel[0]) == 7, "+method");
}

static void add_class_method_untouched(af_ctx *c)
{
    AF_CHECK(ic_class_get_class_method(c->cls[0], c->sel[0]) == NULL, "the method was added");
}

/* ---- ic_class_register */

static void register_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super"); /* a fresh superclass: its subclass list grows */
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, c->cls[1], 8));
    c->count = ic_class_count();
}

/* With properties: registration seals them (typed accessor links, owned slots). */
static void register_properties_setup(af_ctx *c)
{
    register_setup(c);
    AF_NOT_NULL(ic_class_add_property(c->cls[0], "number", "q", 0, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(c->cls[0], "title", "*", IC_PROPERTY_COPY, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(c->cls[0], "friend", "@", IC_PROPERTY_RETAIN, NULL, NULL));
}

static ic_status register_run(af_ctx *c)
{
    return ic_class_register(c->cls[0]);
}

static void register_done(af_ctx *c)
{
    AF_CHECK(ic_class_is_registered(c->cls[0]), "not registered");
    AF_CHECK(ic_class_lookup(c->name) == c->cls[0], "not found by name");
    AF_CHECK(ic_class_count() == c->count + 1, "class count %zu, expected %zu", ic_class_count(),
             c->count + 1);
    ic_id obj = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    AF_CHECK(af_send_add(obj, 41) == 42, "an instance does not inherit add:");
    if (ic_class_get_property(c->cls[0], "number")) {
        long long number = 5, read = 0;
        AF_OK(ic_object_set_value_for_key(obj, "number", "q", &number, sizeof number));
        AF_OK(ic_object_copy_value_for_key(obj, "number", "q", &read, sizeof read));
        AF_CHECK(read == 5, "number reads %lld", read);
        const char *title = "t";
        AF_OK(ic_object_set_value_for_key(obj, "title", "*", &title, sizeof title));
    }
    ic_release(obj);
}

static void register_untouched(af_ctx *c)
{
    AF_CHECK(!ic_class_is_registered(c->cls[0]), "registered although it failed");
    AF_CHECK(ic_class_lookup(c->name) == NULL, "found by name although it failed");
    AF_CHECK(ic_class_count() == c->count, "the class count changed");
    AF_CHECK(ic_class_create_instance(c->cls[0]) == NULL, "an instance could be made");
}

/* ---- ic_class_replace_method */

static void replace_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super");
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, c->cls[1], 0));
    AF_OK(ic_class_register(c->cls[0]));
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    snprintf(c->text, sizeof c->text, "%s_value", c->name);
    c->sel[0] = AF_NOT_NULL(ic_sel_register(c->text));
    AF_OK(ic_class_add_method(c->cls[1], c->sel[0], (ic_imp)seven, "i@:"));
    AF_CHECK(IC_MSG(IC_FN(int), c->obj[0], c->sel[0]) == 7, "before");
}

/* Replacing in a class that only inherits the method adds one (allocates). */
static ic_status replace_adding_run(af_ctx *c)
{
    return ic_class_replace_method(c->cls[0], c->sel[0], (ic_imp)eight, "i@:", (ic_imp *)&c->imp);
}

/* Replacing the class's own method allocates nothing. */
static ic_status replace_own_run(af_ctx *c)
{
    return ic_class_replace_method(c->cls[1], c->sel[0], (ic_imp)eight, NULL, (ic_imp *)&c->imp);
}

static void replace_done(af_ctx *c)
{
    AF_CHECK(IC_MSG(IC_FN(int), c->obj[0], c->sel[0]) == 8, "the replacement does not run");
}

static void replace_untouched(af_ctx *c)
{
    AF_CHECK(IC_MSG(IC_FN(int), c->obj[0], c->sel[0]) == 7, "the method changed");
    AF_CHECK(ic_class_get_own_method(c->cls[0], c->sel[0]) == NULL, "a method was added");
}

/* ---- method and class queries: they allocate nothing */

static ic_status queries_run(af_ctx *c)
{
    ic_class *cls = c->cls[0];
    ic_method *m = ic_class_get_method(cls, af_add);
    ic_method *p = ic_class_get_own_method(cls, af_ping);
    bool ok =
        m && p && ic_method_selector(m) == af_add && ic_method_imp(m) != NULL &&
        strcmp(ic_method_types(m), "i@:i") == 0 && ic_class_get_imp(cls, af_add) &&
        ic_class_responds_to(cls, af_add) && !ic_class_forwards_invocations(cls) &&
        strcmp(ic_class_method_types(cls, af_add), "i@:i") == 0 &&
        ic_class_lookup(c->name) == cls && ic_class_count() > 0 &&
        ic_class_instance_size(cls) >= 32 + 16 && ic_class_storage_offset(cls) == 32 &&
        ic_class_is_subclass_of(cls, ic_class_root()) && !ic_class_is_interception_subclass(cls) &&
        ic_class_live_instance_count(cls) == 1 && ic_class_get_class_method(cls, af_add) == NULL &&
        ic_object_as_class(ic_class_object(cls)) == cls && ic_object_as_class(c->obj[0]) == NULL;
    /* Exchanging and setting IMPs: cache invalidation only. */
    ic_imp add = ic_method_imp(m), pinged = ic_method_imp(p);
    ok = ok && ic_method_exchange_imps(m, p) == IC_OK && ic_method_imp(m) == pinged;
    ok = ok && ic_method_exchange_imps(m, p) == IC_OK && ic_method_set_imp(m, add) == add;
    ok = ok && ic_runtime_version() != NULL && strcmp(ic_status_name(IC_OK), "IC_OK") == 0;
    ic_error_clear();
    ok = ok && ic_error_status() == IC_OK && ic_error_message()[0] == '\0' &&
         ic_error_position() == -1;
    ic_cached_lookup cached = ic_msg_lookup_cached(c->obj[0], af_add);
    ok = ok && cached.cls == cls;
    /* Messages to NULL. */
    ic_imp nil_imp = ic_msg_lookup(NULL, af_add);
    ok = ok && nil_imp == (ic_imp)ic_nil_imp &&
         ((long (*)(ic_id, ic_sel))nil_imp)(NULL, af_add) == 0;
    return ok ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

static void queries_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->cls[0] = ic_object_get_class(c->obj[0]);
    snprintf(c->name, sizeof c->name, "%s", ic_class_name(c->cls[0]));
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
}

/* ---- message lookup: a cache miss fills the dispatch table (allocating its page); a failed
 * fill leaves the IMP uncached, and the send still runs it */

static void lookup_setup(af_ctx *c)
{
    c->cls[1] = af_make_class(c, "_super");
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, c->cls[1], 0));
    AF_OK(ic_class_register(c->cls[0]));
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
}

static ic_status lookup_run(af_ctx *c)
{
    ic_imp imp = ic_msg_lookup(c->obj[0], af_add);
    c->value[0] = imp ? ((int (*)(ic_id, ic_sel, int))imp)(c->obj[0], af_add, 1) : -1;
    ic_super super = {c->obj[0], c->cls[1]};
    imp = ic_msg_lookup_super(&super, af_add);
    c->value[1] = imp ? ((int (*)(ic_id, ic_sel, int))imp)(c->obj[0], af_add, 2) : -1;
    return IC_OK;
}

static void lookup_done(af_ctx *c)
{
    AF_CHECK(c->value[0] == 2 && c->value[1] == 3, "sends returned %ld and %ld", c->value[0],
             c->value[1]);
    AF_CHECK(af_send_add(c->obj[0], 3) == 4, "a later send");
}

/* ---- ic_method_signature, ic_signature_parse, ic_encoding_* (a fresh struct name each run, so
 * nothing is cached from an earlier run) */

static void method_signature_setup(af_ctx *c)
{
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, NULL, 0));
    snprintf(c->text, sizeof c->text, "{S%u=iq}@:{T%u=cd}", c->id, c->id);
    AF_OK(ic_class_add_method(c->cls[0], af_value, (ic_imp)seven, c->text));
    c->method = AF_NOT_NULL(ic_class_get_own_method(c->cls[0], af_value));
}

static ic_status method_signature_run(af_ctx *c)
{
    c->sig = ic_method_signature(c->method);
    return af_status_of(c->sig);
}

static void signature_done(af_ctx *c)
{
    const ic_signature *sig = c->sig;
    char ret[32];
    snprintf(ret, sizeof ret, "{S%u=iq}", c->id);
    AF_CHECK(ic_signature_argument_count(sig) == 3 && ic_signature_is_method(sig), "arguments");
    AF_CHECK(strcmp(ic_signature_return_type(sig), ret) == 0, "return type %s",
             ic_signature_return_type(sig));
    AF_CHECK(ic_signature_return_size(sig) == 16 && ic_signature_return_alignment(sig) == 8,
             "return size");
    AF_CHECK(ic_signature_argument_size(sig, 2) == 16 &&
                 ic_signature_argument_alignment(sig, 2) == 8,
             "argument size");
    AF_CHECK(ic_signature_argument_type(sig, 0)[0] == '@', "argument 0");
    AF_CHECK(strcmp(ic_signature_types(sig), c->text) == 0, "types %s", ic_signature_types(sig));
    AF_CHECK(ic_signature_parse(c->text) == sig, "not interned");
}

static void method_signature_done(af_ctx *c)
{
    signature_done(c);
    AF_CHECK(ic_method_signature(c->method) == c->sig, "not cached");
}

static void method_signature_teardown(af_ctx *c)
{
    AF_OK(ic_class_dispose(c->cls[0]));
}

static void parse_setup(af_ctx *c)
{
    snprintf(c->text, sizeof c->text, "{S%u=iq}@:{T%u=cd}", c->id, c->id);
}

static ic_status parse_run(af_ctx *c)
{
    c->sig = ic_signature_parse(c->text);
    return af_status_of(c->sig);
}

static ic_status encoding_run(af_ctx *c)
{
    size_t size = 0, align = 0;
    const char *end = NULL;
    ic_status s = ic_encoding_validate(c->text);
    if (s == IC_OK) s = ic_encoding_size_and_alignment(c->text, &size, &align, &end);
    if (s == IC_OK) {
        c->value[0] = (long)size;
        c->value[1] = (long)align;
    }
    return s;
}

static void encoding_done(af_ctx *c)
{
    AF_CHECK(c->value[0] == 16 && c->value[1] == 8, "size %ld, alignment %ld", c->value[0],
             c->value[1]);
}

/* ---- forwarding: the first send of a selector a class forwards makes its forwarding closure
 * (a send has no error to return: out of memory there traps, documented) */

static const ic_signature *forward_signature(ic_id self, ic_sel cmd, ic_sel sel)
{
    (void)self, (void)cmd, (void)sel;
    return ic_signature_parse("i@:i");
}

static void forward_invocation(ic_id self, ic_sel cmd, ic_invocation *inv)
{
    (void)self, (void)cmd;
    int x = 0;
    ic_invocation_get_argument(inv, 2, &x);
    x *= 2;
    ic_invocation_set_return_value(inv, &x);
}

static void forward_setup(af_ctx *c)
{
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(c->name, NULL, 0));
    AF_OK(ic_class_add_method(c->cls[0], ic_sel_register("methodSignatureForSelector:"),
                              (ic_imp)forward_signature, "^v@::"));
    AF_OK(ic_class_add_method(c->cls[0], ic_sel_register("forwardInvocation:"),
                              (ic_imp)forward_invocation, "v@:^v"));
    AF_OK(ic_class_register(c->cls[0]));
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    AF_NOT_NULL(ic_signature_parse("i@:i"));
    snprintf(c->text, sizeof c->text, "%s_forwarded:", c->name);
    c->sel[0] = AF_NOT_NULL(ic_sel_register(c->text));
}

static ic_status forward_run(af_ctx *c)
{
    c->value[0] = IC_MSG(IC_FN(int, int), c->obj[0], c->sel[0], 21);
    return IC_OK;
}

static void forward_done(af_ctx *c)
{
    AF_CHECK(c->value[0] == 42, "the forwarded send returned %ld", c->value[0]);
}

const af_case af_runtime_cases[] = {
    AF_CASE("ic_sel_register: a new selector",
            "ic_sel_register ic_sel_lookup ic_sel_name ic_sel_count", 0, sel_setup, sel_run,
            sel_done, sel_untouched, NULL),
    AF_CASE("ic_class_allocate: a root subclass",
            "ic_class_allocate ic_class_dispose ic_class_name "
            "ic_class_superclass ic_class_storage_size ic_class_is_registered ic_class_metaclass "
            "ic_class_is_metaclass ic_class_root",
            0, NULL, allocate_run, allocate_done, allocate_untouched, allocate_teardown),
    AF_CASE("ic_class_allocate: a subclass of a registered class", "ic_class_allocate", 0,
            allocate_subclass_setup, allocate_run, allocate_done, allocate_untouched,
            allocate_teardown),
    AF_CASE("ic_class_add_method: to an unregistered class",
            "ic_class_add_method ic_class_get_own_method ic_class_copy_method_list ic_method_imp "
            "ic_method_types",
            0, add_method_setup, add_method_run, add_method_done, add_method_untouched,
            method_signature_teardown),
    AF_CASE("ic_class_add_method: to a registered class with a cached subclass",
            "ic_class_add_method", 0, add_method_registered_setup, add_method_registered_run,
            add_method_registered_done, add_method_registered_untouched, af_release_objects),
    AF_CASE("ic_class_add_class_method", "ic_class_add_class_method ic_class_get_class_method", 0,
            add_class_method_setup, add_class_method_run, add_class_method_done,
            add_class_method_untouched, NULL),
    AF_CASE("ic_class_register: a subclass", "ic_class_register ic_class_lookup ic_class_count", 0,
            register_setup, register_run, register_done, register_untouched, NULL),
    AF_CASE("ic_class_register: with synthesized properties", "ic_class_register", 0,
            register_properties_setup, register_run, register_done, register_untouched, NULL),
    AF_CASE("ic_class_replace_method: adding an override", "ic_class_replace_method", 0,
            replace_setup, replace_adding_run, replace_done, replace_untouched, af_release_objects),
    AF_CASE("ic_class_replace_method: the class's own method", "ic_class_replace_method",
            AF_NO_ALLOCATION, replace_setup, replace_own_run, replace_done, NULL,
            af_release_objects),
    AF_CASE(
        "class and method queries allocate nothing",
        "ic_class_get_method ic_class_get_imp ic_class_responds_to ic_class_forwards_invocations "
        "ic_class_method_types ic_class_instance_size ic_class_storage_offset "
        "ic_class_is_subclass_of ic_class_is_interception_subclass ic_class_live_instance_count "
        "ic_object_as_class ic_method_selector ic_method_exchange_imps ic_method_set_imp "
        "ic_runtime_version ic_status_name ic_error_clear ic_error_status ic_error_message "
        "ic_error_position ic_msg_lookup_cached ic_object_get_class ic_nil_imp",
        AF_NO_ALLOCATION, queries_setup, queries_run, NULL, NULL, af_release_objects),
    AF_CASE("ic_msg_lookup: a cache miss fills the dispatch table",
            "ic_msg_lookup ic_msg_lookup_super", AF_CANNOT_FAIL, lookup_setup, lookup_run,
            lookup_done, NULL, af_release_objects),
    AF_CASE("ic_method_signature: a new encoding",
            "ic_method_signature ic_signature_argument_count ic_signature_is_method "
            "ic_signature_return_type ic_signature_return_size ic_signature_return_alignment "
            "ic_signature_argument_size ic_signature_argument_alignment ic_signature_argument_type "
            "ic_signature_types",
            0, method_signature_setup, method_signature_run, method_signature_done, NULL,
            method_signature_teardown),
    AF_CASE("ic_signature_parse: a new encoding", "ic_signature_parse", 0, parse_setup, parse_run,
            signature_done, NULL, NULL),
    AF_TRAP_CASE("ic_msg_lookup: the first forwarded send (documented trap)", "ic_msg_lookup",
                 AF_CANNOT_FAIL, forward_setup, forward_run, forward_done, NULL, af_release_objects,
                 "cannot forward"),
    AF_CASE("ic_encoding_validate, ic_encoding_size_and_alignment allocate nothing",
            "ic_encoding_validate ic_encoding_size_and_alignment", AF_NO_ALLOCATION, parse_setup,
            encoding_run, encoding_done, NULL, NULL),
    {0},
};
