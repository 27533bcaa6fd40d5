/*
 * properties.c — the properties area: every type of the type matrix (ict_type_cases: every
 * scalar code of ic_types.def and every struct shape of both ABIs) through a synthesized
 * property (the typed C accessors for scalars, universal closure stubs for structs and long double:
 * libffi closures with IC_CLOSURE_FORCE_LIBFFI set), on
 * an instance and on a subclass instance, observed and hooked; key-value coding of it, of a
 * hand-written accessor pair and along a key path.
 *
 * Values are compared byte for byte on their significant bytes where the matrix has the type's
 * layout, field by field otherwise. The matrix's `@` samples are not live objects: key-value
 * coding (which retains what it reads) gets a live one instead.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cm.h"

/* Whether two values of `type` are the same. */
static bool same(const ict_type_case *type, const void *a, const void *b)
{
    size_t count;
    const ict_matrix_layout *layouts = ict_matrix_layouts(&count);
    for (size_t i = 0; i < count; i++)
        if (strcmp(layouts[i].name, type->name) == 0) return cm_same(&layouts[i], a, b);
    return type->equal(a, b);
}

/* Counts a setter call and checks its argument is `*expected`. */
typedef struct setter_seen {
    const ict_type_case *type;
    const void *expected;
    size_t calls, bad;
} setter_seen;

static void setter_observed(ic_invocation *call, void *context)
{
    setter_seen *seen = context;
    seen->calls++;
    if (!same(seen->type, ic_invocation_argument_pointer(call, 2), seen->expected)) seen->bad++;
}

static void count_call(ic_invocation *call, void *context)
{
    (void)call;
    ++*(size_t *)context;
}

/* Sets through the setter, reads through the getter, compares. */
static void set_get(cm_area *area, const ict_type_case *type, ic_id obj, const void *value,
                    const char *what)
{
    cm_value out;
    memset(&out, 0xA5, sizeof out);
    type->send_take(obj, cm_sel("setValue:"), value);
    type->send_make(obj, cm_sel("value"), out.bytes);
    cm_check(area, same(type, out.bytes, value), "%s: the getter read back another value", what);
}

/* Reads `key` of `obj` by key-value coding and checks it is `*expected`: a C string (which comes
 * as a malloc'ed copy) by its characters, an object (which comes retained) by pointer. */
static void check_read_by_key(cm_area *area, const ict_type_case *type, ic_id obj, const char *key,
                              const void *expected)
{
    cm_value out;
    memset(&out, 0, sizeof out);
    if (!cm_check(area,
                  ic_object_copy_value_for_key(obj, key, type->encoding, out.bytes, sizeof out) ==
                      IC_OK,
                  "reading %s by key: %s", key, ic_error_message()))
        return;
    if (type->encoding[0] == '*') {
        char *copy;
        memcpy(&copy, out.bytes, sizeof copy);
        cm_check(area, copy && strcmp(copy, *(char *const *)expected) == 0,
                 "%s read by key: another string", key);
        free(copy);
        return;
    }
    cm_check(area, same(type, out.bytes, expected), "%s read by key: another value", key);
    if (type->encoding[0] == '@') ic_release(*(ic_id const *)expected); /* the read's +1 */
}

/* Key-value coding of "value": a set by key, a read by key and through the getter. */
static void key_value(cm_area *area, const ict_type_case *type, ic_id obj, ic_id live)
{
    const void *value = type->encoding[0] == '@' ? (const void *)&live : type->other;
    cm_check(area,
             ic_object_set_value_for_key(obj, "value", type->encoding, value, type->size) == IC_OK,
             "set by key: %s", ic_error_message());
    check_read_by_key(area, type, obj, "value", value);
    cm_value out;
    memset(&out, 0xA5, sizeof out);
    type->send_make(obj, cm_sel("value"), out.bytes);
    cm_check(area, same(type, out.bytes, value), "the getter after a set by key: another value");
}

/* Key-value coding through hand-written accessors `item` and `setItem:` (the type's make and
 * take IMPs), which it calls through invocations. */
static void key_value_by_methods(cm_area *area, const ict_type_case *type, ic_id live)
{
    char get_types[64], set_types[64];
    snprintf(get_types, sizeof get_types, "%s@:", type->encoding);
    snprintf(set_types, sizeof set_types, "v@:%s", type->encoding);
    const cm_method methods[] = {{"item", type->make_imp, get_types, false},
                                 {"setItem:", type->take_imp, set_types, false}};
    ic_class *cls = cm_class(area, "CMKeyValue", NULL, 0, methods, 2);
    if (!cls) return;
    ic_id obj = ic_class_create_instance(cls);
    const void *value = type->encoding[0] == '@' ? (const void *)&live : type->other;
    cm_check(area,
             ic_object_set_value_for_key(obj, "item", type->encoding, value, type->size) == IC_OK,
             "set by key through setItem: %s", ic_error_message());
    cm_check(area, same(type, ict_taken(), value), "setItem: received another value");
    /* `item` returns the sample, which for `@` is no live object (a read by key retains it). */
    if (type->encoding[0] != '@') check_read_by_key(area, type, obj, "item", type->sample);
    ic_release(obj);
}

/* "child.value" on an object whose retained `child` holds the property. */
static void key_path(cm_area *area, const ict_type_case *type, ic_class *leaf)
{
    ic_class *cls = ic_class_allocate(cm_unique("CMKeyPath"), NULL, 0);
    if (!cm_check(area,
                  cls &&
                      ic_class_add_property(cls, "child", "@", IC_PROPERTY_RETAIN, NULL, NULL) !=
                          NULL &&
                      ic_class_register(cls) == IC_OK,
                  "a class with a retained child: %s", ic_error_message()))
        return;
    ic_id parent = ic_class_create_instance(cls);
    ic_id child = ic_class_create_instance(leaf);
    IC_MSG(IC_FN(void, ic_id), parent, cm_sel("setChild:"), child);
    ic_release(child);
    cm_check(area,
             ic_object_set_value_for_key_path(parent, "child.value", type->encoding, type->sample,
                                              type->size) == IC_OK,
             "set along a key path: %s", ic_error_message());
    cm_value out;
    memset(&out, 0xA5, sizeof out);
    type->send_make(child, cm_sel("value"), out.bytes);
    cm_check(area, same(type, out.bytes, type->sample), "the key path set another value");
    ic_release(parent);
}

static void one_type(cm_area *area, const ict_type_case *type, ic_id live)
{
    ic_class *cls = ic_class_allocate(cm_unique("CMProperty"), NULL, 0);
    if (!cm_check(area, cls && ic_class_add_property(cls, "value", type->encoding, 0, NULL, NULL),
                  "declaring the property: %s", ic_error_message()) ||
        !cm_check(area, ic_class_register(cls) == IC_OK, "registering: %s", ic_error_message()))
        return;
    ic_class *sub = cm_class(area, "CMPropertySub", cls, 0, NULL, 0);
    if (!sub) return;
    ic_id obj = ic_class_create_instance(cls);
    ic_id sub_obj = ic_class_create_instance(sub);
    set_get(area, type, obj, type->sample, "instance");
    set_get(area, type, sub_obj, type->other, "subclass instance");
    set_get(area, type, obj, type->other, "instance, second value");

    /* Observed on the object (after the setter) and hooked class-wide (before the getter). */
    setter_seen seen = {type, type->sample, 0, 0};
    size_t getter_calls = 0;
    ic_observer_token observer = 0, getter_hook = 0;
    cm_check(area,
             ic_intercept_add_observer(obj, cm_sel("setValue:"), IC_OBSERVE_AFTER, setter_observed,
                                       &seen, NULL, &observer) == IC_OK &&
                 ic_hook_class(cls, cm_sel("value"), IC_HOOK_BEFORE, 0, count_call, &getter_calls,
                               NULL, &getter_hook) == IC_OK,
             "observing the accessors: %s", ic_error_message());
    set_get(area, type, obj, type->sample, "observed");
    cm_check(area, seen.calls == 1 && seen.bad == 0 && getter_calls == 1,
             "the setter's observer saw %zu calls (%zu other values), the getter's hook %zu",
             seen.calls, seen.bad, getter_calls);
    if (type->encoding[0] != '@') { /* a live object for `@` below, not `sample` */
        seen.expected = type->other;
        key_value(area, type, obj, live);
        cm_check(area, seen.calls == 2 && seen.bad == 0,
                 "a set by key reached the observed setter %zu times (%zu other values)",
                 seen.calls - 1, seen.bad);
    }
    ic_intercept_remove_observer(observer);
    ic_hook_remove(getter_hook);
    if (type->encoding[0] == '@') {
        key_value(area, type, obj, live);
        type->send_take(obj, cm_sel("setValue:"), type->sample); /* assign: no reference kept */
    }
    key_value_by_methods(area, type, live);
    key_path(area, type, cls);
    ic_release(obj);
    ic_release(sub_obj);
}

void cm_run_properties(void)
{
    cm_area *area = cm_area_named("properties and KVC");
    size_t count;
    const ict_type_case *types = ict_type_cases(&count);
    ic_class *live_class = cm_class(area, "CMLive", NULL, 0, NULL, 0);
    if (!live_class) return;
    ic_id live = ic_class_create_instance(live_class);
    for (size_t i = 0; i < count; i++) {
        cm_label("type %s %s", types[i].name, types[i].encoding);
        cm_case(area);
        one_type(area, &types[i], live);
    }
    cm_check(area, ic_object_retain_count(live) == 1,
             "the live object's count is %zu after the key-value reads, expected 1",
             ic_object_retain_count(live));
    ic_release(live);
    ic_intercept_quiesce();
}
