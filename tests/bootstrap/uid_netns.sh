#!/bin/sh
# uid_netns.sh BOOT_UID: the unique-id bootstrap between two network namespaces joined by a veth
# pair (10.77.0.1/24 and 10.77.0.2/24), one PE in each, with different SYMMEM_HOSTNAME: the PEs
# must form the job over TCP and must not map each other's heap (pe_accessible 0, ptr NULL).
# Needs root and `ip netns`; otherwise prints SKIPPED and exits 77 (ctest SKIP_RETURN_CODE).
boot=$1
skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "needs root to create network namespaces"
command -v ip >/dev/null 2>&1 || skip "no ip command (iproute2)"
a=symmem-uid-a-$$
b=symmem-uid-b-$$
dir=$(mktemp -d)
cleanup() {
  ip netns del "$a" 2>/dev/null
  ip netns del "$b" 2>/dev/null
  rm -rf "$dir"
}
trap cleanup EXIT
ip netns add "$a" 2>/dev/null && ip netns add "$b" 2>/dev/null || skip "ip netns add failed (no CAP_SYS_ADMIN?)"
# The pair is made inside the namespaces, so its names cannot clash with the host's or another run's.
ip -n "$a" link add veth0 type veth peer name veth1 netns "$b" || skip "cannot create a veth pair"
ip -n "$a" addr add 10.77.0.1/24 dev veth0 && ip -n "$b" addr add 10.77.0.2/24 dev veth1 &&
  ip -n "$a" link set veth0 up && ip -n "$b" link set veth1 up &&
  ip -n "$a" link set lo up && ip -n "$b" link set lo up || { echo "FAIL: cannot configure the veth pair"; exit 1; }

export SYMMEM_DEBUG=info
ip netns exec "$a" "$boot" root 2 "$dir/id" --split-hosts >"$dir/pe0.out" 2>&1 &
root=$!
ip netns exec "$b" "$boot" child 1 2 "$dir/id" --split-hosts >"$dir/pe1.out" 2>&1
rc1=$?
wait "$root"
rc0=$?
echo "---- PE 0 (namespace $a, 10.77.0.1), exit $rc0"; cat "$dir/pe0.out"
echo "---- PE 1 (namespace $b, 10.77.0.2), exit $rc1"; cat "$dir/pe1.out"
ok=yes
[ "$rc0" = 0 ] && [ "$rc1" = 0 ] || ok=no
grep -q "bootstrap root listening on 10.77.0.1:" "$dir/pe0.out" || { echo "root did not listen on veth0"; ok=no; }
grep -q "PE 1 of 2 ok: bootstrap uid, 1 PEs reachable" "$dir/pe1.out" || ok=no
grep -q "PE 0 of 2 ok: bootstrap uid, 1 PEs reachable" "$dir/pe0.out" || ok=no
[ "$ok" = yes ] && { echo PASS; exit 0; }
echo FAIL; exit 1
