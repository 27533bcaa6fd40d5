# CMake toolchain file: cross-builds for Linux on AArch64 with Debian's cross compiler
# (gcc-aarch64-linux-gnu) against the arm64 libffi (libffi-dev:arm64, multiarch). The binaries
# run on an x86-64 host under qemu-user (CTest runs them through CMAKE_CROSSCOMPILING_EMULATOR):
#
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake
#   qemu-aarch64 -L /usr/aarch64-linux-gnu -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib <program>
#
# Why the library path: -L makes the dynamic loader the cross sysroot's (libc6-arm64-cross), but
# the loader then finds libc.so.6 in /lib/aarch64-linux-gnu, from libc6:arm64, which
# libffi-dev:arm64 pulls in: another build of glibc, whose private interface with the loader
# differs. With that mix every fork() and pthread_create() hung in the child or before the clone
# (measured: a ten-line fork program never returned; the runtime's leak driver hung creating its
# first thread). Pointing the loader at the sysroot's libc keeps loader and libc one build.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /usr/aarch64-linux-gnu
    -E LD_LIBRARY_PATH=/usr/aarch64-linux-gnu/lib)

# Libraries and headers come from the target's multiarch directories and the cross sysroot,
# programs (pkg-config, python3) from the host.
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)

# pkg-config must describe the arm64 libffi, not the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
