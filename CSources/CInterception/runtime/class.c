/*
 * class.c — the class table, class allocation and registration (each class with its metaclass:
 * docs/ARCHITECTURE.md, "Metaclasses"), class queries, and cache invalidation across subclasses.
 *
 * Locking: ic_runtime_lock guards the class table (`classes`, by name, holding allocated and
 * registered classes so names stay unique), every class's method and subclass lists and its
 * dispatch-table writes. Immutable class fields (name, superclass, sizes) and the atomic flags are
 * read without a lock.
 */
#include "class.h"

#include <stdlib.h>
#include <string.h>

#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"
#include "object.h"
#include "property.h"
#include "protocol.h"
#include "selector.h"

ic_class *ic_root_class;

/* name → class, for allocated and registered classes. Guarded by ic_runtime_lock. */
static ic_map classes = IC_MAP_INIT(IC_MAP_STRING_KEYS);
static size_t registered_count;

ic_class *ic_class_named_locked(const char *name)
{
    return ic_map_get(&classes, (uintptr_t)name);
}

bool ic_class_each_locked(bool (*fn)(ic_class *cls, void *context), void *context)
{
    /* Without a rehash, an insertion only fills an empty bucket: the walk by index stays valid. */
    if (!ic_map_reserve(&classes, classes.count)) return false;
    for (size_t i = 0; i < classes.capacity; i++)
        if (classes.entries[i].key && !fn(classes.entries[i].value, context)) return false;
    return true;
}

/* Writes the object header of a class record: its class is `isa`, its count 1 for good (the
 * root metaclass's retain and release are no-ops), no storage. */
static void init_class_object(ic_class *cls, ic_class *isa)
{
    atomic_init(&cls->object.state, IC_RC_ONE);
    atomic_init(&cls->object.side, NULL);
    cls->object.alloc_size = IC_OBJECT_HEADER_SIZE;
    atomic_init(&cls->object.isa, isa);
}

/* The fields every class record starts with. */
static void init_class_record(ic_class *cls, const char *name, ic_class *superclass, size_t offset,
                              size_t storage_bytes)
{
    ic_dtable_init(&cls->dtable);
    cls->name = name;
    cls->superclass = superclass;
    cls->storage_offset = offset;
    cls->storage_size = storage_bytes;
    cls->instance_size = offset + storage_bytes;
    atomic_init(&cls->flags, 0);
    atomic_init(&cls->live_instances, 0);
    atomic_init(&cls->zombie, NULL);
}

ic_class *ic_class_allocate_locked(const char *name, ic_class *superclass, size_t storage_bytes,
                                   ic_status *status)
{
    size_t offset = superclass ? IC_ALIGN_UP(superclass->instance_size, 16) : IC_OBJECT_HEADER_SIZE;
    if (storage_bytes > IC_MAX_INSTANCE_SIZE || offset + storage_bytes > IC_MAX_INSTANCE_SIZE) {
        *status = ic_fail(IC_ERR_LIMIT, "class \"%s\": instances would exceed %zu bytes", name,
                          IC_MAX_INSTANCE_SIZE);
        return NULL;
    }
    ic_class *cls = calloc(1, sizeof *cls);
    ic_class *meta = calloc(1, sizeof *meta);
    char *copy = strdup(name);
    if (!cls || !meta || !copy || !ic_map_put(&classes, (uintptr_t)copy, cls)) {
        free(cls);
        free(meta);
        free(copy);
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory allocating class \"%s\"", name);
        return NULL;
    }
    init_class_record(cls, copy, superclass, offset, storage_bytes);
    /* The metaclass: its instance is the class object, so its "instances" are class records.
     * Root: its superclass is the root class and its isa itself; otherwise the superclass's
     * metaclass, and the root metaclass. */
    init_class_record(meta, copy, superclass ? ic_class_isa(superclass) : cls,
                      IC_ALIGN_UP(sizeof(ic_class), 16), 0);
    atomic_init(&meta->flags, IC_CLASS_META);
    meta->nonmeta = cls;
    init_class_object(meta, superclass ? ic_class_isa(ic_root_class) : meta);
    init_class_object(cls, meta);
    *status = IC_OK;
    return cls;
}

ic_class *ic_class_allocate_bare_locked(const char *name, ic_status *status)
{
    ic_class *cls = calloc(1, sizeof *cls);
    char *copy = strdup(name);
    if (!cls || !copy || !ic_map_put(&classes, (uintptr_t)copy, cls)) {
        free(cls);
        free(copy);
        *status = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory allocating class \"%s\"", name);
        return NULL;
    }
    init_class_record(cls, copy, NULL, IC_OBJECT_HEADER_SIZE, 0);
    init_class_object(cls, ic_class_isa(ic_root_class));
    *status = IC_OK;
    return cls;
}

/* `cls`'s own metaclass, or NULL (a bare class, or a metaclass). */
static ic_class *own_metaclass(const ic_class *cls)
{
    ic_class *meta = ic_class_isa(cls);
    return meta->nonmeta == cls ? meta : NULL;
}

/* Makes room for one more direct subclass of `super`. */
static bool reserve_subclass_locked(ic_class *super)
{
    if (super->subclass_count < super->subclass_capacity) return true;
    size_t capacity = super->subclass_capacity ? super->subclass_capacity * 2 : 4;
    ic_class **grown = realloc(super->subclasses, capacity * sizeof *grown);
    if (!grown) return false;
    super->subclasses = grown;
    super->subclass_capacity = capacity;
    return true;
}

/* Publishes one class record (room in its superclass's subclass list was reserved). */
static void register_one_locked(ic_class *cls)
{
    if (cls->superclass) cls->superclass->subclasses[cls->superclass->subclass_count++] = cls;
    uint32_t flags = IC_CLASS_REGISTERED;
    if (cls->superclass && ic_class_has_flag(cls->superclass, IC_CLASS_CUSTOM_RR))
        flags |= IC_CLASS_CUSTOM_RR;
    if (cls != ic_root_class && (ic_class_own_method_locked(cls, ic_sels.retain) ||
                                 ic_class_own_method_locked(cls, ic_sels.release)))
        flags |= IC_CLASS_CUSTOM_RR;
    atomic_fetch_or_explicit(&cls->flags, flags, memory_order_release);
}

ic_status ic_class_register_locked(ic_class *cls)
{
    if (ic_class_has_flag(cls, IC_CLASS_REGISTERED))
        return ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED, "class \"%s\" is already registered",
                       cls->name);
    ic_class *meta = own_metaclass(cls);
    /* Reserve both places first, so a failure leaves nothing half registered. (The root
     * metaclass's superclass is the root class, registered just before it.) */
    if ((cls->superclass && !reserve_subclass_locked(cls->superclass)) ||
        (meta && !reserve_subclass_locked(meta->superclass)))
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering class \"%s\"", cls->name);
    if (!ic_class_seal_properties_locked(cls))
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory registering class \"%s\"", cls->name);
    register_one_locked(cls);
    if (meta) register_one_locked(meta);
    registered_count++;
    return IC_OK;
}

ic_class *ic_class_allocate(const char *name, ic_class *superclass, size_t storage_bytes)
{
    ic_runtime_init();
    if (!name || !*name) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "a class name must be a non-empty string");
        return NULL;
    }
    if (!superclass) superclass = ic_root_class;
    ic_status status;
    ic_class *cls = NULL;
    ic_lock(&ic_runtime_lock);
    if (!ic_class_has_flag(superclass, IC_CLASS_REGISTERED))
        ic_fail(IC_ERR_CLASS_NOT_REGISTERED,
                "cannot subclass \"%s\" to make \"%s\": the superclass is not registered",
                superclass->name, name);
    else if (ic_class_has_flag(superclass, IC_CLASS_META))
        ic_fail(IC_ERR_INVALID_ARGUMENT,
                "cannot subclass metaclass \"%s\" to make \"%s\": metaclasses are made with "
                "their classes",
                superclass->name, name);
    else if (ic_class_has_flag(superclass, IC_CLASS_ZOMBIE))
        ic_fail(IC_ERR_INVALID_ARGUMENT, "cannot subclass zombie class \"%s\" to make \"%s\"",
                superclass->name, name);
    else if (ic_class_named_locked(name))
        ic_fail(IC_ERR_DUPLICATE_CLASS, "a class named \"%s\" already exists", name);
    else
        cls = ic_class_allocate_locked(name, superclass, storage_bytes, &status);
    ic_unlock(&ic_runtime_lock);
    return cls;
}

ic_status ic_class_register(ic_class *cls)
{
    if (!cls) return ic_fail(IC_ERR_INVALID_ARGUMENT, "class is NULL");
    if (ic_class_has_flag(cls, IC_CLASS_META))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "metaclass \"%s\" is registered with its class: register the class",
                       cls->name);
    ic_lock(&ic_runtime_lock);
    ic_status s = ic_class_register_locked(cls);
    ic_unlock(&ic_runtime_lock);
    return s;
}

/* Frees an unregistered class record and its methods (not its name, which a metaclass shares). */
static void free_class_record(ic_class *cls)
{
    ic_protocol_forget_class(cls);
    /* Unregistered: no instances, no subclasses, no forwarders, and its dispatch table was
     * never read by a message send. */
    for (size_t i = 0; i < cls->method_count; i++) {
        free((void *)cls->methods[i]->types);
        free(cls->methods[i]);
    }
    free(cls->methods);
    ic_class_free_properties(cls);
    ic_dtable_destroy_unpublished(&cls->dtable);
    free(cls);
}

ic_status ic_class_dispose(ic_class *cls)
{
    if (!cls) return ic_fail(IC_ERR_INVALID_ARGUMENT, "class is NULL");
    if (ic_class_has_flag(cls, IC_CLASS_META))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "metaclass \"%s\" goes with its class: dispose the class", cls->name);
    ic_lock(&ic_runtime_lock);
    if (ic_class_has_flag(cls, IC_CLASS_REGISTERED)) {
        ic_unlock(&ic_runtime_lock);
        return ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED,
                       "class \"%s\" is registered; registered classes are immortal", cls->name);
    }
    ic_map_remove(&classes, (uintptr_t)cls->name);
    ic_unlock(&ic_runtime_lock);
    const char *name = cls->name;
    ic_class *meta = own_metaclass(cls);
    if (meta) free_class_record(meta);
    free_class_record(cls);
    free((void *)name);
    return IC_OK;
}

ic_class *ic_class_lookup(const char *name)
{
    if (!name) return NULL;
    ic_runtime_init();
    ic_lock(&ic_runtime_lock);
    ic_class *cls = ic_class_named_locked(name);
    if (cls && !ic_class_has_flag(cls, IC_CLASS_REGISTERED)) cls = NULL;
    ic_unlock(&ic_runtime_lock);
    return cls;
}

ic_class *ic_class_root(void)
{
    ic_runtime_init();
    return ic_root_class;
}

const char *ic_class_name(const ic_class *cls)
{
    return cls ? cls->name : NULL;
}

ic_class *ic_class_superclass(const ic_class *cls)
{
    return cls ? cls->superclass : NULL;
}

size_t ic_class_instance_size(const ic_class *cls)
{
    return cls ? cls->instance_size : 0;
}

size_t ic_class_storage_offset(const ic_class *cls)
{
    return cls ? cls->storage_offset : 0;
}

size_t ic_class_storage_size(const ic_class *cls)
{
    return cls ? cls->storage_size : 0;
}

bool ic_class_is_registered(const ic_class *cls)
{
    return cls && ic_class_has_flag(cls, IC_CLASS_REGISTERED);
}

bool ic_class_is_interception_subclass(const ic_class *cls)
{
    return cls && ic_class_has_flag(cls, IC_CLASS_INTERCEPTION_SUBCLASS);
}

bool ic_class_is_subclass_of(const ic_class *cls, const ic_class *ancestor)
{
    for (; cls; cls = cls->superclass)
        if (cls == ancestor) return true;
    return false;
}

ic_class *ic_class_metaclass(const ic_class *cls)
{
    return cls ? ic_class_isa(cls) : NULL;
}

bool ic_class_is_metaclass(const ic_class *cls)
{
    return cls && ic_class_has_flag(cls, IC_CLASS_META);
}

ic_class *ic_object_as_class(ic_id obj)
{
    return obj && ic_class_has_flag(ic_object_isa(obj), IC_CLASS_META) ? (ic_class *)(void *)obj
                                                                       : NULL;
}

size_t ic_class_live_instance_count(const ic_class *cls)
{
    return cls ? atomic_load_explicit(&((ic_class *)cls)->live_instances, memory_order_relaxed) : 0;
}

size_t ic_class_count(void)
{
    ic_runtime_init();
    ic_lock(&ic_runtime_lock);
    size_t n = registered_count;
    ic_unlock(&ic_runtime_lock);
    return n;
}

void ic_class_flush_selector_locked(ic_class *cls, ic_sel sel)
{
    ic_dtable_clear_locked(&cls->dtable, sel);
    for (size_t i = 0; i < cls->subclass_count; i++)
        ic_class_flush_selector_locked(cls->subclasses[i], sel);
}

void ic_class_flush_all_locked(ic_class *cls)
{
    ic_dtable_clear_all_locked(&cls->dtable);
    for (size_t i = 0; i < cls->subclass_count; i++)
        ic_class_flush_all_locked(cls->subclasses[i]);
}
