/* Several hosts through symmem-run --hosts: every PE finds exactly the PEs of its own host
 * accessible (the host identity comes from the host it was started on, though the emulated hosts
 * share one kernel host name) and the job forms, allocates and synchronises across hosts, and
 * zero-length collectives with NULL buffers work across hosts.
 *
 *   mh_hello PES_PER_HOST
 */
#include <string.h>

#include "../bootstrap/boot_common.h"

static int per_host = 1;
static int host_of(int pe, int n) {
  (void)n;
  return pe / per_host;
}

int main(int argc, char **argv) {
  per_host = argc > 1 ? atoi(argv[1]) : 1;
  if (per_host < 1) return 2;
  if (symmem_init() != SYMMEM_SUCCESS) {
    fprintf(stderr, "init failed: %s\n", symmem_last_error());
    return 2;
  }
  boot_workload("launcher", host_of);
  if (argc > 2 && strcmp(argv[2], "exit") == 0) {
    /* A program that ends without finalize, its heap registered and a put in flight: it exits with
     * its own status, and the network transport closes quietly behind it. */
    long *x = symmem_malloc(sizeof(long) << 20);
    long v = 7;
    symmem_putmem_nbi(x, &v, sizeof v, (symmem_my_pe() + 1) % symmem_n_pes());
    exit(3);
  }
  /* Zero-length collectives may pass NULL buffers (SOS's nop_collectives does), across hosts too. */
  BCHECK(symmem_int_broadcast(symmem_team_world, NULL, NULL, 0, 0) == 0);
  BCHECK(symmem_int_fcollect(symmem_team_world, NULL, NULL, 0) == 0);
  BCHECK(symmem_int_alltoall(symmem_team_world, NULL, NULL, 0) == 0);
  BCHECK(symmem_int_sum_reduce(symmem_team_world, NULL, NULL, 0) == 0);
  symmem_finalize();
  return 0;
}
