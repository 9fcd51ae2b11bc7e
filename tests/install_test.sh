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
# The drop-in directory: a script written for Open MPI's oshcc/oshrun (or Hydra's mpiexec) runs
# unchanged with it first in PATH. oshcc must compile C, not C++: the program below is not C++.
C=$P/libexec/symmem/compat
cat >"$tmp/c_only.c" <<'SRC'
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
  shmem_init();
  void *raw = shmem_malloc(sizeof(int));
  int *x = raw; /* an implicit conversion from void *: valid C, an error in C++ */
  *x = 0;
  shmem_barrier_all();
  shmem_int_atomic_add(x, shmem_my_pe() + 1, 0);
  shmem_barrier_all();
  if (shmem_my_pe() == 0) printf("c_only total %d\n", *x);
  shmem_free(x);
  shmem_finalize();
  return 0;
}
SRC
# C++ that uses C99's complex functions, as Sandia's C++ tests do: g++'s default (GNU) dialect
# has them, strict -std=c++20 does not.
cat >"$tmp/cxx_complex.cpp" <<'SRC'
#include <complex.h>
#include <shmem.h>
int main() {
  double _Complex z = 1.0;
  return creal(z) == 1.0 ? 0 : 1;
}
SRC
( PATH=$C:$PATH
  oshc++ "$tmp/cxx_complex.cpp" -o "$tmp/cxx_complex"
  oshcc "$tmp/c_only.c" -o "$tmp/c_only"
  oshc++ "$src/examples/hello.cpp" -o "$tmp/hello_osh"
  oshrun --allow-run-as-root --oversubscribe -np 3 --mca spml ucx --map-by core "$tmp/c_only" 2>"$tmp/note" |
    grep -q "c_only total 6"
  grep -q "mca spml ucx is an Open MPI setting" "$tmp/note"
  nvshmrun -n 2 -genv SYMMEM_DEBUG warn "$tmp/hello_osh" | grep -q "counted 2 hits"
  oshrun -np 2 -H localhost:2 -x SYMMEM_DEBUG=warn "$tmp/c_only" | grep -q "c_only total 3" )
echo "install test: wrappers, find_package, pkg-config and the drop-in names all build and run"
