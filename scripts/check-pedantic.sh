#!/usr/bin/env bash
# Compiles Tests/CPedantic/pedantic.c, which includes the umbrella header and uses the ISO C forms
# of the message macros (ic_message.h: IC_FN with and without argument types, IC_SEND), with
# `-std=c11 -pedantic -Werror -Wall -Wextra`, and with -std=gnu11 the GNU forms too (IC_MSG,
# IC_MSG_SUPER, IC_MSG_NAMED), with every C compiler found (clang, gcc). Exits non-zero on any
# diagnostic.
set -euo pipefail
cd "$(dirname "$0")/.."
compilers=()
for cc in clang gcc; do command -v "$cc" >/dev/null 2>&1 && compilers+=("$cc"); done
[ "${#compilers[@]}" -gt 0 ] || { echo "check-pedantic: no C compiler (clang, gcc)" >&2; exit 1; }
for cc in "${compilers[@]}"; do
    "$cc" -std=c11 -pedantic -Werror -Wall -Wextra -fsyntax-only \
        -ICSources/CInterception/include Tests/CPedantic/pedantic.c
    "$cc" -std=gnu11 -DPEDANTIC_GNU_FORMS -Werror -Wall -Wextra -fsyntax-only \
        -ICSources/CInterception/include Tests/CPedantic/pedantic.c
done
echo "pedantic clean (${compilers[*]}): the umbrella header and IC_FN / IC_SEND in -std=c11 -pedantic, IC_MSG in gnu11"
