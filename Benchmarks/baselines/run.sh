#!/usr/bin/env bash
# The external baselines of SPEC §8, measured on this machine: a message send with GCC's libobjc,
# and GNUstep Base's -forwardInvocation: path (plus references). See README.md beside this file.
#
#   Benchmarks/baselines/run.sh [--json FILE] [--quick] [--with-ours] [--rounds N]
#
#   --json FILE   write the results as a JSON array in interception-bench's format
#   --quick       smoke run: 1/100 of the operations, 3 repetitions (numbers are not meaningful)
#   --with-ours   also run interception-bench (release) for direct_call, send_unintercepted and
#                 forwarded_1_observer right after the baselines, and print the SPEC §8 ratios
#   --rounds N    run everything N times back to back; each case reports the median of its
#                 rounds' medians (default 1)
#
# Installs gobjc and libgnustep-base-dev with apt when the Objective-C compiler or GNUstep is
# missing. Compiles with gcc -O2 into Benchmarks/baselines/.build (not committed). Exits non-zero
# when a case fails its own result check or cannot be built. Nothing here asserts on time.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=${BASELINES_BUILD_DIR:-$HERE/.build}
# interception-bench builds in its own scratch path so it does not disturb .build.
SCRATCH=${INTERCEPTION_BENCH_SCRATCH:-$ROOT/.build-bench}

json=""
quick=()
with_ours=0
rounds=1
while [ $# -gt 0 ]; do
    case "$1" in
        --json) json=${2:?--json needs a file}; shift 2 ;;
        --quick) quick=(--quick); shift ;;
        --with-ours) with_ours=1; shift ;;
        --rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
case "$rounds" in ''|*[!0-9]*|0) echo "run.sh: --rounds needs a positive number" >&2; exit 2 ;; esac
if [ -n "$json" ]; then
    # Resolve now: the file is named relative to where run.sh was started.
    case "$json" in /*) ;; *) json="$PWD/$json" ;; esac
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# ---- dependencies ------------------------------------------------------------------------------

# gcc compiles Objective-C only with gobjc installed (cc1obj); libobjc-12-dev brings the headers and
# the library. Probe by compiling and linking a tiny root class rather than guessing at paths.
have_gcc_objc() {
    local dir
    dir=$(mktemp -d)
    printf '#include <objc/runtime.h>\n__attribute__((objc_root_class)) @interface P { Class isa; } @end\n@implementation P @end\nint main(void) { return objc_getClass("P") == Nil; }\n' >"$dir/p.m"
    gcc -x objective-c "$dir/p.m" -lobjc -o "$dir/p" >/dev/null 2>&1 && "$dir/p"
    local status=$?
    rm -rf "$dir"
    return $status
}

have_gnustep() {
    command -v gnustep-config >/dev/null 2>&1 &&
        [ -n "$(gnustep-config --variable=GNUSTEP_SYSTEM_HEADERS 2>/dev/null)" ] &&
        [ -f "$(gnustep-config --variable=GNUSTEP_SYSTEM_HEADERS)/Foundation/Foundation.h" ]
}

if ! command -v gcc >/dev/null 2>&1 || ! have_gcc_objc || ! have_gnustep; then
    echo "run.sh: installing gobjc libgnustep-base-dev" >&2
    as_root apt-get update
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y gobjc libgnustep-base-dev
fi

# ---- build -------------------------------------------------------------------------------------

mkdir -p "$BUILD"
CFLAGS=(-std=gnu11 -O2)

# GCC libobjc: no Foundation, only the runtime.
gcc "${CFLAGS[@]}" -Wall -Wextra -c "$HERE/gcc_counter.m" -o "$BUILD/gcc_counter.o"
gcc "${CFLAGS[@]}" -Wall -Wextra -c "$HERE/gcc_libobjc.m" -o "$BUILD/gcc_libobjc.o"
gcc "$BUILD/gcc_counter.o" "$BUILD/gcc_libobjc.o" -lobjc -o "$BUILD/gcc_libobjc"

# GNUstep Base: the flags gnustep-config gives (they carry -g -O2 and the runtime's defines); our
# -O2 after them keeps the level explicit. -Wextra is left out: Base's own headers trip it.
read -r -a OBJC_FLAGS <<<"$(gnustep-config --objc-flags)"
read -r -a BASE_LIBS <<<"$(gnustep-config --base-libs)"
gcc "${OBJC_FLAGS[@]}" "${CFLAGS[@]}" -c "$HERE/gnustep_targets.m" -o "$BUILD/gnustep_targets.o"
gcc "${OBJC_FLAGS[@]}" "${CFLAGS[@]}" -c "$HERE/gnustep.m" -o "$BUILD/gnustep.o"
gcc "$BUILD/gnustep_targets.o" "$BUILD/gnustep.o" "${BASE_LIBS[@]}" -o "$BUILD/gnustep"

# ---- interception-bench (only with --with-ours) ------------------------------------------------

if [ "$with_ours" = 1 ]; then
    (cd "$ROOT" && swift build -c release --product interception-bench --scratch-path "$SCRATCH")
fi

# interception-bench's pretty-printed JSON (one key per line) to the baselines' record lines.
ours_records() {
    awk '
        /"name"/        { v = $0; sub(/^[^:]*: *"/, "", v); sub(/".*$/, "", v); name = v }
        /"ns_per_op"/   { v = $0; sub(/^[^:]*: */, "", v); sub(/,.*$/, "", v); med = v }
        /"ns_min"/      { v = $0; sub(/^[^:]*: */, "", v); sub(/,.*$/, "", v); lo = v }
        /"ns_max"/      { v = $0; sub(/^[^:]*: */, "", v); sub(/,.*$/, "", v); hi = v }
        /"reps"/        { v = $0; sub(/^[^:]*: */, "", v); sub(/,.*$/, "", v); reps = v }
        /"ops_per_rep"/ { v = $0; sub(/^[^:]*: */, "", v); sub(/,.*$/, "", v); ops = v }
        /}/ {
            if (name != "" && med != "" && name != "machine")
                printf "%s\t%s\t%s\t%s\t%s\t%s\n", name, med, lo, hi, reps, ops
            name = med = lo = hi = reps = ops = ""
        }' "$1"
}

# ---- run ---------------------------------------------------------------------------------------

records=$(mktemp)
ours_json=$(mktemp)
trap 'rm -f "$records" "$ours_json"' EXIT
failed=0
for ((round = 1; round <= rounds; round++)); do
    [ "$rounds" -gt 1 ] && echo "round $round of $rounds" >&2
    "$BUILD/gcc_libobjc" "${quick[@]}" >>"$records" || failed=1
    "$BUILD/gnustep" "${quick[@]}" >>"$records" || failed=1
    if [ "$with_ours" = 1 ]; then
        if (cd "$ROOT" && "$SCRATCH/release/interception-bench" "${quick[@]}" \
            --filter forwarded_1_observer --json "$ours_json" >/dev/null); then
            ours_records "$ours_json" >>"$records"
        else
            failed=1
        fi
    fi
done

# Per case, in first-seen order: median of the rounds' medians, min and max over all repetitions.
summary=$(awk -F '\t' '
    !($1 in n) { order[++cases] = $1 }
    {
        k = ++n[$1]; med[$1, k] = $2 + 0
        if (k == 1 || $3 + 0 < lo[$1]) lo[$1] = $3 + 0
        if (k == 1 || $4 + 0 > hi[$1]) hi[$1] = $4 + 0
        reps[$1] = $5; ops[$1] = $6
    }
    END {
        for (c = 1; c <= cases; c++) {
            name = order[c]; m = n[name]
            for (i = 1; i <= m; i++) v[i] = med[name, i]
            for (i = 2; i <= m; i++)           # insertion sort: m is the number of rounds
                for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
            mid = (m % 2) ? v[(m + 1) / 2] : (v[m / 2] + v[m / 2 + 1]) / 2
            printf "%s\t%.3f\t%.3f\t%.3f\t%s\t%s\t%d\n", name, mid, lo[name], hi[name], reps[name], ops[name], m
        }
    }' "$records")

cpu=$(awk -F': *' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null || echo unknown)
echo "baselines ($( [ ${#quick[@]} -gt 0 ] && echo quick || echo full ), $rounds round(s)) on $cpu, $(nproc) cores, $(uname -m)"
printf '%-30s %9s %9s %9s %6s %10s\n' case ns/op min max reps ops/rep
printf '%s\n' "$summary" | awk -F '\t' 'NF { printf "%-30s %9.2f %9.2f %9.2f %6s %10s\n", $1, $2, $3, $4, $5, $6 }'

value() { printf '%s\n' "$summary" | awk -F '\t' -v k="$1" '$1 == k { print $2 }'; }
if [ "$with_ours" = 1 ]; then
    echo
    echo "SPEC §8 ratios (same machine, back to back):"
    ratio() { # label numerator denominator
        local a b
        a=$(value "$2"); b=$(value "$3")
        [ -n "$a" ] && [ -n "$b" ] && awk -v l="$1" -v a="$a" -v b="$b" -v x="$2" -v y="$3" \
            'BEGIN { printf "  %-50s %8.2f   (%s / %s)\n", l, a / b, x, y }'
        return 0
    }
    ratio "send: ours / GCC libobjc (target <= 1)" send_unintercepted gcc_libobjc_send
    ratio "direct call: ours / GCC program's" direct_call gcc_libobjc_direct_call
    ratio "send/direct, ours" send_unintercepted direct_call
    ratio "send/direct, GCC libobjc" gcc_libobjc_send gcc_libobjc_direct_call
    ratio "GNUstep forwardInvocation / ours (target >= 20)" gnustep_forward_invocation forwarded_1_observer
fi

if [ -n "$json" ]; then
    {
        echo "["
        printf '%s\n' "$summary" | awk -F '\t' 'NF {
            printf "  {\"name\": \"%s\", \"ns_per_op\": %s, \"ns_min\": %s, \"ns_max\": %s, \"reps\": %s, \"ops_per_rep\": %s, \"rounds\": %s},\n",
                $1, $2, $3, $4, $5, $6, $7 }'
        # Last, as interception-bench does: what the numbers were taken on.
        printf '  {"name": "machine", "cpu": "%s", "cores": %s, "arch": "%s", "date": "%s", "gcc": "%s", "gnustep_base": "%s", "quick": %s}\n' \
            "$cpu" "$(nproc)" "$(uname -m)" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
            "$(gcc -dumpfullversion)" "$(dpkg-query -W -f='${Version}' libgnustep-base-dev 2>/dev/null || echo unknown)" \
            "$( [ ${#quick[@]} -gt 0 ] && echo true || echo false )"
        echo "]"
    } >"$json"
    echo "wrote $json"
fi

if [ "$failed" != 0 ]; then
    echo "run.sh: a case failed its result check or did not run (see above)" >&2
    exit 1
fi
