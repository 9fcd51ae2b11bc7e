#!/usr/bin/env bash
# compare_coll.sh: run bench/coll_bench.c against OpenMPI's OSHMEM and against symmem, in one run,
# and print the latencies side by side with the speedup (OSHMEM time / symmem time).
#
# usage: bench/compare_coll.sh [--npes "2 4"] [--rounds R] [--build DIR] [--out DIR] [--max BYTES]
#                              [--skip-oshmem] [-j N]
#   --npes LIST    PE counts (default "2 4")
#   --rounds R     runs per implementation, alternating OSHMEM and symmem; the table shows the
#                  median of the R runs (default 3): the machine is rarely idle
#   --build DIR    symmem build directory (default <repo>/build-coll; configured here when new,
#                  and the library and launcher are brought up to date with make)
#   --out DIR      where the CSVs, logs and table.txt go (default bench/results/coll-<date>-<time>)
#   --max BYTES    largest message (default 1048576)
#   --skip-oshmem  symmem only
# coll_bench uses the 1.5 team routines where the library has them (symmem) and the 1.4
# active-set ones otherwise (OSHMEM 4.1 implements 1.4): the same source file for both.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
npes_list="2 4"
rounds=3
build="$repo/build-coll"
out=""
max=1048576
skip_oshmem=0
jobs=$(nproc 2>/dev/null || echo 2)

while [ $# -gt 0 ]; do
  case "$1" in
    --npes) npes_list="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --max) max="$2"; shift 2 ;;
    --skip-oshmem) skip_oshmem=1; shift ;;
    -j) jobs="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare_coll.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

[ -n "$out" ] || out="$repo/bench/results/coll-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out" && out=$(cd "$out" && pwd) || exit 1
export SHMEM_SYMMETRIC_SIZE="${SHEAP:-512M}"       # symmem
export SHMEM_SYMMETRIC_HEAP_SIZE="${SHEAP:-512M}"  # OSHMEM
export COLL_BENCH_MAX="$max"

# symmem: the library, then coll_bench against <shmem.h> from include/ (symmemcc's flags).
echo "### building symmem in $build"
if [ ! -e "$build/CMakeCache.txt" ]; then
  cmake -S "$repo" -B "$build" -DSYMMEM_CUDA=OFF -DCMAKE_BUILD_TYPE=Release >"$out/cmake.log" 2>&1 ||
    { echo "cmake failed: see $out/cmake.log" >&2; exit 1; }
fi
cmake --build "$build" -j"$jobs" --target symmem symmem-run >"$out/make.log" 2>&1 || { echo "build failed: see $out/make.log" >&2; exit 1; }
cc -O2 -std=c11 -I"$repo/include" -I"$build/include" "$here/coll_bench.c" -o "$out/coll_bench_symmem" \
  -L"$build/src" -lsymmem -Wl,-rpath,"$build/src" || exit 1
have_oshmem=0
if [ "$skip_oshmem" = 0 ] && command -v oshcc >/dev/null && command -v oshrun >/dev/null; then
  oshcc -O2 -std=gnu11 "$here/coll_bench.c" -o "$out/coll_bench_oshmem" && have_oshmem=1
fi
[ "$skip_oshmem" = 0 ] && [ "$have_oshmem" = 0 ] && echo "### no OSHMEM (oshcc/oshrun): symmem only"

run_symmem() {  # $1 npes, $2 round
  rm -f "$out/symmem_np$1_r$2.csv"
  COLL_BENCH_IMPL=symmem COLL_BENCH_CSV="$out/symmem_np$1_r$2.csv" \
    timeout 600 "$build/tools/symmem-run" -n "$1" --timeout 500 "$out/coll_bench_symmem" >"$out/symmem_np$1_r$2.log" 2>&1
}
# OSHMEM 4.1 sometimes dies at start-up or in shmem_finalize: the CSV is written line by line, and a
# run that measured nothing is tried again (up to 3 times).
run_oshmem() {
  local csv="$out/oshmem_np$1_r$2.csv" log="$out/oshmem_np$1_r$2.log" try rc=0
  rm -f "$csv" "$log"
  for try in 1 2 3; do
    COLL_BENCH_IMPL=oshmem COLL_BENCH_CSV="$csv" OMPI_MCA_osc='^rdma' \
      timeout 600 oshrun --allow-run-as-root --oversubscribe -np "$1" \
      -x COLL_BENCH_IMPL -x COLL_BENCH_CSV -x COLL_BENCH_MAX -x SHMEM_SYMMETRIC_HEAP_SIZE \
      "$out/coll_bench_oshmem" >"$log.$try" 2>&1
    rc=$?
    cat "$log.$try" >>"$log"
    [ -s "$csv" ] && return $rc
    echo "    OSHMEM measured nothing (exit $rc), try $try: $(tail -n 2 "$log.$try" | tr '\n' ' ')"
  done
  return $rc
}

for n in $npes_list; do
  for r in $(seq 1 "$rounds"); do
    if [ "$have_oshmem" = 1 ]; then
      echo "### OSHMEM, $n PEs, round $r"; run_oshmem "$n" "$r" || echo "    (exit $?; see the log)"
    fi
    echo "### symmem, $n PEs, round $r"; run_symmem "$n" "$r" || echo "    (exit $?; see the log)"
  done
done

# The table: median over rounds of each (impl, op, npes, bytes); speedup = OSHMEM / symmem.
cat "$out"/*_np*_r*.csv 2>/dev/null | awk -F, '
  { key = $2 "," $3 "," $4; v[$1 "|" key] = v[$1 "|" key] " " $5; keys[key] = 1 }
  function median(s,   a, n, i, j, t) {
    n = split(s, a, " "); if (n == 0) return -1
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  END {
    printf "%-11s %5s %9s %13s %13s %8s\n", "op", "npes", "bytes", "oshmem_us", "symmem_us", "speedup"
    for (k in keys) {
      split(k, f, ",")
      o = ("oshmem|" k in v) ? median(v["oshmem|" k]) : -1
      s = ("symmem|" k in v) ? median(v["symmem|" k]) : -1
      sp = (o > 0 && s > 0) ? sprintf("%.2fx", o / s) : "-"
      printf "%-11s %5d %9d %13s %13s %8s\n", f[1], f[2], f[3], o < 0 ? "-" : sprintf("%.3f", o), s < 0 ? "-" : sprintf("%.3f", s), sp
    }
  }' | (read -r header; echo "$header"; sort -k1,1 -k2,2n -k3,3n) | tee "$out/table.txt"
echo "### results in $out"
