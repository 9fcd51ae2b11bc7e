#!/bin/sh
# mh_faults.sh SYMMEM_RUN MH_LOOP: a host breaks under a running job (run under netns.sh, 2 hosts).
#  1. every PE of the second host is killed: the job stops within seconds, naming one of them;
#  2. the second host's link goes down: no process dies, but the PEs' waits end by their limit
#     (SYMMEM_WAIT_TIMEOUT=4), naming what each waited for and the PEs on other hosts that no
#     longer answer; the job ends by itself (never the launcher's --timeout: that would be a hang).
# netns.sh fails the test when any process is left in a namespace afterwards.
run=$1
loop=$2
set -- $NETNS_HOSTS
h0=$1
h1=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
failures=0
fail() { echo "FAIL: $*"; echo "---- output"; cat "$out"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
now_ms() { date +%s%3N; }
running() {  # waits (at most 20 s) until all 4 PEs said they run
  for _ in $(seq 1 200); do
    [ "$(grep -c ' running$' "$out")" -ge 4 ] && return 0
    sleep 0.1
  done
  return 1
}

# 1. Kill every PE of host 1.
"$run" -t --timeout 60 --hosts "$h0:2,$h1:2" --launch-agent "$NETNS_AGENT" "$loop" 50 >"$out" 2>&1 &
job=$!
running || echo "the job did not start"
victims=$(for pid in $(ip netns pids "$h1"); do
  [ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" = "$loop 50 " ] && echo "$pid"; done)
t0=$(now_ms)
[ -n "$victims" ] && kill -9 $victims
wait "$job"
rc=$?
dt=$(( $(now_ms) - t0 ))
# Two detectors race: host 1's agent reports the killed PEs to the launcher, and host 0's PEs see
# their UCX endpoints to them fail; whichever is first ends the job, and either names PE 2 or 3.
# (10 s: the CI machine has 2 cores and runs tests side by side; alone it takes 10 ms to 1 s.)
grep -Eq "PE [23] \(pid [0-9]+ on host $h1\) was killed by signal 9|PE [01]: .*: PE [23] is unreachable" "$out" &&
  [ "$rc" != 0 ] && [ "$dt" -lt 10000 ] &&
  pass "every PE of host $h1 killed: named, job stopped in $dt ms" || fail "PEs of one host killed (exit $rc, $dt ms)"

# 2. Host 1's link goes down mid-run.
SYMMEM_WAIT_TIMEOUT=4 "$run" -t --timeout 60 --hosts "$h0:2,$h1:2" --launch-agent "$NETNS_AGENT" "$loop" 50 >"$out" 2>&1 &
job=$!
running || echo "the job did not start"
t0=$(now_ms)
ip -n "$h1" link set veth0 down
wait "$job"
rc=$?
dt=$(( $(now_ms) - t0 ))
grep -Eq "waited 4 s for .*; PEs? [0-9,]+ on other hosts do(es)? not answer over the network within 1 s" "$out" &&
  [ "$rc" != 0 ] && ! grep -q "job passed --timeout" "$out" &&
  pass "link of host $h1 down: the PEs ended in $dt ms naming who they waited for" ||
  fail "link down (exit $rc, $dt ms)"
ip -n "$h1" link set veth0 up

[ "$failures" = 0 ] && { echo PASS; exit 0; }
echo "FAIL: $failures cases"
exit 1
