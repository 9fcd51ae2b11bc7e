#!/bin/sh
# uid_netns.sh BOOT_UID: the unique-id bootstrap between two emulated hosts (tests/net/netns.sh:
# network namespaces on a bridge, 10.79.0.1 and 10.79.0.2), one PE on each: the PEs form the job
# over TCP, do not map each other's heap (their network namespaces differ), and reach each other
# through the network transport. Needs root and `ip netns`; otherwise SKIPPED, exit 77.
boot=$1
here=$(cd "$(dirname "$0")" && pwd)
[ -n "$NETNS_HOSTS" ] || exec "$here/../net/netns.sh" -n 2 "$0" "$@"
set -- $NETNS_HOSTS
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
export SYMMEM_DEBUG=info
ip netns exec "$1" "$boot" root 2 "$dir/id" --split-hosts >"$dir/pe0.out" 2>&1 &
root=$!
ip netns exec "$2" "$boot" child 1 2 "$dir/id" --split-hosts >"$dir/pe1.out" 2>&1
rc1=$?
wait "$root"
rc0=$?
echo "---- PE 0 (host $1, 10.79.0.1), exit $rc0"; cat "$dir/pe0.out"
echo "---- PE 1 (host $2, 10.79.0.2), exit $rc1"; cat "$dir/pe1.out"
ok=yes
[ "$rc0" = 0 ] && [ "$rc1" = 0 ] || ok=no
grep -q "bootstrap root listening on 10.79.0.1:" "$dir/pe0.out" || { echo "root did not listen on veth0"; ok=no; }
grep -q "PE 0 -> PE 1 via UCX tcp/veth0" "$dir/pe0.out" || { echo "no route line for PE 1"; ok=no; }
grep -q "PE 1 of 2 ok: bootstrap uid, 1 PEs mapped, 2 reached" "$dir/pe1.out" || ok=no
grep -q "PE 0 of 2 ok: bootstrap uid, 1 PEs mapped, 2 reached" "$dir/pe0.out" || ok=no
[ "$ok" = yes ] && { echo PASS; exit 0; }
echo FAIL; exit 1
