#!/usr/bin/env python3
"""Generates DocExamples.swift: every Swift example of the README and of the DocC catalogs,
compiled as part of the test target, so that an example that no longer compiles fails the build
(issue 34: the examples had drifted from the API).

Each file's ```swift blocks become one function, in the order they appear, each block nested in
a scope inside the previous one: a block sees what the blocks before it declared (the articles
tell one story: `counter` defined once is used later) and may declare the same name again
(shadowing in an inner scope is allowed). `import` lines and top-level declarations (`extension`,
`struct`, `final class`, `class`, `enum`, `protocol`, `func`, and attributes before them) move to
the file's scope, renamed nowhere: keep them unique across the documents. Every `let`/`var` a
block declares at its top level is marked used (`_ = name`), as examples often bind a result only
to show its value. A constant (`let Name = try …`) that a moved declaration uses moves with it,
as a global `let Name = try! …`: in a real program it would be a global too.

The functions are compiled, not run: examples define classes with fixed names, start run loops
or wait for events. What they print is checked where it matters by hand-written tests
(ReadmeExampleTests, UsageExampleTests).

A block that is not Swift code on its own (a Package.swift fragment) is skipped when the line
before its fence is the comment `<!-- doc-examples: skip -->` (GitHub and DocC render nothing
for it). Context an example assumes but does not show goes in a comment before its fence,
`<!-- doc-examples: context: let bag = DisposeBag() -->`: the code is placed before the block.

Regenerate (from the repository root), and check in CI:

    python3 scripts/doc-examples/generate.py
    python3 scripts/doc-examples/generate.py --check
"""
import os
import re
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUTPUT = os.path.join(ROOT, "Tests", "DocExampleTests", "DocExamples.swift")
DOCUMENTS = ["README.md"] + sorted(
    os.path.relpath(os.path.join(d, f), ROOT)
    for catalog in ("Sources/Interception/Interception.docc", "Sources/RxCore/RxCore.docc")
    for d, _, files in os.walk(os.path.join(ROOT, catalog))
    for f in files
    if f.endswith(".md"))

DECLARATION = re.compile(
    r"^(@\w+(\(.*\))?\s+)*((public|private|fileprivate|internal|final)\s+)*"
    r"(extension|struct|class|enum|protocol|func|typealias)\b")
BINDING = re.compile(r"^(let|var)\s+(\w+)\b")
MARKER = re.compile(r"^<!--\s*doc-examples:\s*(skip|context:(.*?))\s*-->\s*$")


def blocks(path):
    """(line number, lines, context) of each Swift block of a Markdown file, skips left out."""
    lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "```swift":
            marker = MARKER.match(lines[i - 1].strip()) if i > 0 else None
            start, body = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            if marker and marker.group(1) == "skip":
                pass
            else:
                context = marker.group(2).strip() if marker else None
                found.append((start, body, context))
        i += 1
    return found


def split_block(body):
    """Separates a block into file-scope lines (imports, declarations) and statements (each a
    list of lines: a statement runs until its brackets balance)."""
    file_scope, statements, i = [], [], 0
    while i < len(body):
        line = body[i]
        if line.startswith("import "):
            file_scope.append(line)
            i += 1
        elif DECLARATION.match(line):
            # A declaration runs to the line that closes it at column 0.
            declaration = [line]
            i += 1
            if not line.rstrip().endswith("}") or line.count("{") != line.count("}"):
                while i < len(body):
                    declaration.append(body[i])
                    i += 1
                    if declaration[-1].startswith("}"):
                        break
            file_scope.extend(declaration)
        else:
            statement = [line]
            i += 1
            while balance(statement) > 0 and i < len(body):
                statement.append(body[i])
                i += 1
            statements.append(statement)
    return file_scope, statements


def balance(lines):
    """Open brackets minus closed ones, comments and strings ignored (roughly)."""
    text = "\n".join(re.sub(r'"[^"]*"|//.*', "", l) for l in lines)
    return sum(text.count(c) for c in "({[") - sum(text.count(c) for c in ")}]")


def hoisted_binding(statement):
    """`let NAME = try expr` as a file-scope `let NAME = try! expr`: a constant that a hoisted
    declaration uses (a global in a real program)."""
    first = re.sub(r"^let (\w+) = try ", r"let \1 = try! ", statement[0])
    return [first] + statement[1:]


def function_name(path):
    stem = re.sub(r"[^A-Za-z0-9]+", "_", path.replace(".md", "")).strip("_")
    return "example_" + stem


def generate():
    imports = {"import Interception", "import Foundation"}
    declarations, functions = [], []
    for path in DOCUMENTS:
        found = blocks(path)
        if not found:
            continue
        split = []
        for number, (_, lines, context) in enumerate(found, 1):
            context_lines = [context] if context else []
            file_scope, statements = split_block(context_lines + lines)
            # Named by position, not line: editing prose does not change the generated file.
            split.append((f"example {number}", file_scope, statements))
        # Names the article's declarations use: constants binding them move to file scope.
        used = set(re.findall(r"\w+", "\n".join(l for _, f, _ in split for l in f)))
        body, depth = [], 1
        for start, file_scope, statements in split:
            for line in file_scope:
                if line.startswith("import "):
                    imports.add(line.split("//")[0].strip())
            hoisted = []
            kept = []
            for statement in statements:
                m = BINDING.match(statement[0])
                if m and m.group(1) == "let" and m.group(2) in used:
                    hoisted.extend(hoisted_binding(statement))
                else:
                    kept.append(statement)
            decl = hoisted + [l for l in file_scope if not l.startswith("import ")]
            if decl:
                declarations.append(f"// {path}, {start}")
                declarations.extend(decl)
                declarations.append("")
            indent = "    " * depth
            body.append(f"{indent}do {{  // {path}, {start}")
            inner = "    " * (depth + 1)
            for statement in kept:
                for line in statement:
                    body.append(f"{inner}{line}" if line.strip() else "")
            for statement in kept:
                m = BINDING.match(statement[0])
                if m:
                    body.append(f"{inner}_ = {m.group(2)}")
            depth += 1
        for d in range(depth - 1, 0, -1):
            body.append("    " * d + "}")
        effects = "async throws" if any(re.search(r"\bawait\b", l) for l in body) else "throws"
        functions.append(
            f"@available(*, deprecated, message: \"compiled, never called\")\n"
            f"private func {function_name(path)}() {effects} {{\n" + "\n".join(body) + "\n}\n")
    header = (
        "// GENERATED by scripts/doc-examples/generate.py from the README and the DocC catalogs:\n"
        "// do not edit. Every Swift example of those documents, compiled (never run) so that one\n"
        "// that no longer compiles fails the build. Regenerate with\n"
        "//   python3 scripts/doc-examples/generate.py\n"
        "// swift-format-ignore-file\n")
    return (header + "\n".join(sorted(imports)) + "\n\n" + "\n".join(declarations) + "\n"
            + "\n".join(functions))


def main():
    text = generate()
    if "--check" in sys.argv[1:]:
        current = open(OUTPUT, encoding="utf-8").read() if os.path.exists(OUTPUT) else ""
        if current != text:
            sys.stderr.write(
                f"{os.path.relpath(OUTPUT, ROOT)} is not what scripts/doc-examples/generate.py makes "
                "from the documents: run it and commit the result\n")
            sys.exit(1)
        return
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    open(OUTPUT, "w", encoding="utf-8").write(text)


if __name__ == "__main__":
    main()
