/* Across hosts: a PE that returns from shmem_malloc first writes into the new block of a PE on
 * another host at once (no barrier between), as tests-mellanox's sync cases do: a put to PE 0,
 * quiet, get it back, then free; over and over, with a new allocation each time. The owner must
 * never refuse the write because its own malloc had not committed the granule yet.
 *
 *   mh_malloc [ROUNDS]     (default 400)
 */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  const int rounds = argc > 1 ? atoi(argv[1]) : 400;
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  int bad = 0;
  for (int r = 0; r < rounds; ++r) {
    /* sizes that move the block across granules now and then */
    const size_t count = (size_t)n * (1 + (size_t)(r % 7) * 40000);
    int *a = shmem_malloc(count * sizeof(int));
    const int v = r * 131 + me;
    shmem_int_p(a + me, v, 0);
    shmem_quiet();
    if (shmem_int_g(a + me, 0) != v && bad++ < 3) fprintf(stderr, "PE %d: round %d: put to PE 0 lost\n", me, r);
    shmem_free(a);
  }
  printf("PE %d: %d rounds of malloc, put, free: %s\n", me, rounds, bad ? "FAILED" : "ok");
  shmem_finalize();
  return bad ? 1 : 0;
}
