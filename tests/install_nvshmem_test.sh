#!/bin/sh
# symmem's NVSHMEM drop-in directory (<prefix>/libexec/symmem/nvshmem) in the place of an NVSHMEM
# install, with build lines written for NVSHMEM, unchanged: nvcc with -lnvshmem_host
# -lnvshmem_device (NVSHMEM's documented line) and with the older -lnvshmem, a host file built by
# the C++ compiler, a CMake project calling find_package(NVSHMEM) with NVSHMEM_PREFIX, and (with
# MPI) a program that starts over its MPI communicator under mpirun. Each
# program must link libsymmem and the shared CUDA runtime only (one runtime in the process, none
# linked in statically), load with LD_LIBRARY_PATH=$NVSHMEM_HOME/lib and run under nvshmrun: the
# kernel's puts arrive on a machine with a GPU; without one, the heap is in host memory and the
# program stops with symmem's message saying so.
set -e
build=$1
src=$(cd "$(dirname "$0")" && pwd)/nvshmem_home
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
H=$tmp/prefix/libexec/symmem/nvshmem
# The CUDA compiler and architecture symmem was built with, from its own wrapper.
set -- $("$tmp/prefix/bin/symmem-nvcc" --showme x.cu)
nvcc=$1
arch=$(printf '%s\n' "$@" | sed -n 's/^-arch=sm_\([0-9a-z]*\)$/\1/p')
[ -n "$arch" ] || { echo "no -arch in symmem-nvcc --showme: $*"; exit 1; }
# symmem-nvcc links the collectives' out-of-line copies (libsymmem_device_coll.a, before the device
# library) when the program asks for them, and not otherwise: the define alone would link the
# program's own copies, which have no register limit.
for d in -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES "-D SYMMEM_DEVICE_OUTLINE_COLLECTIVES=1"; do
  "$tmp/prefix/bin/symmem-nvcc" --showme -rdc=true $d x.cu | grep -q -- "-lsymmem_device_coll -lsymmem_device " ||
    { echo "symmem-nvcc $d does not link -lsymmem_device_coll before -lsymmem_device"; exit 1; }
done
! "$tmp/prefix/bin/symmem-nvcc" --showme -rdc=true x.cu | grep -q -- "-lsymmem_device_coll" ||
  { echo "symmem-nvcc links -lsymmem_device_coll without -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES"; exit 1; }
cuda_inc=$(dirname "$(dirname "$nvcc")")/include
cuda_lib=$(dirname "$(dirname "$nvcc")")/lib64
[ -d "$cuda_lib" ] || cuda_lib=$(dirname "$cuda_inc")/lib
gpu=no
nvidia-smi -L >/dev/null 2>&1 && gpu=yes
fail() { echo "install_nvshmem_test: $*"; exit 1; }

one_runtime() {  # program [cuda: it calls the runtime itself]
  readelf -d "$1" | grep -q 'NEEDED.*\[libsymmem\.so\.' || fail "$1 does not need libsymmem"
  [ "${2:-}" != cuda ] || readelf -d "$1" | grep -q 'NEEDED.*\[libcudart\.so\.' ||
    fail "$1 does not need the shared CUDA runtime"
  ! nm --defined-only "$1" | grep -q ' [Tt] cuda[A-Z]' || fail "$1 has a static CUDA runtime linked in (a second copy)"
}
run() {  # log program
  LD_LIBRARY_PATH=$H/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} "$H/bin/nvshmrun" -n 2 --timeout 60 "$2" >"$1" 2>&1
}
hello() {  # program
  one_runtime "$1" cuda
  if [ $gpu = yes ]; then
    run "$tmp/log" "$1" || { cat "$tmp/log"; fail "$1 failed"; }
    grep -q "^0: received message 1 " "$tmp/log" && grep -q "^1: received message 0 " "$tmp/log" ||
      { cat "$tmp/log"; fail "$1: wrong messages"; }
  else
    ! run "$tmp/log" "$1" || fail "$1 succeeded without a GPU"
    grep -q "needs the symmetric heap in GPU memory" "$tmp/log" || { cat "$tmp/log"; fail "$1: not symmem's message"; }
  fi
}
host() {  # program
  one_runtime "$1"
  run "$tmp/log" "$1" || { cat "$tmp/log"; fail "$1 failed"; }
  grep -q "^host file: PE 1 of 2" "$tmp/log" && grep -q "^host file: team of 2 PEs from a unique id ok" "$tmp/log" ||
    { cat "$tmp/log"; fail "$1: no output from PE 1"; }
}

cd "$tmp"
# NVSHMEM's documented build line. nvlink must not warn about the device library.
echo "== -lnvshmem_host -lnvshmem_device"
"$nvcc" -rdc=true -ccbin g++ -gencode=arch=compute_$arch,code=sm_$arch -I "$H/include" "$src/hello.cu" \
  -o hello_doc -L "$H/lib" -lnvshmem_host -lnvshmem_device 2>"$tmp/warn"
[ ! -s "$tmp/warn" ] || { cat "$tmp/warn"; fail "warnings from NVSHMEM's build line"; }
hello ./hello_doc
# Registers: a kernel that calls the device API keeps at most 32 after the device link (the cold
# paths come from libnvshmem_device.a, compiled with that limit), with NVSHMEM 3's link line and with
# the older -lnvshmem that jacobi's and other Makefiles still use (libnvshmem.a holds them too). One
# that calls a collective, built with -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES and linked with
# libsymmem_device_coll.a, keeps at most 64 (their out-of-line copies): checked where there is a GPU,
# whose build holds machine code; a build without one holds PTX only (scripts/test), which nvlink
# would compile whole for the check (minutes).
regs() {  # source kernel-prefix limit count libraries...
  f=$1 p=$2 lim=$3 cnt=$4
  shift 4
  "$nvcc" -rdc=true -ccbin g++ -gencode=arch=compute_$arch,code=sm_$arch -I "$H/include" "$src/$f" -o regs \
    -L "$H/lib" "$@" -Xnvlink -v >"$tmp/regs.log" 2>&1 || { cat "$tmp/regs.log"; fail "$f ($*)"; }
  awk -v p="$p" -v lim="$lim" -v cnt="$cnt" '$0 ~ ("Function properties for ._Z[0-9]*" p "_") {
       name = $NF; getline; if ($5 + 0 > lim) { print name, $5, "registers"; bad = 1 } n++ }
       END { if (n != cnt) { print "expected", cnt, "kernels, nvlink reported", n; bad = 1 } exit bad }' "$tmp/regs.log" ||
    fail "$f: kernels calling the device API use more than $lim registers when linked with $* (nvlink -v above)"
}
echo "== registers"
regs regs.cu k 32 12 -lnvshmem_host -lnvshmem_device
regs regs.cu k 32 12 -lnvshmem
if [ $gpu = yes ]; then
  regs regs_coll.cu c 64 7 -lnvshmem_host -lsymmem_device_coll -lnvshmem_device
fi
# Older Makefiles (NVSHMEM 2.x, jacobi's) link one library, -lnvshmem, and name the shared runtime
# (jacobi's: -L$(CUDA_HOME)/lib64 -lcuda -lcudart): libnvshmem.a is an archive holding libsymmem.so,
# which the linker takes as a shared library (the program needs libsymmem.so.N, and has no copy).
"$nvcc" -rdc=true -arch=sm_$arch -I "$H/include" -c "$src/hello.cu" -o hello.o
echo "== -lnvshmem -lcudart"
"$nvcc" -arch=sm_$arch hello.o -o hello_old -L "$H/lib" -lnvshmem -L "$cuda_lib" -lcudart
! nm --defined-only hello_old | grep -q ' [Tt] symmem_init$' || fail "hello_old has libsymmem linked in"
hello ./hello_old
# A host file and the C++ compiler.
echo "== g++ host file"
g++ -I "$H/include" -I "$cuda_inc" "$src/host.cpp" -o host_cxx -L "$H/lib" -lnvshmem_host
host ./host_cxx
# find_package(NVSHMEM) and its targets.
echo "== find_package(NVSHMEM)"
cmake -S "$src" -B "$tmp/cm" -DNVSHMEM_PREFIX="$H" -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_CUDA_ARCHITECTURES="$arch" >"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "configure failed"; }
cmake --build "$tmp/cm" >>"$tmp/cm.log" 2>&1 || { cat "$tmp/cm.log"; fail "build failed"; }
hello "$tmp/cm/hello"
host "$tmp/cm/host"
# An MPI program that starts over its communicator: libsymmem, loaded through the drop-in
# directory's link, must find its MPI plugin beside the file the link resolves to.
mpi=no
if command -v mpic++ >/dev/null && command -v mpirun >/dev/null && [ -e "$tmp/prefix/lib/symmem/libsymmem_boot_mpi.so" ]; then
  mpi=yes
  mpic++ -I "$H/include" -I "$cuda_inc" "$src/mpi_init.cpp" -o mpi_init -L "$H/lib" -lnvshmem_host
  LD_LIBRARY_PATH=$H/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} timeout 60 mpirun --allow-run-as-root --oversubscribe \
    -np 2 -x LD_LIBRARY_PATH ./mpi_init >"$tmp/log" 2>&1 || { cat "$tmp/log"; fail "mpi_init failed"; }
  grep -q "^mpi init: PE 1 of 2, MPI rank 1" "$tmp/log" || { cat "$tmp/log"; fail "mpi_init: no output from PE 1"; }
fi
echo "install_nvshmem_test: NVSHMEM's build lines and find_package(NVSHMEM) build and run against symmem (GPU: $gpu, MPI: $mpi)"
