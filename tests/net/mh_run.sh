#!/bin/sh
# mh_run.sh HOSTS PES_PER_HOST PROGRAM [ARGS...]: runs PROGRAM as a job of HOSTS emulated hosts with
# PES_PER_HOST PEs each (tests/net/netns.sh; symmem-run --hosts with an `ip netns exec` launch
# agent), with CONF_PES_PER_HOST set so that the conformance programs know which PEs share a host.
# MH_LAUNCHER names the launcher. Exit status: the job's (77 when hosts cannot be emulated here).
hosts=$1
per=$2
shift 2
if [ -z "$NETNS_HOSTS" ]; then
  exec "$(cd "$(dirname "$0")" && pwd)/netns.sh" -n "$hosts" "$0" "$hosts" "$per" "$@"
fi
list=""
for h in $NETNS_HOSTS; do list="$list${list:+,}$h:$per"; done
export CONF_PES_PER_HOST="$per"
exec "$MH_LAUNCHER" --timeout 100 --hosts "$list" --launch-agent "$NETNS_AGENT" "$@"
