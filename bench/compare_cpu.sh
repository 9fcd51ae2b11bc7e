#!/usr/bin/env bash
# compare_cpu.sh: run bench/shmem_bench.c against OpenMPI's OSHMEM and against symmem, on the
# CPU, and print/plot the two side by side.
#
# usage: bench/compare_cpu.sh [--npes "2 4"] [--out DIR] [--build DIR] [--quick]
#                             [--rounds R] [--pin-symmem] [--skip-oshmem] [--skip-symmem]
#                             [--no-plot] [-j N]
#   --npes LIST    PE counts to run (default "2"); PE 0 <-> PE 1 is measured, others only join
#                  the barriers.
#   --out DIR      where the CSVs, logs, combined.csv and plots go
#                  (default bench/results/cpu-<date>-<time>)
#   --build DIR    the symmem build directory (default <repo>/build-bench)
#   --quick        BENCH_QUICK=1: sizes up to 1 MiB, 3 reps, shorter repetitions (smoke test)
#   --rounds R     run each implementation R times, alternating OSHMEM and symmem, and compare
#                  the medians (default 1); helps on a machine that is not idle
#   --pin-symmem   bind symmem's PE r to CPU r mod nproc (taskset), as oshrun binds its PEs to
#                  cores by default when they fit; without it symmem-run leaves them unbound
#   --skip-oshmem / --skip-symmem   run only one side (compare.py prints '-' for the other)
#   --no-plot      do not try to draw the PNG
#   -j N           parallel make jobs (default: nproc)
# Environment passed through to shmem_bench: BENCH_REPS, BENCH_MAX_SIZE (see shmem_bench.c).
# The symmetric heap is set to the same size for both (SHEAP, default 512M): symmem reads
# SHMEM_SYMMETRIC_SIZE, OSHMEM 4.1 reads SHMEM_SYMMETRIC_HEAP_SIZE (and ignores the former).
# The benchmark needs 2 x BENCH_MAX_SIZE (128 MiB) plus a little.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)

npes_list="2"
out=""
build="$repo/build-bench"
quick=0
rounds=1
pin_symmem=0
skip_oshmem=0
skip_symmem=0
no_plot=0
jobs=$(nproc 2>/dev/null || echo 2)

while [ $# -gt 0 ]; do
  case "$1" in
    --npes) npes_list="$2"; shift 2 ;;
    --npes=*) npes_list="${1#*=}"; shift ;;
    --out) out="$2"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    --build) build="$2"; shift 2 ;;
    --build=*) build="${1#*=}"; shift ;;
    --quick) quick=1; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    --rounds=*) rounds="${1#*=}"; shift ;;
    --pin-symmem) pin_symmem=1; shift ;;
    --skip-oshmem) skip_oshmem=1; shift ;;
    --skip-symmem) skip_symmem=1; shift ;;
    --no-plot) no_plot=1; shift ;;
    -j) jobs="$2"; shift 2 ;;
    -j*) jobs="${1#-j}"; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare_cpu.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

[ -n "$out" ] || out="$repo/bench/results/cpu-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$out" || exit 1
out=$(cd "$out" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/shmem_bench.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

sheap="${SHEAP:-512M}"
export SHMEM_SYMMETRIC_SIZE="$sheap"        # symmem (alias of SYMMEM_SYMMETRIC_SIZE)
export SHMEM_SYMMETRIC_HEAP_SIZE="$sheap"   # OSHMEM
[ "$quick" = 1 ] && export BENCH_QUICK=1
per_run_timeout=300   # seconds; a full run at 2 PEs takes 15-30 s on 2 cores

say() { printf '\n### %s\n' "$*"; }
csvs=()
failed=0

# Run one implementation at one PE count. $1 impl, $2 npes, rest: the launcher command line.
# A non-zero exit is tolerated when the CSV is there: shmem_bench writes it as <csv>.tmp and
# renames it before shmem_finalize, so its presence means the run finished measuring (OSHMEM is
# known to die with SIGSEGV in shmem_finalize on some setups).
run_one() {
  local impl=$1 n=$2 r=$3; shift 3
  local name="${impl}_np${n}"
  [ "$rounds" -gt 1 ] && name="${name}_r${r}"
  local csv="$out/$name.csv" log="$out/$name.log"
  rm -f "$csv" "$csv.tmp"
  local round_txt=""
  [ "$rounds" -gt 1 ] && round_txt=", round $r/$rounds"
  say "$impl, $n PEs$round_txt: $*"
  local t0=$SECONDS
  BENCH_IMPL=$impl BENCH_CSV=$csv timeout "$per_run_timeout" "$@" 2>&1 | tee "$log"
  local rc=${PIPESTATUS[0]}
  echo "($impl, $n PEs: $((SECONDS - t0)) s, exit status $rc)"
  if [ -s "$csv" ]; then
    [ "$rc" = 0 ] || echo "note: $impl exited with status $rc after writing its CSV (tolerated)"
    csvs+=("$csv")
  else
    echo "ERROR: $impl at $n PEs exited with status $rc and wrote no CSV (log: $log)" >&2
    failed=1
  fi
}

# ---- OSHMEM -------------------------------------------------------------------------------
if [ "$skip_oshmem" = 0 ]; then
  if ! command -v oshcc >/dev/null || ! command -v oshrun >/dev/null; then
    echo "ERROR: oshcc/oshrun not found (Debian: apt-get install openmpi-bin libopenmpi-dev)" >&2
    failed=1; skip_oshmem=1
  else
    say "building shmem_bench with oshcc -O2"
    if ! oshcc -O2 -std=c11 "$here/shmem_bench.c" -o "$tmp/shmem_bench_oshmem"; then
      echo "ERROR: oshcc build failed" >&2; failed=1; skip_oshmem=1
    fi
  fi
fi
# OSHMEM environment for this container (Debian 12, OpenMPI 4.1.4, spml ucx, no RDMA NIC):
#  - OMPI_MCA_osc=^rdma: without it the PEs die with SIGSEGV in shmem_finalize (after the
#    measurements: the CSV is already there, but oshrun exits with status 139).
#  - --allow-run-as-root: the container runs as root; --oversubscribe: more PEs than cores (4 on 2).
#  Nothing else was needed: spml ucx picks UCX's shared-memory transports by itself. If UCX
#  misbehaves elsewhere, try UCX_TLS=self,sm (or self,posix,cma) and, without ssh/rsh,
#  OMPI_MCA_plm_rsh_agent= (set them in the environment; they are passed through).
export OMPI_MCA_osc="${OMPI_MCA_osc:-^rdma}"

# ---- symmem ---------------------------------------------------------------------------------
if [ "$skip_symmem" = 0 ]; then
  say "building symmem (Release, CPU only) in $build"
  step=cmake
  if cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSYMMEM_CUDA=OFF \
       -DSYMMEM_BUILD_TESTS=OFF >"$out/cmake.log" 2>&1 &&
     step=make && cmake --build "$build" -j"$jobs" --target shmem_bench symmem-run >"$out/make.log" 2>&1; then
    echo "built $build/bench/shmem_bench and $build/tools/symmem-run"
  else
    echo "ERROR: the symmem build failed ($step); errors in $out/$step.log:" >&2
    grep -E 'error:|Error [0-9]|CMake Error|undefined reference|Cannot find' "$out/$step.log" | head -n 20 >&2
    echo "... last lines:" >&2
    tail -n 8 "$out/$step.log" >&2
    failed=1; skip_symmem=1
  fi
fi

# ---- runs -----------------------------------------------------------------------------------
symmem_pin=()
if [ "$pin_symmem" = 1 ]; then
  # symmem-run starts the program once per PE with SYMMEM_LAUNCHER_RANK set; bind by rank.
  cat >"$tmp/pin.sh" <<'PIN'
#!/bin/sh
ncpu=$(nproc)
exec taskset -c "$(( ${SYMMEM_LAUNCHER_RANK:-0} % ncpu ))" "$@"
PIN
  chmod +x "$tmp/pin.sh"
  symmem_pin=("$tmp/pin.sh")
fi
case "$rounds" in ''|*[!0-9]*|0) echo "compare_cpu.sh: --rounds wants a positive number" >&2; exit 2 ;; esac
for n in $npes_list; do
  for r in $(seq 1 "$rounds"); do
    if [ "$skip_oshmem" = 0 ]; then
      run_one oshmem "$n" "$r" oshrun --allow-run-as-root --oversubscribe -np "$n" "$tmp/shmem_bench_oshmem"
    fi
    if [ "$skip_symmem" = 0 ]; then
      run_one symmem "$n" "$r" "$build/tools/symmem-run" -n "$n" "${symmem_pin[@]}" "$build/bench/shmem_bench"
    fi
  done
done

# ---- comparison -----------------------------------------------------------------------------
if [ ${#csvs[@]} -gt 0 ]; then
  say "comparison (results in $out)"
  plot_arg=()
  # The first python3 on PATH may be a pyenv/venv one without matplotlib, while Debian's
  # python3-matplotlib lives in /usr/bin/python3: use whichever imports it.
  py=python3
  find_py() {
    local c
    for c in python3 /usr/bin/python3; do
      if command -v "$c" >/dev/null && "$c" -c 'import matplotlib' 2>/dev/null; then py=$c; return 0; fi
    done
    return 1
  }
  if [ "$no_plot" = 1 ]; then
    plot_arg=(--no-plot)
  elif ! find_py; then
    echo "matplotlib is not importable; trying: apt-get install -y python3-matplotlib"
    if command -v apt-get >/dev/null && apt-get install -y python3-matplotlib >"$out/apt.log" 2>&1 && find_py; then
      echo "installed python3-matplotlib"
    else
      echo "could not install python3-matplotlib (see $out/apt.log); the plot is skipped"
      plot_arg=(--no-plot)
    fi
  fi
  "$py" "$here/compare.py" --base oshmem --new symmem --out "$out" "${plot_arg[@]}" "${csvs[@]}" |
    tee "$out/comparison.txt"
else
  echo "no results to compare" >&2
fi
exit "$failed"
