/*
 * cases_property.c — the sweep's cases for properties (declaration, listing) and key-value coding.
 * Property names are fresh each run ("p<id>"), so their accessor selectors are registered by the
 * operation itself and their failures are swept too.
 */
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* ---- ic_class_add_property */

typedef struct property_kind {
    const char *type; /* "%u" is the run's id (fresh struct names) */
    unsigned attributes;
    bool custom_names;
} property_kind;

static const property_kind kinds[] = {
    {"q", 0, false},
    {"{P%u=dd}", 0, false},
    {"*", IC_PROPERTY_COPY, false},
    {"@", IC_PROPERTY_WEAK, false},
    {"@", IC_PROPERTY_RETAIN, true},
    {"i", IC_PROPERTY_READONLY, false},
    {"d", IC_PROPERTY_DYNAMIC, false},
};

/* value[0]: the kind; text: the type; name: the property's name (the getter). */
static void property_setup(af_ctx *c, int kind)
{
    c->value[0] = kind;
    snprintf(c->text, sizeof c->text, kinds[kind].type, c->id);
    snprintf(c->name, sizeof c->name, "p%u", c->id);
    char class_name[64];
    snprintf(class_name, sizeof class_name, "AFProperties%u", c->id);
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(class_name, NULL, 8));
    if (kinds[kind].attributes & IC_PROPERTY_DYNAMIC) AF_OK(ic_class_register(c->cls[0]));
    c->count = ic_class_instance_size(c->cls[0]);
}

#define KIND_SETUP(k)                                                                              \
    static void property_setup_##k(af_ctx *c)                                                      \
    {                                                                                              \
        property_setup(c, k);                                                                      \
    }
KIND_SETUP(0)
KIND_SETUP(1)
KIND_SETUP(2)
KIND_SETUP(3)
KIND_SETUP(4)
KIND_SETUP(5)
KIND_SETUP(6)

static const char *getter_name(af_ctx *c, char *buffer, size_t size)
{
    if (!kinds[c->value[0]].custom_names) return c->name;
    snprintf(buffer, size, "get_%s", c->name);
    return buffer;
}

static ic_status add_property_run(af_ctx *c)
{
    const property_kind *k = &kinds[c->value[0]];
    char getter[80], setter[80];
    snprintf(setter, sizeof setter, "put_%s:", c->name);
    c->property =
        ic_class_add_property(c->cls[0], c->name, c->text, k->attributes,
                              k->custom_names ? getter_name(c, getter, sizeof getter) : NULL,
                              k->custom_names ? setter : NULL);
    return af_status_of(c->property);
}

static void add_property_done(af_ctx *c)
{
    const property_kind *k = &kinds[c->value[0]];
    ic_property *p = c->property;
    char getter[80];
    AF_CHECK(ic_class_get_property(c->cls[0], c->name) == p, "not found by name");
    AF_CHECK(strcmp(ic_property_name(p), c->name) == 0 && strcmp(ic_property_type(p), c->text) == 0,
             "name or type");
    AF_CHECK(ic_property_attributes(p) == k->attributes && ic_property_class(p) == c->cls[0],
             "attributes or class");
    AF_CHECK(strcmp(ic_sel_name(ic_property_getter(p)), getter_name(c, getter, sizeof getter)) == 0,
             "getter %s", ic_sel_name(ic_property_getter(p)));
    bool readonly = k->attributes & IC_PROPERTY_READONLY;
    AF_CHECK(readonly == (ic_property_setter(p) == NULL), "setter %s",
             ic_sel_name(ic_property_setter(p)));
    size_t n = 0;
    ic_property **list = ic_class_copy_property_list(c->cls[0], &n);
    AF_CHECK(n == 1 && list[0] == p, "listed %zu properties", n);
    free(list);
    if (k->attributes & IC_PROPERTY_DYNAMIC) return;
    AF_CHECK(ic_class_get_own_method(c->cls[0], ic_property_getter(p)), "no getter method");
    AF_CHECK(readonly || ic_class_get_own_method(c->cls[0], ic_property_setter(p)),
             "no setter method");
    AF_OK(ic_class_register(c->cls[0]));
    ic_id obj = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    size_t size = 0, align = 0;
    AF_OK(ic_encoding_size_and_alignment(c->text, &size, &align, NULL));
    unsigned char value[16] = {5}, read[16] = {0};
    if (k->type[0] == '@') memcpy(value, &obj, sizeof obj);
    if (k->type[0] == '*') memcpy(value, &(const char *){"text"}, sizeof(char *));
    if (!readonly) {
        AF_OK(ic_object_set_value_for_key(obj, c->name, c->text, value, sizeof value));
        AF_OK(ic_object_copy_value_for_key(obj, c->name, c->text, read, sizeof read));
        if (k->type[0] == '*') {
            AF_CHECK(strcmp(*(char **)read, "text") == 0, "reads %s", *(char **)read);
            free(*(char **)read);
        } else {
            AF_CHECK(memcmp(read, value, size) == 0, "reads another value");
            if (k->type[0] == '@') ic_release(*(ic_id *)read);
        }
    }
    if (k->type[0] == '@' && (k->attributes & IC_PROPERTY_RETAIN)) { /* a cycle: break it */
        ic_id none = NULL;
        AF_OK(ic_object_set_value_for_key(obj, c->name, "@", &none, sizeof none));
    }
    ic_release(obj);
}

static void add_property_untouched(af_ctx *c)
{
    const property_kind *k = &kinds[c->value[0]];
    char getter[80], setter[80];
    ic_property *found = ic_class_get_property(c->cls[0], c->name); /* maybe a superclass's */
    AF_CHECK(!found || ic_property_class(found) != c->cls[0], "declared although it failed");
    AF_CHECK(ic_class_instance_size(c->cls[0]) == c->count, "the instance size changed");
    ic_sel g = ic_sel_lookup(getter_name(c, getter, sizeof getter));
    AF_CHECK(!g || !ic_class_get_own_method(c->cls[0], g), "the getter was left behind");
    snprintf(setter, sizeof setter,
             k->custom_names ? "put_%s:" : "setP%s:", k->custom_names ? c->name : c->name + 1);
    ic_sel s = ic_sel_lookup(setter);
    AF_CHECK(!s || !ic_class_get_own_method(c->cls[0], s), "the setter was left behind");
    size_t n = 1;
    free(ic_class_copy_property_list(c->cls[0], &n));
    AF_CHECK(n == 0, "listed %zu properties", n);
}

static void property_teardown(af_ctx *c)
{
    if (!ic_class_is_registered(c->cls[0])) AF_OK(ic_class_dispose(c->cls[0]));
}

/* A subclass redeclaring a superclass's typed accessor gets libffi closures. */
static void redeclare_setup(af_ctx *c)
{
    property_setup(c, 0);
    AF_NOT_NULL(ic_class_add_property(c->cls[0], c->name, "q", 0, NULL, NULL));
    AF_OK(ic_class_register(c->cls[0]));
    char sub[64];
    snprintf(sub, sizeof sub, "AFPropertiesSub%u", c->id);
    c->cls[0] = AF_NOT_NULL(ic_class_allocate(sub, c->cls[0], 0));
    c->count = ic_class_instance_size(c->cls[0]);
}

/* ---- key-value coding */

/* A registered class with properties title (copied C string), friend (retained object), buddy
 * (weak object), big (a 600-byte struct: its accessor call's buffer is allocated); obj[0] and
 * obj[1] instances, obj[0].friend = obj[1], titles "old". */
static void kvc_setup(af_ctx *c)
{
    ic_class *cls = AF_NOT_NULL(ic_class_allocate(c->name, NULL, 0));
    AF_NOT_NULL(ic_class_add_property(cls, "title", "*", IC_PROPERTY_COPY, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "friend", "@", IC_PROPERTY_RETAIN, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "buddy", "@", IC_PROPERTY_WEAK, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "big", "{Big=[75q]}", 0, NULL, NULL));
    AF_OK(ic_class_register(cls));
    c->cls[0] = cls;
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(cls));
    c->obj[1] = AF_NOT_NULL(ic_class_create_instance(cls));
    c->obj[2] = AF_NOT_NULL(ic_class_create_instance(cls));
    const char *old = "old";
    AF_OK(ic_object_set_value_for_key(c->obj[0], "title", "*", &old, sizeof old));
    AF_OK(ic_object_set_value_for_key(c->obj[1], "title", "*", &old, sizeof old));
    AF_OK(ic_object_set_value_for_key(c->obj[0], "friend", "@", &c->obj[1], sizeof c->obj[1]));
    AF_OK(ic_object_set_value_for_key(c->obj[0], "buddy", "@", &c->obj[1], sizeof c->obj[1]));
}

static void kvc_teardown(af_ctx *c)
{
    ic_id none = NULL;
    AF_OK(ic_object_set_value_for_key(c->obj[0], "friend", "@", &none, sizeof none));
    af_release_objects(c);
}

static const char *title_of(ic_id obj, char *buffer, size_t size)
{
    char *title = NULL;
    AF_OK(ic_object_copy_value_for_key(obj, "title", "*", &title, sizeof title));
    snprintf(buffer, size, "%s", title ? title : "(null)");
    free(title);
    return buffer;
}

static ic_status set_title_run(af_ctx *c)
{
    const char *title = "new";
    return ic_object_set_value_for_key(c->obj[0], "title", "*", &title, sizeof title);
}

static ic_status set_title_path_run(af_ctx *c)
{
    const char *title = "new";
    return ic_object_set_value_for_key_path(c->obj[0], "friend.title", "*", &title, sizeof title);
}

static void title_is(af_ctx *c, ic_id obj, const char *expected)
{
    (void)c;
    char buffer[16];
    AF_CHECK(strcmp(title_of(obj, buffer, sizeof buffer), expected) == 0, "title is %s, not %s",
             buffer, expected);
}

static void set_title_done(af_ctx *c)
{
    title_is(c, c->obj[0], "new");
}

static void set_title_untouched(af_ctx *c)
{
    title_is(c, c->obj[0], "old");
}

static void set_title_path_done(af_ctx *c)
{
    title_is(c, c->obj[1], "new");
}

static void set_title_path_untouched(af_ctx *c)
{
    title_is(c, c->obj[1], "old");
}

static ic_status set_buddy_run(af_ctx *c)
{
    return ic_object_set_value_for_key(c->obj[0], "buddy", "@", &c->obj[2], sizeof c->obj[2]);
}

static ic_id buddy_of(ic_id obj)
{
    ic_id buddy = NULL;
    AF_OK(ic_object_copy_value_for_key(obj, "buddy", "@", &buddy, sizeof buddy));
    ic_release(buddy);
    return buddy;
}

static void set_buddy_done(af_ctx *c)
{
    AF_CHECK(buddy_of(c->obj[0]) == c->obj[2], "buddy is not the new value");
}

static void set_buddy_untouched(af_ctx *c)
{
    AF_CHECK(buddy_of(c->obj[0]) == c->obj[1], "buddy is not the old value");
}

static ic_status set_big_run(af_ctx *c)
{
    long long big[75];
    for (int i = 0; i < 75; i++)
        big[i] = i + 1;
    return ic_object_set_value_for_key(c->obj[0], "big", "{Big=[75q]}", big, sizeof big);
}

static void set_big_done(af_ctx *c)
{
    long long big[75] = {0};
    AF_OK(ic_object_copy_value_for_key(c->obj[0], "big", "{Big=[75q]}", big, sizeof big));
    AF_CHECK(big[0] == 1 && big[74] == 75, "big reads %lld..%lld", big[0], big[74]);
}

static void set_big_untouched(af_ctx *c)
{
    long long big[75] = {1};
    AF_OK(ic_object_copy_value_for_key(c->obj[0], "big", "{Big=[75q]}", big, sizeof big));
    AF_CHECK(big[0] == 0 && big[74] == 0, "big changed");
}

/* Reads: the copy of a C string is allocated; a failure hands out nothing. */
static ic_status copy_title_run(af_ctx *c)
{
    char *title = NULL;
    ic_status s = ic_object_copy_value_for_key(c->obj[0], "title", "*", &title, sizeof title);
    if (s == IC_OK) snprintf(c->text, sizeof c->text, "%s", title);
    free(title);
    return s;
}

static ic_status copy_title_path_run(af_ctx *c)
{
    char *title = NULL;
    ic_status s =
        ic_object_copy_value_for_key_path(c->obj[0], "friend.title", "*", &title, sizeof title);
    if (s == IC_OK) snprintf(c->text, sizeof c->text, "%s", title);
    free(title);
    return s;
}

static ic_status copy_property_run(af_ctx *c)
{
    char *title = NULL;
    ic_property *p = ic_class_get_property(c->cls[0], "title");
    ic_status s = ic_object_copy_property_value(c->obj[0], p, &title, sizeof title);
    if (s == IC_OK) {
        snprintf(c->text, sizeof c->text, "%s", title);
        free(title);
        title = NULL;
        s = ic_object_copy_checked_property_value(c->obj[0], p, &title);
        if (s == IC_OK && strcmp(title, c->text) != 0) s = IC_ERR_INVALID_ARGUMENT;
    }
    free(title);
    return s;
}

static void copy_title_done(af_ctx *c)
{
    AF_CHECK(strcmp(c->text, "old") == 0, "read %s", c->text);
}

/* A getter the class wrote (getTitle: not a declared property): its C string is copied too. */
static const char *get_label(ic_id self, ic_sel cmd)
{
    (void)self, (void)cmd;
    return "label";
}

static void label_setup(af_ctx *c)
{
    kvc_setup(c);
    snprintf(c->text, sizeof c->text, "getL%u", c->id);
    ic_sel sel = AF_NOT_NULL(ic_sel_register(c->text));
    AF_OK(ic_class_add_method(c->cls[0], sel, (ic_imp)get_label, "*@:"));
    snprintf(c->text, sizeof c->text, "l%u", c->id); /* the key */
}

static ic_status copy_label_run(af_ctx *c)
{
    char *label = NULL;
    ic_status s = ic_object_copy_value_for_key(c->obj[0], c->text, "*", &label, sizeof label);
    if (s == IC_OK) {
        c->value[1] = strcmp(label, "label") == 0;
        free(label);
    }
    return s;
}

static void copy_label_done(af_ctx *c)
{
    AF_CHECK(c->value[1], "the label read another string");
}

/* Resolving keys: no allocation (accessor selectors are looked up, never registered). */
static ic_status resolve_run(af_ctx *c)
{
    const char *type = ic_object_value_type_for_key(c->obj[0], c->text);
    ic_sel setter = ic_object_setter_for_key(c->obj[0], "title");
    bool ok = type && strcmp(type, "*") == 0 && setter == ic_sel_lookup("setTitle:");
    ok = ok && ic_object_value_type_for_key(c->obj[0], "missing") == NULL &&
         ic_error_status() == IC_ERR_UNKNOWN_KEY;
    ok = ok && ic_object_setter_for_key(c->obj[0], "missing") == NULL &&
         ic_error_status() == IC_ERR_UNKNOWN_KEY;
    return ok ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

const af_case af_property_cases[] = {
    AF_CASE(
        "ic_class_add_property: a typed scalar",
        "ic_class_add_property ic_class_get_property ic_class_copy_property_list ic_property_name "
        "ic_property_type ic_property_attributes ic_property_class ic_property_getter "
        "ic_property_setter",
        0, property_setup_0, add_property_run, add_property_done, add_property_untouched,
        property_teardown),
    AF_CASE("ic_class_add_property: a struct (libffi accessors)", "ic_class_add_property", 0,
            property_setup_1, add_property_run, add_property_done, add_property_untouched,
            property_teardown),
    AF_CASE("ic_class_add_property: a copied C string", "ic_class_add_property", 0,
            property_setup_2, add_property_run, add_property_done, add_property_untouched,
            property_teardown),
    AF_CASE("ic_class_add_property: a weak object", "ic_class_add_property", 0, property_setup_3,
            add_property_run, add_property_done, add_property_untouched, property_teardown),
    AF_CASE("ic_class_add_property: custom accessor names", "ic_class_add_property", 0,
            property_setup_4, add_property_run, add_property_done, add_property_untouched,
            property_teardown),
    AF_CASE("ic_class_add_property: readonly", "ic_class_add_property", 0, property_setup_5,
            add_property_run, add_property_done, add_property_untouched, property_teardown),
    AF_CASE("ic_class_add_property: dynamic, on a registered class", "ic_class_add_property", 0,
            property_setup_6, add_property_run, add_property_done, add_property_untouched,
            property_teardown),
    AF_CASE("ic_class_add_property: redeclared in a subclass (libffi accessors)",
            "ic_class_add_property", 0, redeclare_setup, add_property_run, add_property_done,
            add_property_untouched, property_teardown),
    AF_CASE("ic_object_set_value_for_key: a copied C string", "ic_object_set_value_for_key", 0,
            kvc_setup, set_title_run, set_title_done, set_title_untouched, kvc_teardown),
    AF_CASE("ic_object_set_value_for_key_path: a copied C string",
            "ic_object_set_value_for_key_path", 0, kvc_setup, set_title_path_run,
            set_title_path_done, set_title_path_untouched, kvc_teardown),
    AF_CASE("ic_object_set_value_for_key: a weak object", "ic_object_set_value_for_key", 0,
            kvc_setup, set_buddy_run, set_buddy_done, set_buddy_untouched, kvc_teardown),
    AF_CASE("ic_object_set_value_for_key: a 600-byte struct", "ic_object_set_value_for_key", 0,
            kvc_setup, set_big_run, set_big_done, set_big_untouched, kvc_teardown),
    AF_CASE("ic_object_copy_value_for_key: a copied C string", "ic_object_copy_value_for_key", 0,
            kvc_setup, copy_title_run, copy_title_done, NULL, kvc_teardown),
    AF_CASE("ic_object_copy_value_for_key_path: a copied C string",
            "ic_object_copy_value_for_key_path", 0, kvc_setup, copy_title_path_run, copy_title_done,
            NULL, kvc_teardown),
    AF_CASE("ic_object_copy_property_value: a copied C string",
            "ic_object_copy_property_value ic_object_copy_checked_property_value", 0, kvc_setup,
            copy_property_run, copy_title_done, NULL, kvc_teardown),
    AF_CASE("ic_object_copy_value_for_key: a hand-written getter's C string",
            "ic_object_copy_value_for_key", 0, label_setup, copy_label_run, copy_label_done, NULL,
            kvc_teardown),
    AF_CASE("resolving keys allocates nothing",
            "ic_object_value_type_for_key ic_object_setter_for_key", AF_NO_ALLOCATION, label_setup,
            resolve_run, NULL, NULL, kvc_teardown),
    {0},
};
