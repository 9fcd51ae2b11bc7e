#!/usr/bin/env bash
# compare_net.sh: symmem against OpenMPI's OSHMEM (spml ucx) across two hosts emulated with
# network namespaces (tests/net/netns.sh), both over UCX's TCP transport on the same veth pair,
# with ucx_perftest on the same pair as the transport's ceiling. Needs root.
#
# usage: bench/compare_net.sh [--rounds R] [--out DIR] [--build DIR] [--quick] [-j N]
#   --rounds R   alternate OSHMEM and symmem R times (default 3) and compare the medians
#   --out DIR    results (default bench/results/net-<date>-<time>): the CSVs, logs, comparison.txt
#   --build DIR  the symmem build directory (default <repo>/build-bench)
#   --quick      sizes up to 1 MiB, 3 repetitions (a smoke test)
#   --no-oshmem  symmem and ucx_perftest only
#   --cpu-load   one busy loop per CPU competes with both libraries for the whole run (another
#                program on the machine: a build, a data loader); without it the machine is idle
# What runs, on hosts A and B (one PE each for shmem_bench, one and two each for coll_bench);
# OSHMEM's shmem_bench without its bandwidth sweeps (BENCH_SKIP_BW=1: its 8-byte putmem_bw hung in
# shmem_quiet here until the 600 s limit), so bandwidth is compared with ucx_perftest's. OSHMEM's
# shmem_bench often hangs after its latencies (in a later barrier or malloc): it gets 60 s (180 s
# without --quick), and the figures it printed become its CSV. coll_bench runs on symmem twice: its OpenSHMEM 1.5 team
# forms ("symmem") and, built with -DHAVE_TEAMS=0, the 1.4 active-set forms OSHMEM runs
# ("symmem-1.4"), so both APIs are compared with the same calls. With matplotlib, the comparison
# is also drawn: latency.png and coll.png in the results folder.
#   OSHMEM  ip netns exec A oshrun -np N --host A:k,B:k --mca plm_rsh_agent bench/netns_rsh.sh
#           --rankfile (the CPUs symmem-run binds its PEs to) ...
#   symmem  symmem-run --hosts A:k,B:k --launch-agent 'ip netns exec {host}' ...
#   UCX     ucx_perftest (server on A, client on B): ucp_put_lat, ucp_get, ucp_fadd at 8 B, ucp_put_bw at 1 MiB
# UCX_TLS=tcp,self and UCX_NET_DEVICES=veth0 for all three (netns.sh sets them); ucx_perftest with
# the TCP segments symmem sets for itself (256 KiB; UCX's default is 8 KiB), OSHMEM with UCX's
# defaults, as its users run it (export UCX_TCP_TX_SEG_SIZE/UCX_TCP_RX_SEG_SIZE to give all three
# the same).
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
rounds=3
out=""
build="$repo/build-bench"
quick=0
oshmem=1
cpu_load=0
jobs=$(nproc 2>/dev/null || echo 2)
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    --quick) quick=1; shift ;;
    --no-oshmem) oshmem=0; shift ;;
    --cpu-load) cpu_load=1; shift ;;
    -j) jobs="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "compare_net.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$repo/bench/results/net-$(date +%Y%m%d-%H%M%S)"

# Build outside the namespaces, then run the rest inside them.
if [ -z "${NETNS_HOSTS:-}" ]; then
  mkdir -p "$out" || exit 1
  echo "### building symmem (Release, CPU only) in $build"
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSYMMEM_CUDA=OFF -DSYMMEM_BUILD_TESTS=OFF \
    >"$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$jobs" --target shmem_bench coll_bench symmem-run symmem_net_ucx >"$out/make.log" 2>&1 ||
    { echo "ERROR: the symmem build failed (see $out/make.log)" >&2; exit 1; }
  if [ "$oshmem" = 1 ]; then
    echo "### building shmem_bench and coll_bench with oshcc -O2"
    oshcc -O2 -std=c11 "$here/shmem_bench.c" -o "$out/shmem_bench_oshmem" &&
      oshcc -O2 -std=c11 "$here/coll_bench.c" -o "$out/coll_bench_oshmem" ||
      { echo "ERROR: oshcc build failed (Debian: openmpi-bin libopenmpi-dev)" >&2; exit 1; }
  fi
  cc -O2 -std=c11 -DHAVE_TEAMS=0 -Wno-deprecated-declarations "$here/coll_bench.c" -o "$out/coll_bench_symmem14" \
    -I"$repo/include" -I"$build/include" -L"$build/src" -lsymmem-shmem -lsymmem -Wl,-rpath,"$build/src" ||
    { echo "ERROR: building coll_bench's 1.4 forms against symmem failed" >&2; exit 1; }
  exec "$repo/tests/net/netns.sh" -n 2 "$0" "${args[@]}" --out "$out"
fi

out=$(cd "$out" && pwd)
set -- $NETNS_HOSTS
A=$1
B=$2
[ "$quick" = 1 ] && export BENCH_QUICK=1 COLL_BENCH_MAX=65536
export SHMEM_SYMMETRIC_SIZE=512M SHMEM_SYMMETRIC_HEAP_SIZE=512M BENCH_MAX_SIZE="${BENCH_MAX_SIZE:-4194304}"
. "$here/oshmem_netns.sh"
oshmem_netns_cmd "$A"
osh+=(-x BENCH_MAX_SIZE)
[ "$quick" = 1 ] && osh+=(-x BENCH_QUICK -x COLL_BENCH_MAX)
# The same CPU placement for both: the emulated hosts are one machine, and oshrun, like mpirun,
# binds each host's first rank to that host's first core, so both PEs of a 2-host job shared CPU 0
# and every OSHMEM latency measured ~8000 us here. symmem-run counts CPUs per machine
# (docs/multihost.md); OSHMEM gets a rankfile with the same places, or no binding when the PEs
# outnumber the CPUs (as symmem-run's --bind-to auto).
osh_place() {  # PES_PER_HOST: oshrun arguments placing 2 hosts x k PEs as symmem-run does
  local k=$1 i
  if [ $((2 * k)) -gt "$(nproc)" ]; then echo "--bind-to none"; return; fi
  : >"$out/rankfile$k"
  for i in $(seq 0 $((2 * k - 1))); do
    echo "rank $i=$([ "$i" -lt "$k" ] && echo "$A" || echo "$B") slot=$i" >>"$out/rankfile$k"
  done
  echo "--rankfile $out/rankfile$k"
}
sym=("$build/tools/symmem-run" --launch-agent "$NETNS_AGENT")
if [ "$cpu_load" = 1 ]; then
  loops=()
  for i in $(seq 0 $(($(nproc) - 1))); do
    taskset -c "$i" sh -c 'while :; do :; done' &
    loops+=($!)
  done
  trap 'kill "${loops[@]}" 2>/dev/null' EXIT
  echo "### a busy loop on each of the $(nproc) CPUs: ${loops[*]}"
fi
csvs=()
run() {  # name, command...: a CSV in $out/name.csv, the output in $out/name.log
  local name=$1; shift
  echo "### $name: $*"
  timeout "${limit:-600}" "$@" >"$out/$name.log" 2>&1
  echo "    exit $?"
  settle
}
# An OSHMEM job stopped by the limit leaves its PEs spinning in the namespaces for seconds after
# oshrun is gone; a symmem run right after it measured 770-1120 us for put + quiet and get instead
# of 15-18. So nothing of a run may be left when the next starts.
settle() {
  local i
  for i in $(seq 50); do
    pgrep -f "$out/[a-z_]*_oshmem" >/dev/null || return 0
    pkill -9 -f "$out/[a-z_]*_oshmem"
    sleep 0.2
  done
  echo "    WARNING: OSHMEM processes still running" >&2
}
# shmem_bench's table lines ("figure  size  value unit") as its CSV, for a run that printed its
# figures but never wrote the CSV (it hung later and was stopped).
log_to_csv() {  # impl name
  [ -s "$out/$2.csv" ] && return
  awk -v impl="$1" 'BEGIN { print "impl,npes,figure,size_bytes,value,unit" }
    NF >= 4 && $NF ~ /^(us|ms|GB\/s)$/ && $(NF-1) ~ /^[0-9.]+$/ {
      size = 0; if ($2 != "-") { size = $2; if ($3 == "KiB") size *= 1024; else if ($3 == "MiB") size *= 1048576 }
      print impl ",2," $1 "," size "," $(NF-1) "," $NF }' "$out/$2.log" >"$out/$2.csv"
}
for r in $(seq 1 "$rounds"); do
  [ "$oshmem" = 0 ] || { limit=$([ "$quick" = 1 ] && echo 60 || echo 180) run oshmem_r$r env BENCH_IMPL=oshmem BENCH_SKIP_BW=1 "${osh[@]}" $(osh_place 1) \
    -x BENCH_IMPL -x BENCH_SKIP_BW -np 2 --host "$A:1,$B:1" "$out/shmem_bench_oshmem" "$out/oshmem_r$r.csv"
    log_to_csv oshmem oshmem_r$r; }
  run symmem_r$r env BENCH_IMPL=symmem "${sym[@]}" --hosts "$A:1,$B:1" "$build/bench/shmem_bench" "$out/symmem_r$r.csv"
  [ "$oshmem" = 0 ] || run coll_oshmem_r$r env COLL_BENCH_IMPL=oshmem COLL_BENCH_CSV="$out/coll_oshmem_r$r.csv" "${osh[@]}" \
    $(osh_place 2) -x COLL_BENCH_IMPL -x COLL_BENCH_CSV -np 4 --host "$A:2,$B:2" "$out/coll_bench_oshmem"
  run coll_symmem_r$r env COLL_BENCH_IMPL=symmem COLL_BENCH_CSV="$out/coll_symmem_r$r.csv" "${sym[@]}" \
    --hosts "$A:2,$B:2" "$build/bench/coll_bench"
  [ "$oshmem" = 0 ] || run coll_oshmem_1x1_r$r env COLL_BENCH_IMPL=oshmem COLL_BENCH_CSV="$out/coll_oshmem_1x1_r$r.csv" "${osh[@]}" \
    $(osh_place 1) -x COLL_BENCH_IMPL -x COLL_BENCH_CSV -np 2 --host "$A:1,$B:1" "$out/coll_bench_oshmem"
  run coll_symmem_1x1_r$r env COLL_BENCH_IMPL=symmem COLL_BENCH_CSV="$out/coll_symmem_1x1_r$r.csv" "${sym[@]}" \
    --hosts "$A:1,$B:1" "$build/bench/coll_bench"
  run coll_symmem14_1x1_r$r env COLL_BENCH_IMPL=symmem-1.4 COLL_BENCH_CSV="$out/coll_symmem14_1x1_r$r.csv" "${sym[@]}" \
    --hosts "$A:1,$B:1" "$out/coll_bench_symmem14"
  seg=${UCX_TCP_TX_SEG_SIZE:-256k}
  for t in "ucp_put_lat 8" "ucp_get 8" "ucp_fadd 8" "ucp_put_bw 1048576"; do
    set -- $t
    # The transport as symmem configures it: UCX's TCP segments of 256 KiB (ucx_plugin.cpp).
    UCX_TCP_TX_SEG_SIZE=$seg UCX_TCP_RX_SEG_SIZE=$seg ip netns exec "$A" ucx_perftest -t "$1" -s "$2" -n 20000 >/dev/null 2>&1 &
    server=$!
    sleep 0.5
    echo "$1,$2,$(UCX_TCP_TX_SEG_SIZE=$seg UCX_TCP_RX_SEG_SIZE=$seg ip netns exec "$B" ucx_perftest "${NETNS_ADDRS%% *}" -t "$1" -s "$2" -n 20000 2>&1 |
      awk '/Final:/ { print $3 "," $4 "," $6 }')" >>"$out/perftest_r$r.csv"  # typical lat, avg lat, MB/s
    wait "$server"
  done
  for f in oshmem_r$r symmem_r$r; do [ -s "$out/$f.csv" ] && csvs+=("$out/$f.csv"); done
done
py=python3
command -v /usr/bin/python3 >/dev/null && /usr/bin/python3 -c 'import matplotlib' 2>/dev/null && py=/usr/bin/python3
{
  echo "### shmem_bench across two hosts (median of $rounds rounds)"
  "$py" "$here/compare.py" --base oshmem --new symmem --out "$out" --no-plot "${csvs[@]}"
  echo
  echo "### coll_bench, 2 hosts x 2 PEs, and ucx_perftest"
  "$py" "$here/compare_net.py" "$out"
} | tee "$out/comparison.txt"
