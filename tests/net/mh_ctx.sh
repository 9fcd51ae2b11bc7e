#!/bin/sh
# mh_ctx.sh HOSTS PES_PER_HOST PROGRAM [ARGS...]: runs tests/net/mh_ctx through mh_run.sh with
# SYMMEM_DEBUG=info and checks, besides the program's own checks, that every context got a network
# worker of its own: 2 private ones (one per thread, no lock) and 1 shared one on every PE; and that
# the private context made after those were destroyed took one of their workers back.
here=$(cd "$(dirname "$0")" && pwd)
hosts=$1
per=$2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
SYMMEM_DEBUG=info "$here/mh_run.sh" "$@" >"$out" 2>&1
rc=$?
grep -v "via p2p\|via UCX" "$out"
[ "$rc" -eq 0 ] || exit "$rc"
n=$((hosts * per))
private=$(grep -c "network worker made (private context: no lock" "$out")
shared=$(grep -c "network worker made (shared context" "$out")
reused=$(grep -c "network worker taken from a destroyed context (private context" "$out")
exact=$(grep -c "exact: .* every byte checked" "$out")
if [ "$private" -ne $((2 * n)) ] || [ "$shared" -ne "$n" ] || [ "$reused" -ne "$n" ] || [ "$exact" -ne "$n" ]; then
  echo "mh_ctx.sh: want $((2 * n)) private and $n shared context workers made, $n taken back and $n exact lines;" \
    "saw $private, $shared, $reused, $exact" >&2
  exit 1
fi
echo "mh_ctx.sh: $private private and $shared shared context workers, $reused taken back, $exact PEs exact"
