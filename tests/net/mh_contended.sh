#!/bin/sh
# mh_contended.sh HOSTS PES_PER_HOST PROGRAM [ARGS...]: runs PROGRAM through mh_run.sh while a
# busy loop on every CPU competes with the PEs (another program, a build beside the job). The waits
# then find their yields slow and sleep on the network instead (core/sync.cpp, give_up_core);
# SYMMEM_DEBUG=info makes each PE say so once, and the program's own checks (exact totals,
# ordering) must hold on that path too. Exit status: the job's.
here=$(cd "$(dirname "$0")" && pwd)
loops=""
cpus=$(nproc 2>/dev/null || echo 2)
i=0
while [ "$i" -lt "$cpus" ]; do
  taskset -c "$i" sh -c 'while :; do :; done' &
  loops="$loops $!"
  i=$((i + 1))
done
trap 'kill $loops 2>/dev/null' EXIT
SYMMEM_DEBUG=info "$here/mh_run.sh" "$@"
