#!/bin/sh
# symmem-run's CPU binding: each PE gets CPUs no other PE of the job gets; --bind-to auto shares
# the launcher's CPUs out in equal blocks (one PE: all of them, so its helper threads run beside
# it), core gives one CPU each, none and oversubscribed jobs leave the mask alone.
run=$1
cpus=$(nproc)
fail() { echo "FAIL: $*"; exit 1; }
# One line per PE: "<rank> <allowed CPUs> <their count> <CPUs the launcher shared out, or ->".
# The last tells a PE bound to a block whether the host's PEs outnumber the CPUs (its waits
# yield at once then).
probe() { "$run" --timeout 20 "$@" sh -c 'echo "$SYMMEM_LAUNCHER_RANK $(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status) $(nproc) ${SYMMEM_LAUNCHER_CPUS:--}"' 2>&1; }

out=$(probe -n 1 --bind-to auto) || fail "symmem-run -n 1: $out"
set -- $out
[ "$3" = "$cpus" ] || fail "one PE with --bind-to auto got $3 of the $cpus CPUs ($2)"
[ "$4" = "$cpus" ] || fail "a bound PE was told the launcher shared out '$4' CPUs, not $cpus"
echo "ok: one PE, auto: all $cpus CPUs ($2)"

out=$(probe -n 1 --bind-to core) || fail "symmem-run --bind-to core: $out"
set -- $out
[ "$3" = 1 ] || fail "--bind-to core gave one PE $3 CPUs ($2)"
echo "ok: one PE, core: one CPU ($2)"

out=$(probe -n 1 --bind-to none) || fail "symmem-run --bind-to none: $out"
set -- $out
[ "$3" = "$cpus" ] || fail "--bind-to none left one PE $3 of the $cpus CPUs ($2)"
[ "$4" = - ] || fail "an unbound PE was told the launcher shared out $4 CPUs"
echo "ok: one PE, none: unbound"

if [ "$cpus" -ge 2 ]; then
  # Two PEs: blocks of cpus/2, apart.
  out=$(probe -n 2 --bind-to auto) || fail "symmem-run -n 2: $out"
  half=$((cpus / 2))
  echo "$out" | awk -v want="$half" '{ n[$1] = $3; l[$1] = $2 } END {
      if (n[0] != want || n[1] != want) { print "FAIL: two PEs with auto got " n[0] " and " n[1] " CPUs, want " want " each"; exit 1 }
      if (l[0] == l[1]) { print "FAIL: both PEs on CPUs " l[0]; exit 1 } }' || exit 1
  echo "ok: two PEs, auto: $half CPUs each, apart"
  # More PEs than CPUs: unbound.
  out=$(probe -n $((cpus + 1)) --bind-to auto) || fail "symmem-run -n $((cpus + 1)): $out"
  echo "$out" | awk -v want="$cpus" '$3 != want || $4 != "-" { print "FAIL: oversubscribed PE " $1 " bound to " $2 " (" $4 ")"; exit 1 }' || exit 1
  echo "ok: $((cpus + 1)) PEs on $cpus CPUs: unbound"
else
  echo "skipped: blocks of CPUs for several PEs (one CPU here)"
fi
echo PASS
