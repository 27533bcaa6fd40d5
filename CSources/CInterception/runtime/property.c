/*
 * property.c — property records, slot placement and the value semantics of synthesized
 * properties (retain, copy, weak, assign, copied strings), and their release at dealloc.
 *
 * Locking: a class's property list is guarded by ic_runtime_lock (dynamic properties may be
 * declared after registration). Slot layout is fixed at registration; `owned_slots`, the slots a
 * dealloc must release, is computed then and read lock-free afterwards. Slot values are guarded
 * per slot: words by atomic loads and stores, everything else by a striped spinlock (a leaf,
 * locks.h) held only for the copy or the pointer swap. No user code runs under it: `copy` is
 * sent before and the old value released after (the retain of an owned read is the exception,
 * as in objc4's atomic getters: a class with custom retain gets it sent under the stripe).
 */
#include "property.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "../support/error.h"
#include "../support/locks.h"
#include "../types/signature.h"
#include "class.h"
#include "object.h"
#include "selector.h"
#include "typed_accessor.h"

/* ---------------------------------------------------------------------------------------------
 * Stripe locks
 * ------------------------------------------------------------------------------------------- */

#define STRIPE_COUNT 64
static _Atomic(bool) stripes[STRIPE_COUNT];

static _Atomic(bool) *stripe_for(const void *slot)
{
    return &stripes[((uintptr_t)slot >> 4) % STRIPE_COUNT];
}

static void stripe_lock(_Atomic(bool) *stripe)
{
    while (atomic_exchange_explicit(stripe, true, memory_order_acquire)) {
        while (atomic_load_explicit(stripe, memory_order_relaxed))
            sched_yield();
    }
}

static void stripe_unlock(_Atomic(bool) *stripe)
{
    atomic_store_explicit(stripe, false, memory_order_release);
}

/* ---------------------------------------------------------------------------------------------
 * Declaration
 * ------------------------------------------------------------------------------------------- */

#define KNOWN_ATTRIBUTES                                                                           \
    (IC_PROPERTY_READONLY | IC_PROPERTY_RETAIN | IC_PROPERTY_COPY | IC_PROPERTY_WEAK |             \
     IC_PROPERTY_DYNAMIC)

/* "setName:" for "name". */
static char *default_setter_name(const char *name)
{
    size_t n = strlen(name);
    char *s = malloc(n + 5);
    if (!s) return NULL;
    memcpy(s, "set", 3);
    memcpy(s + 3, name, n);
    if (s[3] >= 'a' && s[3] <= 'z') s[3] = (char)(s[3] - 'a' + 'A');
    s[3 + n] = ':';
    s[4 + n] = '\0';
    return s;
}

static ic_status check_attributes(const ic_class *cls, const char *name, ic_type_kind kind,
                                  unsigned attributes)
{
    unsigned ownership = attributes & (IC_PROPERTY_RETAIN | IC_PROPERTY_COPY | IC_PROPERTY_WEAK);
    if (attributes & ~(unsigned)KNOWN_ATTRIBUTES)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" of \"%s\": unknown attributes 0x%x", name, cls->name,
                       attributes & ~(unsigned)KNOWN_ATTRIBUTES);
    if (ownership & (ownership - 1))
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" of \"%s\": at most one of retain, copy and weak", name,
                       cls->name);
    if ((ownership & (IC_PROPERTY_RETAIN | IC_PROPERTY_WEAK)) && kind != IC_KIND_OBJECT)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" of \"%s\": retain and weak need an object type (@)", name,
                       cls->name);
    if ((ownership & IC_PROPERTY_COPY) && kind != IC_KIND_OBJECT && kind != IC_KIND_CSTRING)
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" of \"%s\": copy needs an object (@) or a C string (*)",
                       name, cls->name);
    switch (kind) {
    case IC_KIND_VOID:
    case IC_KIND_ARRAY:
    case IC_KIND_UNKNOWN:
        return ic_fail(IC_ERR_INVALID_ARGUMENT,
                       "property \"%s\" of \"%s\": a property cannot have a void, array or "
                       "unknown (?) type",
                       name, cls->name);
    default:
        return IC_OK;
    }
}

static ic_property_slot slot_kind(const ic_sig_value *value, unsigned attributes)
{
    if (attributes & IC_PROPERTY_DYNAMIC) return IC_SLOT_NONE;
    if (value->type->kind == IC_KIND_OBJECT) {
        if (attributes & IC_PROPERTY_WEAK) return IC_SLOT_OBJECT_WEAK;
        if (attributes & IC_PROPERTY_RETAIN) return IC_SLOT_OBJECT_RETAIN;
        if (attributes & IC_PROPERTY_COPY) return IC_SLOT_OBJECT_COPY;
        return IC_SLOT_OBJECT_ASSIGN;
    }
    if (value->type->kind == IC_KIND_CSTRING && (attributes & IC_PROPERTY_COPY))
        return IC_SLOT_STRING_COPY;
    size_t n = value->size;
    bool word = (n == 1 || n == 2 || n == 4 || n == 8) && value->align == n;
    return word ? IC_SLOT_WORD : IC_SLOT_BYTES;
}

ic_property *ic_property_create_locked(ic_class *cls, const char *name, const char *type,
                                       unsigned attributes, const char *getter, const char *setter)
{
    if (!cls || !name || !*name || !type || !*type) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_add_property: %s",
                !cls ? "class is NULL" : "name and type must be non-empty strings");
        return NULL;
    }
    /* The getter's signature normalizes the type and checks that it is exactly one type. */
    size_t type_length = strlen(type);
    char *getter_types = malloc(type_length + 3);
    if (!getter_types) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory declaring property \"%s\"", name);
        return NULL;
    }
    memcpy(getter_types, type, type_length);
    memcpy(getter_types + type_length, "@:", 3);
    const ic_signature *sig = ic_signature_parse(getter_types);
    free(getter_types);
    if (!sig) return NULL;
    if (!sig->is_method || sig->arg_count != 2) {
        ic_fail(IC_ERR_MALFORMED_ENCODING,
                "property \"%s\" of \"%s\": \"%s\" is not exactly one type encoding", name,
                cls->name, type);
        return NULL;
    }
    if (check_attributes(cls, name, sig->ret.type->kind, attributes)) return NULL;
    for (size_t i = 0; i < cls->property_count; i++) {
        if (strcmp(cls->properties[i]->name, name) == 0) {
            ic_fail(IC_ERR_PROPERTY_EXISTS, "class \"%s\" already declares property \"%s\"",
                    cls->name, name);
            return NULL;
        }
    }
    bool synthesized = !(attributes & IC_PROPERTY_DYNAMIC);
    if (synthesized && ic_class_has_flag(cls, IC_CLASS_META)) {
        ic_fail(IC_ERR_INVALID_ARGUMENT,
                "cannot synthesize property \"%s\" on metaclass \"%s\": class objects have no "
                "instance storage (declare it IC_PROPERTY_DYNAMIC and write class methods)",
                name, cls->name);
        return NULL;
    }
    if (synthesized && ic_class_has_flag(cls, IC_CLASS_REGISTERED)) {
        ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED,
                "cannot synthesize property \"%s\": class \"%s\" is registered and its instance "
                "size is fixed (declare it IC_PROPERTY_DYNAMIC and write the accessors)",
                name, cls->name);
        return NULL;
    }
    size_t offset = synthesized ? IC_ALIGN_UP(cls->instance_size, sig->ret.align) : 0;
    if (synthesized && offset + sig->ret.size > IC_MAX_INSTANCE_SIZE) {
        ic_fail(IC_ERR_LIMIT, "class \"%s\": instances would exceed %zu bytes", cls->name,
                (size_t)IC_MAX_INSTANCE_SIZE);
        return NULL;
    }
    /* The accessor selectors first: they are interned for good (a failure below leaves them
     * registered, which nothing can observe but ic_sel_count). */
    char *setter_name = (attributes & IC_PROPERTY_READONLY) ? NULL
                        : setter                            ? strdup(setter)
                                                            : default_setter_name(name);
    bool setter_ok = (attributes & IC_PROPERTY_READONLY) || setter_name;
    ic_sel getter_sel = setter_ok ? ic_sel_register(getter ? getter : name) : NULL;
    ic_sel setter_sel = getter_sel && setter_name ? ic_sel_register(setter_name) : NULL;
    free(setter_name);
    ic_property *p = NULL;
    char *name_copy = NULL, *type_copy = NULL;
    if (getter_sel && (setter_sel || (attributes & IC_PROPERTY_READONLY))) {
        p = calloc(1, sizeof *p);
        name_copy = strdup(name);
        type_copy = strdup(sig->ret.encoding);
    }
    if (!p || !name_copy || !type_copy) {
        free(p);
        free(name_copy);
        free(type_copy);
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory declaring property \"%s\"", name);
        return NULL;
    }
    p->name = name_copy;
    p->type = type_copy;
    p->attributes = attributes;
    p->getter = getter_sel;
    p->setter = setter_sel;
    p->owner = cls;
    p->slot = slot_kind(&sig->ret, attributes);
    p->size = sig->ret.size;
    p->offset = offset;
    if (synthesized) cls->instance_size = offset + p->size;
    return p;
}

void ic_property_discard_locked(ic_property *p)
{
    if (p->slot != IC_SLOT_NONE && p->owner->instance_size == p->offset + p->size)
        p->owner->instance_size = p->offset; /* alignment padding before it stays: harmless */
    if (p->release_accessors) p->release_accessors(p);
    free((void *)p->name);
    free((void *)p->type);
    free(p);
}

bool ic_class_reserve_property_locked(ic_class *cls)
{
    if (cls->property_count < cls->property_capacity) return true;
    size_t capacity = cls->property_capacity ? cls->property_capacity * 2 : 4;
    ic_property **grown = realloc(cls->properties, capacity * sizeof *grown);
    if (!grown) return false;
    cls->properties = grown;
    cls->property_capacity = capacity;
    return true;
}

void ic_class_append_property_locked(ic_class *cls, ic_property *p)
{
    cls->properties[cls->property_count++] = p;
}

ic_property *ic_class_property_locked(const ic_class *cls, const char *name)
{
    for (; cls; cls = cls->superclass)
        for (size_t i = 0; i < cls->property_count; i++)
            if (strcmp(cls->properties[i]->name, name) == 0) return cls->properties[i];
    return NULL;
}

static bool slot_is_owned(ic_property_slot slot)
{
    return slot == IC_SLOT_OBJECT_RETAIN || slot == IC_SLOT_OBJECT_COPY ||
           slot == IC_SLOT_OBJECT_WEAK || slot == IC_SLOT_STRING_COPY;
}

bool ic_class_seal_properties_locked(ic_class *cls)
{
    /* Everything is allocated before anything is published, so a failure publishes nothing. */
    size_t link_count;
    ic_accessor_link *links = ic_typed_accessors_make_links_locked(cls, &link_count);
    if (link_count && !links) return false;
    size_t count = cls->superclass ? cls->superclass->owned_slot_count : 0;
    for (size_t i = 0; i < cls->property_count; i++)
        if (slot_is_owned(cls->properties[i]->slot)) count++;
    ic_owned_slot *slots = count ? calloc(count, sizeof *slots) : NULL;
    if (count && !slots) {
        free(links);
        return false;
    }
    size_t n = 0;
    if (cls->superclass && cls->superclass->owned_slot_count) {
        memcpy(slots, cls->superclass->owned_slots,
               cls->superclass->owned_slot_count * sizeof *slots);
        n = cls->superclass->owned_slot_count;
    }
    for (size_t i = 0; i < cls->property_count; i++) {
        const ic_property *p = cls->properties[i];
        if (slot_is_owned(p->slot))
            slots[n++] = (ic_owned_slot){.offset = p->offset, .slot = (uint8_t)p->slot};
    }
    cls->owned_slots = slots;
    cls->owned_slot_count = count;
    ic_typed_accessors_publish_locked(links, link_count);
    return true;
}

void ic_class_free_properties(ic_class *cls)
{
    for (size_t i = 0; i < cls->property_count; i++) {
        ic_property *p = cls->properties[i];
        if (p->release_accessors) p->release_accessors(p);
        free((void *)p->name);
        free((void *)p->type);
        free(p);
    }
    free(cls->properties);
    free((void *)cls->owned_slots);
}

/* ---------------------------------------------------------------------------------------------
 * Lookup and listing (public)
 * ------------------------------------------------------------------------------------------- */

ic_property *ic_class_get_property(const ic_class *cls, const char *name)
{
    if (!cls || !name) return NULL;
    ic_lock(&ic_runtime_lock);
    ic_property *p = ic_class_property_locked(cls, name);
    ic_unlock(&ic_runtime_lock);
    return p;
}

ic_property **ic_class_copy_property_list(const ic_class *cls, size_t *count)
{
    if (!cls || !count) {
        if (count) *count = 0;
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_copy_property_list: %s is NULL",
                !cls ? "class" : "count");
        return NULL;
    }
    ic_lock(&ic_runtime_lock);
    size_t n = cls->property_count;
    ic_property **list = n ? malloc(n * sizeof *list) : NULL;
    if (list) memcpy(list, cls->properties, n * sizeof *list);
    ic_unlock(&ic_runtime_lock);
    *count = list ? n : 0;
    if (n && !list) ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory listing properties");
    return list;
}

const char *ic_property_name(const ic_property *p)
{
    return p ? p->name : NULL;
}

const char *ic_property_type(const ic_property *p)
{
    return p ? p->type : NULL;
}

unsigned ic_property_attributes(const ic_property *p)
{
    return p ? p->attributes : 0;
}

ic_sel ic_property_getter(const ic_property *p)
{
    return p ? p->getter : NULL;
}

ic_sel ic_property_setter(const ic_property *p)
{
    return p ? p->setter : NULL;
}

ic_class *ic_property_class(const ic_property *p)
{
    return p ? p->owner : NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Slot access
 * ------------------------------------------------------------------------------------------- */

static void *slot_address(ic_id obj, size_t offset)
{
    return (unsigned char *)obj + offset;
}

static void load_word(const void *slot, size_t size, void *out)
{
    switch (size) {
    case 1:
        *(uint8_t *)out = __atomic_load_n((const uint8_t *)slot, __ATOMIC_RELAXED);
        break;
    case 2:
        *(uint16_t *)out = __atomic_load_n((const uint16_t *)slot, __ATOMIC_RELAXED);
        break;
    case 4:
        *(uint32_t *)out = __atomic_load_n((const uint32_t *)slot, __ATOMIC_RELAXED);
        break;
    default:
        *(uint64_t *)out = __atomic_load_n((const uint64_t *)slot, __ATOMIC_RELAXED);
        break;
    }
}

static void store_word(void *slot, size_t size, const void *value)
{
    switch (size) {
    case 1:
        __atomic_store_n((uint8_t *)slot, *(const uint8_t *)value, __ATOMIC_RELAXED);
        break;
    case 2:
        __atomic_store_n((uint16_t *)slot, *(const uint16_t *)value, __ATOMIC_RELAXED);
        break;
    case 4:
        __atomic_store_n((uint32_t *)slot, *(const uint32_t *)value, __ATOMIC_RELAXED);
        break;
    default:
        __atomic_store_n((uint64_t *)slot, *(const uint64_t *)value, __ATOMIC_RELAXED);
        break;
    }
}

static void *load_pointer(void *slot)
{
    return __atomic_load_n((void **)slot, __ATOMIC_ACQUIRE);
}

void ic_property_load(ic_id obj, const ic_property *p, void *out)
{
    void *slot = slot_address(obj, p->offset);
    switch (p->slot) {
    case IC_SLOT_NONE:
        memset(out, 0, p->size);
        break;
    case IC_SLOT_WORD:
        load_word(slot, p->size, out);
        break;
    case IC_SLOT_OBJECT_WEAK:
        /* +0, as the other getters, but kept alive by the thread's autorelease pool: nothing else
         * holds the object, and another thread may drop its last strong reference before the
         * caller retains it (objc4: objc_loadWeakRetained, then autorelease). */
        *(ic_id *)out = ic_autorelease(ic_weak_load_retained(slot));
        break;
    case IC_SLOT_OBJECT_ASSIGN:
    case IC_SLOT_OBJECT_RETAIN:
    case IC_SLOT_OBJECT_COPY:
    case IC_SLOT_STRING_COPY:
        *(void **)out = load_pointer(slot);
        break;
    case IC_SLOT_BYTES: {
        _Atomic(bool) *stripe = stripe_for(slot);
        stripe_lock(stripe);
        memcpy(out, slot, p->size);
        stripe_unlock(stripe);
        break;
    }
    }
}

bool ic_property_load_owned(ic_id obj, const ic_property *p, void *out)
{
    void *slot = slot_address(obj, p->offset);
    if (IC_LIKELY(p->slot == IC_SLOT_WORD && *p->type != '*')) {
        /* The common case, first: property observation reads a number after every set. */
        load_word(slot, p->size, out);
        return true;
    }
    _Atomic(bool) *stripe = stripe_for(slot);
    switch (p->slot) {
    case IC_SLOT_OBJECT_WEAK:
        *(ic_id *)out = ic_weak_load_retained(slot);
        return true;
    case IC_SLOT_OBJECT_ASSIGN:
    case IC_SLOT_OBJECT_RETAIN:
    case IC_SLOT_OBJECT_COPY:
        stripe_lock(stripe);
        *(ic_id *)out = ic_retain(load_pointer(slot));
        stripe_unlock(stripe);
        return true;
    case IC_SLOT_STRING_COPY: {
        stripe_lock(stripe);
        const char *s = load_pointer(slot);
        char *copy = s ? strdup(s) : NULL;
        stripe_unlock(stripe);
        *(char **)out = copy;
        return copy || !s;
    }
    default:
        ic_property_load(obj, p, out);
        if (p->slot == IC_SLOT_WORD && p->size == sizeof(char *) && *p->type == '*') {
            /* an assigned C string: the caller owns a copy */
            const char *s = *(char **)out;
            *(char **)out = s ? strdup(s) : NULL;
            return *(char **)out || !s;
        }
        return true;
    }
}

/* Stores on this thread that could not store (ic_property_store_failures). */
static _Thread_local unsigned store_failures;

unsigned ic_property_store_failures(void)
{
    return store_failures;
}

/* Swaps a pointer slot under its stripe and returns the old value. */
static void *swap_pointer(void *slot, void *value)
{
    _Atomic(bool) *stripe = stripe_for(slot);
    stripe_lock(stripe);
    void *old = __atomic_exchange_n((void **)slot, value, __ATOMIC_ACQ_REL);
    stripe_unlock(stripe);
    return old;
}

void ic_property_store(ic_id obj, const ic_property *p, const void *value)
{
    void *slot = slot_address(obj, p->offset);
    switch (p->slot) {
    case IC_SLOT_NONE:
        break;
    case IC_SLOT_WORD:
        store_word(slot, p->size, value);
        break;
    case IC_SLOT_OBJECT_ASSIGN:
        __atomic_store_n((void **)slot, *(void *const *)value, __ATOMIC_RELEASE);
        break;
    case IC_SLOT_OBJECT_RETAIN:
        ic_release(swap_pointer(slot, ic_retain(*(ic_id const *)value)));
        break;
    case IC_SLOT_OBJECT_COPY: {
        ic_id v = *(ic_id const *)value;
        ic_id copy = v ? IC_MSG(IC_FN(ic_id), v, ic_sels.copy) : NULL;
        ic_release(swap_pointer(slot, copy));
        break;
    }
    case IC_SLOT_OBJECT_WEAK:
        /* Out of memory leaves the old reference (ic_weak_store); storing a deallocating object
         * stores NULL, as a weak reference to it reads anyway. */
        if (ic_weak_store(slot, *(ic_id const *)value) == IC_ERR_OUT_OF_MEMORY) store_failures++;
        break;
    case IC_SLOT_STRING_COPY: {
        const char *s = *(const char *const *)value;
        char *copy = s ? strdup(s) : NULL;
        if (s && !copy) {
            store_failures++; /* the old string stays */
            ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying a string property");
            break;
        }
        free(swap_pointer(slot, copy));
        break;
    }
    case IC_SLOT_BYTES: {
        _Atomic(bool) *stripe = stripe_for(slot);
        stripe_lock(stripe);
        memcpy(slot, value, p->size);
        stripe_unlock(stripe);
        break;
    }
    }
}

void ic_properties_release_all(ic_id obj)
{
    /* The actual class may be an interception subclass: it declares no properties and its
     * owned slots are those of the class it stands in for (sealed from its superclass chain). */
    const ic_class *cls = ic_object_isa(obj);
    for (size_t i = 0; i < cls->owned_slot_count; i++) {
        void *slot = slot_address(obj, cls->owned_slots[i].offset);
        switch ((ic_property_slot)cls->owned_slots[i].slot) {
        case IC_SLOT_OBJECT_WEAK:
            ic_weak_destroy(slot);
            break;
        case IC_SLOT_STRING_COPY:
            free(swap_pointer(slot, NULL));
            break;
        default:
            ic_release(swap_pointer(slot, NULL));
            break;
        }
    }
}
