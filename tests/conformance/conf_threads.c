/* Threads: init_thread with each level (the provided level is the one asked for), query_thread, and
 * SHMEM_THREAD_MULTIPLE for real: several threads per PE at once doing puts, gets, atomics and
 * locks, each through its own private context and through the default one; then every byte and
 * count is checked. */
#include <pthread.h>

#include "conf.h"

enum { THREADS = 4, ITERS = 300, BLOCK = 256 };
static unsigned char *area; /* [THREADS][BLOCK] written by the left neighbour's threads */
static long *counter, *lock, *guarded;
static int me, n;
static uint64_t seed;

static void *worker(void *arg) {
  int t = (int)(long)arg;
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
  int right = (me + 1) % n;
  unsigned char block[BLOCK];
  for (int i = 0; i < ITERS; ++i) {
    fill(block, BLOCK, seed + (uint64_t)me * 1000 + (uint64_t)t);
    shmem_ctx_putmem(ctx, area + t * BLOCK, block, BLOCK, right);
    shmem_ctx_long_atomic_inc(ctx, counter, 0);
    shmem_long_atomic_add(counter + 1, 2, right);
    if (i % 10 == 0) {
      shmem_set_lock(lock);
      long v = shmem_long_g(guarded, 0);
      shmem_long_p(guarded, v + 1, 0);
      shmem_quiet();
      shmem_clear_lock(lock);
    }
    unsigned char back[BLOCK];
    shmem_ctx_getmem(ctx, back, area + t * BLOCK, BLOCK, right);
    CHECK(memcmp(back, block, BLOCK) == 0);
  }
  shmem_ctx_quiet(ctx);
  shmem_ctx_destroy(ctx);
  return NULL;
}

int main(void) {
  int provided = -1;
  CHECK_EQ(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided), 0);
  CHECK_EQ(provided, SHMEM_THREAD_MULTIPLE);
  int q = -1;
  shmem_query_thread(&q);
  CHECK_EQ(q, SHMEM_THREAD_MULTIPLE);
  me = shmem_my_pe();
  n = shmem_n_pes();
  seed = conf_seed();
  area = (unsigned char *)conf_malloc(THREADS * BLOCK);
  counter = (long *)conf_calloc(2, sizeof(long));
  lock = (long *)conf_calloc(1, sizeof(long));
  guarded = (long *)conf_calloc(1, sizeof(long));
  memset(area, POISON, THREADS * BLOCK);
  shmem_barrier_all();
  pthread_t th[THREADS];
  for (long t = 0; t < THREADS; ++t) CHECK_EQ(pthread_create(&th[t], NULL, worker, (void *)t), 0);
  for (int t = 0; t < THREADS; ++t) pthread_join(th[t], NULL);
  shmem_barrier_all();
  int left = (me + n - 1) % n;
  for (int t = 0; t < THREADS; ++t) EXPECT_BYTES(area + t * BLOCK, BLOCK, seed + (uint64_t)left * 1000 + (uint64_t)t, "thread block");
  CHECK_EQ(counter[1], 2L * THREADS * ITERS);
  if (me == 0) {
    CHECK_EQ(counter[0], (long)n * THREADS * ITERS);
    CHECK_EQ(*guarded, (long)n * THREADS * (ITERS / 10));
  }
  shmem_barrier_all();
  shmem_finalize();
  /* the other levels: provided is what was asked */
  const int levels[] = {SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED, SHMEM_THREAD_SERIALIZED};
  for (int k = 0; k < 3; ++k) {
    CHECK_EQ(shmem_init_thread(levels[k], &provided), 0);
    CHECK_EQ(provided, levels[k]);
    shmem_barrier_all();
    shmem_finalize();
  }
  if (me == 0) printf("conf_threads: %d PEs ok\n", n);
  return 0;
}
