#!/bin/sh
# netns.sh [-n HOSTS] [--] COMMAND [ARGS...]
#
# Emulates HOSTS machines (2 by default, up to 8) on this one and runs COMMAND in the root
# namespace with their description in the environment. Each host is a network namespace with one
# interface, veth0, at 10.79.0.<i+1>/24; every veth0 is joined to a bridge in a switch namespace,
# so any host reaches any other as over one Ethernet segment, and nothing of the root namespace is
# touched. UCX's TCP transport then runs between the hosts exactly as between machines.
#
# What namespaces do not separate (see docs/multihost.md): they share the host name, /dev/shm and
# System V IPC, so UCX would pick shared memory between "hosts": the defaults below restrict it
# to TCP over veth0 (kept when already set).
#
# Exported to COMMAND:
#   NETNS_HOSTS    the namespace names, space-separated (also the host names for --hosts)
#   NETNS_ADDRS    their addresses, in the same order
#   NETNS_AGENT    the launch agent that starts a command on host {host}: "ip netns exec {host}"
#   NETNS_IF       veth0
#   UCX_TLS=tcp,self UCX_NET_DEVICES=veth0 (unless set)
# Host i's link goes down with: ip -n <host i> link set veth0 down.
# NETNS_SYSCTL="key=value ..." sets those sysctls in every host's namespace (the per-namespace
# network ones, e.g. net.ipv4.tcp_slow_start_after_idle=0).
#
# Always cleans up: on any exit it kills what is left in the namespaces, deletes them, and fails
# (exit 1) when COMMAND succeeded but left a process behind in a namespace. Needs root and
# iproute2; otherwise prints SKIPPED and exits 77 (ctest's SKIP_RETURN_CODE).
hosts=2
if [ "$1" = -n ]; then hosts=$2; shift 2; fi
[ "$1" = -- ] && shift
case $hosts in [2-8]) ;; *) echo "netns.sh: -n wants 2 to 8 hosts, not '$hosts'" >&2; exit 2 ;; esac
[ "$#" -gt 0 ] || { echo "usage: netns.sh [-n HOSTS] [--] COMMAND [ARGS...]" >&2; exit 2; }

skip() { echo "SKIPPED: $*"; exit 77; }
[ "$(id -u)" = 0 ] || skip "emulating hosts needs root (network namespaces)"
command -v ip >/dev/null 2>&1 || skip "no ip command (install iproute2)"

# Short unique names: the pid of this script, so parallel tests never share a namespace.
prefix=smh$$
switch=$prefix-sw
names=""
i=0
while [ "$i" -lt "$hosts" ]; do names="$names $prefix-$i"; i=$((i + 1)); done
names=${names# }

# Prints the processes left in host namespaces (pid and command line), one a line.
leftovers() {
  for ns in $names; do
    for pid in $(ip netns pids "$ns" 2>/dev/null); do
      printf '%s: pid %s: %s\n' "$ns" "$pid" "$(tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null)"
    done
  done
}

cleanup() {
  rc=$?
  trap - EXIT INT TERM HUP
  # A job that just ended may still be reaping: give it a moment before calling anything a leftover.
  left=""
  for _ in 1 2 3 4 5 6 7 8 9 10; do
    left=$(leftovers)
    [ -z "$left" ] && break
    sleep 0.1
  done
  if [ -n "$left" ]; then
    echo "netns.sh: processes left behind in the host namespaces:"
    echo "$left"
    [ "$rc" = 0 ] && rc=1
    for ns in $names; do
      for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null; done
    done
  fi
  for ns in $names $switch; do ip netns del "$ns" 2>/dev/null; done
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

ip netns add "$switch" 2>/dev/null || skip "ip netns add failed (no CAP_SYS_ADMIN?)"
ip -n "$switch" link add br0 type bridge 2>/dev/null || skip "cannot create a bridge (no bridge support?)"
ip -n "$switch" link set br0 up
addrs=""
i=0
for ns in $names; do
  ip netns add "$ns" || { echo "netns.sh: cannot add namespace $ns"; exit 1; }
  # The pair is made inside the namespaces, so its names cannot clash with the host's.
  ip -n "$ns" link add veth0 type veth peer name p$i netns "$switch" &&
    ip -n "$switch" link set p$i master br0 && ip -n "$switch" link set p$i up &&
    ip -n "$ns" addr add 10.79.0.$((i + 1))/24 dev veth0 && ip -n "$ns" link set veth0 up &&
    ip -n "$ns" link set lo up || { echo "netns.sh: cannot wire namespace $ns"; exit 1; }
  for kv in ${NETNS_SYSCTL:-}; do
    ip netns exec "$ns" sysctl -q -w "$kv" || { echo "netns.sh: cannot set $kv in $ns"; exit 1; }
  done
  addrs="$addrs 10.79.0.$((i + 1))"
  i=$((i + 1))
done
# Bridge ports forward at once (no STP), but a veth needs a moment to come up: wait until every
# host's link reports UP.
for _ in $(seq 1 50); do
  down=""
  for ns in $names; do
    ip -n "$ns" -o link show veth0 | grep -q 'state UP' || down="$down $ns"
  done
  [ -z "$down" ] && break
  sleep 0.1
done
[ -z "$down" ] || { echo "netns.sh: veth0 did not come up in:$down"; exit 1; }

export NETNS_HOSTS="$names" NETNS_ADDRS="${addrs# }" NETNS_IF=veth0 NETNS_AGENT="ip netns exec {host}"
export UCX_TLS="${UCX_TLS:-tcp,self}" UCX_NET_DEVICES="${UCX_NET_DEVICES:-veth0}"
"$@"
