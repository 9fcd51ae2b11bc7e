/* Active-set collectives (deprecated in 1.5) called by every PE, where the set is only some of
 * them, as programs written for OSHMEM do: a PE outside the set returns at once without waiting,
 * without writing its target or pSync (OSHMEM's behaviour; OpenSHMEM leaves it undefined), and the
 * members get their result. Every collective form: barrier, sync, broadcast32/64, collect32/64,
 * fcollect32/64, alltoall32/64, alltoalls32/64 and the *_to_all reductions, over the even PEs
 * (logPE_stride 1) and over the upper half (stride 1, PE_start > 0). */
#include "conf.h"

enum { NE = 4, NSYNC = 12, PAD = 16 };
#define DN(n) (NE * (size_t)(n) + PAD) /* elements of src and dst: room for every form below */
static long *psync;         /* NSYNC pSync arrays: one per call, so no call waits for another */
static long *pwrk;
static int64_t *src, *dst;  /* 64-bit elements; the 32-bit forms use the first half of each */

static void reset(int n) {
  for (size_t i = 0; i < DN(n); ++i) src[i] = 1000 * shmem_my_pe() + (int64_t)i;
  memset(dst, POISON, DN(n) * sizeof(int64_t));
  shmem_barrier_all();
}

static void check_untouched(long *ps, int n, const char *what) {
  EXPECT_POISON(dst, DN(n) * sizeof(int64_t), what);
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) CHECK_EQ(ps[i], SHMEM_SYNC_VALUE);
}

static void run(int start, int log_stride, int size, int n) {
  const int me = shmem_my_pe(), stride = 1 << log_stride, rel = me - start;
  const int in = rel >= 0 && rel % stride == 0 && rel / stride < size, idx = rel / stride;
  long *ps[NSYNC];
  for (int k = 0; k < NSYNC; ++k) ps[k] = psync + k * SHMEM_SYNC_SIZE;

  reset(n);
  shmem_barrier(start, log_stride, size, ps[0]);
  shmem_sync(start, log_stride, size, ps[1]);
  shmem_broadcast64(dst, src, NE, 0, start, log_stride, size, ps[2]);
  if (!in) check_untouched(ps[2], n, "broadcast64 outside the set");
  else if (idx != 0) for (int i = 0; i < NE; ++i) CHECK_EQ(dst[i], 1000 * start + i);
  reset(n);
  shmem_fcollect64(dst, src, 2, start, log_stride, size, ps[3]);
  if (!in) check_untouched(ps[3], n, "fcollect64 outside the set");
  else for (int k = 0; k < size; ++k) for (int i = 0; i < 2; ++i) CHECK_EQ(dst[2 * k + i], 1000 * (start + k * stride) + i);
  reset(n);
  shmem_collect64(dst, src, 1, start, log_stride, size, ps[4]);
  if (!in) check_untouched(ps[4], n, "collect64 outside the set");
  else for (int k = 0; k < size; ++k) CHECK_EQ(dst[k], 1000 * (start + k * stride));
  reset(n);
  shmem_alltoall64(dst, src, 1, start, log_stride, size, ps[5]);
  if (!in) check_untouched(ps[5], n, "alltoall64 outside the set");
  else for (int k = 0; k < size; ++k) CHECK_EQ(dst[k], 1000 * (start + k * stride) + idx);
  reset(n);
  shmem_alltoalls64(dst, src, 1, 1, 1, start, log_stride, size, ps[6]);
  if (!in) check_untouched(ps[6], n, "alltoalls64 outside the set");
  else for (int k = 0; k < size; ++k) CHECK_EQ(dst[k], 1000 * (start + k * stride) + idx);
  reset(n);
  shmem_broadcast32(dst, src, 2, 0, start, log_stride, size, ps[7]);
  shmem_fcollect32(dst + 1, src, 2, start, log_stride, size, ps[8]);
  if (!in) check_untouched(ps[8], n, "broadcast32/fcollect32 outside the set");
  reset(n);
  shmem_collect32(dst, src, 2, start, log_stride, size, ps[9]);
  shmem_alltoall32(dst + NE, src, 2, start, log_stride, size, ps[10]);
  shmem_alltoalls32(dst + 2 * NE, src, 1, 1, 2, start, log_stride, size, ps[11]);
  if (!in) check_untouched(ps[11], n, "collect32/alltoall32/alltoalls32 outside the set");
  shmem_barrier_all();
  /* Reductions: long sum and int max, the pSync/pWrk forms. */
  long *ls = (long *)src, *ld = (long *)dst;
  reset(n);
  ls[0] = me + 1;
  shmem_long_sum_to_all(ld, ls, 1, start, log_stride, size, pwrk, ps[0]);
  if (!in) check_untouched(ps[0], n, "long_sum_to_all outside the set");
  else CHECK_EQ(ld[0], (long)size * (start + 1) + (long)stride * size * (size - 1) / 2);
  reset(n);
  int *is = (int *)src, *id = (int *)dst;
  is[0] = me;
  shmem_int_max_to_all(id, is, 1, start, log_stride, size, (int *)pwrk, ps[1]);
  if (!in) check_untouched(ps[1], n, "int_max_to_all outside the set");
  else CHECK_EQ(id[0], start + (size - 1) * stride);
  shmem_barrier_all();
  for (int k = 0; k < NSYNC; ++k) for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) CHECK_EQ(ps[k][i], SHMEM_SYNC_VALUE);
  shmem_barrier_all();
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  psync = (long *)conf_malloc(NSYNC * SHMEM_SYNC_SIZE * sizeof(long));
  pwrk = (long *)conf_malloc(SHMEM_REDUCE_MIN_WRKDATA_SIZE * 64 * sizeof(long));
  src = (int64_t *)conf_malloc(DN(n) * sizeof(int64_t));
  dst = (int64_t *)conf_malloc(DN(n) * sizeof(int64_t));
  for (int i = 0; i < NSYNC * SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  run(0, 1, (n + 1) / 2, n);    /* the even PEs */
  run(n / 2, 0, n - n / 2, n);  /* the upper half */
  run(0, 0, n, n);              /* everyone */
  shmem_finalize();
  if (me == 0) printf("conf_aset: %d PEs ok\n", n);
  return 0;
}
