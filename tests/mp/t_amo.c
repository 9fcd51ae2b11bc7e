/* Atomics: a counter hammered by every PE (the total must be exact), compare_swap on 32- and
 * 64-bit types (OSHMEM's 32-bit compare_swap corrupts the stack), swap/set/fetch, bitwise ops,
 * floating-point set/fetch/swap. */
#include <shmem.h>

#include "check.h"

#define ITERS 20000

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *counter = shmem_calloc(4, sizeof(long));
  int *c32 = shmem_calloc(2, sizeof(int));
  unsigned long long *bits = shmem_calloc(1, sizeof(unsigned long long));
  double *dbl = shmem_calloc(1, sizeof(double));
  int32_t *slot = shmem_calloc(1, sizeof(int32_t));

  /* 1. the hammer: fetch_add, add, inc and fetch_inc from every PE to PE 0 and to the last PE */
  long seen_max = -1;
  for (int i = 0; i < ITERS; ++i) {
    long old = shmem_long_atomic_fetch_add(&counter[0], 1, 0);
    CHECK(old >= 0 && old < (long)ITERS * n);
    if (old > seen_max) seen_max = old;
    shmem_long_atomic_add(&counter[1], 2, n - 1);
    shmem_atomic_inc(&counter[2], 0);
    (void)shmem_int_atomic_fetch_inc(&c32[0], n - 1);
  }
  shmem_barrier_all();
  if (me == 0) {
    CHECK_EQ_LONG(counter[0], (long)ITERS * n);
    CHECK_EQ_LONG(counter[2], (long)ITERS * n);
  }
  if (me == n - 1) {
    CHECK_EQ_LONG(counter[1], 2L * ITERS * n);
    CHECK_EQ_LONG(c32[0], ITERS * n);
  }
  shmem_barrier_all();

  /* 2. compare_swap as a ticket: every PE claims slot values in turn; each value claimed once */
  int32_t guard_before = 0x11223344, guard_after = 0x55667788; /* stack canaries around the result */
  int32_t claimed = 0;
  for (int32_t v = 0; v < 1000; ++v) {
    int32_t old = shmem_int32_atomic_compare_swap(slot, v, v + 1, 0);
    if (old == v) claimed++;
    else CHECK(old > v);
  }
  CHECK(guard_before == 0x11223344 && guard_after == 0x55667788);
  long total_claims = shmem_long_atomic_fetch_add(&counter[3], claimed, 0) + claimed;
  (void)total_claims;
  shmem_barrier_all();
  if (me == 0) {
    CHECK_EQ_LONG(*slot, 1000);
    CHECK_EQ_LONG(counter[3], 1000); /* each of the 1000 transitions won by exactly one PE */
  }
  shmem_barrier_all();

  /* 3. swap / set / fetch and bitwise ops, PE i owns bit i */
  if (n <= 64) {
    shmem_ulonglong_atomic_or(bits, 1ULL << me, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(*bits == (n == 64 ? ~0ULL : (1ULL << n) - 1));
    shmem_barrier_all();
    unsigned long long before = shmem_ulonglong_atomic_fetch_and(bits, ~(1ULL << me), 0);
    CHECK((before >> me) & 1ULL);
    shmem_barrier_all();
    if (me == 0) CHECK(*bits == 0);
    shmem_barrier_all();
    shmem_atomic_xor(bits, 0xF0F0ULL, 0);
    shmem_barrier_all();
    if (me == 0) CHECK(*bits == ((n % 2) ? 0xF0F0ULL : 0ULL));
  }
  shmem_barrier_all();
  if (me == 0) shmem_double_atomic_set(dbl, 2.5, n - 1);
  shmem_barrier_all();
  CHECK(shmem_double_atomic_fetch(dbl, n - 1) == 2.5);
  shmem_barrier_all();
  if (me == n - 1) {
    double old = shmem_atomic_swap(dbl, -1.25, n - 1);
    CHECK(old == 2.5);
    CHECK(*dbl == -1.25);
  }
  shmem_barrier_all();
  if (me == 0) printf("t_amo: %d PEs ok\n", n);
  shmem_finalize();
  return 0;
}
