/* Ping-pong the way the openshmem-examples' sping and most latency programs do it: PE pairs
 * (0,1), (2,3), ... put a message into the partner's buffer, the partner waits until the last
 * element is non-zero, checks it, resets it to zero and answers. Every message carries its number,
 * so a put that writes a byte twice (memcpy does, for 8-16 bytes and at the end of long copies)
 * and brings an old value back after the reset is caught at once as a wrong number (it used to
 * make such programs lose step or hang). Sizes from one element to past a page, as typed puts,
 * putmem and put_nbi + quiet; the buffer in the heap or, with CONF_MEMORY=static, in a global
 * array. */
#include <unistd.h>

#include "conf.h"

enum { MAXN = 1200, ROUNDS = 4000 };
static long *rbuf;

/* One ping-pong of `rounds` messages of n longs; the message number is in the last element. */
static void pingpong(int me, int peer, size_t n, int how, int rounds) {
  long msg[MAXN];
  for (size_t i = 0; i < n; ++i) msg[i] = 7;
  const int odd = me & 1;
  for (long k = 0; k < rounds; ++k) {
    const long want = odd ? 2 * k + 1 : 2 * k + 2; /* the ping to the odd PE, the answer to the even one */
    if (!odd) {
      msg[n - 1] = 2 * k + 1;
      if (how == 0) shmem_long_put(rbuf, msg, n, peer);
      else if (how == 1) shmem_putmem(rbuf, msg, n * sizeof(long), peer);
      else shmem_long_put_nbi(rbuf, msg, n, peer), shmem_quiet();
    }
    shmem_long_wait_until(&rbuf[n - 1], SHMEM_CMP_NE, 0);
    long got = rbuf[n - 1];
    if (got != want) {
      fprintf(stderr, "CHECK FAILED on PE %d: message %ld of %zu longs (form %d): the last element is %ld\n", me,
              want, n, how, got);
      shmem_global_exit(1);
    }
    rbuf[n - 1] = 0;
    if (odd) {
      msg[n - 1] = got + 1;
      if (how == 0) shmem_long_put(rbuf, msg, n, peer);
      else if (how == 1) shmem_putmem(rbuf, msg, n * sizeof(long), peer);
      else shmem_long_put_nbi(rbuf, msg, n, peer), shmem_quiet();
    }
  }
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes(), peer = me ^ 1;
  rbuf = (long *)conf_calloc(MAXN, sizeof(long));
  static const size_t sizes[] = {1, 2, 3, 8, 17, 513, MAXN};
  /* Oversubscribed, every hop waits for the partner to get a core: fewer rounds then. */
  int rounds = n > sysconf(_SC_NPROCESSORS_ONLN) ? ROUNDS / 8 : ROUNDS;
  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; ++s) {
    for (int how = 0; how < 3; ++how) {
      shmem_barrier_all();
      if (peer < n) pingpong(me, peer, sizes[s], how, sizes[s] > 64 ? rounds / 4 : rounds);
      shmem_barrier_all();
      for (size_t i = 0; i < MAXN; ++i) CHECK(rbuf[i] == 0 || rbuf[i] == 7);
    }
  }
  shmem_barrier_all();
  conf_free(rbuf);
  shmem_finalize();
  if (me == 0) printf("conf_pingpong: %d PEs ok\n", n);
  return 0;
}
