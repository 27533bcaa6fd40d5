/*
 * support.c — helpers of the C matrix program: classes, selectors, byte-for-byte comparison of
 * matrix values, the register shape of a signature (see cm.h).
 */
#include <stdio.h>
#include <string.h>

#include "cm.h"

ic_sel cm_sel(const char *name)
{
    return ic_sel_register(name);
}

const char *cm_unique(const char *base)
{
    static char name[128];
    static unsigned long serial;
    snprintf(name, sizeof name, "%s_%lu", base, ++serial);
    return name;
}

ic_class *cm_class(cm_area *area, const char *base, ic_class *superclass, size_t storage,
                   const cm_method *methods, size_t count)
{
    ic_class *cls = ic_class_allocate(cm_unique(base), superclass, storage);
    if (!cm_check(area, cls != NULL, "ic_class_allocate: %s", ic_error_message())) return NULL;
    for (size_t i = 0; i < count; i++) {
        const cm_method *method = &methods[i];
        ic_sel sel = cm_sel(method->name);
        ic_status s = method->class_method
                          ? ic_class_add_class_method(cls, sel, method->imp, method->types)
                          : ic_class_add_method(cls, sel, method->imp, method->types);
        if (!cm_check(area, s == IC_OK, "adding %c%s \"%s\": %s", method->class_method ? '+' : '-',
                      method->name, method->types, ic_error_message()))
            return NULL;
    }
    if (!cm_check(area, ic_class_register(cls) == IC_OK, "ic_class_register: %s",
                  ic_error_message()))
        return NULL;
    return cls;
}

bool cm_same(const ict_matrix_layout *layout, const void *a, const void *b)
{
    const unsigned char *x = a, *y = b;
    for (size_t i = 0; i < layout->size; i++)
        if (layout->significant[i] && x[i] != y[i]) return false;
    return true;
}

bool cm_zero(const ict_matrix_layout *layout, const void *value)
{
    const unsigned char *x = value;
    for (size_t i = 0; i < layout->size; i++)
        if (layout->significant[i] && x[i] != 0) return false;
    return true;
}

bool cm_register_shape(const ict_matrix_case *m)
{
    char r = m->ret_layout ? m->ret_layout->register_class : 'v';
    if (!strchr("viqfd", r) || r == 0) return false;
    size_t general = 2, vector = 0; /* self and _cmd */
    for (size_t i = 0; i < m->arg_count; i++) {
        char a = m->arg_layouts[i]->register_class;
        if (a == 'i' || a == 'q')
            general++;
        else if (a == 'f' || a == 'd')
            vector++;
        else
            return false;
    }
    return general <= IC_CLOSURE_INTEGER_REGISTERS && vector <= IC_CLOSURE_VECTOR_REGISTERS;
}

ic_intercept_entry cm_generic_entry(const ict_matrix_case *m)
{
#if defined(__x86_64__)
    /* A struct of at most 16 bytes holding a long double comes back on the x87 stack (class X87),
     * which the universal trampoline leaves to libffi (universal.h). */
    const ict_matrix_layout *r = m->ret_layout;
    if (r && r->encoding[0] == '{' && r->size <= 16 && strchr(r->encoding, 'D'))
        return IC_ENTRY_LIBFFI;
#endif
    (void)m;
    return IC_ENTRY_UNIVERSAL;
}

ic_sel cm_matrix_sel(void)
{
    return ic_sel_register("m");
}

const ic_signature *cm_signature(const ict_matrix_case *m)
{
    return ic_signature_parse(m->encoding);
}

ic_class *cm_matrix_class(cm_area *area, const char *base, const ict_matrix_case *m)
{
    const cm_method method = {"m", m->imp, m->encoding, false};
    return cm_class(area, base, NULL, 0, &method, 1);
}

ic_invocation *cm_invocation(cm_area *area, const ict_matrix_case *m, ic_id target)
{
    ic_invocation *inv = ic_invocation_create(cm_signature(m));
    if (!cm_check(area, inv != NULL, "ic_invocation_create: %s", ic_error_message())) return NULL;
    bool ok = ic_invocation_set_target(inv, target) == IC_OK &&
              ic_invocation_set_selector(inv, cm_matrix_sel()) == IC_OK;
    for (size_t i = 0; i < m->arg_count; i++)
        ok = ic_invocation_set_argument(inv, 2 + i, m->args[i]) == IC_OK && ok;
    if (!cm_check(area, ok, "setting the invocation's arguments: %s", ic_error_message())) {
        ic_invocation_destroy(inv);
        return NULL;
    }
    return inv;
}

void cm_check_invocation(cm_area *area, const ict_matrix_case *m, ic_id obj, const void *expected)
{
    ic_invocation *inv = cm_invocation(area, m, obj);
    if (!inv) return;
    cm_check(area, ic_invocation_invoke(inv) == IC_OK, "invoke: %s", ic_error_message());
    if (m->ret_layout) {
        cm_value result;
        ic_invocation_get_return_value(inv, &result);
        cm_check(area, cm_same(m->ret_layout, &result, expected),
                 "the invocation's result differs from the direct call's");
    }
    cm_check(area, cm_arguments_are_the_case(m, inv),
             "the invocation's arguments changed with the method's parameters");
    ic_invocation_destroy(inv);
}

long long cm_direct_wide[ICT_MATRIX_MAX_ARITY];

void cm_check_received(cm_area *area, const ict_matrix_case *m, const char *when)
{
    for (size_t i = 0; i < m->arg_count; i++) {
        cm_check(area, cm_same(m->arg_layouts[i], ict_matrix_received(i), m->args[i]),
                 "%s: argument %zu (%s) received differs from the value passed", when, i,
                 m->arg_layouts[i]->name);
        cm_check(area, ict_matrix_received_wide(i) == cm_direct_wide[i],
                 "%s: argument %zu (%s) widened by the method to %lld, by a direct call's to %lld "
                 "(not extended as the ABI expects)",
                 when, i, m->arg_layouts[i]->name, ict_matrix_received_wide(i), cm_direct_wide[i]);
    }
}

void cm_other(const ict_matrix_layout *layout, const void *value, void *out)
{
    unsigned char *bytes = out;
    memcpy(bytes, value, layout->size);
    if (layout->is_bool) {
        bytes[0] ^= 1;
        return;
    }
    size_t top = layout->size;
    while (top > 0 && !layout->significant[top - 1])
        top--;
    if (top > 0) bytes[top - 1] ^= 0x80;
}
