/* A job that keeps every PE talking across hosts until SECONDS pass: puts to a PE of the other
 * host, quiet, a barrier. The fault tests break a host under it (kill its PEs, take its link
 * down) and check how the rest ends.
 *
 *   mh_loop SECONDS */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const double seconds = argc > 1 ? atof(argv[1]) : 10;
  long *box = shmem_calloc((size_t)n, sizeof(long));
  shmem_barrier_all();
  printf("PE %d running\n", me);
  fflush(stdout);
  const int to = (me + n / 2) % n;
  const double end = now() + seconds;
  static long stop; /* PE 0 decides when the time is up, so every PE runs the same rounds */
  long k = 0;
  while (!stop) {
    shmem_long_p(&box[me], ++k, to);
    if (me == 0 && now() >= end)
      for (int p = 0; p < n; ++p) shmem_long_p(&stop, 1, p);
    shmem_quiet();
    shmem_barrier_all();
  }
  printf("PE %d done after %ld rounds\n", me, k);
  shmem_free(box);
  shmem_finalize();
  return 0;
}
