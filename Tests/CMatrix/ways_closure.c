/*
 * ways_closure.c — the ways through closure IMPs: a closure installed as the matrix method whose
 * callback re-targets its frame invocation at an object implementing the method and invokes it
 * (ic_closure_imp_create), and one that also has a register callback
 * (ic_closure_imp_create_with_registers) which reads every argument from the saved registers as
 * ic_closure.h lays them out for this ABI (general registers, then vector registers; AAPCS64 has
 * 8 of each, System V x86-64 6 and 8), rebuilds the call in a heap invocation and returns the
 * result's bits.
 *
 * Which entry a closure gets is derived from the ABI (cm_register_shape): a register entry for a
 * signature whose values all fit the registers, a universal trampoline stub for every other the
 * universal trampoline takes (cm_generic_entry), libffi for the rest.
 */
#include <string.h>

#include "cm.h"

typedef struct cm_closure {
    const ict_matrix_case *m;
    ic_id target;   /* implements the matrix method */
    ic_id receiver; /* the object the closure is installed on */
    size_t frame_calls, register_calls, bad_registers;
} cm_closure;

static void frame_run(ic_invocation *call, void *context)
{
    cm_closure *c = context;
    c->frame_calls++;
    if (ic_invocation_target(call) != c->receiver ||
        ic_invocation_selector(call) != cm_matrix_sel())
        c->bad_registers++;
    ic_invocation_set_target(call, c->target);
    ic_invocation_invoke(call);
}

static uint64_t register_run(const uint64_t *registers, void *context)
{
    cm_closure *c = context;
    const ict_matrix_case *m = c->m;
    c->register_calls++;
    if (registers[0] != (uint64_t)(uintptr_t)c->receiver ||
        registers[1] != (uint64_t)(uintptr_t)cm_matrix_sel())
        c->bad_registers++;
    ic_invocation *inv = ic_invocation_create(cm_signature(m));
    if (!inv) return 0;
    ic_invocation_set_target(inv, c->target);
    ic_invocation_set_selector(inv, cm_matrix_sel());
    size_t general = 2, vector = 0;
    for (size_t i = 0; i < m->arg_count; i++) {
        char cls = m->arg_layouts[i]->register_class;
        /* Little-endian: a narrower value is the low bytes of its register. */
        const uint64_t *saved = cls == 'f' || cls == 'd'
                                    ? &registers[IC_CLOSURE_INTEGER_REGISTERS + vector++]
                                    : &registers[general++];
        ic_invocation_set_argument(inv, 2 + i, saved);
    }
    ic_invocation_invoke(inv);
    uint64_t bits = 0;
    if (m->ret_layout) {
        cm_value result;
        ic_invocation_get_return_value(inv, &result);
        memcpy(&bits, &result, m->ret_layout->size < 8 ? m->ret_layout->size : 8);
    }
    ic_invocation_destroy(inv);
    return bits;
}

static bool closure(cm_area *area, const ict_matrix_case *m, const void *direct, cm_outcome *out,
                    bool registers)
{
    ic_class *target_class = cm_matrix_class(area, "CMClosureTarget", m);
    if (!target_class) return false;
    cm_closure c = {.m = m, .target = ic_class_create_instance(target_class)};
    ic_imp imp = registers ? ic_closure_imp_create_with_registers(cm_signature(m), frame_run,
                                                                  register_run, &c, NULL)
                           : ic_closure_imp_create(cm_signature(m), frame_run, &c, NULL);
    if (!cm_check(area, imp != NULL, "creating the closure: %s", ic_error_message())) {
        ic_release(c.target);
        return false;
    }
    bool shape = cm_register_shape(m);
    ic_closure_kind kind = ic_closure_imp_kind(imp);
    ic_closure_kind expected =
        shape ? (registers ? IC_CLOSURE_KIND_REGISTERS : IC_CLOSURE_KIND_REGISTER_FRAME)
        : cm_generic_entry(m) == IC_ENTRY_UNIVERSAL ? IC_CLOSURE_KIND_UNIVERSAL
                                                    : IC_CLOSURE_KIND_LIBFFI;
    cm_check(area, kind == expected, "closure kind %d, expected %d (register shape: %s)", (int)kind,
             (int)expected, shape ? "yes" : "no");

    const cm_method method = {"m", imp, m->encoding, false};
    ic_class *cls = cm_class(area, "CMClosure", NULL, 0, &method, 1);
    if (cls) {
        c.receiver = ic_class_create_instance(cls);
        m->send(c.receiver, cm_matrix_sel(), out->result.bytes);
        out->has_result = m->ret_layout != NULL;
        cm_check_invocation(area, m, c.receiver, direct);
        out->runs = 2;
        size_t by_registers = registers && shape ? 2 : 0;
        cm_check(area, c.register_calls == by_registers && c.frame_calls == 2 - by_registers,
                 "%zu calls through the register callback and %zu through the frame, expected %zu "
                 "and %zu",
                 c.register_calls, c.frame_calls, by_registers, 2 - by_registers);
        cm_check(area, c.bad_registers == 0, "the receiver or selector was not where expected");
        ic_release(c.receiver);
        /* Uninstalled before it is destroyed, as ic_closure_imp_destroy requires. */
        cm_check(area, ic_class_replace_method(cls, cm_matrix_sel(), m->imp, NULL, NULL) == IC_OK,
                 "uninstalling the closure: %s", ic_error_message());
    }
    cm_check(area, ic_closure_imp_destroy(imp) == IC_OK, "destroying the closure: %s",
             ic_error_message());
    ic_release(c.target);
    return cls != NULL;
}

static bool run_closure_frame(cm_area *area, const ict_matrix_case *m, const void *direct,
                              cm_outcome *out)
{
    return closure(area, m, direct, out, false);
}

static bool run_closure_registers(cm_area *area, const ict_matrix_case *m, const void *direct,
                                  cm_outcome *out)
{
    return closure(area, m, direct, out, true);
}

const cm_way cm_way_closure_frame = {"closure IMP, frame callback", NULL, run_closure_frame};
const cm_way cm_way_closure_registers = {"closure IMP, register callback", NULL,
                                         run_closure_registers};
