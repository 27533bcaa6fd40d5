#!/usr/bin/env bash
# scripts/c-matrix.sh [native|aarch64] — the C library and its C test programs (SPEC section 21).
#
# Builds the C library with CMake and -DINTERCEPTION_BUILD_TESTS=ON (warnings as errors), then
# runs, through CTest, the C matrix program (Tests/CMatrix: every path through the runtime over
# the generated signature matrix, properties and key-value coding, the ABI's facts, the zombie
# trap) and the leak-check driver (scripts/leak-check/driver.c) with a million objects:
#   native   with the Swift toolchain's clang (or $CC), on the host (x86-64 in CI);
#   aarch64  cross-built with gcc-aarch64-linux-gnu against libffi-dev:arm64
#            (cmake/aarch64-linux-gnu.cmake) and run under qemu-aarch64; installs the cross
#            compiler, the arm64 libffi and qemu-user when missing (dpkg --add-architecture arm64
#            first).
# Prints the time of the build and of the run. Exits non-zero on any failure. Build folders:
# .build-cmake-native/ and .build-cmake-aarch64/ (ignored, reused).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TARGET=${1:-native}
JOBS=$(nproc 2>/dev/null || echo 2)

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f s", b - a }'; }

CMAKE_ARGS=(-DINTERCEPTION_BUILD_TESTS=ON -DINTERCEPTION_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
case "$TARGET" in
native)
    BUILD=$ROOT/.build-cmake-native
    # The Swift toolchain's clang, the compiler SwiftPM builds the C targets with: it relies on
    # x86-64 callers extending narrow integer arguments (GCC re-extends them in the callee), which
    # the matrix program's methods then check.
    CC=${CC:-$(dirname "$(readlink -f "$(command -v swift)")")/clang}
    CMAKE_ARGS+=(-DCMAKE_C_COMPILER="$CC")
    "$CC" --version | head -n 1
    ;;
aarch64)
    BUILD=$ROOT/.build-cmake-aarch64
    CMAKE_ARGS+=(-DCMAKE_TOOLCHAIN_FILE="$ROOT/cmake/aarch64-linux-gnu.cmake")
    if ! command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || ! command -v qemu-aarch64 >/dev/null 2>&1 ||
        [ ! -e /usr/aarch64-linux-gnu/lib/libc.so.6 ] ||
        ! PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config --exists libffi; then
        echo "--- installing the AArch64 cross compiler, libffi-dev:arm64 and qemu-user"
        as_root dpkg --add-architecture arm64
        as_root apt-get update
        as_root apt-get install -y gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu \
            libffi-dev:arm64 qemu-user
    fi
    aarch64-linux-gnu-gcc --version | head -n 1
    qemu-aarch64 --version | head -n 1
    echo "libffi (arm64) $(PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig pkg-config --modversion libffi)"
    ;;
*)
    echo "usage: $0 [native|aarch64]" >&2
    exit 2
    ;;
esac

start=$(now)
mkdir -p "$BUILD"
cmake -S "$ROOT" -B "$BUILD" "${CMAKE_ARGS[@]}" >"$BUILD/configure.log" 2>&1 ||
    { cat "$BUILD/configure.log"; exit 1; }
cmake --build "$BUILD" -j "$JOBS" >"$BUILD/build.log" 2>&1 || { cat "$BUILD/build.log"; exit 1; }
echo "--- $TARGET: configured and built in $(elapsed "$start")"

start=$(now)
status=0
ctest --test-dir "$BUILD" --output-on-failure -V >"$BUILD/ctest.log" 2>&1 || status=$?
grep -v -E \
    -e '^(UpdateCTestConfiguration|Parse Config file|Constructing a list|Updating test list)' \
    -e '^(Checking test dependency|test [0-9]+$|Test project|Internal ctest changing)' \
    -e '^(Done constructing|Added 0 tests)' \
    -e '^([0-9]+: )?(Test command|Working Directory|Test timeout computed)' -e '^$' \
    "$BUILD/ctest.log" || true
echo "--- $TARGET: tests ran in $(elapsed "$start")"
exit "$status"
