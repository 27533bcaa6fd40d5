#!/usr/bin/env bash
# Checks that the C code block of README.md's "## C" section is Examples/c-counter/main.c, byte
# for byte (scripts/c-example.sh builds and runs that file), and that it compiles warning-free with
# -Wall -Wextra -Werror (with each of clang and gcc found) against the headers in the tree. Exits
# non-zero, with a diff or the diagnostics, if not.
set -euo pipefail
cd "$(dirname "$0")/.."
block=$(mktemp)
trap 'rm -f "$block"' EXIT
# The first ```c block after the "## C" heading.
awk '/^## C$/ { section = 1; next }
     section && /^## / { exit }
     section && /^```c$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' README.md >"$block"
if ! diff -u Examples/c-counter/main.c "$block"; then
    echo "README.md's C example differs from Examples/c-counter/main.c (above: file vs README)" >&2
    exit 1
fi
echo "README.md's C example is Examples/c-counter/main.c"
for cc in clang gcc; do
    command -v "$cc" >/dev/null 2>&1 || continue
    "$cc" -Wall -Wextra -Werror -fsyntax-only -ICSources/CInterception/include -x c "$block"
    echo "README.md's C example compiles with $cc -Wall -Wextra -Werror"
done
