/* first_op: what a PE's first operations on another PE cost right after init, against the same
 * operations once warm. Written to the OpenSHMEM API only, so the same source builds against
 * OSHMEM (bench/first_op.sh runs both across two emulated hosts). PE 0 acts on PE n/2 (on the
 * other host under symmem-run --hosts A:k,B:k): one put + quiet, one get, one fetch-add, each the
 * first of its kind, then ROUNDS of each; then a put + quiet on a new private context, and on a
 * second one made after the first was destroyed, each first and then ROUNDS times; then 500
 * fetch-adds on PE n/2 while that PE waits in a reduction, the job's first one and then a later one
 * (OSU's osu_oshm_atomics times its first row so: its other PEs wait in shmem_double_sum_to_all),
 * and PE 0's own time in each of the two reductions (it comes last); then the job's first 64 KiB
 * reduction (8192 longs per PE, after a barrier) against the mean of the last 10 of 20 more;
 * microseconds.
 *
 *   first_op [ROUNDS]   (default 2000)
 * Output: one CSV line per operation, "op,first_us,warm_us". */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long psync[SHMEM_REDUCE_SYNC_SIZE];
static double pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static double red_in, red_out;
#define BIG 8192 /* longs: 64 KiB */
static long psync2[SHMEM_REDUCE_SYNC_SIZE];
static long big_wrk[BIG / 2 + 1 + SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec * 1e-3;
}

int main(int argc, char **argv) {
  shmem_init();
  const int rounds = argc > 1 ? atoi(argv[1]) : 2000;
  const int me = shmem_my_pe(), peer = shmem_n_pes() / 2;
  long *w = shmem_calloc(4096, sizeof(long));
  int *c = shmem_calloc(4096, sizeof(int));
  shmem_barrier_all();
  if (me == 0 && peer != 0) {
    double t0 = now_us();
    shmem_long_p(&w[0], 1, peer);
    shmem_quiet();
    const double put_first = now_us() - t0;
    t0 = now_us();
    long v = shmem_long_g(&w[1], peer);
    const double get_first = now_us() - t0;
    t0 = now_us();
    v += shmem_int_atomic_fetch_add(&c[0], 1, peer);
    const double amo_first = now_us() - t0;
    t0 = now_us();
    for (int i = 0; i < rounds; ++i) {
      shmem_long_p(&w[i % 4096], i, peer);
      shmem_quiet();
    }
    const double put_warm = (now_us() - t0) / rounds;
    t0 = now_us();
    for (int i = 0; i < rounds; ++i) v += shmem_long_g(&w[i % 4096], peer);
    const double get_warm = (now_us() - t0) / rounds;
    t0 = now_us();
    for (int i = 0; i < rounds; ++i) v += shmem_int_atomic_fetch_add(&c[i % 4096], 1, peer);
    const double amo_warm = (now_us() - t0) / rounds;
    /* Contexts: the first put + quiet on a new context, and on one made after it was destroyed. */
    double ctx_first[2], ctx_warm[2];
    for (int k = 0; k < 2; ++k) {
      shmem_ctx_t cx;
      if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &cx) != 0) cx = SHMEM_CTX_DEFAULT;
      t0 = now_us();
      shmem_ctx_long_p(cx, &w[k], 1, peer);
      shmem_ctx_quiet(cx);
      ctx_first[k] = now_us() - t0;
      t0 = now_us();
      for (int i = 0; i < rounds; ++i) {
        shmem_ctx_long_p(cx, &w[i % 4096], i, peer);
        shmem_ctx_quiet(cx);
      }
      ctx_warm[k] = (now_us() - t0) / rounds;
      if (cx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(cx);
    }
    printf("op,first_us,warm_us\n");
    printf("long_p+quiet,%.1f,%.2f\nlong_g,%.1f,%.2f\nint_fetch_add,%.1f,%.2f\n", put_first, put_warm, get_first,
           get_warm, amo_first, amo_warm);
    printf("ctx_long_p+quiet,%.1f,%.2f\nctx_again_long_p+quiet,%.1f,%.2f\n", ctx_first[0], ctx_warm[0], ctx_first[1],
           ctx_warm[1]);
    if (v == -1) printf("#\n"); /* keeps the loads */
  }
  /* Fetch-adds while their target waits in a reduction: its first (k = 0), then a later one. */
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  double during[2] = {0, 0}, reduce[2] = {0, 0};
  for (int k = 0; k < 2; ++k) {
    shmem_barrier_all();
    if (me == 0 && peer != 0) {
      const double t0 = now_us();
      for (int i = 0; i < 500; ++i) (void)shmem_int_atomic_fetch_add(&c[i], 1, peer);
      during[k] = (now_us() - t0) / 500;
    }
    const double t0 = now_us();
    shmem_double_sum_to_all(&red_out, &red_in, 1, 0, 0, shmem_n_pes(), pwrk, psync);
    reduce[k] = now_us() - t0;  /* on PE 0, which comes last: its own share of the call */
  }
  if (me == 0 && peer != 0) {
    printf("int_fetch_add_in_reduce,%.1f,%.2f\n", during[0], during[1]);
    printf("double_sum_to_all,%.1f,%.2f\n", reduce[0], reduce[1]);
  }
  /* The first large reduction: its data lands in memory the job has not written yet. */
  long *big_in = shmem_calloc(BIG, sizeof(long)), *big_out = shmem_calloc(BIG, sizeof(long));
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync2[i] = SHMEM_SYNC_VALUE;
  double big_first = 0, big_warm = 0;
  for (int k = 0; k < 21; ++k) {
    for (int i = 0; i < BIG; ++i) big_in[i] = me + i + k;
    shmem_barrier_all();
    const double t0 = now_us();
    shmem_long_sum_to_all(big_out, big_in, BIG, 0, 0, shmem_n_pes(), big_wrk, psync2);
    const double t = now_us() - t0;
    if (k == 0) big_first = t;
    if (k >= 11) big_warm += t / 10;
  }
  if (me == 0 && peer != 0) printf("long_sum_to_all_64k,%.1f,%.2f\n", big_first, big_warm);
  shmem_barrier_all();
  shmem_free(big_out);
  shmem_free(big_in);
  shmem_barrier_all();
  shmem_free(c);
  shmem_free(w);
  shmem_finalize();
  return 0;
}
