#!/bin/sh
# expect.sh EXIT PATTERN... -- COMMAND ARGS...
# Runs COMMAND; checks its exit status (a number, or "nonzero") and that its output (stdout and
# stderr together) matches every extended regular expression PATTERN (one that starts with "!"
# must match nowhere in the output). Prints the output always,
# so that ctest's log shows what the program said.
want=$1; shift
pats=""
while [ "$#" -gt 0 ] && [ "$1" != "--" ]; do pats="$pats
$1"; shift; done
[ "$1" = "--" ] && shift
out=$(mktemp)
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
rc=$?
cat "$out"
bad=""
if [ "$want" = nonzero ]; then
  [ "$rc" -ne 0 ] || bad="expected a non-zero exit, got 0"
elif [ "$rc" -ne "$want" ]; then
  bad="expected exit $want, got $rc"
fi
miss=$(printf '%s\n' "$pats" | while IFS= read -r p; do
  case "$p" in
    "") ;;
    !*) grep -Eq -- "${p#!}" "$out" && echo "output matches what it must not: ${p#!}" ;;
    *) grep -Eq -- "$p" "$out" || echo "output does not match: $p" ;;
  esac
done)
if [ -n "$bad$miss" ]; then
  echo "FAIL: $bad $miss"
  exit 1
fi
echo "PASS"
