/* An MPI program that starts symmem from MPI.
 *
 *   boot_mpi reversed   symmem_init_attr(SYMMEM_INIT_WITH_MPI_COMM) over a communicator that
 *                       reverses MPI_COMM_WORLD's ranks: PE must be size-1-world rank, not the
 *                       world rank (the PE-vs-rank caveat of docs/bootstraps.md)
 *   boot_mpi world      the program initializes MPI; SYMMEM_BOOTSTRAP=mpi symmem_init uses
 *                       MPI_COMM_WORLD and must leave MPI to the program
 *   boot_mpi reversed --stall-last   the last world rank sleeps instead of joining: the others
 *                       must fail within SYMMEM_BOOTSTRAP_TIMEOUT
 *   boot_mpi reversed --garbage-attr   the attr is not set up with the initializer, only its
 *                       mpi_comm (its other bytes are garbage), as NVIDIA's jacobi example does:
 *                       init over the communicator must still succeed, as with NVSHMEM
 * Both run two init/finalize cycles and use MPI before, between and after them. */
#include <mpi.h>
#include <string.h>
#include <unistd.h>

#include "boot_common.h"

static void check_mpi_usable(MPI_Comm comm, int expect_size) {
  int one = 1, sum = 0;
  BCHECK(MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, comm) == MPI_SUCCESS);
  BCHECK(sum == expect_size);
}

static int garbage_attr;

static void run_cycle(MPI_Comm comm, int attr_path, int expect_pe, int size) {
  int rc;
  if (attr_path) {
    symmem_init_attr_t attr = SYMMEM_INIT_ATTR_INITIALIZER;
    if (garbage_attr) memset(&attr, 0xa5, sizeof attr); /* what an unset stack variable may hold */
    attr.mpi_comm = &comm;
    rc = symmem_init_attr(SYMMEM_INIT_WITH_MPI_COMM, &attr);
  } else {
    rc = symmem_init();
  }
  if (rc != SYMMEM_SUCCESS) {
    fprintf(stderr, "init failed (%d): %s\n", rc, symmem_last_error());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  BCHECK(symmem_n_pes() == size);
  if (symmem_my_pe() != expect_pe) {
    fprintf(stderr, "PE %d, expected %d\n", symmem_my_pe(), expect_pe);
    BCHECK(0);
  }
  check_mpi_usable(comm, size); /* MPI works while symmem runs */
  boot_workload("mpi", NULL);
  symmem_finalize();
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int wrank = 0, wsize = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);
  const int reversed = argc > 1 && !strcmp(argv[1], "reversed");
  MPI_Comm comm = MPI_COMM_WORLD;
  if (reversed) {
    BCHECK(MPI_Comm_split(MPI_COMM_WORLD, 0, wsize - 1 - wrank, &comm) == MPI_SUCCESS);
  } else {
    setenv("SYMMEM_BOOTSTRAP", "mpi", 1);
  }
  int crank = 0;
  MPI_Comm_rank(comm, &crank);
  if (argc > 2 && !strcmp(argv[2], "--stall-last") && wrank == wsize - 1) sleep(30);
  garbage_attr = argc > 2 && !strcmp(argv[2], "--garbage-attr");
  BCHECK(crank == (reversed ? wsize - 1 - wrank : wrank));
  for (int cycle = 0; cycle < 2; ++cycle) {
    run_cycle(comm, reversed, crank, wsize);
    check_mpi_usable(MPI_COMM_WORLD, wsize); /* and after it */
  }
  printf("world rank %d was PE %d: ok\n", wrank, crank);
  if (reversed) MPI_Comm_free(&comm);
  MPI_Finalize();
  return 0;
}
