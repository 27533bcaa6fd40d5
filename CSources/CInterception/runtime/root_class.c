/*
 * root_class.c — the root class "Object" and its methods, and the class methods of the root
 * metaclass (the lists, with encodings, are in ic_class.h).
 */
#include "class.h"
#include "../support/error.h"
#include "../support/locks.h"
#include "object.h"
#include "protocol.h"
#include "selector.h"

static ic_class *object_class(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return ic_object_isa(self);
}

static ic_id object_self(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return self;
}

static bool object_responds_to_selector(ic_id self, ic_sel cmd, ic_sel sel)
{
    (void)cmd;
    return sel && ic_class_responds_to(ic_object_isa(self), sel);
}

static const ic_signature *object_method_signature_for_selector(ic_id self, ic_sel cmd, ic_sel sel)
{
    (void)cmd;
    ic_method *m = sel ? ic_class_get_method(ic_object_isa(self), sel) : NULL;
    return m ? ic_method_signature(m) : NULL;
}

static void object_forward_invocation(ic_id self, ic_sel cmd, ic_invocation *inv)
{
    (void)cmd;
    IC_MSG(IC_FN(void, ic_sel), self, ic_sels.does_not_recognize_selector,
           ic_invocation_selector(inv));
}

static void object_does_not_recognize_selector(ic_id self, ic_sel cmd, ic_sel sel)
{
    (void)cmd;
    ic_class *isa = ic_object_isa(self);
    bool is_class = ic_class_has_flag(isa, IC_CLASS_META);
    ic_fatal("%c[%s %s]: unrecognized selector sent to %s %p", is_class ? '+' : '-', isa->name,
             sel ? ic_sel_name(sel) : "(null)", is_class ? "class" : "instance", (void *)self);
}

static bool object_is_kind_of_class(ic_id self, ic_sel cmd, ic_class *cls)
{
    (void)cmd;
    return cls && ic_class_is_subclass_of(ic_object_isa(self), cls);
}

static bool object_is_member_of_class(ic_id self, ic_sel cmd, ic_class *cls)
{
    (void)cmd;
    return cls && IC_MSG(IC_FN(ic_class *), self, ic_sels.class_) == cls;
}

static bool object_is_equal(ic_id self, ic_sel cmd, ic_id other)
{
    (void)cmd;
    return self == other;
}

static uint64_t object_hash(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return (uint64_t)(uintptr_t)self;
}

static bool object_conforms_to_protocol(ic_id self, ic_sel cmd, const ic_protocol *protocol)
{
    (void)cmd;
    return ic_class_conforms_to_protocol(ic_object_isa(self), protocol);
}

static ic_id object_retain(ic_id self, ic_sel cmd)
{
    (void)cmd;
    ic_object_retain_fast(self);
    return self;
}

static void object_release(ic_id self, ic_sel cmd)
{
    (void)cmd;
    ic_object_release_fast(self);
}

static uint64_t object_retain_count(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return ic_object_retain_count(self);
}

static void object_dealloc(ic_id self, ic_sel cmd)
{
    (void)cmd;
    ic_object_destroy(self);
}

/* Class methods of the root metaclass: what makes class objects behave as objc4's do. */

static ic_class *class_class(ic_id self, ic_sel cmd)
{
    (void)cmd;
    return (ic_class *)(void *)self; /* +class: the class itself */
}

static bool class_is_member_of_class(ic_id self, ic_sel cmd, ic_class *cls)
{
    (void)cmd;
    return cls && ic_object_isa(self) == cls; /* the metaclass, as objc4's +isMemberOfClass: */
}

static bool class_conforms_to_protocol(ic_id self, ic_sel cmd, const ic_protocol *protocol)
{
    (void)cmd;
    return ic_class_conforms_to_protocol((ic_class *)(void *)self, protocol);
}

static void class_nothing(ic_id self, ic_sel cmd)
{
    (void)self;
    (void)cmd; /* +release, +dealloc: class objects are immortal */
}

typedef struct root_method {
    ic_sel sel;
    ic_imp imp;
    const char *types;
} root_method;

static void add_root_methods_locked(ic_class *cls, const root_method *methods, size_t count)
{
    for (size_t i = 0; i < count; i++)
        if (ic_class_add_method_locked(cls, methods[i].sel, methods[i].imp, methods[i].types) !=
            IC_OK)
            ic_fatal_after("cannot add the root class's methods");
}

void ic_root_class_init(void)
{
    const root_method methods[] = {
        {ic_sels.class_, (ic_imp)object_class, "#@:"},
        {ic_sels.self, (ic_imp)object_self, "@@:"},
        {ic_sels.init, (ic_imp)object_self, "@@:"},
        {ic_sels.responds_to_selector, (ic_imp)object_responds_to_selector, "B@::"},
        {ic_sels.method_signature_for_selector, (ic_imp)object_method_signature_for_selector,
         "^v@::"},
        {ic_sels.forward_invocation, (ic_imp)object_forward_invocation, "v@:^v"},
        {ic_sels.does_not_recognize_selector, (ic_imp)object_does_not_recognize_selector, "v@::"},
        {ic_sels.is_kind_of_class, (ic_imp)object_is_kind_of_class, "B@:#"},
        {ic_sels.is_member_of_class, (ic_imp)object_is_member_of_class, "B@:#"},
        {ic_sels.is_equal, (ic_imp)object_is_equal, "B@:@"},
        {ic_sel_register("conformsToProtocol:"), (ic_imp)object_conforms_to_protocol, "B@:^v"},
        {ic_sels.hash, (ic_imp)object_hash, "Q@:"},
        {ic_sels.retain, (ic_imp)object_retain, "@@:"},
        {ic_sels.release, (ic_imp)object_release, "v@:"},
        {ic_sels.retain_count, (ic_imp)object_retain_count, "Q@:"},
        {ic_sels.dealloc, (ic_imp)object_dealloc, "v@:"},
    };
    const root_method class_methods[] = {
        {ic_sels.class_, (ic_imp)class_class, "#@:"},
        {ic_sels.is_member_of_class, (ic_imp)class_is_member_of_class, "B@:#"},
        {ic_sel_register("conformsToProtocol:"), (ic_imp)class_conforms_to_protocol, "B@:^v"},
        {ic_sels.retain, (ic_imp)object_self, "@@:"},
        {ic_sels.release, (ic_imp)class_nothing, "v@:"},
        {ic_sels.dealloc, (ic_imp)class_nothing, "v@:"},
    };
    ic_status status;
    ic_lock(&ic_runtime_lock);
    ic_root_class = ic_class_allocate_locked("Object", NULL, 0, &status);
    if (!ic_root_class) ic_fatal_after("cannot create the root class");
    add_root_methods_locked(ic_root_class, methods, sizeof methods / sizeof methods[0]);
    add_root_methods_locked(ic_class_isa(ic_root_class), class_methods,
                            sizeof class_methods / sizeof class_methods[0]);
    if (ic_class_register_locked(ic_root_class) != IC_OK)
        ic_fatal_after("cannot register the root class");
    ic_unlock(&ic_runtime_lock);
}
