#!/usr/bin/env bash
# Tests/AllocFailure/run.sh [sweep arguments...] — the allocation-failure sweep (issue #33).
#
# Builds the runtime's C sources and the sweep (this folder) with AddressSanitizer (LeakSanitizer
# included), links them with every allocation function the runtime calls wrapped
# (-Wl,--wrap=..., failing_alloc.c), and runs it: each case's operation is run with its first,
# second, ... allocation failing (alone, then with every later one too) until it makes fewer
# allocations than the one to fail; each case in its own process. See sweep.h for what is checked.
#
# Before running, two checks that nothing can be missed silently:
#   - the runtime's objects may call no allocation function that WRAPPED below does not list
#     (nm: every undefined symbol is either wrapped or in NOT_ALLOCATING);
#   - coverage.c lists exactly the functions the public headers export.
# Arguments go to the sweep (--verbose, --no-fork, case-name substrings). Build outputs go to
# .build-alloc/ (ignored); the runtime's objects are rebuilt only when a source is newer.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CC=${CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
OUT=$ROOT/.build-alloc
RUNTIME=$ROOT/CSources/CInterception
HERE=$ROOT/Tests/AllocFailure

# Every allocation function the runtime may call, wrapped by failing_alloc.c.
WRAPPED=(malloc calloc realloc aligned_alloc posix_memalign strdup strndup ffi_closure_alloc)
# Library functions the runtime calls that do not allocate on our behalf (each was checked; add a
# new one only after checking it allocates nothing, or wrap it). pthread_key_create and
# pthread_setspecific allocate only past glibc's first 32 keys (the runtime creates three, at
# initialization).
NOT_ALLOCATING=(abort bcmp fflush fputc free fwrite getenv memchr memcpy memmove memset nanosleep
    pthread_getspecific pthread_key_create pthread_mutex_lock pthread_mutex_unlock pthread_once
    pthread_setspecific sched_yield snprintf stderr strcasecmp strchr strcmp strlen strnlen strstr syscall
    vfprintf vsnprintf ffi_call ffi_closure_free ffi_prep_cif ffi_prep_closure_loc
    ffi_type_double ffi_type_float ffi_type_longdouble ffi_type_pointer ffi_type_sint16
    ffi_type_sint32 ffi_type_sint64 ffi_type_sint8 ffi_type_uint16 ffi_type_uint32 ffi_type_uint64
    ffi_type_uint8 ffi_type_void)

COMMON=(-std=gnu11 -D_GNU_SOURCE -I"$RUNTIME/include" -I"$RUNTIME/include/interception" $(pkg-config --cflags libffi))
SANITIZE=(-O1 -g -fno-omit-frame-pointer -fsanitize=address)
mkdir -p "$OUT/runtime" "$OUT/sweep"

# compile <source> <object> <flags...>, in the background, unless the object is newer than the
# source and every header of the runtime.
newest_header=$(find "$RUNTIME" "$HERE" -name '*.h' -o -name '*.def' | xargs ls -t | head -n 1)
jobs=()
compile() {
    local source=$1 object=$2
    shift 2
    if [ "$object" -nt "$source" ] && [ "$object" -nt "$newest_header" ]; then return; fi
    "$CC" "${COMMON[@]}" "$@" -c "$source" -o "$object" &
    jobs+=($!)
    if [ "${#jobs[@]}" -ge "$(nproc)" ]; then
        wait "${jobs[0]}"
        jobs=("${jobs[@]:1}")
    fi
}
# trampolines_<R>.c (505 generated functions) compile for half a minute with AddressSanitizer:
# plain, as in scripts/leak-check.sh; its allocations (none) would still be wrapped.
for source in $(find "$RUNTIME" -name '*.c' | sort); do
    object=$OUT/runtime/$(basename "$source" .c).o
    if [[ "$(basename "$source")" == trampolines_?.c ]]; then
        compile "$source" "$object" -O1 -g
    else
        compile "$source" "$object" "${SANITIZE[@]}"
    fi
done
for source in "$HERE"/*.c; do
    compile "$source" "$OUT/sweep/$(basename "$source" .c).o" "${SANITIZE[@]}" -Wall -Wextra -Werror
done
for job in "${jobs[@]}"; do wait "$job"; done

# 1. The runtime calls no allocation function the sweep does not fail.
status=0
for symbol in $(nm -u "$OUT"/runtime/*.o | awk '$1 == "U" { print $2 }' | sort -u); do
    case "$symbol" in ic_* | __asan* | __ubsan* | __sanitizer* | _GLOBAL_OFFSET_TABLE_) continue ;; esac
    if [[ " ${WRAPPED[*]} " == *" $symbol "* || " ${NOT_ALLOCATING[*]} " == *" $symbol "* ]]; then
        continue
    fi
    echo "alloc-sweep: the runtime calls $symbol, which run.sh neither wraps (WRAPPED) nor lists" \
        "as not allocating (NOT_ALLOCATING)" >&2
    status=1
done
# 2. coverage.c lists exactly the exported functions.
exported=$(cat "$RUNTIME"/include/interception/*.h | tr '\n' ' ' | grep -oE 'IC_EXPORT [^;{]*\(' |
    grep -oE '\bic_[a-z_0-9]+ *\($' | tr -d ' (' | sort -u)
listed=$(grep -oE '^ *(SWEPT\(ic_[a-z_0-9]+\)|\{"ic_[a-z_0-9]+")' "$HERE/coverage.c" |
    grep -oE 'ic_[a-z_0-9]+' | sort -u)
if [ "$exported" != "$listed" ]; then
    echo "alloc-sweep: coverage.c and the public headers differ (< exported only, > listed only):" >&2
    diff <(echo "$exported") <(echo "$listed") | grep '^[<>]' >&2 || true
    status=1
fi
[ "$status" -eq 0 ] || exit "$status"

wrap=$(printf -- '--wrap=%s,' "${WRAPPED[@]}")
"$CC" -fsanitize=address -fuse-ld=lld "-Wl,${wrap%,}" "$OUT"/runtime/*.o "$OUT"/sweep/*.o \
    $(pkg-config --libs libffi) -lpthread -o "$OUT/alloc-sweep"
ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 "$OUT/alloc-sweep" "$@"
