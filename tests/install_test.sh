#!/bin/sh
# Installs the build into a fresh prefix, then builds programs the three ways a user would:
# symmemcc / symmemc++ with no other flags, find_package(symmem) (symmem::shmem for <shmem.h>,
# symmem::symmem for the symmem API), and pkg-config (symmem-shmem); runs each.
set -e
build=$1
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
P=$tmp/prefix
"$P/bin/symmemcc" "$src/examples/demo.c" -o "$tmp/demo_c"
"$P/bin/symmemc++" "$src/examples/hello.cpp" -o "$tmp/hello_cxx"
"$P/bin/symmem-run" -n 2 --timeout 30 "$tmp/demo_c" | grep -q "every put landed"
"$P/bin/symmem-run" -n 2 --timeout 30 "$tmp/hello_cxx" | grep -q "counted 2 hits"
mkdir -p "$tmp/fp"
cat >"$tmp/fp/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.22)
project(fp C CXX)
set(CMAKE_CXX_STANDARD 20)
find_package(symmem REQUIRED)
add_executable(app $src/examples/demo.c)
target_link_libraries(app PRIVATE symmem::shmem)
add_executable(app_cxx $src/examples/hello.cpp)
target_link_libraries(app_cxx PRIVATE symmem::symmem)
CM
cmake -S "$tmp/fp" -B "$tmp/fp/b" -DCMAKE_PREFIX_PATH="$P" >/dev/null
cmake --build "$tmp/fp/b" >/dev/null
"$P/bin/symmem-run" -n 2 --timeout 30 "$tmp/fp/b/app" | grep -q "exact"
"$P/bin/symmem-run" -n 2 --timeout 30 "$tmp/fp/b/app_cxx" | grep -q "counted 2 hits"
flags=$(PKG_CONFIG_PATH="$P/lib/pkgconfig" pkg-config --cflags --libs symmem-shmem)
cc -std=gnu11 "$src/examples/demo.c" $flags -o "$tmp/demo_pc"
"$P/bin/symmem-run" -n 2 --timeout 30 "$tmp/demo_pc" | grep -q "exact"
"$P/bin/symmem-info" --env | grep -q SYMMEM_SYMMETRIC_SIZE
echo "install test: wrappers, find_package and pkg-config all build and run"
