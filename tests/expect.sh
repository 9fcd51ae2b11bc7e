#!/bin/sh
# expect.sh EXIT PATTERN... -- COMMAND ARGS...
# Runs COMMAND, then checks its exit status (a number, or "nonzero") and that its combined output
# matches every extended regular expression PATTERN. Prints the output when a check fails.
want=$1; shift
pats=""
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do pats="$pats
$1"; shift; done
[ "$1" = "--" ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
ok=yes
if [ "$want" = nonzero ]; then
  [ "$rc" -ne 0 ] || { echo "expected a non-zero exit, got 0"; ok=no; }
elif [ "$rc" -ne "$want" ]; then
  echo "expected exit $want, got $rc"; ok=no
fi
printf '%s\n' "$pats" | while IFS= read -r p; do
  [ -z "$p" ] && continue
  grep -Eq -- "$p" "$out" || { echo "output does not match: $p"; echo x >"$out.miss"; }
done
[ -f "$out.miss" ] && { ok=no; rm -f "$out.miss"; }
if [ "$ok" != yes ]; then
  echo "---- output of: $*"; cat "$out"; echo "----"
  exit 1
fi
exit 0
