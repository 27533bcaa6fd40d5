/*
 * protocol.c — protocols: the table by name, method descriptions, incorporation, adoption by
 * classes and conformance.
 *
 * Locking: ic_protocol_lock (a leaf) guards the protocol table (`protocols`, by name, holding
 * allocated and registered protocols so names stay unique), the method and incorporation lists of
 * unregistered protocols, and the adoption table (`adoptions`, class → the protocols it adopted).
 * A registered protocol's lists never change again, but readers still take the lock: none of
 * these paths is hot, and one rule is easier to check than two. Class fields read here (name,
 * superclass) are immutable.
 */
#include "protocol.h"

#include <stdlib.h>
#include <string.h>

#include "class.h"
#include "../support/error.h"
#include "../support/hashmap.h"
#include "../support/locks.h"
#include "../types/encoding.h"
#include "selector.h"

/* The protocols a class adopted, in adoption order. */
typedef struct adoption {
    ic_protocol **list;
    size_t count;
    size_t capacity;
} adoption;

/* name → protocol (allocated and registered). Guarded by ic_protocol_lock. */
static ic_map protocols = IC_MAP_INIT(IC_MAP_STRING_KEYS);
/* class → adoption. Guarded by ic_protocol_lock. */
static ic_map adoptions = IC_MAP_INIT(IC_MAP_WORD_KEYS);

static bool is_registered(const ic_protocol *p)
{
    return atomic_load_explicit(&((ic_protocol *)p)->registered, memory_order_acquire);
}

/* Appends `item` to a pointer array. Returns false when memory ran out (array unchanged). */
static bool append_pointer(void ***list, size_t *count, size_t *capacity, void *item)
{
    if (*count == *capacity) {
        size_t grown_capacity = *capacity ? *capacity * 2 : 4;
        void **grown = realloc(*list, grown_capacity * sizeof *grown);
        if (!grown) return false;
        *list = grown;
        *capacity = grown_capacity;
    }
    (*list)[(*count)++] = item;
    return true;
}

/* A malloc'ed copy of `count` pointers, or NULL (with *out_count = 0) when there are none.
 * Caller holds ic_protocol_lock. */
static void **copy_pointers_locked(void *const *list, size_t count, size_t *out_count,
                                   const char *what)
{
    *out_count = 0;
    if (count == 0) return NULL;
    void **copy = malloc(count * sizeof *copy);
    if (!copy) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying %s", what);
        return NULL;
    }
    memcpy(copy, list, count * sizeof *copy);
    *out_count = count;
    return copy;
}

/* Validates a method description's encoding: well-formed, self then _cmd first. No lock. */
static ic_status check_description_types(const char *protocol, ic_sel sel, const char *types)
{
    ic_arena arena = IC_ARENA_INIT;
    ic_type **list;
    size_t count;
    ic_status s = ic_encoding_parse_list(&arena, types, &list, &count);
    if (s == IC_OK &&
        (count < 3 || list[1]->kind != IC_KIND_OBJECT || list[2]->kind != IC_KIND_SELECTOR))
        s = ic_fail(IC_ERR_SIGNATURE_MISMATCH,
                    "<%s> %s: method encoding \"%s\" must take '@' (self) and ':' (_cmd) as its "
                    "first two arguments",
                    protocol, sel->name, types);
    ic_arena_free(&arena);
    return s;
}

ic_protocol *ic_protocol_allocate(const char *name)
{
    ic_runtime_init();
    if (!name || !*name) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "a protocol name must be a non-empty string");
        return NULL;
    }
    ic_protocol *p = NULL;
    ic_lock(&ic_protocol_lock);
    if (ic_map_get(&protocols, (uintptr_t)name)) {
        ic_fail(IC_ERR_DUPLICATE_CLASS, "a protocol named \"%s\" already exists", name);
    } else {
        p = calloc(1, sizeof *p);
        char *copy = strdup(name);
        if (!p || !copy || !ic_map_put(&protocols, (uintptr_t)copy, p)) {
            free(p);
            free(copy);
            p = NULL;
            ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory allocating protocol \"%s\"", name);
        } else {
            p->name = copy;
            atomic_init(&p->registered, false);
        }
    }
    ic_unlock(&ic_protocol_lock);
    return p;
}

/* The protocol's own description of `sel` of that kind, or NULL. Caller holds ic_protocol_lock. */
static struct ic_protocol_method *own_description_locked(const ic_protocol *p, ic_sel sel,
                                                         bool instance)
{
    for (size_t i = 0; i < p->method_count; i++)
        if (p->methods[i].sel == sel && p->methods[i].instance == instance) return &p->methods[i];
    return NULL;
}

ic_status ic_protocol_add_method_description(ic_protocol *protocol, ic_sel sel, const char *types,
                                             bool required, bool instance)
{
    if (!protocol || !sel || !types)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_protocol_add_method_description: %s is NULL",
                       !protocol ? "protocol"
                       : !sel    ? "selector"
                                 : "types");
    ic_status s = check_description_types(protocol->name, sel, types);
    if (s) return s;
    char *copy = strdup(types);
    if (!copy)
        return ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding %s to <%s>", sel->name,
                       protocol->name);
    ic_lock(&ic_protocol_lock);
    if (is_registered(protocol)) {
        s = ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED,
                    "cannot add %s to <%s>: the protocol is registered, so immutable", sel->name,
                    protocol->name);
    } else if (own_description_locked(protocol, sel, instance)) {
        s = ic_fail(IC_ERR_METHOD_EXISTS, "<%s> already describes %c%s", protocol->name,
                    instance ? '-' : '+', sel->name);
    } else {
        if (protocol->method_count == protocol->method_capacity) {
            size_t capacity = protocol->method_capacity ? protocol->method_capacity * 2 : 8;
            struct ic_protocol_method *grown = realloc(protocol->methods, capacity * sizeof *grown);
            if (!grown) {
                s = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding %s to <%s>", sel->name,
                            protocol->name);
            } else {
                protocol->methods = grown;
                protocol->method_capacity = capacity;
            }
        }
        if (s == IC_OK) {
            protocol->methods[protocol->method_count++] = (struct ic_protocol_method){
                .sel = sel, .types = copy, .required = required, .instance = instance};
            copy = NULL;
        }
    }
    ic_unlock(&ic_protocol_lock);
    free(copy);
    return s;
}

ic_status ic_protocol_add_protocol(ic_protocol *protocol, ic_protocol *incorporated)
{
    if (!protocol || !incorporated)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_protocol_add_protocol: %s is NULL",
                       !protocol ? "protocol" : "incorporated protocol");
    if (protocol == incorporated)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "<%s> cannot incorporate itself", protocol->name);
    ic_status s = IC_OK;
    ic_lock(&ic_protocol_lock);
    if (is_registered(protocol)) {
        s = ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED,
                    "cannot add <%s> to <%s>: the protocol is registered, so immutable",
                    incorporated->name, protocol->name);
    } else if (!is_registered(incorporated)) {
        s = ic_fail(IC_ERR_CLASS_NOT_REGISTERED,
                    "<%s> cannot incorporate <%s>: that protocol is not registered", protocol->name,
                    incorporated->name);
    } else {
        bool present = false;
        for (size_t i = 0; i < protocol->protocol_count; i++)
            present = present || protocol->protocols[i] == incorporated;
        if (!present && !append_pointer((void ***)&protocol->protocols, &protocol->protocol_count,
                                        &protocol->protocol_capacity, incorporated))
            s = ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory adding <%s> to <%s>",
                        incorporated->name, protocol->name);
    }
    ic_unlock(&ic_protocol_lock);
    return s;
}

ic_status ic_protocol_register(ic_protocol *protocol)
{
    if (!protocol) return ic_fail(IC_ERR_INVALID_ARGUMENT, "protocol is NULL");
    ic_status s = IC_OK;
    ic_lock(&ic_protocol_lock);
    if (is_registered(protocol))
        s = ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED, "protocol <%s> is already registered",
                    protocol->name);
    else
        atomic_store_explicit(&protocol->registered, true, memory_order_release);
    ic_unlock(&ic_protocol_lock);
    return s;
}

ic_status ic_protocol_dispose(ic_protocol *protocol)
{
    if (!protocol) return ic_fail(IC_ERR_INVALID_ARGUMENT, "protocol is NULL");
    ic_lock(&ic_protocol_lock);
    if (is_registered(protocol)) {
        ic_unlock(&ic_protocol_lock);
        return ic_fail(IC_ERR_CLASS_ALREADY_REGISTERED,
                       "protocol <%s> is registered; registered protocols are immortal",
                       protocol->name);
    }
    ic_map_remove(&protocols, (uintptr_t)protocol->name);
    ic_unlock(&ic_protocol_lock);
    /* Unregistered: nothing adopted or incorporated it, and it is out of the table. */
    for (size_t i = 0; i < protocol->method_count; i++)
        free(protocol->methods[i].types);
    free(protocol->methods);
    free(protocol->protocols);
    free((void *)protocol->name);
    free(protocol);
    return IC_OK;
}

ic_protocol *ic_protocol_lookup(const char *name)
{
    if (!name) return NULL;
    ic_runtime_init();
    ic_lock(&ic_protocol_lock);
    ic_protocol *p = ic_map_get(&protocols, (uintptr_t)name);
    if (p && !is_registered(p)) p = NULL;
    ic_unlock(&ic_protocol_lock);
    return p;
}

const char *ic_protocol_name(const ic_protocol *protocol)
{
    return protocol ? protocol->name : NULL;
}

bool ic_protocol_is_registered(const ic_protocol *protocol)
{
    return protocol && is_registered(protocol);
}

/* Whether `p` is `other` or incorporates it at any depth. Caller holds ic_protocol_lock.
 * Incorporated protocols were registered before `p` could list them, so the graph has no cycle. */
static bool protocol_conforms_locked(const ic_protocol *p, const ic_protocol *other)
{
    if (p == other) return true;
    for (size_t i = 0; i < p->protocol_count; i++)
        if (protocol_conforms_locked(p->protocols[i], other)) return true;
    return false;
}

bool ic_protocol_conforms_to_protocol(const ic_protocol *protocol, const ic_protocol *other)
{
    if (!protocol || !other) return false;
    ic_lock(&ic_protocol_lock);
    bool conforms = protocol_conforms_locked(protocol, other);
    ic_unlock(&ic_protocol_lock);
    return conforms;
}

ic_protocol **ic_protocol_copy_protocol_list(const ic_protocol *protocol, size_t *count)
{
    if (count) *count = 0;
    if (!protocol || !count) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_protocol_copy_protocol_list: %s is NULL",
                !protocol ? "protocol" : "count");
        return NULL;
    }
    ic_lock(&ic_protocol_lock);
    void **copy = copy_pointers_locked((void *const *)protocol->protocols, protocol->protocol_count,
                                       count, "a protocol list");
    ic_unlock(&ic_protocol_lock);
    return (ic_protocol **)copy;
}

ic_method_description *ic_protocol_copy_method_description_list(const ic_protocol *protocol,
                                                                bool required, bool instance,
                                                                size_t *count)
{
    if (count) *count = 0;
    if (!protocol || !count) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_protocol_copy_method_description_list: %s is NULL",
                !protocol ? "protocol" : "count");
        return NULL;
    }
    ic_method_description *list = NULL;
    ic_lock(&ic_protocol_lock);
    size_t n = 0;
    for (size_t i = 0; i < protocol->method_count; i++)
        n += protocol->methods[i].required == required && protocol->methods[i].instance == instance;
    if (n > 0 && !(list = malloc(n * sizeof *list))) {
        ic_fail(IC_ERR_OUT_OF_MEMORY, "out of memory copying the methods of <%s>", protocol->name);
    } else if (n > 0) {
        size_t j = 0;
        for (size_t i = 0; i < protocol->method_count; i++) {
            const struct ic_protocol_method *m = &protocol->methods[i];
            if (m->required == required && m->instance == instance)
                list[j++] = (ic_method_description){m->sel, m->types, m->required, m->instance};
        }
        *count = n;
    }
    ic_unlock(&ic_protocol_lock);
    return list;
}

/* Depth-first search for a description. Caller holds ic_protocol_lock. */
static const struct ic_protocol_method *find_description_locked(const ic_protocol *p, ic_sel sel,
                                                                bool required, bool instance)
{
    const struct ic_protocol_method *m = own_description_locked(p, sel, instance);
    if (m && m->required == required) return m;
    for (size_t i = 0; i < p->protocol_count; i++)
        if ((m = find_description_locked(p->protocols[i], sel, required, instance))) return m;
    return NULL;
}

bool ic_protocol_get_method_description(const ic_protocol *protocol, ic_sel sel, bool required,
                                        bool instance, ic_method_description *out)
{
    if (!protocol || !sel || !out) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_protocol_get_method_description: %s is NULL",
                !protocol ? "protocol"
                : !sel    ? "selector"
                          : "out");
        return false;
    }
    ic_lock(&ic_protocol_lock);
    const struct ic_protocol_method *m = find_description_locked(protocol, sel, required, instance);
    if (m) *out = (ic_method_description){m->sel, m->types, m->required, m->instance};
    ic_unlock(&ic_protocol_lock);
    return m != NULL;
}

ic_status ic_class_add_protocol(ic_class *cls, ic_protocol *protocol)
{
    if (!cls || !protocol)
        return ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_add_protocol: %s is NULL",
                       !cls ? "class" : "protocol");
    ic_status s = IC_OK;
    ic_lock(&ic_protocol_lock);
    adoption *a = ic_map_get(&adoptions, (uintptr_t)cls);
    bool present = false;
    for (size_t i = 0; a && i < a->count; i++)
        present = present || a->list[i] == protocol;
    if (!is_registered(protocol)) {
        s = ic_fail(IC_ERR_CLASS_NOT_REGISTERED,
                    "class \"%s\" cannot adopt <%s>: the protocol is not registered", cls->name,
                    protocol->name);
    } else if (!present) {
        bool fresh = !a;
        if (fresh && !(a = calloc(1, sizeof *a))) {
            s = IC_ERR_OUT_OF_MEMORY;
        } else if (!append_pointer((void ***)&a->list, &a->count, &a->capacity, protocol)) {
            s = IC_ERR_OUT_OF_MEMORY;
        } else if (fresh && !ic_map_put(&adoptions, (uintptr_t)cls, a)) {
            free(a->list);
            s = IC_ERR_OUT_OF_MEMORY;
        }
        if (s != IC_OK) {
            if (fresh) free(a);
            ic_fail(s, "out of memory: class \"%s\" adopting <%s>", cls->name, protocol->name);
        }
    }
    ic_unlock(&ic_protocol_lock);
    return s;
}

bool ic_class_conforms_to_protocol(const ic_class *cls, const ic_protocol *protocol)
{
    if (!cls || !protocol) return false;
    bool conforms = false;
    ic_lock(&ic_protocol_lock);
    for (; cls && !conforms; cls = cls->superclass) {
        const adoption *a = ic_map_get(&adoptions, (uintptr_t)cls);
        for (size_t i = 0; a && i < a->count && !conforms; i++)
            conforms = protocol_conforms_locked(a->list[i], protocol);
    }
    ic_unlock(&ic_protocol_lock);
    return conforms;
}

ic_protocol **ic_class_copy_protocol_list(const ic_class *cls, size_t *count)
{
    if (count) *count = 0;
    if (!cls || !count) {
        ic_fail(IC_ERR_INVALID_ARGUMENT, "ic_class_copy_protocol_list: %s is NULL",
                !cls ? "class" : "count");
        return NULL;
    }
    ic_lock(&ic_protocol_lock);
    const adoption *a = ic_map_get(&adoptions, (uintptr_t)cls);
    void **copy =
        a ? copy_pointers_locked((void *const *)a->list, a->count, count, "protocols") : NULL;
    ic_unlock(&ic_protocol_lock);
    return (ic_protocol **)copy;
}

void ic_protocol_forget_class(const ic_class *cls)
{
    ic_lock(&ic_protocol_lock);
    adoption *a = ic_map_remove(&adoptions, (uintptr_t)cls);
    ic_unlock(&ic_protocol_lock);
    if (a) free(a->list);
    free(a);
}
