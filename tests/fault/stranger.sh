#!/bin/sh
# Strangers attack the job's sockets during init (tests/fault/stranger.c): another user (created
# here when run as root, removed at the end) and then a process of the job's own user that is not
# a PE connect to every symmem socket the moment it appears and send half a hello. Every job must
# still start and finish, within its normal time, and the PEs must log the refused connections.
# Before the fix one foreign connection failed init in most starts, and a half hello hung it.
# Only this test's jobs are attacked (stranger.c): jobs of others on the machine are left alone.
# Usage: stranger.sh SYMMEM_RUN STRANGER PROGRAM [JOBS]
run=$1 stranger=$2 prog=$3 jobs=${4:-12}
user=symmem-stranger
made_user=no
spid=""
cleanup() {
  [ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
  [ "$made_user" = yes ] && userdel "$user" 2>/dev/null
}
trap cleanup EXIT INT TERM

attack_round() {  # LABEL [UID GID]
  label=$1; shift
  out=$(mktemp)
  pidfile=$(mktemp)
  chmod 644 "$pidfile"
  "$stranger" 600 "$pidfile" "$@" > "$out.stranger" 2>&1 &
  spid=$!
  sleep 0.2
  i=0 refused=0 at_launcher=0
  while [ "$i" -lt "$jobs" ]; do
    t0=$(date +%s.%N)
    SYMMEM_BOOTSTRAP_TIMEOUT=20 "$run" -n 4 --timeout 40 "$prog" > "$out" 2>&1 &
    echo $! > "$pidfile"  # the stranger attacks this job only (its launcher and PEs)
    if ! wait $!; then
      cat "$out"; echo "FAIL ($label): job $i did not succeed with a stranger at the door"; rm -f "$out"*; return 1
    fi
    t1=$(date +%s.%N)
    if awk -v a="$t0" -v b="$t1" 'BEGIN { exit !(b - a > 15) }'; then
      cat "$out"; echo "FAIL ($label): job $i took over 15 s"; rm -f "$out"*; return 1
    fi
    grep -q "refused a connection" "$out" && refused=$((refused + 1))
    grep -q "refused a connection to the launcher socket" "$out" && at_launcher=$((at_launcher + 1))
    i=$((i + 1))
  done
  kill "$spid" 2>/dev/null; wait "$spid" 2>/dev/null; spid=""
  cat "$out.stranger"
  grep "refused a connection" "$out" | head -2
  rm -f "$out"* "$pidfile"
  echo "$label: $jobs jobs succeeded; in $refused of them a PE or the launcher refused the stranger"
  [ "$refused" -gt 0 ] || { echo "FAIL ($label): the stranger never reached a socket during init"; return 1; }
  # Another user's connection to the launcher's socket is refused with a line saying so (before:
  # dropped in silence). A same-user process passes that uid check.
  if [ $# -gt 0 ] && [ "$at_launcher" = 0 ]; then
    echo "FAIL ($label): the launcher never logged the refused connection"; return 1
  fi
}

if [ "$(id -u)" = 0 ]; then
  if ! id "$user" > /dev/null 2>&1; then
    useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || { echo "cannot create $user"; exit 1; }
    made_user=yes
  fi
  attack_round "another user" "$(id -u "$user")" "$(id -g "$user")" || exit 1
else
  echo "not root: the other-user round is skipped (it needs a second user); the same-user round runs"
fi
attack_round "same user, not a PE" || exit 1
echo "PASS"
