#!/usr/bin/env python3
"""Doxygen input filter for the public headers (scripts/docs.sh c): reads the header comments we
already write as documentation, keeping every line where it is (warnings point at the header).

- The file's first block comment ("ic_hook.h — ...") documents the file (`/** @file`).
- A block comment that starts a line documents what follows it (`/**`).
- A block comment after code on the same line documents that member (`/**<`): struct fields,
  enumerators.
- A comment followed by several IC_EXPORT declarations with no blank line between (our way of
  documenting a family, e.g. ic_signature_return_type/_size/_alignment) documents each of them
  (a Doxygen member group; DISTRIBUTE_GROUP_DOC in docs/Doxyfile).
Comments inside macro bodies are left alone (they follow a backslash-continued line). In comments,
an `@` that cannot start a Doxygen command (type encodings: "i@:i", "@@:") is escaped, outside
`code spans`, where Doxygen reads no commands.
"""
import re
import sys

def escape_at(line):
    """`@` not followed by a letter, outside backquotes, as Doxygen's literal `\\@`."""
    out, code = [], False
    for i, c in enumerate(line):
        if c == "`":
            code = not code
        elif c == "@" and not code and not (i + 1 < len(line) and line[i + 1].isalpha()):
            out.append("\\")
        out.append(c)
    return "".join(out)


text = open(sys.argv[1], encoding="utf-8").read()
out = []
first = True
in_comment = False
continued = False
for line in text.split("\n"):
    if in_comment:
        line = escape_at(line)
        out.append(line)
        if "*/" in line:
            in_comment = False
        continued = line.rstrip().endswith("\\")
        continue
    if continued:
        out.append(line)
        continued = line.rstrip().endswith("\\")
        continue
    m = re.match(r"^(\s*)/\*(?![*!])(.*)$", line)
    if m:
        if first:
            line = m.group(1) + "/** @file" + m.group(2)
            first = False
        else:
            line = m.group(1) + "/**" + m.group(2)
        in_comment = "*/" not in m.group(2)
    else:
        # Code followed by a comment: the comment documents that member.
        m = re.match(r"^(\s*\S.*?)/\*(?![*!<])(.*)$", line)
        if m and not m.group(1).lstrip().startswith("#include"):
            line = m.group(1) + "/**<" + m.group(2)
            in_comment = "*/" not in m.group(2)
    if "/**" in line:
        head, _, tail = line.partition("/**")
        line = head + "/**" + escape_at(tail)
    out.append(line)
    continued = line.rstrip().endswith("\\") and not in_comment


def group_families(lines):
    """Wraps each family of IC_EXPORT declarations under one comment in a member group."""
    i = 0
    while i < len(lines):
        if lines[i].rstrip().endswith("*/") and i + 1 < len(lines) and lines[i + 1].startswith("IC_EXPORT"):
            j = i + 1
            while j < len(lines) and lines[j].strip() and "/*" not in lines[j]:
                j += 1
            block = lines[i + 1 : j]
            if sum(line.startswith("IC_EXPORT") for line in block) > 1 and not any("{" in l for l in block):
                lines[i] += " /**@{*/"
                lines[j - 1] += " /**@}*/"
            i = j
        else:
            i += 1
    return lines


sys.stdout.write("\n".join(group_families(out)))
