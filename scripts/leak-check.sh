#!/usr/bin/env bash
# scripts/leak-check.sh [objects] [valgrind-objects] — the leak check of issue #8.
#
# Builds scripts/leak-check/driver.c against the runtime's C sources twice and runs it:
#   1. under LeakSanitizer (clang -fsanitize=address), with `objects` objects (default 1000000);
#   2. under valgrind memcheck, with `valgrind-objects` objects (default: the same million; about
#      30 s here, where LeakSanitizer takes about 6), failing on any memcheck error and on any
#      definitely-lost block (--errors-for-leak-kinds=definite --error-exitcode=1).
# The driver creates, intercepts (optimized and forward paths), observes and releases the
# objects on two threads, with associated objects, weak references, dealloc observers,
# invocations and closure IMPs, then calls ic_intercept_quiesce() and exits non-zero unless the
# runtime's counters are back to zero (live objects, live observers, intercepted objects) and
# every observer was called and released exactly as expected.
# Valgrind lacks membarrier(): the runtime falls back to fences there, as designed. Classes,
# selectors and signatures are immortal by design: memcheck lists them as "still reachable".
# Pass 0 as valgrind-objects to skip valgrind. Build outputs go to .build-leak/ (ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
OBJECTS=${1:-1000000}
VALGRIND_OBJECTS=${2:-$OBJECTS}
CC=${CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
OUT=$ROOT/.build-leak
RUNTIME=$ROOT/CSources/CInterception
COMMON=(-std=gnu11 -D_GNU_SOURCE -I"$RUNTIME/include" -I"$RUNTIME/include/interception" $(pkg-config --cflags libffi))

# build <directory> <flags...>: compiles the runtime and the driver into <directory>/driver,
# one compiler per core. trampolines_<R>.c (505 generated functions, half a minute with AddressSanitizer)
# are compiled without sanitizer flags: leaks are found through the allocator, which the
# sanitizer's runtime replaces whatever the instrumentation.
build() {
    local dir=$1
    shift
    rm -rf "$dir" && mkdir -p "$dir"
    local jobs=() source flags
    for source in $(find "$RUNTIME" -name '*.c' | sort) "$ROOT/scripts/leak-check/driver.c"; do
        flags=("$@")
        if [[ "$(basename "$source")" == trampolines_?.c ]]; then flags=(-O1 -gdwarf-4); fi
        "$CC" "${COMMON[@]}" "${flags[@]}" -c "$source" -o "$dir/$(basename "$source" .c).o" &
        jobs+=($!)
        if [ "${#jobs[@]}" -ge "$(nproc)" ]; then
            wait "${jobs[0]}"
            jobs=("${jobs[@]:1}")
        fi
    done
    for job in "${jobs[@]}"; do wait "$job"; done
}

echo "--- LeakSanitizer: $OBJECTS objects"
build "$OUT/lsan" -O1 -g -fno-omit-frame-pointer -fsanitize=address
"$CC" -fsanitize=address -fuse-ld=lld "$OUT"/lsan/*.o $(pkg-config --libs libffi) -lpthread \
    -o "$OUT/lsan/driver"
start=$(date +%s)
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 "$OUT/lsan/driver" "$OBJECTS"
echo "LeakSanitizer: no leak reported ($(($(date +%s) - start)) s)"

if [ "$VALGRIND_OBJECTS" -gt 0 ]; then
    echo "--- valgrind memcheck: $VALGRIND_OBJECTS objects"
    command -v valgrind >/dev/null 2>&1 || { echo "valgrind is not installed" >&2; exit 1; }
    # DWARF 4: the valgrind of Debian 12 cannot read clang's DWARF 5.
    build "$OUT/valgrind" -O1 -gdwarf-4
    "$CC" -fuse-ld=lld "$OUT"/valgrind/*.o $(pkg-config --libs libffi) -lpthread \
        -o "$OUT/valgrind/driver"
    start=$(date +%s)
    status=0
    valgrind --leak-check=full --errors-for-leak-kinds=definite --error-exitcode=1 \
        --log-file="$OUT/valgrind/memcheck.log" "$OUT/valgrind/driver" "$VALGRIND_OBJECTS" ||
        status=$?
    grep -E "in use at exit|definitely lost|indirectly lost|possibly lost|ERROR SUMMARY" \
        "$OUT/valgrind/memcheck.log" | sed -E 's/^==[0-9]+== +//'
    if [ "$status" -ne 0 ]; then
        echo "valgrind: FAILED (exit $status); log: $OUT/valgrind/memcheck.log" >&2
        grep -E -A12 "definitely lost in|Invalid|uninitialised" "$OUT/valgrind/memcheck.log" |
            head -n 60 >&2 || true
        exit "$status"
    fi
    echo "valgrind: no definitely-lost block, no memcheck error ($(($(date +%s) - start)) s)"
fi
