/* A program with no MPI in it, started by a launcher (mpirun), joining through symmem_init and
 * the bootstrap SYMMEM_BOOTSTRAP names (mpi, pmix, or auto's choice).
 *
 *   boot_basic [--expect NAME] [--split-hosts] [--cycles K] [--heap-by-rank] [--stall-rank R --stall-s S]
 *
 * The launcher's rank (OMPI_COMM_WORLD_RANK, PMIX_RANK) is read only to set things up before
 * init (host names, heap sizes, a late rank); everything after init uses symmem's PE numbers.
 *   --split-hosts   SYMMEM_HOSTNAME differs between even and odd ranks
 *   --cycles K      init/finalize K times (the bootstrap must let the next init happen)
 *   --heap-by-rank  rank r asks (r+1)*16 MiB of heap: init must fail, naming both sizes
 *   --stall-rank R --stall-s S   rank R sleeps S seconds before init (a rank that never arrives)
 */
#include <unistd.h>

#include "boot_common.h"

static int launcher_rank(void) {
  const char *names[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"};
  for (unsigned i = 0; i < sizeof names / sizeof *names; ++i) {
    const char *v = getenv(names[i]);
    if (v != NULL && *v != '\0') return atoi(v);
  }
  return 0;
}

static int heap_mismatch(int rank) {
  char size[32];
  snprintf(size, sizeof size, "%dm", (rank + 1) * 16);
  setenv("SYMMEM_SYMMETRIC_SIZE", size, 1);
  int rc = symmem_init();
  if (rc == SYMMEM_SUCCESS) {
    fprintf(stderr, "rank %d: init succeeded with heaps of different sizes\n", rank);
    return 1;
  }
  const char *msg = symmem_last_error();
  int ok = rc == SYMMEM_ERR_MISMATCH && strstr(msg, "16777216") != NULL && strstr(msg, "33554432") != NULL;
  printf("rank %d: heap mismatch %s: %s\n", rank, ok ? "reported" : "NOT REPORTED PROPERLY", msg);
  return ok ? 0 : 1;
}

int main(int argc, char **argv) {
  const char *expect = NULL;
  int split = 0, cycles = 1, heap = 0, stall_rank = -1, stall_s = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--expect") && i + 1 < argc) expect = argv[++i];
    else if (!strcmp(argv[i], "--split-hosts")) split = 1;
    else if (!strcmp(argv[i], "--cycles") && i + 1 < argc) cycles = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--heap-by-rank")) heap = 1;
    else if (!strcmp(argv[i], "--stall-rank") && i + 1 < argc) stall_rank = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--stall-s") && i + 1 < argc) stall_s = atoi(argv[++i]);
  }
  const int rank = launcher_rank();
  if (heap) return heap_mismatch(rank);
  if (split) boot_set_hostname(rank % 2);
  if (rank == stall_rank) sleep((unsigned)stall_s);
  for (int c = 0; c < cycles; ++c) {
    int rc = symmem_init();
    if (rc != SYMMEM_SUCCESS) {
      fprintf(stderr, "rank %d: symmem_init failed (%d): %s\n", rank, rc, symmem_last_error());
      return 2;
    }
    BCHECK(symmem_my_pe() == rank); /* a launcher's whole job: PE = its rank */
    boot_workload(expect, split ? boot_host_split2 : NULL);
    symmem_finalize();
  }
  return 0;
}
