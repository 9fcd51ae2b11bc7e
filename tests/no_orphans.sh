#!/bin/sh
# After a job that is stopped (timeout, a dead PE, SIGINT to the launcher), no PE process and no
# file in /dev/shm may be left behind.
run=$1
marker=$(( $(date +%s) % 100000 + 424242 ))
# Only symmem's names count: tests running beside this one (OpenMPI, PMIx) create and remove their
# own files in /dev/shm meanwhile, which made the count differ now and then.
shm_files() { ls /dev/shm 2>/dev/null | grep -c symmem; }
shm_before=$(shm_files)
"$run" -n 3 --timeout 1 sleep "$marker" >/dev/null 2>&1
[ $? -eq 124 ] || { echo "timeout did not give 124"; exit 1; }
sleep 0.2
if pgrep -f "sleep $marker" >/dev/null; then echo "orphans after --timeout:"; pgrep -af "sleep $marker"; exit 1; fi
# SIGTERM to the launcher is forwarded; the launcher exits 143 and nothing stays. (SIGINT is the
# same path, but a non-interactive shell starts background jobs with SIGINT ignored, and the
# launcher, like a shell, keeps an ignored signal ignored.)
"$run" -n 3 sleep "$((marker + 1))" >/dev/null 2>&1 &
lp=$!
sleep 0.5
kill -TERM "$lp"
wait "$lp"
rc=$?
[ "$rc" -eq 143 ] || { echo "SIGTERM: launcher exited $rc, expected 143"; exit 1; }
sleep 0.2
if pgrep -f "sleep $((marker + 1))" >/dev/null; then echo "orphans after SIGTERM"; exit 1; fi
# the launcher SIGKILLed: PR_SET_PDEATHSIG takes the PEs down with it
"$run" -n 3 sleep "$((marker + 2))" >/dev/null 2>&1 &
lp=$!
sleep 0.5
kill -KILL "$lp"
wait "$lp" 2>/dev/null
sleep 0.3
if pgrep -f "sleep $((marker + 2))" >/dev/null; then echo "orphans after the launcher was killed"; exit 1; fi
shm_after=$(shm_files)
[ "$shm_before" -eq "$shm_after" ] || { echo "files left in /dev/shm"; exit 1; }
echo "no orphans, no leftover files"
