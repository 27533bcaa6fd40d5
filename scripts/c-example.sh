#!/usr/bin/env bash
# Builds the C library with CMake, installs it into a temporary prefix, and builds the README's C
# example (Examples/c-counter/main.c) against the installed library four ways: pkg-config with the
# shared library (run through LD_LIBRARY_PATH), pkg-config --static with libinterception.a, and
# find_package(Interception) with each of the two exported targets. Checks the installed header
# layout (include/interception/, ic_bindings.h kept out of the umbrella header). Then runs
# Examples/c-zombie/main.c with IC_ZOMBIES=1 and checks the trap message. Exits non-zero on any
# failure. Set KEEP=1 to keep the temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
CC=${CC:-cc}
JOBS=$(nproc 2>/dev/null || echo 2)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/interception-c-example.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$WORK"' EXIT; fi
PREFIX=$WORK/prefix

say() { printf -- '--- %s\n' "$*"; }

say "configure, build, install the library into $PREFIX"
cmake -S "$ROOT" -B "$WORK/build" -DCMAKE_INSTALL_PREFIX="$PREFIX" -DINTERCEPTION_WERROR=ON \
    >"$WORK/configure.log" || { cat "$WORK/configure.log"; exit 1; }
cmake --build "$WORK/build" -j "$JOBS" >"$WORK/build.log" || { cat "$WORK/build.log"; exit 1; }
cmake --install "$WORK/build" >"$WORK/install.log" || { cat "$WORK/install.log"; exit 1; }
LIBDIR=$(sed -n 's/^libdir=//p' "$WORK/build/interception.pc" | sed "s|\${exec_prefix}|$PREFIX|")
export PKG_CONFIG_PATH="$LIBDIR/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
echo "interception $(pkg-config --modversion interception), soname" \
    "$(readelf -d "$LIBDIR/libinterception.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')"

say "installed headers: under include/interception/, the bindings' entry points out of the umbrella"
INCLUDEDIR=$PREFIX/include
[ -f "$INCLUDEDIR/interception/interception.h" ] || { echo "no include/interception/interception.h" >&2; exit 1; }
[ -f "$INCLUDEDIR/interception/ic_bindings.h" ] || { echo "no include/interception/ic_bindings.h" >&2; exit 1; }
if ls "$INCLUDEDIR"/*.h >/dev/null 2>&1; then
    echo "headers installed flat into include/: $(ls "$INCLUDEDIR"/*.h)" >&2
    exit 1
fi
# The umbrella header must not declare what only language bindings use (ic_bindings.h).
# shellcheck disable=SC2046
"$CC" -std=gnu11 -E $(pkg-config --cflags interception) -x c - <<<'#include <interception/interception.h>' \
    >"$WORK/umbrella.i"
for name in ic_send_cache_lookup ic_binding_thread ic_autorelease_parked ic_invocation_head \
    ic_closure_imp_create_with_registers ic_closure_register_fn; do
    if grep -q "\b$name\b" "$WORK/umbrella.i"; then
        echo "<interception/interception.h> exposes $name (it belongs to ic_bindings.h)" >&2
        exit 1
    fi
done
# shellcheck disable=SC2046
"$CC" -std=gnu11 -E $(pkg-config --cflags interception) -x c - <<<'#include <interception/ic_bindings.h>' \
    >"$WORK/bindings.i"
grep -q '\bic_send_cache_lookup\b' "$WORK/bindings.i" ||
    { echo "ic_bindings.h does not declare the send cache" >&2; exit 1; }

# Runs an example binary and checks it exits 0 and prints what the README says.
check_run() {
    local output
    output=$("$@")
    [ "$output" = "add: 41" ] || { echo "unexpected output: $output" >&2; exit 1; }
}

say "pkg-config, shared library"
# shellcheck disable=SC2046 # pkg-config's output is meant to be split into words
"$CC" -Wall -Werror -o "$WORK/counter-shared" Examples/c-counter/main.c \
    $(pkg-config --cflags --libs interception)
LD_LIBRARY_PATH="$LIBDIR" check_run "$WORK/counter-shared"
readelf -d "$WORK/counter-shared" | grep -q 'NEEDED.*libinterception\.so\.0'

say "pkg-config --static, libinterception.a"
# The linker would pick libinterception.so from the same directory: name the archive.
# shellcheck disable=SC2046
"$CC" -Wall -Werror -o "$WORK/counter-static" Examples/c-counter/main.c \
    $(pkg-config --static --cflags --libs interception | sed 's/-linterception\b/-l:libinterception.a/')
if readelf -d "$WORK/counter-static" | grep -q 'NEEDED.*libinterception'; then
    echo "the static build still needs libinterception.so" >&2
    exit 1
fi
check_run "$WORK/counter-static"

for variant in shared static; do
    say "find_package(Interception), $variant target"
    static=$([ "$variant" = static ] && echo ON || echo OFF)
    cmake -S Examples/c-counter -B "$WORK/example-$variant" -DCMAKE_PREFIX_PATH="$PREFIX" \
        -DUSE_STATIC="$static" >"$WORK/example-$variant.log" ||
        { cat "$WORK/example-$variant.log"; exit 1; }
    cmake --build "$WORK/example-$variant" >>"$WORK/example-$variant.log" ||
        { cat "$WORK/example-$variant.log"; exit 1; }
    LD_LIBRARY_PATH="$LIBDIR" check_run "$WORK/example-$variant/c-counter"
done

say "zombies: IC_ZOMBIES=1 turns a use after release into a named trap"
# shellcheck disable=SC2046
"$CC" -Wall -Wextra -Werror -o "$WORK/zombie" Examples/c-zombie/main.c \
    $(pkg-config --cflags --libs interception)
# The exit status comes from a subshell whose stderr is dropped: bash reports the abort there.
status=$( (IC_ZOMBIES=1 LD_LIBRARY_PATH="$LIBDIR" "$WORK/zombie" >"$WORK/zombie.out" \
    2>"$WORK/zombie.err" && echo 0 || echo $?) 2>/dev/null)
cat "$WORK/zombie.out" "$WORK/zombie.err"
[ "$status" -ne 0 ] || { echo "the zombie example exited 0" >&2; exit 1; }
grep -q '^zombies on$' "$WORK/zombie.out"
grep -Eq -- '-\[Counter add:\] sent to deallocated instance 0x[0-9a-f]+' "$WORK/zombie.err"

echo "C example: built and ran against the installed library (shared, static, pkg-config, CMake)"
