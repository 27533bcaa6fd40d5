#!/usr/bin/env python3
"""Generates matrix_cases.c, the signature matrix of SPEC section 9 (issue #8) and of the
AArch64 port (SPEC section 21, issue #26).

Types come from the runtime's own tables: every scalar code of ic_types.def, plus the struct
shapes of the type matrix (their encodings are read from the ICT_CASE lines of type_cases.c,
their C types from ict_struct_shapes.h): the System V x86-64 classification cases (two floats,
two doubles, float+int, int+double, double+long long, three doubles, padding, 17 and 32 bytes)
and the AAPCS64 ones (homogeneous floating-point aggregates of one to four floats, doubles or
long doubles, through an array too; five doubles, one too many for an HFA; mixed floats, which
go in general registers; odd sizes of 3 and 12 bytes).

Signatures, in three families:
- every type (and void) as the return type, at every arity from 0 to 6; argument i of the
  signature for return type number r at arity n is type number (r + n + 7 * i) mod T (7 is
  coprime with T), so for each arity every type appears at every argument position, mixed with
  other kinds around it;
- the same over the scalar types that trampolines carry (all but long double), arities 0 to 4,
  stride 5: mostly signatures with an optimized trampoline, so that each of those types also goes
  through one at each position;
- register edges: signatures at the boundaries of both ABIs' argument registers (x86-64: 6
  general, 8 vector; AArch64: 8 general, 8 vector), filling a register file exactly and
  overflowing it by one, both at once, and aggregates that just fit or just miss the registers
  left (AArch64 sends a composite that does not fit, and every later argument of its class, to
  the stack; x86-64 sends only that argument there). See EDGES below.
Each signature gets a typed method IMP that records the arguments it receives, then overwrites
its by-value parameters as a callee may (the caller's values must not change: AArch64 passes
structs over 16 bytes by reference to a copy the callee owns) and returns a known value, a
direct typed call of it, a typed send through IC_MSG, the values it is called with, and whether
the runtime's trampoline tables (trampolines_<R>.def) has an optimized trampoline for its ABI key,
i.e. which interception path to expect.

Each type also gets a layout record: which of its bytes hold the value (padding, and the six
unused bytes of x87's 80-bit long double, are left out of byte-for-byte comparisons), and how
each ABI passes and returns it (printed by the C matrix program, Tests/CMatrix).

Regenerate (from the repository root):

    python3 Tests/CInterceptionTestSupport/tools/gen_matrix.py

With --check, only verifies that the committed file is what this script generates (CI).
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
TYPES_DEF = os.path.join(ROOT, "CSources", "CInterception", "types", "ic_types.def")
TRAMPOLINES_DEFS = [os.path.join(ROOT, "CSources", "CInterception", "engine", "trampolines_%s.def" % r)
                    for r in "viqfd"]
TYPE_CASES = os.path.join(ROOT, "Tests", "CInterceptionTestSupport", "type_cases.c")
OUTPUT = os.path.join(ROOT, "Tests", "CInterceptionTestSupport", "matrix_cases.c")

STRUCTS = ["struct_ff", "struct_dd", "struct_fi", "struct_id", "struct_dq", "struct_ddd",
           "struct_17", "struct_32", "struct_cfc", "struct_f1", "struct_fff", "struct_ffff",
           "struct_dddd", "struct_fa4", "struct_DD", "struct_d5", "struct_fd", "struct_iii",
           "struct_c3"]
MAX_ARITY = 16     # ICT_MATRIX_MAX_ARITY: the register-edge family's longest signature
MAX_VALUE = 48     # ICT_MATRIX_MAX_VALUE: bytes of the largest type (struct_d5, 40 bytes)
FAMILIES = [  # (name, which types, arities, stride): see above
    ("all types", "all", 6, 7),
    ("trampolined scalars", "trampolined", 4, 5),
]
RETURN_POSITION = MAX_ARITY  # the value a method returns is the one for this (unused) position

# Scalar sizes and alignments (LP64: the same on x86-64 and AArch64 Linux).
SIZES = {"c": 1, "C": 1, "B": 1, "s": 2, "S": 2, "i": 4, "I": 4, "l": 4, "L": 4, "f": 4,
         "q": 8, "Q": 8, "d": 8, "*": 8, "@": 8, "#": 8, ":": 8, "D": 16}


class Scalar:
    def __init__(self, code, name, ctype, kind, abi):
        self.code, self.name, self.ctype, self.kind, self.abi = code, name, ctype, kind, abi
        self.encoding = code
        self.size = self.align = SIZES[code]

    def value(self, p, field=0):
        """A C constant expression of this type, distinct per position p (and field)."""
        t = self.ctype
        n = p * 6 + field  # at most 100: every signed value below stays negative in 8 bits
        if self.kind == "SINT":  # negative, within every signed type: sign extension shows
            return "(%s)(%d)" % (t, -10 - n)
        if self.kind == "UINT":  # the high bit set: zero extension shows
            return "(%s)(~(%s)0 - %d)" % (t, t, 7 + n)
        if self.kind == "FLOAT":
            base = "(%s)(%s)" % (t, repr(-3.25 - n if n % 2 == 0 else 1.5 + n))
            if self.code == "D":  # bits a double cannot hold: a path through double shows
                return "(%s * (1.0L + 8 * LDBL_EPSILON))" % base
            return base
        if self.kind == "BOOL":
            return "(%s)%d" % (t, 1 if p % 2 == 0 or p == RETURN_POSITION else 0)
        if self.kind == "CSTRING":
            return "(%s)ict_matrix_strings[%d]" % (t, p)
        base = {"OBJECT": 0x7F0000100000, "CLASS": 0x7F0000200000, "SELECTOR": 0x7F0000300000}
        return "(%s)(uintptr_t)0x%xULL" % (t, base[self.kind] + 0x100 * p + 0x10 * field)

    # -- layout and ABI ----------------------------------------------------------------------
    def mask(self):
        """C initializers of the significant-byte mask."""
        if self.code == "D":  # x87: 10 bytes of value, 6 of padding; AArch64: a 16-byte quad
            return ["1"] * 10 + ["ICT_LDBL_PAD"] * 6
        return ["1"] * self.size

    def leaves(self):
        return [(0, self)]

    def x86_64(self):
        if self.abi in "iq":
            return "INTEGER: a general register (rdi rsi rdx rcx r8 r9, then the stack); " \
                   "result in rax", True
        if self.abi in "fd":
            return "SSE: an xmm register (xmm0-xmm7, then the stack); result in xmm0", True
        return "X87: argument in memory on the stack; result on the x87 stack, st(0) (a " \
               "function that pushes nothing leaves it empty: not zero)", False

    def aarch64(self):
        if self.abi in "iq":
            return "a general register (x0-x7, then the stack); result in x0", True
        if self.abi in "fd":
            return "a vector register (%s0-%s7, then the stack); result in %s0" % (
                (self.abi == "f" and "s" or "d",) * 3), True
        return "a 128-bit IEEE quad in a vector register (q0-q7, then the stack); result " \
               "in q0", True


class Struct:
    def __init__(self, name, encoding, fields):
        self.name, self.encoding, self.fields = name, encoding, fields
        self.ctype = "ict_%s_t" % name
        self.abi = None  # never trampolined
        self.offsets = []
        at, align = 0, 1
        for scalar, count in fields:
            at = (at + scalar.align - 1) // scalar.align * scalar.align
            self.offsets.append(at)
            at += scalar.size * (count or 1)
            align = max(align, scalar.align)
        self.align = align
        self.size = (at + align - 1) // align * align

    def value(self, p):
        parts = []
        for j, (scalar, count) in enumerate(self.fields):
            if count is None:
                parts.append(scalar.value(p, j))
            else:  # an array member: small distinct elements
                parts.append("{%s}" % ", ".join(
                    "(%s)%d" % (scalar.ctype, (p * count + k + 1) % 250 + 1) for k in range(count)))
        return "{%s}" % ", ".join(parts)

    # -- layout and ABI ----------------------------------------------------------------------
    def leaves(self):
        """(offset, scalar) of every scalar member, arrays expanded."""
        out = []
        for (scalar, count), offset in zip(self.fields, self.offsets):
            for k in range(count or 1):
                out.append((offset + k * scalar.size, scalar))
        return out

    def mask(self):
        mask = ["0"] * self.size
        for offset, scalar in self.leaves():
            mask[offset:offset + scalar.size] = scalar.mask()
        return mask

    def hfa(self):
        """(count, base scalar) if this is a homogeneous floating-point aggregate, else None."""
        leaves = self.leaves()
        codes = {s.code for _, s in leaves}
        if len(codes) == 1 and codes <= {"f", "d", "D"} and 1 <= len(leaves) <= 4:
            return len(leaves), leaves[0][1]
        return None

    def x86_64(self):
        if self.size > 16:
            return "%d bytes, MEMORY: argument copied onto the stack; result through a hidden " \
                   "pointer (rdi)" % self.size, False
        classes = [None, None]
        for offset, scalar in self.leaves():
            c = "INTEGER" if scalar.abi in "iq" else "SSE" if scalar.abi in "fd" else "X87"
            eb = offset // 8
            old = classes[eb]
            if old is None or old == c:
                classes[eb] = c
            elif "X87" in (old, c):
                classes[eb] = "MEMORY"
            else:
                classes[eb] = "INTEGER"  # INTEGER wins over SSE
        classes = [c for c in classes if c]
        if "MEMORY" in classes or "X87" in classes:
            return "%d bytes, MEMORY (x87 member): argument on the stack; result through a " \
                   "hidden pointer (rdi)" % self.size, False
        n_int, n_sse = classes.count("INTEGER"), classes.count("SSE")
        regs = [("%d general register%s" % (n_int, "s" if n_int > 1 else "")) if n_int else "",
                ("%d xmm register%s" % (n_sse, "s" if n_sse > 1 else "")) if n_sse else ""]
        return "%d bytes, eightbytes %s: %s, all or nothing (if they do not fit it goes to the " \
               "stack, and later arguments still take the registers left); result in %s" % (
                   self.size, "+".join(classes), " and ".join(r for r in regs if r),
                   ", ".join(x86_result_registers(classes))), True

    def aarch64(self):
        h = self.hfa()
        if h:
            n, base = h
            reg = {"f": "s", "d": "d", "D": "q"}[base.code]
            return "HFA of %d %s%s: %s (%s), all or nothing (once they do not fit, it and every " \
                   "later floating-point argument go to the stack); result in %s" % (
                       n, base.ctype, "s" if n > 1 else "",
                       "%d consecutive vector registers" % n if n > 1 else "a vector register",
                       reg, "%s0-%s%d" % (reg, reg, n - 1) if n > 1 else reg + "0"), True
        if self.size > 16:
            return "%d bytes: by reference (a copy the callee owns, its address in a general " \
                   "register or on the stack); result through x8" % self.size, False
        n = (self.size + 7) // 8
        return "%d bytes: %d general register%s, all or nothing (once they do not fit, it and " \
               "every later integer argument go to the stack); result in %s" % (
                   self.size, n, "s" if n > 1 else "", "x0-x1" if n > 1 else "x0"), True


def x86_result_registers(classes):
    ints, sses = iter(["rax", "rdx"]), iter(["xmm0", "xmm1"])
    return [next(ints) if c == "INTEGER" else next(sses) for c in classes]


def x86_eightbytes(s):
    """The System V classes of a struct's eightbytes (["INTEGER", "SSE"]...), or None: MEMORY."""
    text, ok = s.x86_64()
    if not ok:
        return None
    return re.search(r"eightbytes ([A-Z+]+)", text).group(1).split("+")


def x86_fit(s, used):
    """Where x86-64 puts struct `s` after `used` general registers (and few vector ones)."""
    classes = x86_eightbytes(s)
    need = classes.count("INTEGER")
    if need == 0:
        return "in vector registers"
    if used + need <= 6:
        return "in general registers"
    return "on the stack, the integer after it in a register" if used < 6 else "on the stack"


def aarch64_fit(s, used):
    """Where AArch64 puts a composite of 16 bytes or less after `used` general registers."""
    if used + (s.size + 7) // 8 <= 8:
        return "in general registers"
    return "a register short: it and the integer after it on the stack"


def read_scalars():
    scalars = []
    with open(TYPES_DEF) as f:
        for line in f:
            m = re.match(r"IC_SCALAR\('(.)', (\w+), ([^,]+), \w+, (\w+), (\w)\)", line.strip())
            if m:
                scalars.append(Scalar(*m.groups()))
    assert scalars, "no IC_SCALAR rows in ic_types.def"
    return scalars


def read_structs(scalars):
    by_code = {s.code: s for s in scalars}
    encodings = {}
    with open(TYPE_CASES) as f:
        for m in re.finditer(r'ICT_CASE\((struct_\w+), "([^"]+)", ict_\w+_t\)', f.read()):
            encodings[m.group(1)] = m.group(2)
    structs = []
    for name in STRUCTS:
        encoding = encodings[name]
        body = re.fullmatch(r"\{\w+=(.*)\}", encoding).group(1)
        fields = []  # (scalar, array length or None)
        for m in re.finditer(r"\[(\d+)(.)\]|(.)", body):
            if m.group(1):
                fields.append((by_code[m.group(2)], int(m.group(1))))
            else:
                fields.append((by_code[m.group(3)], None))
        structs.append(Struct(name, encoding, fields))
    return structs


def read_trampoline_keys():
    keys = set()
    for path in TRAMPOLINES_DEFS:
        with open(path) as f:
            for m in re.finditer(r"IC_TRAMPOLINE\d\(([^)]*)\)", f.read()):
                classes = [c.strip() for c in m.group(1).split(",")]
                keys.add(classes[0] + ":" + "".join(classes[1:]))
    assert keys, "no trampolines in trampolines_<R>.def"
    return keys


def edges(scalars, structs):
    """The register-edge family: (return type or None, argument types, what it probes)."""
    by_name = {t.name: t for t in scalars + structs}
    ints = [s for s in scalars if s.abi in "iq"]
    vecs = [s for s in scalars if s.abi in "fd"]
    # Results of the scalar edges: each register class and void, so that the register entries
    # (whose limits these are) run with every kind of result; the aggregate edges cycle through
    # results in registers and in memory.
    scalar_returns = [by_name[n] for n in ("longlong", "double", "float", "char")] + [None]
    returns = [by_name[n] for n in ("longlong", "double", "float", "longdouble", "struct_dddd",
                                    "struct_ddd", "struct_32", "int", "struct_iii", "struct_ff")]
    choices = returns + [None]  # None: void
    out = []

    def add(args, what, ret=False):
        if ret is False:
            ret = choices[len(out) % len(choices)]
        out.append((ret, args, what))

    def take(pool, start, n):
        return [pool[(start + k) % len(pool)] for k in range(n)]

    # Integer registers: self and _cmd take two; x86-64 has 6, AArch64 8.
    for n in (4, 5, 6, 7):
        for k, ret in enumerate(scalar_returns):
            add(take(ints, 3 * n + k, n), "%d integer arguments: %s" % (n, {
                4: "x86-64's 6 general registers full",
                5: "one on x86-64's stack",
                6: "AArch64's 8 general registers full; two on x86-64's stack",
                7: "one on AArch64's stack"}[n]), ret)
    # Vector registers: 8 on both.
    for n in (7, 8, 9):
        for k, ret in enumerate(scalar_returns):
            add(take(vecs, n + k, n), "%d floating-point arguments: %s" % (n, {
                7: "one vector register left", 8: "all 8 vector registers full",
                9: "one on the stack"}[n]), ret)
    # Both files at once, interleaved: the register entries' largest shape on AArch64.
    for n_int, n_vec in ((4, 8), (6, 8), (6, 9), (7, 8)):
        for k, ret in enumerate(scalar_returns):
            i_args, v_args = take(ints, n_int + k, n_int), take(vecs, n_vec + k, n_vec)
            args = []
            while i_args or v_args:
                if v_args:
                    args.append(v_args.pop(0))
                if i_args:
                    args.append(i_args.pop(0))
            add(args, "%d integer and %d floating-point arguments, interleaved" % (n_int, n_vec),
                ret)
    # Aggregates against the registers left: HFAs in vector registers (AArch64; x86-64 has its
    # own eightbyte rules for the same bytes), then a double that follows it.
    double = by_name["double"]
    for s in structs:
        h = s.hfa()
        if h:
            n = h[0]
            for before in (8 - n, 9 - n):  # just fits / one register short
                add(take(vecs, before, before) + [s, double],
                    "%s after %d floating-point arguments (AArch64: %s)" % (
                        s.name, before, "fits exactly" if before == 8 - n else
                        "one vector register short: it and the double after it on the stack"))
    # Composites of 16 bytes or less against the general registers left, then an integer.
    long_long = by_name["longlong"]
    for name in ("struct_fi", "struct_iii", "struct_fd", "struct_id", "struct_c3"):
        s = by_name[name]
        for before in (3, 4, 5):
            add(take(ints, before, before) + [s, long_long],
                "%s after %d integer arguments (x86-64: %s; AArch64: %s)" % (
                    name, before, x86_fit(s, 2 + before), aarch64_fit(s, 2 + before)))
    # Structs over 16 bytes once the general registers are gone: their copies' addresses (or,
    # on x86-64, the structs themselves) go to the stack, two in a row.
    for name in ("struct_17", "struct_32", "struct_d5"):
        s = by_name[name]
        add(take(ints, 6, 6) + [s, s, long_long],
            "two %s after 6 integer arguments: the by-reference addresses on AArch64's stack"
            % name)
    return out


def generate():
    scalars = read_scalars()
    structs = read_structs(scalars)
    types = scalars + structs
    trampolines = read_trampoline_keys()
    cases = []  # (return type or None, argument types, optimized, family, what)

    def add_case(ret, args, family, what):
        key_parts = ["v" if ret is None else ret.abi] + [a.abi for a in args]
        optimized = None not in key_parts and "D" not in key_parts and \
            (key_parts[0] + ":" + "".join(key_parts[1:])) in trampolines
        cases.append((ret, args, optimized, family, what))

    for family, which, max_arity, stride in FAMILIES:
        members = types if which == "all" else [t for t in scalars if t.abi != "D"]
        assert stride < len(members) and len(members) % stride != 0
        for r_index, ret in enumerate([None] + members):  # None: void
            for arity in range(max_arity + 1):
                args = [members[(r_index + arity + stride * i) % len(members)]
                        for i in range(arity)]
                add_case(ret, args, family, None)
    for ret, args, what in edges(scalars, structs):
        assert len(args) <= MAX_ARITY
        add_case(ret, args, "register edges", what)

    out = []
    w = out.append
    w("/* Generated by tools/gen_matrix.py from ic_types.def, type_cases.c and trampolines_<R>.def;")
    w(" * do not edit. Regenerate: python3 Tests/CInterceptionTestSupport/tools/gen_matrix.py")
    w(" *")
    w(" * Area: type encodings, invocations, forwarding, interception, closure IMPs (SPEC sections")
    w(" * 9 and 21).")
    w(" * Purpose: %d signatures over %d types (see the generator for the three families); %d of"
      % (len(cases), len(types), sum(1 for c in cases if c[2])))
    w(" * them have an optimized trampoline.")
    w(" *")
    w(" * How each ABI passes the types (also in ict_matrix_layouts()):")
    for t in types:
        w(" *   %s %s" % (t.name, t.encoding))
        w(" *     x86-64:  %s" % t.x86_64()[0])
        w(" *     AArch64: %s" % t.aarch64()[0])
    w(" */")
    w('#include "ict_matrix.h"')
    w('#include "ict_struct_shapes.h"')
    w("")
    w("#include <float.h>")
    w("#include <string.h>")
    w("")
    w("/* What the last matrix IMP called on this thread received, and how many were called. */")
    w("static _Thread_local union {")
    w("    long double align;")
    w("    unsigned char bytes[ICT_MATRIX_MAX_ARITY][ICT_MATRIX_MAX_VALUE];")
    w("} received;")
    w("static _Thread_local size_t calls;")
    w("")
    w("const void *ict_matrix_received(size_t position) { return received.bytes[position]; }")
    w("size_t ict_matrix_calls(void) { return calls; }")
    w("")
    w("/* Each narrow integer argument as the method itself widens it: clang on x86-64 trusts the")
    w(" * caller to have extended it to 32 bits, so a path that hands it over unextended shows. */")
    w("static _Thread_local long long received_wide[ICT_MATRIX_MAX_ARITY];")
    w("long long ict_matrix_received_wide(size_t position) { return received_wide[position]; }")
    w("")
    w("#define ICT_NOTE(I, A)                                                                             \\")
    w("    _Static_assert(sizeof(A) <= ICT_MATRIX_MAX_VALUE, \"value too large\");                     \\")
    w("    memcpy(received.bytes[I], &(A), sizeof(A));")
    w("#define ICT_NOTE_WIDE(I, A) received_wide[I] = (long long)(A);")
    w("/* A callee owns its by-value parameters: overwrite one, so a caller whose value changed")
    w(" * with it (a struct passed by reference without a copy) shows. */")
    w("#define ICT_CLOBBER(A)                                                                             \\")
    w("    memset(&(A), 0xEE, sizeof(A));                                                                 \\")
    w("    __asm__ volatile(\"\" : : \"r\"(&(A)) : \"memory\");")
    w("")
    w("static char ict_matrix_strings[%d][4] = {%s};" % (
        RETURN_POSITION + 1, ", ".join('"p%d"' % i for i in range(RETURN_POSITION + 1))))
    w("")
    w("/* ---- the values: one per type and argument position, and the returned one -------------- */")
    w("")
    for t in types:
        w("typedef %s ict_mt_%s;" % (t.ctype, t.name))
    w("")
    used = {(ret.name, RETURN_POSITION) for ret, _, _, _, _ in cases if ret is not None}
    used |= {(a.name, i) for _, args, _, _, _ in cases for i, a in enumerate(args)}
    for t in types:
        positions = [p for p in list(range(MAX_ARITY)) + [RETURN_POSITION] if (t.name, p) in used]
        w("static const ict_mt_%s %s;" % (t.name, ", ".join(
            "ict_v_%s_%s = %s" % (t.name, "r" if p == RETURN_POSITION else p, t.value(p))
            for p in positions)))
    w("")
    w("/* ---- the layouts: significant bytes, and how each ABI passes the type ------------------- */")
    w("")
    w("/* x87's long double holds 10 bytes of value in 16; AArch64's is a 16-byte quad. */")
    w("#if LDBL_MANT_DIG == 64")
    w("#define ICT_LDBL_PAD 0")
    w("#else")
    w("#define ICT_LDBL_PAD 1")
    w("#endif")
    w("#if defined(__x86_64__)")
    w("#define ICT_PER_ABI(X86_64, AARCH64) X86_64")
    w("#elif defined(__aarch64__)")
    w("#define ICT_PER_ABI(X86_64, AARCH64) AARCH64")
    w("#else")
    w("#error \"the matrix describes x86-64 and AArch64 only\"")
    w("#endif")
    w("")
    for t in types:
        w("static const unsigned char ict_mask_%s[%d] = {%s};" % (t.name, t.size, ", ".join(t.mask())))
    w("")
    w("static const ict_matrix_layout layouts[] = {")
    for t in types:
        x86, x86_zero = t.x86_64()
        a64, a64_zero = t.aarch64()
        w("    {\"%s\", \"%s\", sizeof(ict_mt_%s), ict_mask_%s, '%s', %s,"
          % (t.name, t.encoding, t.name, t.name,
             t.abi if t.abi in ("i", "q", "f", "d") else "\\0" if t.abi != "D" else "D",
             "true" if getattr(t, "kind", None) == "BOOL" else "false"))
        w("     ICT_PER_ABI(\"%s\",\n                 \"%s\")," % (x86, a64))
        w("     ICT_PER_ABI(%s, %s)}," % (str(x86_zero).lower(), str(a64_zero).lower()))
    w("};")
    w("")
    w("const ict_matrix_layout *ict_matrix_layouts(size_t *count)")
    w("{")
    w("    *count = sizeof layouts / sizeof layouts[0];")
    w("    return layouts;")
    w("}")
    w("")
    w("/* ---- the signatures ------------------------------------------------------------------ */")
    for n, (ret, args, optimized, family, what) in enumerate(cases):
        rtype = "void" if ret is None else "ict_mt_" + ret.name
        encoding = ("v" if ret is None else ret.encoding) + "@:" + "".join(a.encoding for a in args)
        params = "".join(", ict_mt_%s a%d" % (a.name, i) for i, a in enumerate(args))
        ptypes = "".join(", ict_mt_%s" % a.name for a in args)
        values = ", ".join("ict_v_%s_%d" % (a.name, i) for i, a in enumerate(args))
        w("")
        w("/* %d: %s%s */" % (n, encoding, "" if what is None else " (%s)" % what))
        w("static %s ict_m%d(ic_id self, ic_sel cmd%s)" % (rtype, n, params))
        w("{")
        w("    (void)self;")
        w("    (void)cmd;")
        if args:
            w("    memset(received_wide, 0, sizeof received_wide);")
        for i, a in enumerate(args):
            w("    ICT_NOTE(%d, a%d)" % (i, i))
            if getattr(a, "kind", None) in ("SINT", "UINT", "BOOL") and a.size < 4:
                w("    ICT_NOTE_WIDE(%d, a%d)" % (i, i))
        for i in range(len(args)):
            w("    ICT_CLOBBER(a%d)" % i)
        w("    calls++;")
        if ret is not None:
            w("    return ict_v_%s_r;" % ret.name)
        w("}")
        w("static void ict_m%d_direct(void *out)" % n)
        w("{")
        w("    %s (*volatile fn)(ic_id, ic_sel%s) = ict_m%d;" % (rtype, ptypes, n))
        call = "fn(NULL, NULL%s)" % "".join(", " + v for v in values.split(", ") if v)
        if ret is None:
            w("    (void)out;")
            w("    %s;" % call)
        else:
            w("    %s r = %s;" % (rtype, call))
            w("    memcpy(out, &r, sizeof r);")
        w("}")
        w("static void ict_m%d_send(ic_id o, ic_sel s, void *out)" % n)
        w("{")
        send = "IC_MSG(IC_FN(%s%s), o, s%s)" % (rtype, ptypes, "".join(", " + v for v in values.split(", ") if v))
        if ret is None:
            w("    (void)out;")
            w("    %s;" % send)
        else:
            w("    %s r = %s;" % (rtype, send))
            w("    memcpy(out, &r, sizeof r);")
        w("}")

    w("")
    w("/* ---- the table ----------------------------------------------------------------------- */")
    w("")
    index = {t.name: i for i, t in enumerate(types)}
    w("#define L(NAME) &layouts[NAME]")
    w("static const ict_matrix_case cases[] = {")
    for n, (ret, args, optimized, family, what) in enumerate(cases):
        encoding = ("v" if ret is None else ret.encoding) + "@:" + "".join(a.encoding for a in args)
        arg_names = ", ".join('"%s"' % a.name for a in args)
        arg_values = ", ".join("&ict_v_%s_%d" % (a.name, i) for i, a in enumerate(args))
        arg_layouts = ", ".join("L(%d)" % index[a.name] for a in args)
        w("    {\"%s\", \"%s\", %d, {%s}, {%s}, %s, %s, (ic_imp)ict_m%d, ict_m%d_direct, ict_m%d_send,"
          % (encoding.replace("\\", "\\\\").replace('"', '\\"'), "void" if ret is None else ret.name,
             len(args), arg_names or "NULL", arg_values or "NULL",
             "NULL" if ret is None else "&ict_v_%s_r" % ret.name, "true" if optimized else "false",
             n, n, n))
        w("     %s, {%s}, \"%s\", %s},"
          % ("NULL" if ret is None else "L(%d)" % index[ret.name], arg_layouts or "NULL", family,
             "NULL" if what is None else '"%s"' % what))
    w("};")
    w("#undef L")
    w("")
    w("const ict_matrix_case *ict_matrix_cases(size_t *count)")
    w("{")
    w("    *count = sizeof cases / sizeof cases[0];")
    w("    return cases;")
    w("}")
    return "\n".join(out) + "\n"


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        with open(OUTPUT) as f:
            if f.read() != text:
                sys.exit("matrix_cases.c is out of date: run python3 "
                         "Tests/CInterceptionTestSupport/tools/gen_matrix.py")
        return
    with open(OUTPUT, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
