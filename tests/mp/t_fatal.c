/* Misuse that ends the job with a clear message (ctest matches the message and the non-zero
 * exit): never a bare segfault, never a hang. Usage: t_fatal <case>. */
#include <signal.h>
#include <unistd.h>

#include <shmem.h>

#include "check.h"

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "";
  long stack_var = 0;
  if (!strcmp(which, "before_init")) {
    long *p = shmem_malloc(8); /* fatal: before init */
    (void)p;
    return 0;
  }
  if (!strcmp(which, "my_pe_before_init")) {
    return shmem_my_pe(); /* fatal: before init */
  }
  if (!strcmp(which, "n_pes_after_finalize")) {
    /* a second init and finalize first: the PE number and size the ABI keeps must be right in the
     * second job, and forgotten after its finalize */
    for (int round = 0; round < 2; ++round) {
      shmem_init();
      if (shmem_my_pe() != atoi(getenv("SYMMEM_LAUNCHER_RANK")) || shmem_n_pes() != atoi(getenv("SYMMEM_LAUNCHER_SIZE")))
        return 9;
      shmem_finalize();
    }
    return shmem_n_pes(); /* fatal: after finalize */
  }
  if (!strcmp(which, "skip_init")) {
    /* PE 1 never calls init and exits 0; the others must fail naming it, not hang */
    if (atoi(getenv("SYMMEM_LAUNCHER_RANK") ? getenv("SYMMEM_LAUNCHER_RANK") : "0") == 1) return 0;
    shmem_init();
    return 0;
  }
  if (!strcmp(which, "never_init")) {
    /* PE 1 is alive but never calls init: the others fail after SYMMEM_BOOTSTRAP_TIMEOUT */
    if (atoi(getenv("SYMMEM_LAUNCHER_RANK") ? getenv("SYMMEM_LAUNCHER_RANK") : "0") == 1) {
      sleep(60);
      return 0;
    }
    shmem_init();
    return 0;
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *sym = shmem_malloc(sizeof(long));
  if (!strcmp(which, "pe_range")) {
    shmem_long_p(sym, 1, n); /* fatal: PE out of range */
  } else if (!strcmp(which, "not_symmetric")) {
    shmem_putmem(&stack_var, sym, sizeof(long), 0); /* fatal: dest not symmetric */
  } else if (!strcmp(which, "after_finalize")) {
    shmem_finalize();
    shmem_long_p(sym, 1, 0); /* fatal: after finalize */
  } else if (!strcmp(which, "use_after_finalize")) {
    shmem_finalize();
    *(volatile long *)sym = 1; /* faults in the guard: reported, not a bare segfault */
  } else if (!strcmp(which, "die_in_barrier")) {
    if (me == n - 1) abort(); /* dies by SIGABRT while the others wait in the barrier */
    shmem_barrier_all();
  } else if (!strcmp(which, "exit_in_barrier")) {
    if (me == n - 1) exit(3);
    shmem_barrier_all();
  } else if (!strcmp(which, "global_exit")) {
    if (me == n - 1) shmem_global_exit(7);
    shmem_barrier_all(); /* the others are stopped by the launcher */
    sleep(30);
  } else if (!strcmp(which, "global_exit_busy")) {
    /* the others compute, outside the library, through the launcher's grace period: they are
     * stopped before they can say why, so the launcher must say it */
    if (me == n - 1) shmem_global_exit(7);
    sleep(30);
  } else if (!strcmp(which, "bad_cmp")) {
    shmem_long_wait_until(sym, 42, 0);
  } else {
    fprintf(stderr, "t_fatal: unknown case '%s'\n", which);
    return 2;
  }
  return 0;
}
