/* Ordering and synchronization: barriers keep phases apart, wait_until/test with all six
 * comparisons, fence-ordered put + flag (the message-passing idiom). */
#include <shmem.h>

#include "check.h"

static void barrier_phases(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *phase = shmem_calloc((size_t)n, sizeof(long));
  for (long round = 1; round <= 200; ++round) {
    /* everyone writes its round into every PE's table; after the barrier all must show it */
    for (int pe = 0; pe < n; ++pe) shmem_long_p(&phase[me], round, pe);
    shmem_barrier_all();
    for (int pe = 0; pe < n; ++pe) CHECK_EQ_LONG(phase[pe], round);
    shmem_barrier_all();
  }
  shmem_free(phase);
}

static void waits(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  long *flag = shmem_calloc(1, sizeof(long));
  long *data = shmem_calloc(64, sizeof(long));
  shmem_barrier_all();
  /* message passing: data, fence, flag; the receiver waits on the flag and must see the data */
  for (int i = 0; i < 64; ++i) shmem_long_p(&data[i], me * 1000 + i, next);
  shmem_fence();
  shmem_long_atomic_set(flag, 1, next);
  shmem_long_wait_until(flag, SHMEM_CMP_EQ, 1);
  for (int i = 0; i < 64; ++i) CHECK_EQ_LONG(data[i], prev * 1000 + i);
  shmem_barrier_all();
  /* the six comparisons, each satisfied by a later update from the previous PE */
  struct { int cmp; long target; long final; } cases[] = {
      {SHMEM_CMP_NE, 1, 2}, {SHMEM_CMP_GT, 2, 3}, {SHMEM_CMP_GE, 5, 5},
      {SHMEM_CMP_LT, 5, 4}, {SHMEM_CMP_LE, 0, 0}, {SHMEM_CMP_EQ, 9, 9}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
    shmem_barrier_all();
    shmem_long_atomic_set(flag, cases[c].final, next);
    shmem_long_wait_until(flag, cases[c].cmp, cases[c].target);
    CHECK(shmem_long_test(flag, cases[c].cmp, cases[c].target) == 1);
  }
  shmem_barrier_all();
  CHECK(shmem_long_test(flag, SHMEM_CMP_EQ, 12345) == 0);
  int *iflag = shmem_calloc(1, sizeof(int));
  shmem_barrier_all();
  shmem_int_atomic_add(iflag, 1, 0);
  if (me == 0) shmem_wait_until(iflag, SHMEM_CMP_EQ, n); /* generic form */
  shmem_barrier_all();
  shmem_free(iflag);
  shmem_free(data);
  shmem_free(flag);
}

int main(void) {
  shmem_init();
  barrier_phases();
  waits();
  shmem_sync_all();
  if (shmem_my_pe() == 0) printf("t_sync: %d PEs ok\n", shmem_n_pes());
  shmem_finalize();
  return 0;
}
