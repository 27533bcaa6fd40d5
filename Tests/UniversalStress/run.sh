#!/usr/bin/env bash
# Tests/UniversalStress/run.sh [seconds] — hooking and unhooking while calling on the universal
# trampoline (stress.c), with the runtime and the program built with ThreadSanitizer. Build
# outputs go to .build-tsan-universal/ (ignored). Exits non-zero on a data race or a wrong result.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CC=${CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
OUT=$ROOT/.build-tsan-universal
RUNTIME=$ROOT/CSources/CInterception
mkdir -p "$OUT"
COMMON=(-std=gnu11 -D_GNU_SOURCE -I"$RUNTIME/include" -I"$RUNTIME/include/interception" $(pkg-config --cflags libffi))
# An object is rebuilt unless it is newer than its source and every header of the runtime (a
# header change alone must rebuild what includes it: a stale object runs with an old layout).
newest_header=$(find "$RUNTIME" -name '*.h' -o -name '*.def' | xargs ls -t | head -n 1)
jobs=()
for source in $(find "$RUNTIME" \( -name '*.c' -o -name '*.S' \) | sort) "$ROOT/Tests/UniversalStress/stress.c"; do
    object=$OUT/$(basename "$source").o
    [ "$object" -nt "$source" ] && [ "$object" -nt "$newest_header" ] && continue
    # trampolines_<R>.c (505 generated functions, never reached here) are compiled plain.
    if [[ "$(basename "$source")" == trampolines_?.c || "$source" == *.S ]]; then
        flags=(-O1 -g)
    else
        flags=(-O1 -g -fsanitize=thread)
    fi
    "$CC" "${COMMON[@]}" "${flags[@]}" -c "$source" -o "$object" &
    jobs+=($!)
    if [ "${#jobs[@]}" -ge "$(nproc)" ]; then
        wait "${jobs[0]}"
        jobs=("${jobs[@]:1}")
    fi
done
for job in "${jobs[@]}"; do wait "$job"; done
# The Swift toolchain's ThreadSanitizer runtime intercepts libdispatch: link the toolchain's.
SWIFT_LIB=$(dirname "$(dirname "$CC")")/lib/swift/linux
extra=()
if [ -e "$SWIFT_LIB/libdispatch.so" ]; then
    extra=(-L"$SWIFT_LIB" -ldispatch -lBlocksRuntime -Wl,-rpath,"$SWIFT_LIB")
fi
"$CC" -fsanitize=thread "$OUT"/*.o $(pkg-config --libs libffi) -lpthread "${extra[@]}" -o "$OUT/stress"
TSAN_OPTIONS="halt_on_error=1 ${TSAN_OPTIONS:-}" "$OUT/stress" "${1:-3}"
