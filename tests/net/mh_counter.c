/* The atomicity domain across hosts: every PE hammers counters on PE 0 and on the last PE (one on
 * each host when the PEs fill the hosts in order) with every kind of atomic update, node-local PEs
 * through the CPU's atomics on the mapping, PEs of other hosts through the network transport, all
 * at once on the same words. Any lost update shows in the exact totals.
 *
 *   mh_counter [ITERATIONS]      (default 3000) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK_EQ(a, b)                                                                          \
  do {                                                                                          \
    long long x_ = (long long)(a), y_ = (long long)(b);                                         \
    if (x_ != y_) {                                                                             \
      fprintf(stderr, "PE %d: CHECK FAILED at line %d: %s == %s (%lld != %lld)\n", shmem_my_pe(), \
              __LINE__, #a, #b, x_, y_);                                                        \
      shmem_global_exit(1);                                                                     \
    }                                                                                           \
  } while (0)

static long c64;          /* a global: the static data segment, registered like the heap */
static unsigned int c32;

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const long iters = argc > 1 ? atol(argv[1]) : 3000;
  long *h64 = shmem_calloc(2, sizeof(long));        /* the heap */
  int *h32 = shmem_calloc(2, sizeof(int));
  const int targets[2] = {0, n - 1};
  shmem_barrier_all();
  long last = -1;
  for (long i = 0; i < iters; ++i) {
    for (int t = 0; t < 2; ++t) {
      const int pe = targets[t];
      long old = shmem_long_atomic_fetch_add(&h64[t], 2, pe); /* +2 */
      if (t == 0 && old <= last) {
        fprintf(stderr, "PE %d: fetch_add went back: %ld after %ld\n", me, old, last);
        shmem_global_exit(1);
      }
      if (t == 0) last = old;
      shmem_long_atomic_inc(&h64[t], pe);                     /* +1 */
      shmem_int_atomic_add(&h32[t], 3, pe);                   /* 32-bit +3 */
      shmem_long_atomic_fetch_inc(&c64, pe);                  /* static data +1 */
      shmem_uint_atomic_add(&c32, 5u, pe);                    /* static data 32-bit +5 */
      if (i % 16 == 0) { /* a CAS that always succeeds once: +1 by compare-and-swap */
        long v = shmem_long_atomic_fetch(&h64[t], pe);
        while (shmem_long_atomic_compare_swap(&h64[t], v, v + 1, pe) != v) v = shmem_long_atomic_fetch(&h64[t], pe);
      }
    }
  }
  shmem_barrier_all();
  const long cas = (iters + 15) / 16;
  for (int t = 0; t < 2; ++t) {
    if (me != targets[t]) continue;
    CHECK_EQ(h64[t], (3 * iters + cas) * n);
    CHECK_EQ(h32[t], 3 * iters * n);
  }
  if (me == 0 || me == n - 1) {
    const int hits = (n - 1 == 0) ? 2 : 1; /* with one PE both targets are PE 0 */
    CHECK_EQ(c64, iters * n * hits);
    CHECK_EQ(c32, 5u * (unsigned)iters * (unsigned)n * (unsigned)hits);
    printf("PE %d: exact totals: heap %ld, static %ld (%d PEs x %ld iterations)\n", me, h64[me == 0 ? 0 : 1], c64,
           n, iters);
  }
  shmem_barrier_all();
  shmem_free(h32);
  shmem_free(h64);
  shmem_finalize();
  return 0;
}
