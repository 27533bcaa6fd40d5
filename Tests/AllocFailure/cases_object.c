/*
 * cases_object.c — the sweep's cases for objects: creation, class changes, reference counting and
 * deallocation, associated objects, weak references, zombies and autorelease pools.
 */
#include <string.h>

#include "sweep.h"

/* ---- ic_class_create_instance */

static void create_setup(af_ctx *c)
{
    c->cls[0] = af_make_class(c, "");
    c->count = ic_object_live_count();
}

static ic_status create_run(af_ctx *c)
{
    c->obj[0] = ic_class_create_instance(c->cls[0]);
    return af_status_of(c->obj[0]);
}

static void create_done(af_ctx *c)
{
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "wrong class");
    AF_CHECK(ic_object_live_count() == c->count + 1, "live objects %zu, expected %zu",
             ic_object_live_count(), c->count + 1);
    AF_CHECK(ic_class_live_instance_count(c->cls[0]) == 1, "live instances");
    AF_CHECK(af_send_add(c->obj[0], 1) == 2, "add:");
}

static void create_untouched(af_ctx *c)
{
    AF_CHECK(ic_object_live_count() == c->count, "live objects changed");
    AF_CHECK(ic_class_live_instance_count(c->cls[0]) == 0, "live instances changed");
}

/* ---- queries and reference counting allocate nothing */

static ic_status queries_run(af_ctx *c)
{
    ic_id obj = c->obj[0];
    bool ok = ic_retain(obj) == obj && ic_object_retain_count(obj) == 2;
    ic_release(obj);
    ok = ok && ic_object_retain_count(obj) == 1 && !ic_object_is_deallocating(obj);
    ok = ok && ic_object_storage(obj) != NULL && ic_object_storage_size(obj) >= 16;
    ok = ok && ic_object_storage_for_class(obj, c->cls[0]) != NULL;
    ok = ok && strcmp(ic_object_class_name(obj), ic_class_name(c->cls[0])) == 0;
    ok = ok && ic_object_live_count() > 0 && !ic_zombies_enabled();
    /* Moving between registered classes with zombies off: a pointer swap. */
    ok = ok && ic_object_set_class(obj, c->cls[1]) == c->cls[0] &&
         ic_object_set_class(obj, c->cls[0]) == c->cls[1];
    return ok ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

static void queries_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->cls[0] = ic_object_get_class(c->obj[0]);
    c->cls[1] = af_make_class(c, "_other");
}

/* ---- ic_object_set_associated */

static const char key_a = 'a', key_b = 'b';

static void associate_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->obj[1] = ic_class_create_instance(ic_object_get_class(c->obj[0]));
}

/* A second key on an object that already has one: the list grows past its first capacity on
 * some runs (the fifth key). */
static void associate_more_setup(af_ctx *c)
{
    associate_setup(c);
    static const char keys[4];
    for (int i = 0; i < 4; i++)
        AF_OK(ic_object_set_associated(c->obj[0], &keys[i], c->obj[0], IC_ASSOCIATION_ASSIGN));
}

static ic_status associate_run(af_ctx *c)
{
    return ic_object_set_associated(c->obj[0], &key_a, c->obj[1], IC_ASSOCIATION_RETAIN);
}

static void associate_done(af_ctx *c)
{
    AF_CHECK(ic_object_get_associated(c->obj[0], &key_a) == c->obj[1], "not associated");
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 2, "the value is not retained once");
    ic_id copy = ic_object_copy_associated(c->obj[0], &key_a);
    AF_CHECK(copy == c->obj[1] && ic_object_retain_count(copy) == 3, "copy");
    ic_release(copy);
}

static void associate_untouched(af_ctx *c)
{
    AF_CHECK(ic_object_get_associated(c->obj[0], &key_a) == NULL, "associated although it failed");
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 1, "the value kept a retain");
}

/* Replacing and removing an association, and removing them all, allocate nothing. */
static void associate_replace_setup(af_ctx *c)
{
    associate_setup(c);
    c->obj[2] = ic_class_create_instance(ic_object_get_class(c->obj[0]));
    AF_OK(ic_object_set_associated(c->obj[0], &key_a, c->obj[1], IC_ASSOCIATION_RETAIN));
    AF_OK(ic_object_set_associated(c->obj[0], &key_b, c->obj[1], IC_ASSOCIATION_RETAIN));
}

static ic_status associate_replace_run(af_ctx *c)
{
    ic_status s = ic_object_set_associated(c->obj[0], &key_a, c->obj[2], IC_ASSOCIATION_RETAIN);
    if (s == IC_OK) s = ic_object_set_associated(c->obj[0], &key_b, NULL, IC_ASSOCIATION_RETAIN);
    if (s == IC_OK) s = ic_object_remove_associated_objects(c->obj[0]);
    return s;
}

static void associate_replace_done(af_ctx *c)
{
    AF_CHECK(ic_object_get_associated(c->obj[0], &key_a) == NULL, "still associated");
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 1 && ic_object_retain_count(c->obj[2]) == 1,
             "values kept retains");
}

/* ---- ic_weak_store: a failure leaves the location as it was */

static void weak_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    c->obj[1] = ic_class_create_instance(ic_object_get_class(c->obj[0]));
    c->value[0] = 0;
    AF_OK(ic_weak_store((ic_id *)&c->value[0], c->obj[1])); /* the previous value */
}

static ic_status weak_run(af_ctx *c)
{
    return ic_weak_store((ic_id *)&c->value[0], c->obj[0]);
}

static ic_id weak_value(af_ctx *c)
{
    ic_id value = ic_weak_load_retained((ic_id *)&c->value[0]);
    ic_release(value);
    return value;
}

static void weak_done(af_ctx *c)
{
    AF_CHECK(weak_value(c) == c->obj[0], "the location does not hold the new value");
    ic_release(c->obj[1]);
    c->obj[1] = NULL;
    AF_CHECK(weak_value(c) == c->obj[0], "the old value's death zeroed the location");
}

static void weak_untouched(af_ctx *c)
{
    AF_CHECK(weak_value(c) == c->obj[1], "the location does not hold its previous value");
}

static void weak_teardown(af_ctx *c)
{
    ic_weak_destroy((ic_id *)&c->value[0]);
    AF_CHECK(c->value[0] == 0, "ic_weak_destroy left a value");
    af_release_objects(c);
}

/* ---- deallocation allocates nothing: associated objects, weak references, property values */

static void dealloc_setup(af_ctx *c)
{
    ic_class *cls = AF_NOT_NULL(ic_class_allocate(c->name, NULL, 0));
    AF_NOT_NULL(ic_class_add_property(cls, "title", "*", IC_PROPERTY_COPY, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "friend", "@", IC_PROPERTY_RETAIN, NULL, NULL));
    AF_NOT_NULL(ic_class_add_property(cls, "buddy", "@", IC_PROPERTY_WEAK, NULL, NULL));
    AF_OK(ic_class_register(cls));
    c->cls[0] = cls;
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(cls));
    c->obj[1] = AF_NOT_NULL(ic_class_create_instance(cls));
    const char *title = "title";
    AF_OK(ic_object_set_value_for_key(c->obj[0], "title", "*", &title, sizeof title));
    AF_OK(ic_object_set_value_for_key(c->obj[0], "friend", "@", &c->obj[1], sizeof c->obj[1]));
    AF_OK(ic_object_set_value_for_key(c->obj[1], "buddy", "@", &c->obj[0], sizeof c->obj[0]));
    AF_OK(ic_object_set_associated(c->obj[0], &key_a, c->obj[1], IC_ASSOCIATION_RETAIN));
    c->value[0] = 0;
    AF_OK(ic_weak_store((ic_id *)&c->value[0], c->obj[0]));
    c->count = ic_object_live_count();
}

static ic_status dealloc_run(af_ctx *c)
{
    ic_release(c->obj[0]);
    return IC_OK;
}

static void dealloc_done(af_ctx *c)
{
    c->obj[0] = NULL;
    AF_CHECK(ic_object_live_count() == c->count - 1, "live objects %zu, expected %zu",
             ic_object_live_count(), c->count - 1);
    AF_CHECK(c->value[0] == 0, "the weak location was not zeroed");
    AF_CHECK(ic_object_retain_count(c->obj[1]) == 1, "the friend keeps %zu references",
             ic_object_retain_count(c->obj[1]));
    ic_id buddy = (ic_id)(void *)1;
    AF_OK(ic_object_copy_value_for_key(c->obj[1], "buddy", "@", &buddy, sizeof buddy));
    AF_CHECK(buddy == NULL, "the weak property still reads the dead object");
}

/* ---- zombies: turning them on makes every zombie class ahead (it can fail); a deallocation
 * with zombies on then allocates nothing and always keeps a zombie */

static void zombies_setup(af_ctx *c)
{
    c->cls[0] = af_make_class(c, "");
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
}

/* A sibling's death first (it caches the class's dealloc: see af_warm). */
static void warm_zombie_dealloc(af_ctx *c)
{
    ic_id sibling = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    ic_release(sibling);
    if (ic_zombies_enabled()) af_keep_zombie(sibling);
}

static ic_status zombies_on_run(af_ctx *c)
{
    (void)c;
    return ic_zombies_set_enabled(true);
}

static void zombie_check(ic_id zombie, ic_class *cls)
{
    char expected[128];
    snprintf(expected, sizeof expected, "_ICZombie_%s", ic_class_name(cls));
    AF_CHECK(strcmp(ic_object_class_name(zombie), expected) == 0,
             "the dead object's class is %s, not %s", ic_object_class_name(zombie), expected);
}

static void zombies_on_done(af_ctx *c)
{
    AF_CHECK(ic_zombies_enabled(), "zombies are off");
    ic_release(c->obj[0]); /* allocates nothing now (checked by the next cases) */
    zombie_check(c->obj[0], c->cls[0]);
    af_keep_zombie(c->obj[0]);
    c->obj[0] = NULL;
}

static void zombies_on_untouched(af_ctx *c)
{
    (void)c;
    AF_CHECK(!ic_zombies_enabled(), "zombies are on although turning them on failed");
}

static void zombies_off(af_ctx *c)
{
    AF_OK(ic_zombies_set_enabled(false));
    af_release_objects(c);
}

static void zombie_dealloc_setup(af_ctx *c)
{
    AF_OK(ic_zombies_set_enabled(true));
    zombies_setup(c); /* created with zombies on: its class's zombie class is made here */
    warm_zombie_dealloc(c);
}

/* An object created before zombies were turned on. */
static void zombie_dealloc_older_setup(af_ctx *c)
{
    zombies_setup(c);
    warm_zombie_dealloc(c);
    AF_OK(ic_zombies_set_enabled(true));
}

static ic_status zombie_dealloc_run(af_ctx *c)
{
    ic_release(c->obj[0]);
    return IC_OK;
}

static void zombie_dealloc_done(af_ctx *c)
{
    zombie_check(c->obj[0], c->cls[0]);
    af_keep_zombie(c->obj[0]);
    c->obj[0] = NULL;
}

/* Creating an instance with zombies on makes its class's zombie class (reported if it fails). */
static ic_status zombie_create_run(af_ctx *c)
{
    c->obj[1] = ic_class_create_instance(c->cls[1]);
    return af_status_of(c->obj[1]);
}

static void zombie_create_setup(af_ctx *c)
{
    AF_OK(ic_zombies_set_enabled(true));
    c->cls[1] = af_make_class(c, "_created");
    c->count = ic_object_live_count();
}

static void zombie_create_done(af_ctx *c)
{
    ic_release(c->obj[1]);
    zombie_check(c->obj[1], c->cls[1]);
    af_keep_zombie(c->obj[1]);
    c->obj[1] = NULL;
}

static void zombie_create_untouched(af_ctx *c)
{
    AF_CHECK(ic_object_live_count() == c->count, "live objects changed");
}

/* Moving an object to another class with zombies on makes that class's zombie class. */
static void zombie_set_class_setup(af_ctx *c)
{
    AF_OK(ic_zombies_set_enabled(true));
    c->cls[0] = af_make_class(c, "");
    c->obj[0] = AF_NOT_NULL(ic_class_create_instance(c->cls[0]));
    c->cls[1] = af_make_class(c, "_moved");
}

static ic_status zombie_set_class_run(af_ctx *c)
{
    return af_status_of(ic_object_set_class(c->obj[0], c->cls[1]));
}

static void zombie_set_class_done(af_ctx *c)
{
    ic_release(c->obj[0]);
    zombie_check(c->obj[0], c->cls[1]);
    af_keep_zombie(c->obj[0]);
    c->obj[0] = NULL;
}

static void zombie_set_class_untouched(af_ctx *c)
{
    AF_CHECK(ic_object_get_class(c->obj[0]) == c->cls[0], "the object moved although it failed");
}

/* ---- autorelease pools: parking with room in the pool allocates nothing (a pool that cannot
 * grow traps, as documented: a getter has no error to return) */

static void autorelease_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
    size_t mark = ic_autorelease_pool_push();
    ic_autorelease(ic_retain(c->obj[0])); /* the thread's pool has room from here on */
    ic_autorelease_pool_pop(mark);
}

static ic_status autorelease_run(af_ctx *c)
{
    size_t mark = ic_autorelease_pool_push();
    size_t before = ic_autorelease_pool_count();
    ic_autorelease(ic_retain(c->obj[0]));
    ic_autorelease_free(NULL);
    bool ok = ic_autorelease_pool_count() == before + 1 && ic_object_retain_count(c->obj[0]) == 2;
    ic_autorelease_pool_pop(mark);
    return ok && ic_object_retain_count(c->obj[0]) == 1 ? IC_OK : IC_ERR_INVALID_ARGUMENT;
}

/* Parking in a pool that must grow (this process's first park): a getter has no error to return,
 * so out of memory there traps (documented, as objc4). */
static void autorelease_grow_setup(af_ctx *c)
{
    c->obj[0] = af_make_object(c, "");
}

static ic_status autorelease_grow_run(af_ctx *c)
{
    size_t mark = ic_autorelease_pool_push();
    ic_autorelease(ic_retain(c->obj[0]));
    c->count = ic_autorelease_pool_count() - mark;
    ic_autorelease_pool_pop(mark);
    return IC_OK;
}

static void autorelease_grow_done(af_ctx *c)
{
    AF_CHECK(c->count == 1 && ic_object_retain_count(c->obj[0]) == 1, "parked %zu", c->count);
}

const af_case af_object_cases[] = {
    AF_CASE("ic_class_create_instance", "ic_class_create_instance ic_object_live_count", 0,
            create_setup, create_run, create_done, create_untouched, af_release_objects),
    AF_CASE(
        "object queries and reference counting allocate nothing",
        "ic_retain ic_release ic_object_retain_count ic_object_is_deallocating ic_object_storage "
        "ic_object_storage_size ic_object_storage_for_class ic_object_class_name "
        "ic_zombies_enabled ic_object_set_class",
        AF_NO_ALLOCATION, queries_setup, queries_run, NULL, NULL, af_release_objects),
    AF_CASE("ic_object_set_associated: a first value",
            "ic_object_set_associated ic_object_get_associated ic_object_copy_associated", 0,
            associate_setup, associate_run, associate_done, associate_untouched,
            af_release_objects),
    AF_CASE("ic_object_set_associated: a fifth key", "ic_object_set_associated", 0,
            associate_more_setup, associate_run, associate_done, associate_untouched,
            af_release_objects),
    AF_CASE("ic_object_set_associated: replacing and removing allocate nothing",
            "ic_object_set_associated ic_object_remove_associated_objects", AF_NO_ALLOCATION,
            associate_replace_setup, associate_replace_run, associate_replace_done, NULL,
            af_release_objects),
    AF_CASE("ic_weak_store: replacing a weak reference",
            "ic_weak_store ic_weak_load_retained ic_weak_destroy", 0, weak_setup, weak_run,
            weak_done, weak_untouched, weak_teardown),
    AF_CASE("ic_release: deallocation with associations, properties and weak references",
            "ic_release", AF_NO_ALLOCATION, dealloc_setup, dealloc_run, dealloc_done, NULL,
            af_release_objects),
    AF_CASE("ic_zombies_set_enabled: on, with live objects",
            "ic_zombies_set_enabled ic_zombies_enabled", 0, zombies_setup, zombies_on_run,
            zombies_on_done, zombies_on_untouched, zombies_off),
    AF_CASE("ic_release: with zombies on", "ic_release", AF_NO_ALLOCATION, zombie_dealloc_setup,
            zombie_dealloc_run, zombie_dealloc_done, NULL, zombies_off),
    AF_CASE("ic_release: with zombies on, an object older than them", "ic_release",
            AF_NO_ALLOCATION, zombie_dealloc_older_setup, zombie_dealloc_run, zombie_dealloc_done,
            NULL, zombies_off),
    AF_CASE("ic_class_create_instance: with zombies on", "ic_class_create_instance", 0,
            zombie_create_setup, zombie_create_run, zombie_create_done, zombie_create_untouched,
            zombies_off),
    AF_CASE("ic_object_set_class: with zombies on", "ic_object_set_class", 0,
            zombie_set_class_setup, zombie_set_class_run, zombie_set_class_done,
            zombie_set_class_untouched, zombies_off),
    AF_TRAP_CASE("ic_autorelease: growing the pool (documented trap)", "ic_autorelease",
                 AF_CANNOT_FAIL, autorelease_grow_setup, autorelease_grow_run,
                 autorelease_grow_done, NULL, af_release_objects, "autorelease: out of memory"),
    AF_CASE("ic_autorelease: with room in the pool",
            "ic_autorelease ic_autorelease_free ic_autorelease_pool_push ic_autorelease_pool_pop "
            "ic_autorelease_pool_count",
            AF_NO_ALLOCATION, autorelease_setup, autorelease_run, NULL, NULL, af_release_objects),
    {0},
};
