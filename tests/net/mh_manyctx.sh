#!/bin/sh
# mh_manyctx.sh RUNS PROGRAM: runs PROGRAM (mh_manyctx) RUNS times as 2 hosts x 2 PEs; the finalize
# hang it checks for came about one run in three, so one run would rarely show it.
runs=$1
prog=$2
here=$(cd "$(dirname "$0")" && pwd)
i=0
while [ "$i" -lt "$runs" ]; do
  i=$((i + 1))
  "$here/mh_run.sh" 2 2 "$prog"
  rc=$?
  [ "$rc" = 77 ] && exit 77
  [ "$rc" = 0 ] || { echo "mh_manyctx.sh: run $i of $runs failed (status $rc)"; exit 1; }
done
echo "mh_manyctx.sh: $runs runs ok"
