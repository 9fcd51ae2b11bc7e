#!/bin/sh
# launch_hosts.sh SYMMEM_RUN MH_HELLO: symmem-run --hosts over emulated hosts (run under netns.sh,
# which provides NETNS_HOSTS and NETNS_AGENT and fails when a process is left in a namespace).
# Each case checks what a user relies on: the job forms across hosts, output is tagged, exit
# statuses come back, a PE or a whole host that dies is named and the job stops within about a
# second, signals reach every host, nothing is left behind, and hosts that are one machine do not
# pin their PEs to the same CPU and count the machine's PEs.
run=$1
hello=$2
set -- $NETNS_HOSTS
h0=$1
h1=$2
out=$(mktemp)
trap 'rm -f "$out" "$out.hosts"' EXIT
failures=0
fail() { echo "FAIL: $*"; echo "---- output"; cat "$out"; failures=$((failures + 1)); }
pass() { echo "ok: $*"; }
now_ms() { date +%s%3N; }
# A prompt stop: alone these take 10 to 300 ms; the CI machine has 2 cores and runs tests side by
# side, so the limit is wide, yet far below any wait limit (a hang would show as 60 s or more).
prompt_ms=8000
# The pids of the processes of host $1 whose command line is $2.
find_pids() {
  for pid in $(ip netns pids "$1"); do
    [ "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)" = "$2 " ] && echo "$pid"
  done
}
# Waits (at most 5 s) until host $1 runs such a process; prints their pids.
pids_in() {
  for _ in $(seq 1 50); do
    p=$(find_pids "$1" "$2")
    [ -n "$p" ] && { echo "$p"; return; }
    sleep 0.1
  done
}
agent="$NETNS_AGENT"

# 1. A symmem job of 2 hosts x 2 PEs: init, allocation and barriers across hosts, tagged output.
"$run" -t --timeout 60 --hosts "$h0:2,$h1:2" --launch-agent "$agent" "$hello" 2 >"$out" 2>&1
rc=$?
ok=yes
for r in 0 1 2 3; do grep -q "^\[PE $r\] PE $r of 4 ok: bootstrap launcher, 2 PEs mapped, 4 reached" "$out" || ok=no; done
[ "$rc" = 0 ] && [ "$ok" = yes ] && pass "2 hosts x 2 PEs: job formed, output tagged" || fail "2x2 job (exit $rc)"

# 2. A host file, -n smaller than the slots: PEs fill the first host first.
printf '# two hosts\n%s slots=3\n%s:2   # the rest\n' "$h0" "$h1" >"$out.hosts"
"$run" -t -n 4 --hostfile "$out.hosts" --launch-agent "$agent" sh -c 'echo "rank $SYMMEM_LAUNCHER_RANK on $SYMMEM_LAUNCHER_HOST"' >"$out" 2>&1
rc=$?
grep -q "^\[PE 2\] rank 2 on $h0\$" "$out" && grep -q "^\[PE 3\] rank 3 on $h1\$" "$out" && [ "$rc" = 0 ] &&
  pass "host file: slots filled in order" || fail "host file placement (exit $rc)"

# 3. A PE that fails on the second host: its status is the job's, it is named with its host, and
#    the PEs still running elsewhere are stopped at once.
t0=$(now_ms)
"$run" --hosts "$h0:2,$h1:2" --launch-agent "$agent" sh -c '[ $SYMMEM_LAUNCHER_RANK = 3 ] && exit 3; exec sleep 30' >"$out" 2>&1
rc=$?
dt=$(( $(now_ms) - t0 ))
grep -Eq "PE 3 \(pid [0-9]+ on host $h1\) exited with status 3" "$out" && [ "$rc" = 3 ] && [ "$dt" -lt "$prompt_ms" ] &&
  pass "failing remote PE named, job stopped in $dt ms" || fail "failing remote PE (exit $rc, $dt ms)"

# 4. Every PE of one host killed from outside: named, the job stops within about a second.
"$run" --hosts "$h0:2,$h1:2" --launch-agent "$agent" sleep 41 >"$out" 2>&1 &
job=$!
victims=$(pids_in "$h1" "sleep 41")
t0=$(now_ms)
[ -n "$victims" ] && kill -9 $victims
wait "$job"
rc=$?
dt=$(( $(now_ms) - t0 ))
grep -Eq "PE [23] \(pid [0-9]+ on host $h1\) was killed by signal 9" "$out" && [ "$rc" = 137 ] && [ "$dt" -lt "$prompt_ms" ] &&
  pass "every PE of host $h1 killed: named, stopped in $dt ms" || fail "PEs of one host killed (exit $rc, $dt ms)"

# 5. The whole host gone: its agent killed. Its PEs die with it (no orphan: netns.sh checks),
#    the head names the host and its PEs, and stops the rest.
"$run" --hosts "$h0:2,$h1:2" --launch-agent "$agent" sleep 42 >"$out" 2>&1 &
job=$!
pids_in "$h1" "sleep 42" >/dev/null
agent_pid=$(for pid in $(ip netns pids "$h1"); do
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q -- '--host-agent' && echo "$pid"; done)
t0=$(now_ms)
[ -n "$agent_pid" ] && kill -9 $agent_pid
wait "$job"
rc=$?
dt=$(( $(now_ms) - t0 ))
grep -q "host $h1 lost with PEs 2,3: its agent (.*--host-agent) was killed by signal 9" "$out" && [ "$rc" != 0 ] &&
  [ "$dt" -lt "$prompt_ms" ] && pass "host lost: named, stopped in $dt ms" || fail "host lost (exit $rc, $dt ms)"

# 6. SIGTERM to the launcher reaches the PEs of every host; it exits 143.
"$run" --hosts "$h0:1,$h1:1" --launch-agent "$agent" sleep 43 >"$out" 2>&1 &
job=$!
pids_in "$h1" "sleep 43" >/dev/null
kill -TERM "$job"
wait "$job"
rc=$?
[ "$rc" = 143 ] && pass "SIGTERM forwarded to every host" || fail "SIGTERM (exit $rc)"

# 7. --timeout across hosts: 124, naming the PEs still running.
"$run" --timeout 1 --hosts "$h0:1,$h1:1" --launch-agent "$agent" sleep 44 >"$out" 2>&1
rc=$?
grep -q "PEs still running: 0 1" "$out" && [ "$rc" = 124 ] && pass "--timeout" || fail "--timeout (exit $rc)"

# 8. A launch agent that cannot start anything: the host is named, the job ends at once.
t0=$(now_ms)
"$run" --hosts "$h0:1,nosuchhost:1" --launch-agent "$agent" sleep 45 >"$out" 2>&1
rc=$?
dt=$(( $(now_ms) - t0 ))
grep -q "host nosuchhost lost with PE 1: its agent (ip netns exec nosuchhost .*) exited with status" "$out" &&
  [ "$rc" != 0 ] && [ "$dt" -lt "$prompt_ms" ] && pass "unreachable host named in $dt ms" || fail "bad host (exit $rc)"

# 9. The launcher itself SIGKILLed: every agent sees its channel close and takes its PEs down.
"$run" --hosts "$h0:1,$h1:1" --launch-agent "$agent" sleep 46 >"$out" 2>&1 &
job=$!
pids_in "$h1" "sleep 46" >/dev/null
kill -9 "$job"
wait "$job" 2>/dev/null
left=""
for _ in $(seq 1 30); do
  left=$(find_pids "$h0" "sleep 46"; find_pids "$h1" "sleep 46")
  [ -z "$left" ] && break
  sleep 0.1
done
[ -z "$left" ] && pass "launcher killed: no PE left on any host" || fail "PEs left after the launcher was killed: $left"

# 10. The default launch agent, ssh: a stand-in that does what ssh does (a fresh environment, the
#     words after the host joined and run by a shell on the host) checks the quoting and that
#     SYMMEM_*, UCX_* and -x variables reach the PEs.
bin=$(mktemp -d)
cat >"$bin/ssh" <<'SSH'
#!/bin/sh
while [ "$1" = -o ]; do shift 2; done
host=$1; shift
exec env -i PATH="$PATH" ip netns exec "$host" sh -c "$*"
SSH
chmod +x "$bin/ssh"
PATH="$bin:$PATH" SYMMEM_TEST_FORWARDED=yes UCX_TEST_FORWARDED=yes "$run" -t -x EXTRA="a b" --hosts "$h0:1,$h1:1" \
  sh -c 'echo "$SYMMEM_LAUNCHER_RANK $SYMMEM_TEST_FORWARDED $UCX_TEST_FORWARDED $EXTRA"' >"$out" 2>&1
rc=$?
rm -rf "$bin"
grep -q '^\[PE 1\] 1 yes yes a b$' "$out" && grep -q '^\[PE 0\] 0 yes yes a b$' "$out" && [ "$rc" = 0 ] &&
  pass "ssh agent: command quoted, environment forwarded" || fail "ssh agent (exit $rc)"

# 11. Hosts that are one machine (these namespaces share the kernel and its CPUs) share its CPUs:
#     with --bind-to core, the PEs of the two hosts are pinned to two different CPUs, not both to
#     the first (which made every remote round trip wait for a context switch).
if [ "$(nproc)" -ge 2 ]; then
  "$run" -t --bind-to core --hosts "$h0:1,$h1:1" --launch-agent "$agent" \
    sh -c 'sed -n "s/^Cpus_allowed_list:[[:space:]]*/cpus /p" /proc/self/status' >"$out" 2>&1
  rc=$?
  c0=$(sed -n 's/^\[PE 0\] cpus //p' "$out")
  c1=$(sed -n 's/^\[PE 1\] cpus //p' "$out")
  [ "$rc" = 0 ] && [ -n "$c0" ] && [ -n "$c1" ] && [ "$c0" != "$c1" ] &&
    pass "hosts on one machine: PEs bound to CPUs $c0 and $c1" || fail "CPU binding across hosts of one machine (exit $rc, CPUs '$c0' '$c1')"
else
  echo "skipped: CPU binding across hosts of one machine (one CPU here)"
fi

# 12. CUDA's lazy loading deadlocks a GPU heap across hosts (docs/multihost.md): the PEs of a job
#     across hosts load eagerly, unless the user chose (then the choice reaches every host).
show='echo "loading=${CUDA_MODULE_LOADING-unset} on $SYMMEM_LAUNCHER_HOST"'
env -u CUDA_MODULE_LOADING "$run" -t --hosts "$h0:1,$h1:1" --launch-agent "$agent" sh -c "$show" >"$out" 2>&1
rc=$?
grep -q "^\[PE 0\] loading=EAGER on $h0\$" "$out" && grep -q "^\[PE 1\] loading=EAGER on $h1\$" "$out" && [ "$rc" = 0 ] &&
  pass "CUDA_MODULE_LOADING=EAGER on every host" || fail "eager loading across hosts (exit $rc)"
CUDA_MODULE_LOADING=LAZY "$run" -t --hosts "$h0:1,$h1:1" --launch-agent "$agent" sh -c "$show" >"$out" 2>&1
rc=$?
grep -q "^\[PE 1\] loading=LAZY on $h1\$" "$out" && [ "$rc" = 0 ] &&
  pass "the user's CUDA_MODULE_LOADING kept" || fail "the user's CUDA_MODULE_LOADING (exit $rc)"

# 13. Hosts that are one machine count as one for the PEs' waits: each PE counts all 4 PEs of the
#     machine, not its host's 2 (with 2 CPUs, counting 2 left every wait spinning a time slice before
#     it gave its core to the PE it waited for; BENCHMARKS.md).
SYMMEM_DEBUG=info "$run" -t --hosts "$h0:2,$h1:2" --launch-agent "$agent" "$hello" 2 >"$out" 2>&1
rc=$?
n=$(grep -c "4 PEs on this machine share" "$out")
[ "$rc" = 0 ] && [ "$n" = 4 ] && pass "every PE counts the machine's 4 PEs" ||
  fail "PEs per machine across hosts of one machine (exit $rc, $n of 4 PEs counted 4)"

[ "$failures" = 0 ] && { echo PASS; exit 0; }
echo "FAIL: $failures cases"
exit 1
