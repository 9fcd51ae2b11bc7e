#!/bin/sh
# symmem-run takes the options that say the same thing in Open MPI's oshrun/mpirun and in Hydra's
# mpiexec/nvshmrun, so their users' scripts run unchanged; placements it cannot honour are
# refused with a message, never silently ignored. Each PE prints its rank, the job size and an
# exported variable.
run=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
fail() { echo "FAIL: $*"; exit 1; }
probe() { "$run" --timeout 20 "$@" sh -c 'echo "$SYMMEM_LAUNCHER_RANK/$SYMMEM_LAUNCHER_SIZE ${V:--}"' 2>&1; }
want() {  # want "EXPECTED OUTPUT (sorted, one line)" ARGS...
  exp=$1; shift
  got=$(probe "$@" | sort | tr '\n' ' ')
  [ "$got" = "$exp " ] || fail "symmem-run $*: got '$got', want '$exp'"
  echo "ok: $*"
}
refused() {  # refused "PART OF THE MESSAGE" ARGS...
  msg=$1; shift
  out=$("$run" --timeout 20 "$@" true 2>&1) && fail "symmem-run $* succeeded: $out"
  case $out in *"$msg"*) echo "ok: refused $*" ;; *) fail "symmem-run $*: message '$out' lacks '$msg'" ;; esac
}
want "0/2 - 1/2 -" -np 2
want "0/3 - 1/3 - 2/3 -" -c 3 --oversubscribe --allow-run-as-root --map-by core
want "0/2 x 1/2 x" -np 2 -genv V x
want "0/2 y 1/2 y" -np 2 -x V=y --map-by slot
want "0/2 - 1/2 -" -ppn 2
want "0/4 - 1/4 - 2/4 - 3/4 -" -N 4 -H localhost
want "0/3 - 1/3 - 2/3 -" -np 3 -hosts localhost:3
want "0/2 - 1/2 -" --npernode 2 --host localhost,localhost,localhost
want "0/2 - 1/2 -" -np 2 --map-by ppr:2:node -wdir /
out=$(cd /tmp && "$run" --timeout 20 -np 1 -wdir /proc sh -c pwd 2>&1)
[ "$out" = /proc ] || fail "-wdir /proc: the PE started in '$out'"
echo "ok: -wdir"
out=$("$run" --timeout 20 -np 1 --mca spml ucx sh -c true 2>&1) || fail "--mca: $out"
case $out in *"--mca spml ucx is an Open MPI setting; symmem ignores it"*) echo "ok: --mca noted" ;;
  *) fail "--mca spml ucx: no note in '$out'" ;; esac
refused "--map-by node: symmem-run places PEs by slot" -np 2 --map-by node
refused "-genv wants VAR VALUE (two words), not 'V=1'" -np 2 -genv V=1 x
refused "-ppn wants a number of PEs per host from 1 to 4096, not '0'" -ppn 0
refused "-n 3 but the hosts have 2 slots in all" -np 3 -H localhost,localhost
refused "--wdir /nonexistent" -np 1 -wdir /nonexistent
refused "-n wants a number of PEs from 1 to 4096, not 'x'" -np x
