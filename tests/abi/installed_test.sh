#!/bin/sh
# The OpenSHMEM ABI from an installed tree, as configure scripts and Makefiles meet it:
#  1. autoconf's AC_CHECK_FUNC link probe (`char shmem_barrier_all (); ... return shmem_barrier_all ();`)
#     through symmemcc, for a few routines as autoconf writes it and for every routine of the list
#     in one program; AC_CHECK_LIB's form with plain cc and -lsymmem-shmem;
#     a program calling sqrtf links with no -lm;
#  2. symmemcc's -show / -showme / --showme[:compile|:link|...] output;
#  3. an existing Makefile (oshcc by default) built unchanged with `make CC=symmemcc`, then run.
# Usage: installed_test.sh BUILD_DIR ABI_DLSYM_BINARY
set -e
build=$1 names_prog=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
P=$tmp/prefix
CC="$P/bin/symmemcc"
cd "$tmp"

# 1. Link probes. The program is only linked, as configure does: calling shmem_barrier_all
#    without shmem_init would be an error.
probe() { # probe FUNC COMPILER [LIBS]: autoconf's $CC -o conftest conftest.c $LIBS
  f=$1 cc=$2 libs=$3
  cat >conftest.c <<C
/* Define $f to an innocuous variant, in case <limits.h> declares $f. */
#define $f innocuous_$f
#include <limits.h>
#undef $f
#ifdef __cplusplus
extern "C"
#endif
char $f ();
int main (void) { return $f (); }
C
  $cc -o conftest conftest.c $libs || { echo "link probe for $f failed: $cc conftest.c $libs"; exit 1; }
}
for f in shmem_barrier_all shmem_getmem_nbi shmem_team_split_strided shmem_long_atomic_fetch_add \
         shmem_ctx_create shmemx_long_put_nb start_pes pshmem_putmem; do
  probe "$f" "$CC"
done
probe shmem_getmem_nbi cc "-L$P/lib -lsymmem-shmem"
"$names_prog" --names >names.txt
count=$(wc -l <names.txt)
awk '{ printf "char %s ();\nchar p%s ();\n", $1, $1 }' names.txt >allnames.c
{ echo "int main (void) { unsigned long s = 0;"
  awk '{ printf "  s += (unsigned long)&%s + (unsigned long)&p%s;\n", $1, $1 }' names.txt
  echo "  return (int)(s & 1); }"; } >>allnames.c
"$CC" -w -o allnames allnames.c || { echo "linking every one of the $count routines failed"; exit 1; }
echo "link probes: autoconf-style probes pass; all $count routines and their pshmem_ names link"
# ISO C's math functions (C11 7.12) link with no -lm, as with Cray's and Intel's compilers: public
# examples (openshmem-examples' shmem_2dheat) call sqrtf and their Makefiles name no libm.
cat >mathprog.c <<C
#include <math.h>
int main(int argc, char **argv) { (void)argv; return sqrtf((float)argc) > 1.5f; }
C
"$CC" -O0 -o mathprog mathprog.c || { echo "symmemcc mathprog.c (sqrtf, no -lm) failed to link"; exit 1; }
./mathprog || { echo "mathprog: sqrtf(1) > 1.5"; exit 1; }
echo "symmemcc links the C library's math functions without -lm"

# 2. What symmemcc shows.
expect_in() { case "$2" in *"$1"*) ;; *) echo "symmemcc $3: '$2' lacks '$1'"; exit 1 ;; esac; }
for s in -show -showme --showme; do
  out=$("$CC" $s app.c -o app -lm)
  expect_in "app.c -o app -lm" "$out" "$s"
  expect_in "-lsymmem-shmem -lsymmem" "$out" "$s"
  expect_in "-I$P/include" "$out" "$s"
done
out=$("$CC" --showme -c app.c); case "$out" in *-lsymmem*) echo "symmemcc -c --showme links: $out"; exit 1 ;; esac
expect_in "-I$P/include" "$("$CC" --showme:compile)" --showme:compile
expect_in "-lsymmem-shmem" "$("$CC" --showme:link)" --showme:link
expect_in "$P/lib" "$("$CC" --showme:libdirs)" --showme:libdirs
if "$CC" --showme:nonsense >/dev/null 2>&1; then echo "symmemcc accepted --showme:nonsense"; exit 1; fi
echo "symmemcc: -show, -showme, --showme and --showme:compile/link/libdirs print the command"

# 3. An existing Makefile, unchanged.
cp -r "$here/make_project" proj
make -s -C proj CC="$CC" >make.log 2>&1 || { cat make.log; echo "make CC=symmemcc failed"; exit 1; }
for prog in halo halo_onestep; do
  out=$("$P/bin/symmem-run" -n 2 --timeout 30 "proj/$prog")
  echo "$out"
  [ "$(echo "$out" | grep -c ': ok$')" = 2 ] || { echo "$prog did not pass on 2 PEs"; exit 1; }
done
echo "make CC=symmemcc: an oshcc Makefile builds unchanged and its programs run"
