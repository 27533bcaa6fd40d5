/*
 * protocol.h — the protocol record and class adoption (internal). Public API: ic_protocol.h.
 */
#ifndef IC_PROTOCOL_INTERNAL_H
#define IC_PROTOCOL_INTERNAL_H

#include "../support/ic_config.h"

/* One method description, as stored (the public ic_method_description is a copy). */
struct ic_protocol_method {
    ic_sel sel;
    char *types; /* owned copy */
    bool required;
    bool instance;
};

struct ic_protocol {
    const char *name; /* owned; immutable */
    /* Set under ic_protocol_lock; read lock-free (acquire) by ic_protocol_is_registered. */
    _Atomic(bool) registered;

    /* Guarded by ic_protocol_lock; immutable once `registered` is set. */
    struct ic_protocol_method *methods;
    size_t method_count;
    size_t method_capacity;
    ic_protocol **protocols; /* incorporated, registered protocols */
    size_t protocol_count;
    size_t protocol_capacity;
};

/* Forgets what an unregistered class being disposed adopted (ic_class_dispose), so a class
 * allocated later at the same address adopts nothing. Takes ic_protocol_lock. */
IC_PRIVATE void ic_protocol_forget_class(const ic_class *cls);

#endif /* IC_PROTOCOL_INTERNAL_H */
