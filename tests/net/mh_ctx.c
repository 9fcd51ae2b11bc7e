/* Contexts across hosts: every PE runs THREADS threads (SHMEM_THREAD_MULTIPLE), each with its own
 * private context, and sends to every PE of the next host through it: non-blocking puts of an
 * odd-sized block, p, atomic adds and fetch-adds, a strided put, and at the end a put with
 * signal. After each round the thread's ctx_quiet must have completed its context's operations:
 * it reads them back through the default context (another network worker) and checks every
 * byte. At the end every PE checks what it received byte by byte (slots nobody writes keep their
 * poison) and the counters to exact totals; a shared context of the main thread adds one more
 * fetch-add per peer. tests/net/mh_ctx.sh also checks that each context got its own worker.
 *
 *   mh_ctx [ROUNDS]      (default 200) */
#include <pthread.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define THREADS 2
#define BLK 1001 /* bytes: not a multiple of anything */
#define STRIDED 16
#define POISON 0xA5

#define CHECK(cond, ...)                                                              \
  do {                                                                                \
    if (!(cond)) {                                                                    \
      fprintf(stderr, "PE %d: CHECK FAILED at line %d: %s: ", shmem_my_pe(), __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                                   \
      fputc('\n', stderr);                                                            \
      shmem_global_exit(1);                                                           \
    }                                                                                 \
  } while (0)

static int me, npes, per, rounds;
static unsigned char *recv_blk, *final_blk; /* [npes * THREADS][BLK] */
static long *strided;                         /* [npes * THREADS][2 * STRIDED] */
static int *last_round;                       /* [npes * THREADS] */
static uint64_t *sig;                         /* [npes * THREADS] */
static long *counter;                         /* one per PE */

static unsigned char pattern(int pe, int tid, int round, int j) {
  return (unsigned char)(pe * 31 + tid * 7 + round * 13 + j * 5 + 1);
}

/* The PEs of the next host (PEs fill hosts in order, `per` to a host). */
static int target(int k) { return ((me / per + 1) * per) % npes + k; }

static void *worker(void *arg) {
  const int tid = (int)(intptr_t)arg, slot = me * THREADS + tid;
  shmem_ctx_t c;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0, "ctx_create failed");
  unsigned char src[BLK], back[BLK];
  long lsrc[STRIDED], lback[STRIDED];
  for (int r = 0; r < rounds; ++r) {
    for (int j = 0; j < BLK; ++j) src[j] = pattern(me, tid, r, j);
    for (int k = 0; k < per; ++k) {
      const int pe = target(k);
      shmem_ctx_putmem_nbi(c, recv_blk + (size_t)slot * BLK, src, BLK, pe);
      shmem_ctx_int_p(c, &last_round[slot], r, pe);
      shmem_ctx_long_atomic_add(c, counter, 1, pe);
      if (r % 8 == 0) CHECK(shmem_ctx_long_atomic_fetch_add(c, counter, 1, pe) >= 0, "fetch_add");
    }
    shmem_ctx_quiet(c); /* completes this context's puts: read them back on the default context */
    for (int k = 0; k < per; ++k) {
      const int pe = target(k);
      memset(back, 0, BLK);
      shmem_getmem(back, recv_blk + (size_t)slot * BLK, BLK, pe);
      for (int j = 0; j < BLK; ++j) {
        CHECK(back[j] == src[j], "round %d: byte %d on PE %d is %d, not %d after ctx_quiet", r, j, pe, back[j],
              src[j]);
      }
      CHECK(shmem_int_g(&last_round[slot], pe) == r, "round %d: p not complete on PE %d after ctx_quiet", r, pe);
    }
  }
  for (int i = 0; i < STRIDED; ++i) lsrc[i] = 1000L * me + 100L * tid + i;
  for (int k = 0; k < per; ++k) {
    const int pe = target(k);
    shmem_ctx_long_iput(c, strided + (size_t)slot * 2 * STRIDED, lsrc, 2, 1, STRIDED, pe);
    memset(lback, 0, sizeof lback);
    shmem_ctx_long_iget(c, lback, strided + (size_t)slot * 2 * STRIDED, 1, 2, STRIDED, pe);
    for (int i = 0; i < STRIDED; ++i) CHECK(lback[i] == lsrc[i], "iget %d from PE %d: %ld", i, pe, lback[i]);
    for (int j = 0; j < BLK; ++j) src[j] = pattern(me, tid, rounds, j);
    shmem_ctx_putmem_signal(c, final_blk + (size_t)slot * BLK, src, BLK, &sig[slot], 1, SHMEM_SIGNAL_SET, pe);
  }
  shmem_ctx_quiet(c);
  shmem_ctx_destroy(c);
  return NULL;
}

static void check_received(void) {
  for (int s = 0; s < npes * THREADS; ++s) {
    const int pe = s / THREADS, tid = s % THREADS;
    const int sender = pe / per == (me / per + npes / per - 1) % (npes / per); /* the previous host */
    const unsigned char *b = recv_blk + (size_t)s * BLK, *f = final_blk + (size_t)s * BLK;
    if (sender) shmem_uint64_wait_until(&sig[s], SHMEM_CMP_EQ, 1);
    for (int j = 0; j < BLK; ++j) {
      CHECK(b[j] == (sender ? pattern(pe, tid, rounds - 1, j) : POISON), "block of PE %d thread %d byte %d: %d", pe,
            tid, j, b[j]);
      CHECK(f[j] == (sender ? pattern(pe, tid, rounds, j) : POISON), "signalled block of PE %d thread %d byte %d",
            pe, tid, j);
    }
    for (int i = 0; i < 2 * STRIDED; ++i) {
      const long want = sender && i % 2 == 0 ? 1000L * pe + 100L * tid + i / 2 : -1;
      CHECK(strided[(size_t)s * 2 * STRIDED + i] == want, "strided %d of PE %d thread %d: %ld", i, pe, tid,
            strided[(size_t)s * 2 * STRIDED + i]);
    }
    CHECK(last_round[s] == (sender ? rounds - 1 : -1), "p of PE %d thread %d: %d", pe, tid, last_round[s]);
  }
}

int main(int argc, char **argv) {
  int provided = 0;
  CHECK(shmem_init_thread(SHMEM_THREAD_MULTIPLE, &provided) == 0 && provided == SHMEM_THREAD_MULTIPLE,
        "THREAD_MULTIPLE not provided");
  me = shmem_my_pe();
  npes = shmem_n_pes();
  per = getenv("CONF_PES_PER_HOST") ? atoi(getenv("CONF_PES_PER_HOST")) : 1;
  rounds = argc > 1 ? atoi(argv[1]) : 200;
  CHECK(per >= 1 && npes % per == 0 && npes / per >= 2, "needs 2 or more hosts of %d PEs", per);
  const size_t slots = (size_t)npes * THREADS;
  recv_blk = shmem_malloc(slots * BLK);
  final_blk = shmem_malloc(slots * BLK);
  strided = shmem_malloc(slots * 2 * STRIDED * sizeof(long));
  last_round = shmem_malloc(slots * sizeof(int));
  sig = shmem_calloc(slots, sizeof(uint64_t));
  counter = shmem_calloc(1, sizeof(long));
  memset(recv_blk, POISON, slots * BLK);
  memset(final_blk, POISON, slots * BLK);
  for (size_t i = 0; i < slots * 2 * STRIDED; ++i) strided[i] = -1;
  for (size_t i = 0; i < slots; ++i) last_round[i] = -1;
  shmem_barrier_all();

  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; ++t) pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t);
  for (int t = 0; t < THREADS; ++t) pthread_join(th[t], NULL);
  shmem_ctx_t shared;
  CHECK(shmem_ctx_create(0, &shared) == 0, "ctx_create (shared) failed");
  for (int k = 0; k < per; ++k) (void)shmem_ctx_long_atomic_fetch_add(shared, counter, 1, target(k));
  shmem_ctx_quiet(shared);
  shmem_ctx_destroy(shared);
  /* A private context made after the threads' were destroyed gets one of their workers back
   * (mh_ctx.sh checks the log): its operations must work as on a new one. */
  shmem_ctx_t again;
  CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &again) == 0, "ctx_create (after destroys) failed");
  for (int k = 0; k < per; ++k) {
    (void)shmem_ctx_long_atomic_fetch_add(again, counter, 1, target(k));
    CHECK(shmem_ctx_long_atomic_fetch(again, counter, target(k)) >= 1, "fetch on a reused worker");
  }
  shmem_ctx_quiet(again);
  shmem_ctx_destroy(again);
  shmem_barrier_all();

  check_received();
  const long want = (long)per * (THREADS * (rounds + (rounds + 7) / 8) + 2);
  CHECK(*counter == want, "counter %ld, want %ld", *counter, want);
  printf("PE %d: exact: %d threads x %d rounds from %d PEs, counter %ld, every byte checked\n", me, THREADS, rounds,
         per, *counter);
  shmem_barrier_all();
  shmem_free(counter);
  shmem_free(sig);
  shmem_free(last_round);
  shmem_free(strided);
  shmem_free(final_blk);
  shmem_free(recv_blk);
  shmem_finalize();
  return 0;
}
