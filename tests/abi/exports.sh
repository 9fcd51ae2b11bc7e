#!/bin/sh
# exports.sh LIBSYMMEM LIBSYMMEM_SHMEM: each library exports its own names and nothing else.
# libsymmem: symmem_* only (no C++ template instance, no internal, no shmem_ name), so it can share
# a process with another SHMEM or NVSHMEM library. libsymmem-shmem: the OpenSHMEM names and their
# profiling twins (shmem_*, shmemx_*, the deprecated names without the prefix; pshmem_*, ...).
core=$1 abi=$2
names() { nm -D --defined-only "$1" | awk '{print $NF}' | sed 's/@.*//'; }
fail=0
stray=$(names "$core" | grep -v '^symmem_')
if [ -n "$stray" ]; then
  echo "libsymmem exports names outside symmem_*:"; echo "$stray" | head -20; fail=1
fi
allowed='^p?(shmemx?_.*|start_pes|_my_pe|_num_pes|shmalloc|shfree|shrealloc|shmemalign)$'
stray=$(names "$abi" | grep -Ev "$allowed")
if [ -n "$stray" ]; then
  echo "libsymmem-shmem exports names outside the OpenSHMEM ABI:"; echo "$stray" | head -20; fail=1
fi
n_shmem=$(names "$abi" | grep -c '^shmem_')
n_pshmem=$(names "$abi" | grep -c '^pshmem_')
if [ "$n_shmem" -lt 1700 ] || [ "$n_shmem" -ne "$n_pshmem" ]; then
  echo "libsymmem-shmem: $n_shmem shmem_ names and $n_pshmem pshmem_ names (expected >= 1700, equal)"; fail=1
fi
[ "$fail" = 0 ] && echo "exports: libsymmem $(names "$core" | wc -l) symmem_ names; libsymmem-shmem $n_shmem shmem_ + $n_pshmem pshmem_ names, nothing else"
exit $fail
