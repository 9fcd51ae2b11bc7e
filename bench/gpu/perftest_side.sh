#!/usr/bin/env bash
# NVIDIA's own NVSHMEM perftests, unchanged, built against NVSHMEM and against symmem and run side
# by side on this machine's GPU, several PEs on it under one private MPS daemon. The sources are
# NVIDIA's (the public NVIDIA/nvshmem repository's perftest/ folder); this script only builds and
# runs them, with the flags NVSHMEM's CMake passes (-rdc=true, -DNVSHMEMTEST_MPI_SUPPORT, utils.cu).
#   bench/gpu/perftest_side.sh PERFTEST_DIR SYMMEM_PREFIX   (an installed symmem: bin/symmem-nvcc, bin/symmem-run)
# env: TESTS ("device/coll/bcast_latency ..."; paths under PERFTEST_DIR without .cu/.cpp),
#      NPS ("2 4"), ROUNDS (2; rounds alternate the two libraries), ARGS (perftest arguments),
#      NVSHMEM_HOME (default:
#      the nvidia.nvshmem Python package), MPI_INC (the folder holding mpi.h), OUT (results),
#      REUSE (1: keep programs already built in OUT and add to its CSV), LIBS ("nvshmem symmem":
#      which to run), NVSHMEM_LABEL / SYMMEM_LABEL (their names in the CSV) and SYMMEM_ENV
#      ("VAR=value ...": set for symmem's runs only), to compare settings in one call; SYMMEM_FLAGS
#      (more nvcc flags for symmem's programs, e.g. "-DSYMMEM_DEVICE_OUTLINE_COLLECTIVES
#      -lsymmem_device_coll" for the collectives' out-of-line copies).
# Writes $OUT/perf.csv (lib,np,round,test,figure,value,better) and prints perftest_cmp.py's table.
set -u -o pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage="usage: perftest_side.sh PERFTEST_DIR SYMMEM_PREFIX"
pt=$(cd "${1:?$usage}" && pwd)
sp=$(cd "${2:?$usage}" && pwd)
out=${OUT:-/tmp/perftest-side}
nv=${NVSHMEM_HOME:-$(python3 -c "import nvidia.nvshmem as m; print(list(m.__path__)[0])")}
mpi_inc=${MPI_INC:-$(dirname "$(find /usr /opt -path '*openmpi*/include/mpi.h' 2>/dev/null | head -1)")}
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0   # never NVLink multicast on a shared machine
export NVSHMEM_MACHINE_READABLE_OUTPUT=1
mkdir -p "$out/bin" "$out/log"
jobs=$(nproc)

flags=(-rdc=true -O2 -std=c++17 -DNVSHMEMTEST_MPI_SUPPORT -I"$pt/common" -I"$mpi_inc")
hostlib=$(ls "$nv"/lib/libnvshmem_host.so* | head -1)
build_one() {  # lib test
  local lib=$1 t=$2 src name
  src=$(ls "$pt/$t.cu" "$pt/$t.cpp" 2>/dev/null | head -1)
  name=$(basename "$t")
  [ "${REUSE:-0}" = 1 ] && [ -x "$out/bin/$([ "$lib" = nvshmem ] && echo nv || echo sy)_$name" ] && return 0
  # Host programs (.cpp) include CUDA kernels' headers: nvcc compiles them as CUDA, from a copy
  # named .cu next to the original (its includes resolve as before).
  case $src in *.cpp) cp "$src" "${src%.cpp}.side_$lib.cu"; src=${src%.cpp}.side_$lib.cu ;; esac
  if [ "$lib" = nvshmem ]; then
    nvcc -arch=sm_90 "${flags[@]}" -I"$nv/include" "$src" "$pt/common/utils.cu" -o "$out/bin/nv_$name" \
      "$nv/lib/libnvshmem_device.a" -Xlinker "$hostlib" -Xlinker -rpath -Xlinker "$nv/lib" -lcuda -lnvidia-ml
  else
    SYMMEM_NVCC=${SYMMEM_NVCC:-nvcc} "$sp/bin/symmem-nvcc" "${flags[@]}" ${SYMMEM_FLAGS:-} "$src" "$pt/common/utils.cu" \
      -o "$out/bin/sy_$name" -lcuda -lnvidia-ml
  fi >"$out/log/build_${lib}_$name.log" 2>&1 || echo "build failed: $lib $t (log/build_${lib}_$name.log)"
}
for t in ${TESTS:?}; do
  build_one nvshmem "$t" & build_one symmem "$t" &
  while [ "$(jobs -r | wc -l)" -ge "$jobs" ]; do wait -n; done
done
wait

mps_dir=$(mktemp -d /tmp/perftest-mps.XXXXXX)
export CUDA_MPS_PIPE_DIRECTORY=$mps_dir CUDA_MPS_LOG_DIRECTORY=$mps_dir
nvidia-cuda-mps-control -d || echo "perftest_side: no MPS daemon; PEs share the GPU by time slices"
trap 'echo quit | nvidia-cuda-mps-control >/dev/null 2>&1; rm -rf "$mps_dir"' EXIT

[ "${REUSE:-0}" = 1 ] && [ -s "$out/perf.csv" ] || echo "lib,np,round,test,figure,value,better" >"$out/perf.csv"
collect() {  # lib np round test log
  # Lines that other PEs' output cut into are left out (their value is not a number).
  awk -v l="$1" -v n="$2" -v r="$3" -v t="$4" '$1 == "&&&&" && $2 == "PERF" && NF == 5 &&
      $4 ~ /^[0-9]+(\.[0-9]+)?$/ && $5 ~ /^[-+]/ {
      b = (substr($5, 1, 1) == "+") ? "higher" : "lower";
      printf "%s,%s,%s,%s,%s,%s,%s\n", l, n, r, t, $3, $4, b }' "$5" >>"$out/perf.csv"
}
for np in ${NPS:-2 4}; do
  for r in $(seq 1 "${ROUNDS:-2}"); do
    for t in ${TESTS}; do
      name=$(basename "$t")
      for lib in ${LIBS:-nvshmem symmem}; do
        log="$out/log/${lib}_${name}_np${np}_r$r.log"
        if [ "$lib" = nvshmem ]; then
          [ -x "$out/bin/nv_$name" ] || continue
          timeout 120 mpirun --allow-run-as-root --oversubscribe -np "$np" -x NVSHMEMTEST_USE_MPI_LAUNCHER=1 \
            -x NVSHMEM_DISABLE_NVLS -x NVSHMEM_MACHINE_READABLE_OUTPUT -x CUDA_MPS_PIPE_DIRECTORY \
            -x CUDA_MPS_LOG_DIRECTORY -x LD_LIBRARY_PATH "$out/bin/nv_$name" ${ARGS:-} >"$log" 2>&1
        else
          [ -x "$out/bin/sy_$name" ] || continue
          env ${SYMMEM_ENV:-} "$sp/bin/symmem-run" -n "$np" --timeout 120 "$out/bin/sy_$name" ${ARGS:-} >"$log" 2>&1
        fi
        rc=$?
        [ $rc = 0 ] || echo "run failed (rc $rc): $lib $t np $np round $r: $(tail -2 "$log" | tr '\n' ' ')"
        label=${NVSHMEM_LABEL:-nvshmem}
        [ "$lib" = symmem ] && label=${SYMMEM_LABEL:-symmem}
        collect "$label" "$np" "$r" "$name" "$log"
      done
    done
  done
done
python3 "$here/perftest_cmp.py" "$out/perf.csv"
