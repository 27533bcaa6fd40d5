/*
 * ic_message.h — message lookup and send.
 *
 * A send is a lookup followed by a call, as with the GNU runtime's objc_msg_lookup:
 *
 *     ic_imp imp = ic_msg_lookup(obj, sel);
 *     int r = ((int (*)(ic_id, ic_sel, int))imp)(obj, sel, 41);
 *
 * or, with the macros below:
 *
 *     int r = IC_MSG(IC_FN(int, int), obj, sel, 41);
 *
 * Lookup takes no lock on its cached path (see docs/ARCHITECTURE.md, "Dispatch table").
 */
#ifndef IC_MESSAGE_H
#define IC_MESSAGE_H

#include "ic_base.h"

IC_EXTERN_C_BEGIN

/*
 * The IMP that `receiver` runs for `sel`. Never NULL:
 * - a NULL receiver gives ic_nil_imp, which returns zero in every return register (a struct
 *   returned in memory is not written);
 * - an unimplemented selector is forwarded when the receiver's methodSignatureForSelector:
 *   gives a signature (the result is a per-(class, selector) closure that packages the call into
 *   an invocation and sends forwardInvocation:);
 * - otherwise doesNotRecognizeSelector: is sent (the root traps, naming class and selector); if an
 *   override returns, ic_nil_imp is returned.
 * Thread-safe; lock-free when cached. A cached lookup allocates nothing; a miss caches the IMP
 * (the class's dispatch-table page is allocated by its first miss: out of memory, the IMP is
 * returned uncached). The first forwarded send of a (class, selector, signature) makes its
 * forwarding closure: a send has no error to return, so running out of memory there traps.
 */
IC_EXPORT ic_imp ic_msg_lookup(ic_id receiver, ic_sel sel);

/* A receiver and the class where a super send starts looking (the superclass of the class whose
 * method is making the super send). */
typedef struct ic_super {
    ic_id receiver;
    ic_class *super_class;
} ic_super;

/* The IMP for a super send: `sel` resolved from `super->super_class` (cached), forwarding through
 * the receiver if no class from there implements it. NULL receiver gives ic_nil_imp. */
IC_EXPORT ic_imp ic_msg_lookup_super(const ic_super *super, ic_sel sel);

/* A receiver's class and the IMP its dispatch table has cached for a selector. */
typedef struct ic_cached_lookup {
    ic_class *cls; /* the receiver's class, read once (NULL for a NULL receiver) */
    ic_imp imp;    /* what `cls` has cached for the selector, or NULL if nothing is cached */
} ic_cached_lookup;

/*
 * A peek at the dispatch cache: reads the receiver's class once and returns it with the IMP that
 * class has cached for `sel` (possibly a forwarder, which ic_msg_lookup caches too), or with NULL
 * if nothing is cached there (not resolved yet, invalidated since, a zombie's class, a NULL
 * `sel`). Never resolves, forwards, locks or traps: a caller that gets NULL takes its own slow
 * path (for example ic_msg_lookup, which fills the cache). A non-NULL IMP is what
 * ic_msg_lookup_super with `cls` would return, so a caller can check it against something it
 * keyed by `cls` even if the object changes class meanwhile. Returned in two registers: one call
 * instead of ic_object_get_class followed by a lookup. Thread-safe, lock-free.
 */
IC_EXPORT ic_cached_lookup ic_msg_lookup_cached(ic_id receiver, ic_sel sel);

/* The IMP of messages to NULL: returns zero. */
IC_EXPORT void ic_nil_imp(void);

/* The function-pointer type of a method returning RET and taking the given argument types after
 * self and _cmd: IC_FN(int, int) is int (*)(ic_id, ic_sel, int). */
#define IC_FN(RET, ...) RET (*)(ic_id, ic_sel, ##__VA_ARGS__)

/* Sends `SEL` to `RECV` with the given arguments, calling the IMP as FN_TYPE (see IC_FN).
 * RECV and SEL are evaluated once. */
#define IC_MSG(FN_TYPE, RECV, SEL, ...)                                                            \
    __extension__({                                                                                \
        ic_id ic_msg_recv_ = (RECV);                                                               \
        ic_sel ic_msg_sel_ = (SEL);                                                                \
        ((FN_TYPE)ic_msg_lookup(ic_msg_recv_, ic_msg_sel_))(ic_msg_recv_, ic_msg_sel_,             \
                                                            ##__VA_ARGS__);                        \
    })

/* Sends `SEL` to `SUPER->receiver`, starting the lookup at `SUPER->super_class`. */
#define IC_MSG_SUPER(FN_TYPE, SUPER, SEL, ...)                                                     \
    __extension__({                                                                                \
        const ic_super *ic_msg_super_ = (SUPER);                                                   \
        ic_sel ic_msg_sel_ = (SEL);                                                                \
        ((FN_TYPE)ic_msg_lookup_super(ic_msg_super_, ic_msg_sel_))(ic_msg_super_->receiver,        \
                                                                   ic_msg_sel_, ##__VA_ARGS__);    \
    })

/* Sends a message by name (registering the selector): convenient, slower (a selector lookup by
 * name per call). */
#define IC_MSG_NAMED(FN_TYPE, RECV, NAME, ...)                                                     \
    IC_MSG(FN_TYPE, RECV, ic_sel_register(NAME), ##__VA_ARGS__)

IC_EXTERN_C_END

#endif /* IC_MESSAGE_H */
