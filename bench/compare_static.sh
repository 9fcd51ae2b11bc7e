#!/usr/bin/env bash
# compare_static.sh: bench/static_bench.c on heap memory and on global variables, against OpenMPI's
# OSHMEM and against symmem, in one run; prints the side-by-side table (compare_static.py).
#
# usage: bench/compare_static.sh [--npes "2 4"] [--rounds R] [--out DIR] [--build DIR] [--quick]
#   --npes LIST   PE counts (default "2"); PE 0 -> PE 1 is measured, the others join collectives
#   --rounds R    alternate OSHMEM and symmem R times and compare the medians (default 1)
#   --out DIR     CSVs, logs and table.txt (default bench/results/static-<date>-<time>)
#   --build DIR   symmem build directory (default <repo>/build-bench)
#   --quick       BENCH_QUICK=1: a smoke run of a few seconds
# OSHMEM runs as bench/README.md says (OMPI_MCA_osc=^rdma, oshrun binds PEs to cores when they
# fit); symmem-run binds the same way by default (--bind-to auto).
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
npes_list="2" rounds=1 out="" build="$repo/build-bench"
while [ $# -gt 0 ]; do
  case "$1" in
    --npes) npes_list="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --quick) export BENCH_QUICK=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare_static.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$repo/bench/results/static-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/static_bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export SHMEM_SYMMETRIC_SIZE=256M SHMEM_SYMMETRIC_HEAP_SIZE=256M OMPI_MCA_osc="${OMPI_MCA_osc:-^rdma}"

oshcc -O2 -std=c11 "$here/static_bench.c" -o "$tmp/static_bench_oshmem" || { echo "oshcc build failed" >&2; exit 1; }
cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSYMMEM_CUDA=OFF -DSYMMEM_BUILD_TESTS=OFF >"$out/cmake.log" 2>&1 &&
  cmake --build "$build" -j"$(nproc)" --target static_bench symmem-run >"$out/make.log" 2>&1 || { echo "symmem build failed: $out" >&2; exit 1; }

csvs=() failed=0
run() {  # impl npes round command...
  local impl=$1 n=$2 r=$3; shift 3
  local csv="$out/${impl}_np${n}_r${r}.csv"
  echo "### $impl, $n PEs, round $r: $*"
  BENCH_IMPL=$impl BENCH_CSV=$csv timeout 600 "$@" >"$out/${impl}_np${n}_r${r}.log" 2>&1
  if [ -s "$csv" ]; then csvs+=("$csv"); else echo "ERROR: $impl at $n PEs wrote no CSV (log in $out)" >&2; failed=1; fi
}
for n in $npes_list; do
  for r in $(seq 1 "$rounds"); do
    run oshmem "$n" "$r" oshrun --allow-run-as-root --oversubscribe -np "$n" "$tmp/static_bench_oshmem"
    run symmem "$n" "$r" "$build/tools/symmem-run" -n "$n" "$build/bench/static_bench"
  done
done
[ ${#csvs[@]} -gt 0 ] && python3 "$here/compare_static.py" --out "$out" "${csvs[@]}"
exit "$failed"
