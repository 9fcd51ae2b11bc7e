/* Signals: put_signal and put_signal_nbi (mem, typed, sized, generic) with SHMEM_SIGNAL_SET and
 * SHMEM_SIGNAL_ADD, signal_fetch and signal_wait_until. A ring of PEs passes fresh data with a
 * signal; the receiver waits on the signal alone and must then see every byte of the data. */
#include "conf.h"

enum { ROUNDS = 40, MAXB = 70000 };
static unsigned char *data;
static uint64_t *sig;

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  int right = (me + 1) % n, left = (me + n - 1) % n;
  uint64_t seed = conf_seed();
  data = (unsigned char *)conf_malloc(MAXB);
  sig = (uint64_t *)conf_calloc(2, sizeof(uint64_t));
  unsigned char *local = (unsigned char *)malloc(MAXB);
  CHECK_EQ(shmem_signal_fetch(sig), 0);
  shmem_barrier_all();
  for (int r = 1; r <= ROUNDS; ++r) {
    size_t nb = (size_t)(r * 1747) % MAXB;
    memset(data, POISON, MAXB);
    shmem_barrier_all();
    fill(local, nb, seed + (uint64_t)r * 64 + (uint64_t)me);
    switch (r % 5) {
      case 0: shmem_putmem_signal(data, local, nb, sig, (uint64_t)r, SHMEM_SIGNAL_SET, right); break;
      case 1: shmem_putmem_signal_nbi(data, local, nb, sig, (uint64_t)r, SHMEM_SIGNAL_SET, right); break;
      case 2: shmem_put8_signal(data, local, nb, sig, (uint64_t)r, SHMEM_SIGNAL_SET, right); break;
      case 3: shmem_char_put_signal_nbi((char *)data, (char *)local, nb, sig, (uint64_t)r, SHMEM_SIGNAL_SET, right); break;
      default: shmem_put_signal((unsigned char *)data, local, nb, sig, (uint64_t)r, SHMEM_SIGNAL_SET, right); break;
    }
    if (r % 5 == 1) shmem_quiet();
    CHECK_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, (uint64_t)r), r);
    EXPECT_BYTES(data, nb, seed + (uint64_t)r * 64 + (uint64_t)left, "put_signal data");
    EXPECT_POISON(data + nb, MAXB - nb > 64 ? 64 : MAXB - nb, "put_signal past the end");
    CHECK_EQ(shmem_signal_fetch(sig), r);
  }
  shmem_barrier_all();
  /* SIGNAL_ADD: every PE adds its number + 1 to PE 0's counter along with one long each */
  sig[1] = 0;
  shmem_barrier_all();
  long v = 1000 + me;
  shmem_long_put_signal((long *)data + me, &v, 1, sig + 1, (uint64_t)me + 1, SHMEM_SIGNAL_ADD, 0);
  if (me == 0) {
    uint64_t want = (uint64_t)n * (uint64_t)(n + 1) / 2;
    CHECK_EQ(shmem_signal_wait_until(sig + 1, SHMEM_CMP_GE, want), want);
    for (int p = 0; p < n; ++p) CHECK_EQ(((long *)data)[p], 1000 + p);
  }
  shmem_barrier_all();
  /* a zero-length put still delivers its signal */
  sig[0] = 0;
  shmem_barrier_all();
  shmem_putmem_signal(data, local, 0, sig, 7, SHMEM_SIGNAL_SET, right);
  CHECK_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_NE, 0), 7);
  shmem_barrier_all();
  free(local);
  shmem_finalize();
  if (me == 0) printf("conf_signal: %d PEs ok\n", n);
  return 0;
}
