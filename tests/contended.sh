#!/bin/sh
# contended.sh -- COMMAND ARGS...: runs COMMAND while busy processes (one more than the machine's
# CPUs) compete for every CPU, as other programs do on a shared machine; stops them afterwards and
# exits with COMMAND's status.
[ "$1" = "--" ] && shift
n=$(($(nproc) + 1))
pids=""
i=0
while [ "$i" -lt "$n" ]; do
  sh -c 'while :; do :; done' &
  pids="$pids $!"
  i=$((i + 1))
done
trap 'kill $pids 2>/dev/null' EXIT INT TERM
"$@"
rc=$?
kill $pids 2>/dev/null
wait 2>/dev/null
exit $rc
