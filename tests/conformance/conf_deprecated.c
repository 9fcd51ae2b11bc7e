/* The deprecated names old programs still use: start_pes, _my_pe, _num_pes, shmalloc, shfree,
 * shrealloc, shmemalign, the 1.3 atomics (fadd, finc, cswap, swap, add, inc, fetch, set), shmem_wait,
 * the cache routines (no-ops), and the _SHMEM_* constants. The active-set collectives are covered
 * with their groups (conf_barrier, conf_broadcast, conf_collect, conf_alltoall, conf_reduce). */
#include "conf.h"

int main(void) {
  start_pes(0);
  int me = _my_pe(), n = _num_pes();
  CHECK_EQ(me, shmem_my_pe());
  CHECK_EQ(n, shmem_n_pes());
  long *x = (long *)shmalloc(4 * sizeof(long));
  CHECK(x != NULL);
  int *ix = (int *)shmemalign(256, sizeof(int) * 4);
  CHECK(((uintptr_t)ix & 255) == 0);
  x[0] = x[1] = x[2] = x[3] = 0;
  ix[0] = 0;
  shmem_barrier_all();
  CHECK(shmem_long_fadd(x, 2, 0) >= 0);
  CHECK(shmem_long_finc(x, 0) >= 0);
  shmem_long_add(x, 3, 0);
  shmem_long_inc(x, 0);
  shmem_int_add(ix, 1, 0);
  shmem_barrier_all();
  if (me == 0) CHECK_EQ(*x, 7L * n);
  CHECK_EQ(shmem_long_fetch(x, 0), 7L * n);
  CHECK_EQ(shmem_int_fetch(ix, 0), n);
  shmem_barrier_all();
  if (me == 0) {
    shmem_long_set(x + 1, 5, n - 1);
    CHECK_EQ(shmem_long_swap(x + 1, 6, n - 1), 5);
    CHECK_EQ(shmem_long_cswap(x + 1, 6, 9, n - 1), 6);
    CHECK_EQ(shmem_int_cswap(ix + 1, 0, 4, n - 1), 0);
    CHECK_EQ(shmem_int_swap(ix + 1, 3, n - 1), 4);
    CHECK_EQ(shmem_int_finc(ix + 2, n - 1), 0);
    CHECK_EQ(shmem_int_fadd(ix + 2, 5, n - 1), 1);
    double *d = (double *)(x + 2);
    shmem_double_set(d, 1.5, n - 1);
    CHECK(shmem_double_swap(d, 2.5, n - 1) == 1.5);
  }
  shmem_barrier_all();
  if (me == n - 1) {
    CHECK_EQ(x[1], 9);
    CHECK_EQ(ix[1], 3);
    CHECK_EQ(ix[2], 6);
  }
  /* the 1.3 generic names */
  x[1] = 0;
  shmem_barrier_all();
  shmem_add(x + 1, 2L, 0);
  shmem_inc(x + 1, 0);
  CHECK(shmem_fadd(x + 1, 1L, 0) >= 3);
  CHECK(shmem_finc(x + 1, 0) >= 4);
  shmem_barrier_all();
  if (me == 0) {
    CHECK_EQ(shmem_fetch(x + 1, 0), 5L * n);
    shmem_set(x + 1, 1L, 0);
    CHECK_EQ(shmem_swap(x + 1, 2L, 0), 1);
    CHECK_EQ(shmem_cswap(x + 1, 2L, 3L, 0), 2);
    CHECK_EQ(x[1], 3);
  }
  shmem_barrier_all();
  /* shmem_wait: returns once the value differs */
  x[3] = 0;
  shmem_barrier_all();
  shmem_long_p(x + 3, 1, (me + 1) % n);
  shmem_long_wait(x + 3, 0);
  shmem_wait(x + 3, 0L);
  CHECK_EQ(x[3], 1);
  shmem_clear_cache_inv();
  shmem_set_cache_inv();
  shmem_clear_cache_line_inv(x);
  shmem_set_cache_line_inv(x);
  shmem_udcflush();
  shmem_udcflush_line(x);
  CHECK_EQ(_SHMEM_SYNC_VALUE, SHMEM_SYNC_VALUE);
  CHECK(_SHMEM_BCAST_SYNC_SIZE >= 1 && _SHMEM_REDUCE_SYNC_SIZE >= 1 && _SHMEM_BARRIER_SYNC_SIZE >= 1);
  CHECK(_SHMEM_COLLECT_SYNC_SIZE >= 1 && _SHMEM_ALLTOALL_SYNC_SIZE >= 1 && _SHMEM_REDUCE_MIN_WRKDATA_SIZE >= 1);
  CHECK_EQ(_SHMEM_CMP_EQ, SHMEM_CMP_EQ);
  CHECK_EQ(_SHMEM_MAJOR_VERSION, 1);
  shmem_barrier_all();
  x = (long *)shrealloc(x, 64 * sizeof(long));
  CHECK(x != NULL);
  shfree(x);
  shfree(ix);
  shmem_finalize();
  if (me == 0) printf("conf_deprecated: %d PEs ok\n", n);
  return 0;
}
