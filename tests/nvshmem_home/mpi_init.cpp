// An MPI program that starts NVSHMEM over its communicator, as NVSHMEM's mpi-based-init example
// and multi-gpu-programming-models' jacobi do: libsymmem loads its MPI bootstrap plugin, also when
// it was loaded through the drop-in directory's link.
#include <mpi.h>
#include <nvshmem.h>
#include <nvshmemx.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  attr.mpi_comm = &comm;
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_MPI_COMM, &attr);
  int rank = -1;
  MPI_Comm_rank(comm, &rank);
  nvshmem_barrier_all();
  printf("mpi init: PE %d of %d, MPI rank %d\n", nvshmem_my_pe(), nvshmem_n_pes(), rank);
  nvshmem_finalize();
  MPI_Finalize();
  return 0;
}
