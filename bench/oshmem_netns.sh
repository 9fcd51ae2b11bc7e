# Sourced by the benchmarks across emulated hosts (compare_net.sh, osu_net.sh): how OSHMEM is
# started in the network namespaces, the same for every comparison.
#
# oshmem_netns_cmd HOST: sets the array `osh` to the oshrun command started on HOST, reaching the
# other namespaces through bench/netns_rsh.sh. Callers add their placement, -np and program.
# - btl self,tcp: Open MPI's shared-memory BTL (vader) crashed in shmem_init between namespaces
#   that share the host name (it took the PEs of both hosts for one node).
# - OMPI_MCA_osc=^rdma (unless set): else OSHMEM 4.1 dies in shmem_finalize here.
# - UCX segment sizes the user exported go to OSHMEM too (symmem sets 256 KiB itself; UCX's
#   default is 8 KiB, which is what OSHMEM's users run with).
oshmem_netns_cmd() {
  export OMPI_MCA_osc="${OMPI_MCA_osc:-^rdma}"
  osh=(ip netns exec "$1" oshrun --allow-run-as-root --mca plm_rsh_agent "$(dirname "${BASH_SOURCE[0]}")/netns_rsh.sh"
       --mca btl self,tcp -x UCX_TLS -x UCX_NET_DEVICES -x OMPI_MCA_osc -x SHMEM_SYMMETRIC_HEAP_SIZE)
  local v
  for v in UCX_TCP_TX_SEG_SIZE UCX_TCP_RX_SEG_SIZE; do [ -n "${!v:-}" ] && osh+=(-x "$v"); done
  return 0
}
