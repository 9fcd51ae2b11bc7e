#!/usr/bin/env bash
# first_op.sh: bench/first_op.c (a PE's first put + quiet, get and fetch-add on a PE of another host
# right after init, and on new contexts, against warm ones; fetch-adds on a PE in its first
# reduction, and that reduction's own time, against a later one) on symmem and on OpenMPI's OSHMEM, across two hosts emulated
# with network namespaces (tests/net/netns.sh), one PE per host, UCX over TCP for both, alternating
# round by round. Needs root and oshcc.
#
# usage: bench/first_op.sh [--rounds R] [--out DIR] [--build DIR]
#   --rounds R   runs of each library (default 5); the table gives medians
#   --out DIR    results (default bench/results/first-op-<date>-<time>): runs.csv, table.txt,
#                first_op.png (when matplotlib is there)
#   --build DIR  the symmem build directory (default <repo>/build-bench, built here if needed)
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
rounds=5 out="" build="$repo/build-bench"
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --rounds) rounds=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "first_op.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] || out="$repo/bench/results/first-op-$(date +%Y%m%d-%H%M%S)"

if [ -z "${NETNS_HOSTS:-}" ]; then
  mkdir -p "$out" || exit 1
  out=$(cd "$out" && pwd)
  echo "### building symmem (Release, CPU only) in $build"
  cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=Release -DSYMMEM_CUDA=OFF -DSYMMEM_BUILD_TESTS=OFF >"$out/cmake.log" 2>&1 &&
    cmake --build "$build" -j"$(nproc)" --target first_op symmem-run symmem_net_ucx >"$out/make.log" 2>&1 ||
    { echo "ERROR: the symmem build failed (see $out/make.log)" >&2; exit 1; }
  oshcc -O2 "$here/first_op.c" -o "$out/first_op_oshmem" || { echo "ERROR: oshcc could not build first_op.c" >&2; exit 1; }
  exec "$repo/tests/net/netns.sh" -n 2 "$0" "${args[@]}" --out "$out" --build "$build"
fi

set -- $NETNS_HOSTS
A=$1 B=$2
export SHMEM_SYMMETRIC_HEAP_SIZE=512M
printf 'rank 0=%s slot=0\nrank 1=%s slot=1\n' "$A" "$B" >"$out/rankfile"
. "$here/oshmem_netns.sh"
oshmem_netns_cmd "$A"
osh+=(--rankfile "$out/rankfile" -np 2 --host "$A:1,$B:1")
sym=("$build/tools/symmem-run" --launch-agent "$NETNS_AGENT" --hosts "$A:1,$B:1")
echo "library,round,op,first_us,warm_us" >"$out/runs.csv"
for r in $(seq 1 "$rounds"); do
  timeout 60 "${osh[@]}" "$out/first_op_oshmem" 2>&1 | grep -E '^[a-z0-9_+]+,[0-9]' | sed "s/^/oshmem,$r,/" >>"$out/runs.csv"
  pkill -9 -f "$out/first_op_oshmem" 2>/dev/null
  timeout 60 "${sym[@]}" "$build/bench/first_op" 2>&1 | grep -E '^[a-z0-9_+]+,[0-9]' | sed "s/^/symmem,$r,/" >>"$out/runs.csv"
done
# The first python3 on PATH may lack matplotlib while Debian's /usr/bin/python3 has it: the plot
# comes from whichever imports it (the table from either).
py=python3
for c in python3 /usr/bin/python3; do
  if "$c" -c 'import matplotlib' 2>/dev/null; then py=$c; break; fi
done
"$py" - "$out" <<'PY'
import csv, statistics, sys, os
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "runs.csv"))))
order = ["long_p+quiet", "long_g", "int_fetch_add", "ctx_long_p+quiet", "ctx_again_long_p+quiet", "int_fetch_add_in_reduce", "double_sum_to_all", "long_sum_to_all_64k"]
ops = sorted({r["op"] for r in rows}, key=lambda o: order.index(o) if o in order else 9)
def med(lib, op, col):
    v = [float(r[col]) for r in rows if r["library"] == lib and r["op"] == op]
    return (statistics.median(v), min(v), max(v), len(v)) if v else None
lines = ["%-24s %-8s %26s %26s" % ("operation", "library", "first (us): median [min-max]", "warm (us): median [min-max]")]
for op in ops:
    for lib in ("oshmem", "symmem"):
        f, w = med(lib, op, "first_us"), med(lib, op, "warm_us")
        if f: lines.append("%-24s %-8s %10.1f [%6.1f-%7.1f] %12.2f [%5.2f-%6.2f]" % (op, lib, f[0], f[1], f[2], w[0], w[1], w[2]))
text = "\n".join(lines) + "\n(%d runs of each library, alternating)\n" % max(med(l, ops[0], "first_us")[3] for l in ("oshmem", "symmem") if med(l, ops[0], "first_us"))
open(os.path.join(out, "table.txt"), "w").write(text)
print(text, end="")
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(10, 3.8))
    x = range(len(ops))
    for i, lib in enumerate(("oshmem", "symmem")):
        ax.bar([k + 0.38 * i for k in x], [med(lib, op, "first_us")[0] for op in ops], 0.38, label=lib + " first")
    ax.set_xticks([k + 0.19 for k in x]); ax.set_xticklabels(ops, fontsize=8); ax.set_ylabel("us (median)")
    ax.set_yscale("log")
    ax.set_title("first operation on a PE of another host after init"); ax.legend()
    fig.tight_layout(); fig.savefig(os.path.join(out, "first_op.png"), dpi=100)
except Exception as e:
    print("(no plot: %s)" % e)
PY
