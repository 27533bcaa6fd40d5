#!/usr/bin/env python3
"""Generates matrix_cases.c, the signature matrix of SPEC section 9 (issue #8).

Types come from the runtime's own tables: every scalar code of ic_types.def, plus the struct
shapes of the type matrix (their encodings are read from the ICT_CASE lines of type_cases.c,
their C types from ict_struct_shapes.h): two floats, two doubles, float+int, int+double,
double+long long, three doubles, 17 bytes, 32 bytes.

Signatures, in two families:
- every type (and void) as the return type, at every arity from 0 to 6; argument i of the
  signature for return type number r at arity n is type number (r + n + 7 * i) mod T (7 is
  coprime with T), so for each arity every type appears at every argument position, mixed with
  other kinds around it;
- the same over the scalar types that trampolines carry (all but long double), arities 0 to 4,
  stride 5: mostly signatures with an optimized trampoline, so that each of those types also goes
  through one at each position. Each signature gets a typed method IMP that records the arguments it
receives and returns a known value, a direct typed call of it, a typed send through IC_MSG, the
values it is called with, and whether the runtime's trampoline table (trampolines.def) has an
optimized trampoline for its ABI key, i.e. which interception path to expect.

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
TRAMPOLINES_DEF = os.path.join(ROOT, "CSources", "CInterception", "engine", "trampolines.def")
TYPE_CASES = os.path.join(ROOT, "Tests", "CInterceptionTestSupport", "type_cases.c")
OUTPUT = os.path.join(ROOT, "Tests", "CInterceptionTestSupport", "matrix_cases.c")

STRUCTS = ["struct_ff", "struct_dd", "struct_fi", "struct_id", "struct_dq", "struct_ddd",
           "struct_17", "struct_32"]
MAX_ARITY = 6
FAMILIES = [  # (which types, arities, stride): see above
    ("all", MAX_ARITY, 7),
    ("trampolined scalars", 4, 5),
]
RETURN_POSITION = 9  # the value a method returns is the one for this (unused) position


class Scalar:
    def __init__(self, code, name, ctype, kind, abi):
        self.code, self.name, self.ctype, self.kind, self.abi = code, name, ctype, kind, abi
        self.encoding = code

    def value(self, p, field=0):
        """A C constant expression of this type, distinct per position p (and field)."""
        t = self.ctype
        n = p * 8 + field
        if self.kind == "SINT":  # negative, within every signed type: sign extension shows
            return "(%s)(%d)" % (t, -10 - n)
        if self.kind == "UINT":  # the high bit set: zero extension shows
            return "(%s)(~(%s)0 - %d)" % (t, t, 7 + n)
        if self.kind == "FLOAT":
            return "(%s)(%s)" % (t, repr(-3.25 - n if n % 2 == 0 else 1.5 + n))
        if self.kind == "BOOL":
            return "(%s)%d" % (t, 1 if p % 2 == 0 or p == RETURN_POSITION else 0)
        if self.kind == "CSTRING":
            return "(%s)ict_matrix_strings[%d]" % (t, p)
        base = {"OBJECT": 0x7F0000100000, "CLASS": 0x7F0000200000, "SELECTOR": 0x7F0000300000}
        return "(%s)(uintptr_t)0x%xULL" % (t, base[self.kind] + 0x100 * p + 0x10 * field)


class Struct:
    def __init__(self, name, encoding, fields):
        self.name, self.encoding, self.fields = name, encoding, fields
        self.ctype = "ict_%s_t" % name
        self.abi = None  # never trampolined

    def value(self, p):
        parts = []
        for j, (scalar, count) in enumerate(self.fields):
            if count is None:
                parts.append(scalar.value(p, j))
            else:  # an array member: small distinct elements
                parts.append("{%s}" % ", ".join(
                    "(%s)%d" % (scalar.ctype, (p * count + k + 1) % 250 + 1) for k in range(count)))
        return "{%s}" % ", ".join(parts)


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
    with open(TRAMPOLINES_DEF) as f:
        for m in re.finditer(r"IC_TRAMPOLINE\d\(([^)]*)\)", f.read()):
            classes = [c.strip() for c in m.group(1).split(",")]
            keys.add(classes[0] + ":" + "".join(classes[1:]))
    assert keys, "no trampolines in trampolines.def"
    return keys


def generate():
    scalars = read_scalars()
    types = scalars + read_structs(scalars)
    trampolines = read_trampoline_keys()
    cases = []
    for family, max_arity, stride in FAMILIES:
        members = types if family == "all" else [t for t in scalars if t.abi != "D"]
        assert stride < len(members) and len(members) % stride != 0
        for r_index, ret in enumerate([None] + members):  # None: void
            for arity in range(max_arity + 1):
                args = [members[(r_index + arity + stride * i) % len(members)]
                        for i in range(arity)]
                key_parts = ["v" if ret is None else ret.abi] + [a.abi for a in args]
                optimized = None not in key_parts and "D" not in key_parts and \
                    (key_parts[0] + ":" + "".join(key_parts[1:])) in trampolines
                cases.append((ret, args, optimized))

    out = []
    w = out.append
    w("/* Generated by tools/gen_matrix.py from ic_types.def, type_cases.c and trampolines.def;")
    w(" * do not edit. Regenerate: python3 Tests/CInterceptionTestSupport/tools/gen_matrix.py")
    w(" *")
    w(" * Area: type encodings, invocations, forwarding, interception (SPEC section 9).")
    w(" * Purpose: %d signatures over %d types (see the generator for the two families); %d of"
      % (len(cases), len(types), sum(1 for c in cases if c[2])))
    w(" * them have an optimized trampoline.")
    w(" */")
    w('#include "ict_matrix.h"')
    w('#include "ict_struct_shapes.h"')
    w("")
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
    w("#define ICT_NOTE(I, A)                                                                             \\")
    w("    _Static_assert(sizeof(A) <= ICT_MATRIX_MAX_VALUE, \"value too large\");                     \\")
    w("    memcpy(received.bytes[I], &(A), sizeof(A));")
    w("")
    w("static char ict_matrix_strings[10][4] = {\"p0\", \"p1\", \"p2\", \"p3\", \"p4\", \"p5\", \"p6\", \"p7\", \"p8\", \"p9\"};")
    w("")
    w("/* ---- the values: one per type and argument position, and the returned one -------------- */")
    w("")
    for t in types:
        w("typedef %s ict_mt_%s;" % (t.ctype, t.name))
    w("")
    for t in types:
        positions = list(range(MAX_ARITY)) + [RETURN_POSITION]
        w("static const ict_mt_%s %s;" % (t.name, ", ".join(
            "ict_v_%s_%s = %s" % (t.name, "r" if p == RETURN_POSITION else p, t.value(p))
            for p in positions)))
    w("")
    w("/* ---- the signatures ------------------------------------------------------------------ */")
    for n, (ret, args, optimized) in enumerate(cases):
        rtype = "void" if ret is None else "ict_mt_" + ret.name
        encoding = ("v" if ret is None else ret.encoding) + "@:" + "".join(a.encoding for a in args)
        params = "".join(", ict_mt_%s a%d" % (a.name, i) for i, a in enumerate(args))
        ptypes = "".join(", ict_mt_%s" % a.name for a in args)
        values = ", ".join("ict_v_%s_%d" % (a.name, i) for i, a in enumerate(args))
        w("")
        w("/* %d: %s */" % (n, encoding))
        w("static %s ict_m%d(ic_id self, ic_sel cmd%s)" % (rtype, n, params))
        w("{")
        w("    (void)self;")
        w("    (void)cmd;")
        for i in range(len(args)):
            w("    ICT_NOTE(%d, a%d)" % (i, i))
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
    w("static const ict_matrix_case cases[] = {")
    for n, (ret, args, optimized) in enumerate(cases):
        encoding = ("v" if ret is None else ret.encoding) + "@:" + "".join(a.encoding for a in args)
        arg_names = ", ".join('"%s"' % a.name for a in args)
        arg_values = ", ".join("&ict_v_%s_%d" % (a.name, i) for i, a in enumerate(args))
        w("    {\"%s\", \"%s\", %d, {%s}, {%s}, %s, %s, (ic_imp)ict_m%d, ict_m%d_direct, ict_m%d_send},"
          % (encoding.replace("\\", "\\\\").replace('"', '\\"'), "void" if ret is None else ret.name,
             len(args), arg_names or "NULL", arg_values or "NULL",
             "NULL" if ret is None else "&ict_v_%s_r" % ret.name, "true" if optimized else "false",
             n, n, n))
    w("};")
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
