#!/usr/bin/env bash
# Checks the C runtime's layering (CSources/CInterception/README.md): a file includes internal
# headers only from its own folder and from the layers below it. Exits non-zero, naming the file
# and the include, on any upward include.
set -euo pipefail
cd "$(dirname "$0")/../CSources/CInterception"
order=(support types runtime ffi engine)
rank() {
    local i
    for i in "${!order[@]}"; do [ "${order[$i]}" = "$1" ] && echo "$i" && return; done
    echo -1
}
status=0
for layer in "${order[@]}"; do
    mine=$(rank "$layer")
    while IFS= read -r line; do
        file=${line%%:*}
        target=$(sed -n 's/.*#include "\.\.\/\([a-z]*\)\/.*/\1/p' <<<"$line")
        [ -z "$target" ] && continue
        theirs=$(rank "$target")
        if [ "$theirs" -lt 0 ] || [ "$theirs" -ge "$mine" ]; then
            echo "layering: $file includes from $target/, which is not below $layer/" >&2
            status=1
        fi
    done < <(grep -Hn '#include "\.\./' "$layer"/*.c "$layer"/*.h 2>/dev/null || true)
done
[ "$status" -eq 0 ] && echo "layers clean: ${order[*]}"
exit "$status"
