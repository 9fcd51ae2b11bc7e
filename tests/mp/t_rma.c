/* RMA: a ring of puts and gets of many sizes, typed p/g, strided iput/iget, nbi + quiet.
 * Destinations are poisoned before each step; every byte is checked. */
#include <shmem.h>

#include "check.h"

static void ring_sizes(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  const size_t max = 1 << 20;
  unsigned char *dst = shmem_malloc(max);
  unsigned char *src = malloc(max);
  unsigned char *back = malloc(max);
  CHECK(dst && src && back);
  uint64_t seed = fresh_seed();
  for (size_t len = 1; len <= max; len = len * 3 + 1) {
    memset(dst, 0xA5, max); /* poison */
    for (size_t i = 0; i < len; ++i) src[i] = pattern(seed + (uint64_t)me, i);
    shmem_barrier_all();
    shmem_putmem(dst, src, len, next);
    shmem_barrier_all();
    for (size_t i = 0; i < len; ++i) CHECK(dst[i] == pattern(seed + (uint64_t)prev, i));
    for (size_t i = len; i < max; ++i) CHECK(dst[i] == 0xA5); /* nothing past the end */
    /* get it back from the next PE: it holds my pattern */
    memset(back, 0x5A, len);
    shmem_getmem(back, dst, len, next);
    for (size_t i = 0; i < len; ++i) CHECK(back[i] == pattern(seed + (uint64_t)me, i));
    shmem_barrier_all();
  }
  shmem_free(dst);
  free(src);
  free(back);
}

static void typed_and_strided(void) {
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int next = (me + 1) % n, prev = (me + n - 1) % n;
  long *lv = shmem_malloc(sizeof(long) * 64);
  double *dv = shmem_malloc(sizeof(double) * 64);
  short *sv = shmem_malloc(sizeof(short) * 64);
  for (int i = 0; i < 64; ++i) { lv[i] = -1; dv[i] = -1.0; sv[i] = -1; }
  shmem_barrier_all();
  shmem_long_p(&lv[0], 1000L + me, next);
  shmem_double_p(&dv[0], 0.5 + me, next);
  shmem_p(&sv[0], (short)(7 + me), next); /* generic selection */
  long src[8];
  for (int i = 0; i < 8; ++i) src[i] = me * 100 + i;
  shmem_long_iput(&lv[10], src, 3, 1, 8, next); /* every third slot from 10 */
  shmem_long_put_nbi(&lv[40], src, 8, next);
  shmem_quiet();
  shmem_barrier_all();
  CHECK_EQ_LONG(lv[0], 1000 + prev);
  CHECK(dv[0] == 0.5 + prev);
  CHECK_EQ_LONG(sv[0], 7 + prev);
  for (int i = 0; i < 8; ++i) {
    CHECK_EQ_LONG(lv[10 + 3 * i], prev * 100 + i);
    CHECK_EQ_LONG(lv[40 + i], prev * 100 + i);
  }
  CHECK_EQ_LONG(lv[11], -1); /* gaps of the stride untouched */
  CHECK_EQ_LONG(shmem_long_g(&lv[0], next), 1000 + me);
  CHECK(shmem_g(&dv[0], next) == 0.5 + me);
  long got[8] = {0};
  shmem_long_iget(got, &lv[10], 1, 3, 8, next);
  for (int i = 0; i < 8; ++i) CHECK_EQ_LONG(got[i], me * 100 + i);
  int64_t w[4] = {-5, -6, -7, -8};
  shmem_put64(&lv[60], w, 4, next);
  shmem_barrier_all();
  CHECK_EQ_LONG(lv[63], -8);
  /* ptr: the peer's heap is directly addressable */
  long *peer = shmem_ptr(&lv[0], next);
  CHECK(peer != NULL);
  CHECK_EQ_LONG(*peer, 1000 + me);
  CHECK(shmem_ptr(&lv[0], me) == &lv[0]);
  CHECK(shmem_addr_accessible(lv, next) == 1);
  CHECK(shmem_addr_accessible(src, next) == 0); /* a stack address is not symmetric */
  CHECK(shmem_pe_accessible(next) == 1);
  shmem_barrier_all();
  shmem_free(sv);
  shmem_free(dv);
  shmem_free(lv);
}

int main(void) {
  shmem_init();
  ring_sizes();
  typed_and_strided();
  if (shmem_my_pe() == 0) printf("t_rma: %d PEs ok\n", shmem_n_pes());
  shmem_finalize();
  return 0;
}
