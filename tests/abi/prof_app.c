/* A plain OpenSHMEM program for the profiling test: 3 putmem, 2 generic puts on long (shmem_put
 * resolves to shmem_long_put), 1 fetch-add and 4 barrier_all per PE, each result checked, so a
 * tool that drops or repeats a call fails as well as one that is never called. */
#include <shmem.h>
#include <stdio.h>

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  long *buf = shmem_malloc(6 * sizeof(long)); /* buf[5]: the counter on PE 0 */
  for (int i = 0; i < 6; ++i) buf[i] = -1;
  buf[5] = 0;
  shmem_barrier_all();
  for (long i = 0; i < 3; ++i) {
    long v = 100 * me + i;
    shmem_putmem(&buf[i], &v, sizeof v, next);
  }
  long w[2] = {7 * me, 7 * me + 1};
  shmem_put(&buf[3], &w[0], 1, next);
  shmem_put(&buf[4], &w[1], 1, next);
  long old = shmem_long_atomic_fetch_add(&buf[5], 1, 0);
  shmem_barrier_all();
  int bad = 0;
  for (long i = 0; i < 3; ++i) bad |= buf[i] != 100 * prev + i;
  bad |= buf[3] != 7 * prev || buf[4] != 7 * prev + 1 || old < 0 || old >= n;
  shmem_barrier_all();
  bad |= me == 0 && buf[5] != n;
  shmem_barrier_all();
  printf("app: PE %d: %s\n", me, bad ? "WRONG" : "ok");
  shmem_free(buf);
  shmem_finalize();
  return bad;
}
