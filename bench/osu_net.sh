#!/usr/bin/env bash
# osu_net.sh: OSU's OpenSHMEM micro-benchmarks, unchanged, on symmem and on OpenMPI's OSHMEM, across
# two hosts emulated with network namespaces (tests/net/netns.sh), one PE per host, both over UCX's
# TCP transport on the same veth pair (as bench/compare_net.sh). Needs root, oshcc, and a source
# tree of the OSU Micro-Benchmarks (any release with an openshmem/ folder: osu_oshm_put.c, ...);
# nothing of it is copied into symmem.
#
# usage: bench/osu_net.sh --osu DIR [--rounds R] [--out DIR] [--build DIR]
#   --osu DIR    the OSU Micro-Benchmarks source tree (its openshmem/ folder is built)
#   --rounds R   alternate OSHMEM and symmem R times per program (default 3); the comparison
#                takes each figure's median
#   --out DIR    results (default bench/results/osu-<date>-<time>): each run's output, comparison.txt
#   --build DIR  the symmem build directory (default <repo>/build-bench, built here if needed)
# Programs: put and get (heap and global), put_mr, atomics (heap and global), barrier, broadcast,
# collect, fcollect, reduce. Each run has 240 s. A ratio above 1 means symmem is faster (for
# Messages/s: has the higher rate). OSHMEM runs with UCX's default TCP segments (8 KiB), as its
# users run it, symmem with the 256 KiB ones it sets; export UCX_TCP_TX_SEG_SIZE and
# UCX_TCP_RX_SEG_SIZE to give both the same. The hosts' TCP congestion control (the machine's
# default, or NETNS_SYSCTL="net.ipv4.tcp_congestion_control=cubic": tests/net/netns.sh) changes the
# large collectives of both (docs/multihost.md); comparison.txt names the one in use.
set -u -o pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
osu=""
rounds=3
out=""
build="$repo/build-bench"
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --osu) osu="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --build) build="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "osu_net.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
# Releases from 7.0 keep the C programs under c/ (c/openshmem, c/util).
[ -n "$osu" ] && [ ! -f "$osu/openshmem/osu_oshm_put.c" ] && [ -f "$osu/c/openshmem/osu_oshm_put.c" ] && osu=$osu/c
[ -n "$osu" ] && [ -f "$osu/openshmem/osu_oshm_put.c" ] ||
  { echo "osu_net.sh: --osu DIR must be an OSU Micro-Benchmarks source tree (DIR/openshmem/osu_oshm_put.c, or DIR/c/openshmem/... from release 7.0)" >&2; exit 2; }
[ -n "$out" ] || out="$repo/bench/results/osu-$(date +%Y%m%d-%H%M%S)"
progs="put get put_mr atomics barrier broadcast collect fcollect reduce"

if [ -z "${NETNS_HOSTS:-}" ]; then
  mkdir -p "$out/oshmem" "$out/symmem" || exit 1
  osu=$(cd "$osu" && pwd)
  echo "### building symmem (Release, CPU only) in $build"
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSYMMEM_CUDA=OFF -DSYMMEM_BUILD_TESTS=OFF >"$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target symmem symmem_shmem symmem-run symmem_net_ucx >"$out/make.log" 2>&1 ||
    { echo "ERROR: the symmem build failed (see $out/make.log)" >&2; exit 1; }
  echo "### building OSU's OpenSHMEM programs from $osu/openshmem"
  src="$osu/openshmem"
  common=$(ls "$src"/osu_common.c 2>/dev/null)  # older releases; newer ones keep it in util/
  [ -n "$common" ] || common=$(ls "$osu"/util/osu_util.c "$osu"/util/osu_util_pgas.c 2>/dev/null)  # 7.x: both
  for p in $progs; do
    f="$src/osu_oshm_$p.c"
    oshcc -O2 -w -I"$src" -I"$osu/util" "$f" $common -o "$out/oshmem/osu_oshm_$p" -lm ||
      { echo "ERROR: oshcc could not build $f" >&2; exit 1; }
    cc -O2 -w -I"$src" -I"$osu/util" -I"$repo/include" -I"$build/include" "$f" $common -o "$out/symmem/osu_oshm_$p" \
      -L"$build/src" -lsymmem-shmem -lsymmem -Wl,-rpath,"$build/src" -lm ||
      { echo "ERROR: $f does not build against symmem" >&2; exit 1; }
  done
  exec "$repo/tests/net/netns.sh" -n 2 "$0" "${args[@]}" --out "$out" --build "$build"
fi

out=$(cd "$out" && pwd)
set -- $NETNS_HOSTS
A=$1
B=$2
export SHMEM_SYMMETRIC_SIZE=512M SHMEM_SYMMETRIC_HEAP_SIZE=512M
printf 'rank 0=%s slot=0\nrank 1=%s slot=1\n' "$A" "$B" >"$out/rankfile"
. "$here/oshmem_netns.sh"
oshmem_netns_cmd "$A"
osh+=(--rankfile "$out/rankfile" -np 2 --host "$A:1,$B:1")
sym=("$build/tools/symmem-run" --launch-agent "$NETNS_AGENT" --hosts "$A:1,$B:1")
for r in $(seq 1 "$rounds"); do
  for spec in "put heap" "put global" "get heap" "get global" "put_mr heap" "atomics heap" "atomics global" barrier \
              broadcast collect fcollect reduce; do
    set -- $spec
    tag=$1${2:+_$2}
    timeout 240 "${osh[@]}" "$out/oshmem/osu_oshm_$1" ${2:-} >"$out/oshmem_${tag}_r$r.txt" 2>&1
    o=$?
    pkill -9 -f "$out/oshmem/" 2>/dev/null  # a run stopped by the limit leaves PEs behind
    timeout 240 "${sym[@]}" "$out/symmem/osu_oshm_$1" ${2:-} >"$out/symmem_${tag}_r$r.txt" 2>&1
    echo "round $r $tag: OSHMEM exit $o, symmem exit $?"
  done
done
{ echo "TCP congestion control on the hosts: $(ip netns exec "$A" sysctl -n net.ipv4.tcp_congestion_control 2>/dev/null)"
  python3 "$here/osu_compare.py" "$out"; } | tee "$out/comparison.txt"
