/*
 * universal_plan.c — the universal trampoline's plan of a signature (universal.h): where System V
 * x86-64 or AAPCS64 (Linux) puts each argument and the result, computed once from the parsed
 * type encoding when a method is first intercepted, and cached on the signature.
 *
 *   x86-64: integers and pointers in rdi rsi rdx rcx r8 r9, float and double in xmm0-7, then the
 *     stack in 8-byte slots; long double on the stack (16-aligned), returned in st(0); structs of
 *     up to 16 bytes by eightbyte (INTEGER if any integer lies in it, else SSE) in registers when
 *     enough are left, else on the stack; larger ones on the stack; results of up to 16 bytes in
 *     rax rdx / xmm0 xmm1 by eightbyte, larger ones through a caller's buffer passed in rdi
 *     (self and _cmd then in rsi and rdx) and returned in rax.
 *   AArch64: integers and pointers in x0-x7, float double and long double in v0-v7, then the
 *     stack in 8-byte slots (16 for long double); homogeneous floating-point aggregates of up to
 *     four members one member per vector register (all or none), other structs of up to 16 bytes
 *     in consecutive x registers (an even one first for 16-byte alignment), larger ones by
 *     reference to a copy; results likewise (x0 x1, v0-v3), larger ones through x8.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "universal.h"

#if IC_UNIVERSAL_SUPPORTED

/* A scalar leaf of a value: its offset, size, and class. */
typedef enum leaf_class { LEAF_INT, LEAF_FLOAT, LEAF_LONG_DOUBLE } leaf_class;

typedef struct leaves {
    size_t count;
    bool bad;   /* a union, a bit-field, an unsized member, too many leaves */
    bool mixed; /* floating-point leaves of different sizes, or an integer one */
    size_t float_size;
    struct {
        size_t offset, size;
        leaf_class cls;
    } items[64];
} leaves;

static void add_leaf(leaves *l, size_t offset, size_t size, leaf_class cls)
{
    if (l->count == sizeof l->items / sizeof l->items[0]) {
        l->bad = true;
        return;
    }
    l->items[l->count].offset = offset;
    l->items[l->count].size = size;
    l->items[l->count].cls = cls;
    l->count++;
    if (cls == LEAF_INT) {
        l->mixed = true;
    } else {
        if (l->float_size && l->float_size != size) l->mixed = true;
        l->float_size = size;
    }
}

/* Walks the scalar leaves of `t` at `offset` (natural layout, as the parser sizes structs). */
static void walk(leaves *l, const ic_type *t, size_t offset)
{
    if (l->bad) return;
    switch (t->kind) {
    case IC_KIND_STRUCT: {
        size_t at = 0;
        for (size_t i = 0; i < t->field_count && !l->bad; i++) {
            const ic_type *f = t->fields[i];
            if (!f->sized || !f->align) {
                l->bad = true;
                return;
            }
            at = (at + f->align - 1) / f->align * f->align;
            walk(l, f, offset + at);
            at += f->size;
        }
        return;
    }
    case IC_KIND_ARRAY:
        if (!t->element || !t->element->sized) {
            l->bad = true;
            return;
        }
        for (size_t i = 0; i < t->count && !l->bad; i++)
            walk(l, t->element, offset + i * t->element->size);
        return;
    case IC_KIND_FLOAT:
        add_leaf(l, offset, t->size, t->size == 16 ? LEAF_LONG_DOUBLE : LEAF_FLOAT);
        return;
    case IC_KIND_SINT:
    case IC_KIND_UINT:
    case IC_KIND_BOOL:
    case IC_KIND_CSTRING:
    case IC_KIND_OBJECT:
    case IC_KIND_CLASS:
    case IC_KIND_SELECTOR:
    case IC_KIND_POINTER:
    case IC_KIND_UNKNOWN:
        if (!t->sized || t->size > 8) {
            l->bad = true;
            return;
        }
        add_leaf(l, offset, t->size, LEAF_INT);
        return;
    default:
        l->bad = true;
        return;
    }
}

/* The plan under construction. */
typedef struct builder {
    unsigned gpr, vec;
    size_t stack;   /* bytes of stack arguments so far */
    size_t scratch; /* bytes of scratch storage so far */
    bool failed;
} builder;

static uint32_t gpr_at(unsigned n)
{
    return (uint32_t)(offsetof(ic_universal_regs, gpr) + n * 8);
}

static uint32_t vec_at(unsigned n)
{
    return (uint32_t)(offsetof(ic_universal_regs, vec) + n * 16);
}

static size_t round_up(size_t n, size_t to)
{
    return (n + to - 1) / to * to;
}

static void direct(ic_universal_value *v, uint32_t where, size_t size)
{
    v->how = IC_UNIVERSAL_DIRECT;
    v->piece_count = 1;
    v->pieces[0] = (ic_universal_piece){.where = where, .offset = 0, .size = (uint16_t)size};
}

/* The value on the stack: aligned to 8 (16 if it needs it), in 8-byte slots. */
static void on_stack(builder *b, ic_universal_value *v, size_t size, size_t align)
{
    b->stack = round_up(b->stack, align > 8 ? 16 : 8);
    direct(v, IC_UNIVERSAL_ON_STACK | (uint32_t)b->stack, round_up(size, 8));
    b->stack += round_up(size, 8);
}

/* A GATHER value's scratch storage. */
static void gather(builder *b, ic_universal_value *v, unsigned pieces)
{
    v->how = IC_UNIVERSAL_GATHER;
    v->piece_count = (uint8_t)pieces;
    v->scratch = (uint16_t)b->scratch;
    b->scratch += round_up(v->size, 16);
}

#if defined(__x86_64__)

/* The eightbyte classes of a struct of at most 16 bytes: 'I' INTEGER, 'S' SSE; false if memory. */
static bool classify(const leaves *l, size_t size, char cls[2])
{
    cls[0] = cls[1] = 'S';
    for (size_t i = 0; i < l->count; i++) {
        size_t o = l->items[i].offset, s = l->items[i].size;
        if (l->items[i].cls == LEAF_LONG_DOUBLE || o % s != 0) return false;
        if (l->items[i].cls == LEAF_INT) cls[o / 8] = 'I';
    }
    (void)size;
    return true;
}

static void plan_argument(builder *b, const ic_sig_value *sv, ic_universal_value *v)
{
    const ic_type *t = sv->type;
    v->size = (uint32_t)sv->size;
    if (t->kind == IC_KIND_STRUCT) {
        leaves l = {0};
        walk(&l, t, 0);
        if (l.bad) {
            b->failed = true;
            return;
        }
        char cls[2];
        size_t words = (sv->size + 7) / 8;
        if (sv->size <= 16 && classify(&l, sv->size, cls)) {
            unsigned need_g = 0, need_v = 0;
            for (size_t w = 0; w < words; w++)
                cls[w] == 'I' ? need_g++ : need_v++;
            if (b->gpr + need_g <= 6 && b->vec + need_v <= 8) {
                for (size_t w = 0; w < words; w++) {
                    size_t left = sv->size - w * 8;
                    v->pieces[w] = (ic_universal_piece){.where = cls[w] == 'I' ? gpr_at(b->gpr++)
                                                                               : vec_at(b->vec++),
                                                        .offset = (uint16_t)(w * 8),
                                                        .size = (uint16_t)(left < 8 ? left : 8)};
                }
                gather(b, v, (unsigned)words);
                return;
            }
        }
        on_stack(b, v, sv->size, sv->align);
        return;
    }
    if (t->kind == IC_KIND_FLOAT && sv->size == 16) {
        on_stack(b, v, 16, 16);
    } else if (t->kind == IC_KIND_FLOAT) {
        if (b->vec < 8)
            direct(v, vec_at(b->vec++), 16);
        else
            on_stack(b, v, 8, 8);
    } else if (sv->size <= 8) {
        if (b->gpr < 6)
            direct(v, gpr_at(b->gpr++), 8);
        else
            on_stack(b, v, 8, 8);
    } else {
        b->failed = true;
    }
}

static void plan_result(builder *b, ic_universal_plan *p, const ic_sig_value *sv)
{
    ic_universal_value *v = &p->ret;
    const ic_type *t = sv->type;
    v->size = (uint32_t)sv->size;
    if (!sv->size) return; /* void */
    if (t->kind == IC_KIND_STRUCT) {
        leaves l = {0};
        walk(&l, t, 0);
        if (l.bad) {
            b->failed = true;
            return;
        }
        for (size_t i = 0; i < l.count; i++)
            if (l.items[i].cls == LEAF_LONG_DOUBLE && sv->size <= 16) {
                b->failed = true; /* struct { long double }: class X87, see universal.h */
                return;
            }
        char cls[2];
        if (sv->size <= 16 && classify(&l, sv->size, cls)) {
            unsigned g = 0, s = 0;
            size_t words = (sv->size + 7) / 8;
            for (size_t w = 0; w < words; w++) {
                size_t left = sv->size - w * 8;
                v->pieces[w] = (ic_universal_piece){
                    .where = cls[w] == 'I'
                                 ? (uint32_t)(offsetof(ic_universal_regs, ret_gpr) + 8 * g++)
                                 : (uint32_t)(offsetof(ic_universal_regs, ret_vec) + 16 * s++),
                    .offset = (uint16_t)(w * 8),
                    .size = (uint16_t)(left < 8 ? left : 8)};
            }
            gather(b, v, (unsigned)words);
            return;
        }
        p->sret = true;
        v->how = IC_UNIVERSAL_INDIRECT;
        v->piece_count = 1;
        v->pieces[0] = (ic_universal_piece){.where = gpr_at(0), .offset = 0, .size = 8};
        b->gpr = 1;
        return;
    }
    if (t->kind == IC_KIND_FLOAT && sv->size == 16) {
        p->x87 = true;
        direct(v, offsetof(ic_universal_regs, ret_x87), 16);
    } else if (t->kind == IC_KIND_FLOAT) {
        direct(v, offsetof(ic_universal_regs, ret_vec), 16);
    } else if (sv->size <= 8) {
        direct(v, offsetof(ic_universal_regs, ret_gpr), 8);
    } else {
        b->failed = true;
    }
}

#else /* AArch64 */

/* The member count of a homogeneous floating-point aggregate, or 0. */
static unsigned hfa_members(const leaves *l, size_t size)
{
    if (l->mixed || l->count == 0 || l->count > 4 || l->float_size * l->count != size) return 0;
    for (size_t i = 0; i < l->count; i++)
        if (l->items[i].offset != i * l->float_size) return 0;
    return (unsigned)l->count;
}

static void plan_argument(builder *b, const ic_sig_value *sv, ic_universal_value *v)
{
    const ic_type *t = sv->type;
    v->size = (uint32_t)sv->size;
    if (t->kind == IC_KIND_STRUCT) {
        leaves l = {0};
        walk(&l, t, 0);
        if (l.bad) {
            b->failed = true;
            return;
        }
        unsigned n = hfa_members(&l, sv->size);
        if (n) {
            if (b->vec + n <= 8) {
                for (unsigned i = 0; i < n; i++)
                    v->pieces[i] = (ic_universal_piece){.where = vec_at(b->vec++),
                                                        .offset = (uint16_t)(i * l.float_size),
                                                        .size = (uint16_t)l.float_size};
                gather(b, v, n);
                return;
            }
            b->vec = 8;
            on_stack(b, v, sv->size, sv->align);
            return;
        }
        if (sv->size > 16) {
            /* By reference to a copy the callee owns. */
            v->how = IC_UNIVERSAL_INDIRECT;
            v->piece_count = 1;
            if (b->gpr < 8) {
                v->pieces[0] = (ic_universal_piece){.where = gpr_at(b->gpr++), .size = 8};
            } else {
                b->stack = round_up(b->stack, 8);
                v->pieces[0] = (ic_universal_piece){
                    .where = IC_UNIVERSAL_ON_STACK | (uint32_t)b->stack, .size = 8};
                b->stack += 8;
            }
            v->scratch = (uint16_t)b->scratch; /* the copy a call of the original owns */
            b->scratch += round_up(sv->size, 16);
            return;
        }
        unsigned words = (unsigned)((sv->size + 7) / 8);
        if (sv->align == 16) b->gpr = (b->gpr + 1) & ~1u;
        if (b->gpr + words <= 8) {
            for (unsigned w = 0; w < words; w++) {
                size_t left = sv->size - w * 8;
                v->pieces[w] = (ic_universal_piece){.where = gpr_at(b->gpr++),
                                                    .offset = (uint16_t)(w * 8),
                                                    .size = (uint16_t)(left < 8 ? left : 8)};
            }
            gather(b, v, words);
            return;
        }
        b->gpr = 8;
        on_stack(b, v, sv->size, sv->align);
        return;
    }
    if (t->kind == IC_KIND_FLOAT) {
        if (b->vec < 8)
            direct(v, vec_at(b->vec++), 16);
        else
            on_stack(b, v, sv->size, sv->align);
    } else if (sv->size <= 8) {
        if (b->gpr < 8)
            direct(v, gpr_at(b->gpr++), 8);
        else
            on_stack(b, v, 8, 8);
    } else {
        b->failed = true;
    }
}

static void plan_result(builder *b, ic_universal_plan *p, const ic_sig_value *sv)
{
    ic_universal_value *v = &p->ret;
    const ic_type *t = sv->type;
    v->size = (uint32_t)sv->size;
    if (!sv->size) return; /* void */
    if (t->kind == IC_KIND_STRUCT) {
        leaves l = {0};
        walk(&l, t, 0);
        if (l.bad) {
            b->failed = true;
            return;
        }
        unsigned n = hfa_members(&l, sv->size);
        if (n) {
            for (unsigned i = 0; i < n; i++)
                v->pieces[i] = (ic_universal_piece){
                    .where = (uint32_t)(offsetof(ic_universal_regs, ret_vec) + 16 * i),
                    .offset = (uint16_t)(i * l.float_size),
                    .size = (uint16_t)l.float_size};
            gather(b, v, n);
        } else if (sv->size <= 16) {
            unsigned words = (unsigned)((sv->size + 7) / 8);
            for (unsigned w = 0; w < words; w++) {
                size_t left = sv->size - w * 8;
                v->pieces[w] = (ic_universal_piece){
                    .where = (uint32_t)(offsetof(ic_universal_regs, ret_gpr) + 8 * w),
                    .offset = (uint16_t)(w * 8),
                    .size = (uint16_t)(left < 8 ? left : 8)};
            }
            gather(b, v, words);
        } else {
            p->sret = true;
            v->how = IC_UNIVERSAL_INDIRECT;
            v->piece_count = 1;
            v->pieces[0] = (ic_universal_piece){
                .where = (uint32_t)offsetof(ic_universal_regs, x8), .offset = 0, .size = 8};
        }
        return;
    }
    if (t->kind == IC_KIND_FLOAT)
        direct(v, offsetof(ic_universal_regs, ret_vec), 16);
    else if (sv->size <= 8)
        direct(v, offsetof(ic_universal_regs, ret_gpr), 8);
    else
        b->failed = true;
}

#endif

/* The plan of `sig`, or NULL (unsupported: *oom false; out of memory: *oom true). */
static ic_universal_plan *make_plan(const ic_signature *sig, bool *oom)
{
    if (!sig->is_method || sig->arg_count > IC_UNIVERSAL_MAX_ARGS) return NULL;
    ic_universal_plan *p = calloc(1, sizeof *p + sig->arg_count * sizeof p->args[0]);
    if (!p) {
        *oom = true;
        return NULL;
    }
    builder b = {0};
    p->arg_count = (uint32_t)sig->arg_count;
    plan_result(&b, p, &sig->ret); /* first: an indirect result takes rdi on x86-64 */
    for (size_t i = 0; i < sig->arg_count && !b.failed; i++) {
        plan_argument(&b, &sig->args[i], &p->args[i]);
        if (p->args[i].how == IC_UNIVERSAL_GATHER) p->gathers = true;
        if (p->args[i].how == IC_UNIVERSAL_INDIRECT) p->indirect = true;
    }
    /* self and _cmd must be in registers for the entry to read them. */
    if (!b.failed &&
        (p->args[0].how != IC_UNIVERSAL_DIRECT || p->args[1].how != IC_UNIVERSAL_DIRECT ||
         (p->args[0].pieces[0].where & IC_UNIVERSAL_ON_STACK)))
        b.failed = true;
    /* finish_direct (universal.c) has fixed storage for a result gathered from registers. */
    if (!p->gathers && !p->indirect && b.scratch > IC_UNIVERSAL_RET_SCRATCH) b.failed = true;
    if (b.failed || b.stack > IC_UNIVERSAL_MAX_STACK || b.scratch > UINT16_MAX) {
        free(p);
        return NULL;
    }
    /* Results stored as ffi_call stores them (a narrow integer widened to a whole ffi_arg): the
     * result slots (8 and 16 bytes) hold that. */
    p->typed_call = ic_typed_frame_call_for(sig);
    const uint32_t vec_start = (uint32_t)offsetof(ic_universal_regs, vec);
    const uint32_t vec_end = vec_start + (uint32_t)sizeof(((ic_universal_regs *)0)->vec);
    const uint32_t gpr_end = (uint32_t)sizeof(((ic_universal_regs *)0)->gpr);
    /* An indirect result's address: rdi on x86-64 (gpr[0]); x8 on AArch64, always saved. */
#if defined(__x86_64__)
    if (p->sret) p->gprs = 1;
#endif
    for (uint32_t i = 0; i < p->arg_count; i++) {
        const ic_universal_value *v = &p->args[i];
        for (unsigned k = 0; k < v->piece_count; k++) {
            uint32_t where = v->pieces[k].where;
            if (!(where & IC_UNIVERSAL_ON_STACK) && where >= vec_start && where < vec_end &&
                (where - vec_start) / 16 + 1 > p->vectors)
                p->vectors = (uint8_t)((where - vec_start) / 16 + 1);
        }
        for (unsigned k = 0; k < v->piece_count; k++) {
            uint32_t where = v->pieces[k].where;
            if (!(where & IC_UNIVERSAL_ON_STACK) && where < gpr_end && where / 8 + 1 > p->gprs)
                p->gprs = (uint8_t)(where / 8 + 1);
        }
        uint32_t where = v->pieces[0].where;
        p->view[i] = (uintptr_t)(where & IC_UNIVERSAL_ON_STACK
                                     ? IC_UNIVERSAL_STACK_OFFSET + (where & ~IC_UNIVERSAL_ON_STACK)
                                     : where);
    }
    /* More than four arguments: the view's loop (a call the compiler outlines) stays off
     * ic_universal_after's common path, which then keeps nothing in a callee-saved register. */
    p->after_general = p->ret.how == IC_UNIVERSAL_GATHER || p->ret.how == IC_UNIVERSAL_NONE ||
                       sig->reextend_return || p->arg_count > 4;
    p->stack_bytes = (uint32_t)round_up(b.stack, 8);
    p->call = p->stack_bytes | IC_UNIVERSAL_CALL;
    p->scratch_bytes = (uint32_t)b.scratch;
    return p;
}

const ic_universal_plan *ic_universal_plan_for(const ic_signature *sig, bool *oom)
{
    *oom = false;
    ic_signature *s = (ic_signature *)sig; /* the cache field only: signatures are immutable */
    void *cached = atomic_load_explicit(&s->universal_plan, memory_order_acquire);
    if (cached) return cached;
    ic_universal_plan *made = make_plan(sig, oom);
    if (!made) return NULL;
    void *expected = NULL;
    if (!atomic_compare_exchange_strong_explicit(&s->universal_plan, &expected, made,
                                                 memory_order_acq_rel, memory_order_acquire)) {
        free(made);
        return expected;
    }
    return made;
}

#else

const ic_universal_plan *ic_universal_plan_for(const ic_signature *sig, bool *oom)
{
    (void)sig;
    *oom = false;
    return NULL;
}

#endif
