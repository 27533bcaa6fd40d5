#!/usr/bin/env bash
# Fuzz/encoding/run.sh [seconds] — builds the libFuzzer target for the type-encoding parser
# (fuzz_encoding.c, compiled with the runtime's C sources, AddressSanitizer and
# UndefinedBehaviorSanitizer) and runs it for `seconds` (default 60) from the committed seed
# corpus. New corpus entries go to Fuzz/out/encoding/corpus (ignored by git; kept between runs),
# crashing inputs to Fuzz/out/encoding/artifacts. Exits non-zero if the fuzzer finds a crash or
# an invariant fails.
#
# A crash's input belongs in the seed corpus (corpus/, one file per encoding) and in a Swift
# regression test once it is fixed. Reproduce one with: Fuzz/bin/fuzz-encoding <input file>.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
SECONDS_TO_RUN=${1:-60}

# The toolchain's clang has libFuzzer; its default (gold) linker cannot link it: use lld.
CC=${CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
BIN=$ROOT/Fuzz/bin
OUT=$ROOT/Fuzz/out/encoding
mkdir -p "$BIN" "$OUT/corpus" "$OUT/artifacts"

# -fno-sanitize=function: the runtime calls IMPs through casts to their real types, as every
# Objective-C-style runtime does (the same exclusion as .ci/run's UBSan run).
FLAGS=(-g -O1 -std=gnu11 -D_GNU_SOURCE
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -fno-sanitize=function
    -I"$ROOT/CSources/CInterception/include" -I"$ROOT/CSources/CInterception/include/interception"
    $(pkg-config --cflags libffi))
OBJ=$BIN/fuzz-encoding.objects
rm -rf "$OBJ" && mkdir -p "$OBJ"
# One compiler per core: the runtime is two dozen files. trampolines_<R>.c (505 generated typed
# functions) take half a minute to compile with sanitizers and are never reached from here (no
# object is intercepted): they are compiled plain, in a second.
jobs=()
for source in $(find "$ROOT/CSources/CInterception" -name '*.c' | sort) "$ROOT/Fuzz/encoding/fuzz_encoding.c"; do
    flags=("${FLAGS[@]}")
    if [[ "$(basename "$source")" == trampolines_?.c ]]; then
        flags=(-O0 -std=gnu11 -D_GNU_SOURCE -I"$ROOT/CSources/CInterception/include" -I"$ROOT/CSources/CInterception/include/interception"
            -I"$ROOT/CSources/CInterception" $(pkg-config --cflags libffi))
    fi
    "$CC" "${flags[@]}" -c "$source" -o "$OBJ/$(basename "$source" .c).o" &
    jobs+=($!)
    if [ "${#jobs[@]}" -ge "$(nproc)" ]; then
        wait "${jobs[0]}"
        jobs=("${jobs[@]:1}")
    fi
done
for job in "${jobs[@]}"; do wait "$job"; done
"$CC" -fsanitize=fuzzer,address,undefined -fuse-ld=lld "$OBJ"/*.o \
    $(pkg-config --libs libffi) -lpthread -o "$BIN/fuzz-encoding"

# Signatures are interned and immortal by design, so every new valid encoding the fuzzer makes
# stays in memory (about 20 MB/s here). Hence -fork=1: the fuzzing runs in a series of child
# processes (job N lives N seconds), each starting from the corpus so far with a fresh heap. And
# -detect_leaks=0: LeakSanitizer would scan the whole heap after each such input, for nothing.
# Leaks are the leak check's business (scripts/leak-check.sh).
SEEDS=$(find "$ROOT/Fuzz/encoding/corpus" -type f | wc -l)
echo "fuzz-encoding: ${SECONDS_TO_RUN} s from ${SEEDS} seeds"
status=0
# A smaller ASan quarantine: the immortal signature cache already grows with every new encoding.
ASAN_OPTIONS=${ASAN_OPTIONS:-quarantine_size_mb=64} \
    "$BIN/fuzz-encoding" "$OUT/corpus" "$ROOT/Fuzz/encoding/corpus" \
    -dict="$ROOT/Fuzz/encoding/encoding.dict" \
    -max_total_time="$SECONDS_TO_RUN" -max_len=256 -timeout=10 -rss_limit_mb=2048 -detect_leaks=0 \
    -fork=1 -artifact_prefix="$OUT/artifacts/" \
    >"$OUT/last-run.log" 2>&1 || status=$?
grep -E "ERROR|invariant failed|SUMMARY|CRASH|Test unit written" "$OUT/last-run.log" || true
EXECUTIONS=$(grep -E "^#[0-9]+: cov" "$OUT/last-run.log" | tail -n 1 | sed -E 's/^#([0-9]+):.*/\1/')
echo "fuzz-encoding: ${EXECUTIONS:-0} executions;" \
    "corpus $(find "$OUT/corpus" -type f | wc -l) entries (+ ${SEEDS} seeds)"
if [ "$status" -ne 0 ]; then
    echo "fuzz-encoding: FAILED (exit $status); log: $OUT/last-run.log" >&2
    tail -n 40 "$OUT/last-run.log" >&2
fi
exit "$status"
