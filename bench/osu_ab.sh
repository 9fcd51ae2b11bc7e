#!/usr/bin/env bash
# osu_ab.sh: OSU's OpenSHMEM programs, unchanged, on several builds of symmem (and OSHMEM) in one
# run across two emulated hosts, alternating round by round: one binary per program, each build's
# libraries swapped under it with LD_LIBRARY_PATH. For before/after figures of one change, where
# bench/osu_net.sh compares one build with OSHMEM. Needs root, oshcc, an OSU source tree.
#
# usage: bench/osu_ab.sh --osu DIR --out DIR [--rounds R] [--per-host K] [--no-oshmem] \
#          PROGRAM[:ARG]... -- NAME=LIBDIR...
#   PROGRAM    osu_oshm_PROGRAM (put, get, reduce, broadcast, atomics, ...); :ARG its argument
#              (put:heap, get:global)
#   NAME=LIBDIR  a build: LIBDIR holds libsymmem.so, libsymmem-shmem.so, the plugin folder
#              symmem/ and symmem-run (copy them from BUILD/src, BUILD/src/symmem and
#              BUILD/tools); LIBDIR/env, when present, is sourced before its runs (e.g.
#              `export SYMMEM_NET_HEAP=staged`)
#   --per-host K  PEs per host (default 1); OSHMEM's ranks are bound one per CPU in turn
# Output: DIR/NAME_PROGRAM_rR.txt and DIR/oshmem_PROGRAM_rR.txt, OSU's own tables.
set -u -o pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/.." && pwd)
if [ -z "${NETNS_HOSTS:-}" ]; then
  osu="" out="" rounds=3 pph=1 osh=1 progs=() builds=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --osu) osu=$2; shift 2 ;;
      --out) out=$2; shift 2 ;;
      --rounds) rounds=$2; shift 2 ;;
      --per-host) pph=$2; shift 2 ;;
      --no-oshmem) osh=0; shift ;;
      --) shift; builds=("$@"); break ;;
      -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
      *) progs+=("$1"); shift ;;
    esac
  done
  [ -n "$osu" ] && [ ! -f "$osu/openshmem/osu_oshm_put.c" ] && [ -f "$osu/c/openshmem/osu_oshm_put.c" ] && osu=$osu/c
  [ -n "$osu" ] && [ -f "$osu/openshmem/osu_oshm_put.c" ] && [ -n "$out" ] && [ ${#progs[@]} -gt 0 ] &&
    [ ${#builds[@]} -gt 0 ] || { echo "usage: osu_ab.sh --osu DIR --out DIR [options] PROGRAM... -- NAME=LIBDIR... (see --help)" >&2; exit 2; }
  mkdir -p "$out/bin" || exit 1
  out=$(cd "$out" && pwd)
  first=${builds[0]#*=}
  common=$(ls "$osu"/openshmem/osu_common.c 2>/dev/null)
  [ -n "$common" ] || common=$(ls "$osu"/util/osu_util.c "$osu"/util/osu_util_pgas.c 2>/dev/null)
  for p in "${progs[@]}"; do
    p=${p%%:*}
    f=$osu/openshmem/osu_oshm_$p.c
    if [ "$osh" = 1 ]; then
      oshcc -O2 -w -I"$osu/openshmem" -I"$osu/util" "$f" $common -o "$out/bin/o_$p" -lm || exit 1
    fi
    cc -O2 -w -I"$osu/openshmem" -I"$osu/util" -I"$repo/include" -I"$repo/build-bench/include" "$f" $common \
      -o "$out/bin/s_$p" -L"$first" -lsymmem-shmem -lsymmem -lm || exit 1
  done
  export AB_OUT=$out AB_ROUNDS=$rounds AB_PPH=$pph AB_OSH=$osh AB_PROGS="${progs[*]}" AB_BUILDS="${builds[*]}"
  exec "$repo/tests/net/netns.sh" -n 2 "$0"
fi

set -- $NETNS_HOSTS
A=$1 B=$2
pph=$AB_PPH out=$AB_OUT
export SHMEM_SYMMETRIC_SIZE=512M SHMEM_SYMMETRIC_HEAP_SIZE=512M
. "$here/oshmem_netns.sh"
oshmem_netns_cmd "$A"
np=$((2 * pph))
cpus=$(nproc)
: >"$out/rankfile"
for i in $(seq 0 $((np - 1))); do
  h=$A
  [ "$i" -ge "$pph" ] && h=$B
  echo "rank $i=$h slot=$((i % cpus))" >>"$out/rankfile"
done
osh+=(--rankfile "$out/rankfile" -np "$np" --host "$A:$pph,$B:$pph")
for r in $(seq 1 "$AB_ROUNDS"); do
  for p in $AB_PROGS; do
    tag=${p//:/_} prog=${p%%:*} arg=""
    [[ $p == *:* ]] && arg=${p#*:}
    if [ "$AB_OSH" = 1 ]; then
      timeout 240 "${osh[@]}" "$out/bin/o_$prog" $arg >"$out/oshmem_${tag}_r$r.txt" 2>&1
      pkill -9 -f "$out/bin/o_" 2>/dev/null  # a run stopped by the limit leaves PEs behind
    fi
    for b in $AB_BUILDS; do
      name=${b%%=*} dir=${b#*=}
      (
        [ -f "$dir/env" ] && . "$dir/env"
        LD_LIBRARY_PATH=$dir exec timeout 240 "$dir/symmem-run" --launch-agent "$NETNS_AGENT" \
          --hosts "$A:$pph,$B:$pph" "$out/bin/s_$prog" $arg >"$out/${name}_${tag}_r$r.txt" 2>&1
      )
      echo "round $r $tag $name: exit $?"
    done
  done
done
