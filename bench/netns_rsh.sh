#!/bin/sh
# netns_rsh.sh HOST COMMAND...: what mpirun's rsh launcher expects of ssh, for hosts emulated by
# network namespaces (bench/compare_net.sh): runs the words after the host in a shell inside that
# namespace, with a temporary directory of its own (namespaces share /tmp and the host name, so
# ORTE's session directories of the two "hosts" would collide).
host=$1
shift
mkdir -p "/tmp/ompi-$host"
exec ip netns exec "$host" env TMPDIR="/tmp/ompi-$host" sh -c "$*"
