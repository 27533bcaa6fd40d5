#!/usr/bin/env bash
# Checks that the C runtime never formats an error message from the buffer it writes it into
# (SPEC §20). The thread-local last error (support/error.c) is written only by the library's
# private ic_fail* functions, so only library code can misuse it; and it can only read the
# message through ic_error_message(). The rule enforced here: no library source but
# support/error.c names ic_error_message at all (comments and string literals aside; the public
# headers only declare it). A re-statement uses ic_fail_restating, ic_error_copy or
# ic_fatal_after (support/error.h), which copy the message first. A name match after stripping
# comments and literals cannot miss a call, however it is spelled across lines, nor an alias
# (`const char *m = ic_error_message();`), nor a function pointer taken to it.
# `--self-test` first proves the scanner flags such uses and passes the allowed forms.
set -euo pipefail
cd "$(dirname "$0")/.."

scan() {
    python3 - "$@" <<'EOF'
import re
import sys

def strip(text):
    """C source without comments, string or character literals (newlines kept for line numbers)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(ch if ch == "\n" else " " for ch in text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)

token = re.compile(r"\bic_error_message\b")
bad = 0
for path in sys.argv[1:]:
    code = strip(open(path, encoding="utf-8").read())
    for number, line in enumerate(code.split("\n"), 1):
        if token.search(line):
            print(f"{path}:{number}: reads the last error message directly; use "
                  "ic_fail_restating, ic_error_copy or ic_fatal_after (support/error.h)",
                  file=sys.stderr)
            bad += 1
sys.exit(1 if bad else 0)
EOF
}

if [ "${1:-}" = "--self-test" ]; then
    dir=$(mktemp -d)
    trap 'rm -rf "$dir"' EXIT
    cat >"$dir/bad1.c" <<'EOF'
static int f(void) { return ic_fail(IC_ERR_FFI, "cannot x: %s",
                                    ic_error_message ()); }
EOF
    cat >"$dir/bad2.c" <<'EOF'
static int g(void) { const char *m = ic_error_message(); return ic_fail(1, "%s", m); }
EOF
    cat >"$dir/bad3.c" <<'EOF'
static const char *(*h)(void) = &ic_error_message;
EOF
    cat >"$dir/good.c" <<'EOF'
/* ic_error_message() is mentioned in a comment only. */
static int k(void) { puts("ic_error_message()"); return ic_fail_restating(1, "cannot y"); }
EOF
    for f in bad1 bad2 bad3; do
        if scan "$dir/$f.c" 2>/dev/null; then
            echo "check-error-buffer self-test: $f.c was not flagged" >&2
            exit 1
        fi
    done
    scan "$dir/good.c" || { echo "check-error-buffer self-test: good.c was flagged" >&2; exit 1; }
    echo "check-error-buffer self-test passed"
fi

mapfile -t files < <(find CSources/CInterception -name '*.c' -o -name '*.h' | sort |
    grep -v -e '^CSources/CInterception/support/error\.c$' -e '^CSources/CInterception/include/')
scan "${files[@]}"
echo "error buffer clean: ${#files[@]} library sources read the last message only through support/error.h"
