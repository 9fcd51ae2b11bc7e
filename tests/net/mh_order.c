/* Small puts across hosts (SYMMEM_NET_PUT_STAGED: answered active messages) keep the orders a
 * program relies on, on the heap and on static data, at sizes on both sides of the limit:
 *  - a put then a get of the same bytes from the same PE, no quiet between: the get sees the put;
 *  - a put then a fetching atomic on a word beside it, then a get: the put is there;
 *  - message passing: data put, fence, flag put (or non-fetching atomic set or add, which travel
 *    as answered messages batched like small puts); the receiver that sees flag i sees data i;
 *  - non-fetching atomic adds then a fetching atomic on the same word, no fence: the fetch sees
 *    every add (one connection delivers in order; the atomics are batched);
 *  - put with signal (set and add, signal word in the heap or static data): the receiver that sees
 *    signal i sees data i;
 *  - puts then quiet: the target sees every byte once a later barrier returns, and nothing else.
 * Each PE works with the PE half the job away (on another host when the PEs fill the hosts in
 * order). Buffers are poisoned before each round so unwritten bytes show.
 *
 *   mh_order [ROUNDS]      (default 300) */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB 140000 /* past the staged limit (SYMMEM_NET_PUT_STAGED, 64 KiB) and room for sizes[0..4] + 1 each */
static unsigned char sdata[MAXB]; /* static data: registered like the heap */
static long sflag;
static uint64_t ssig;

static void fail(const char *what, long round, size_t len, size_t at, int got, int want) {
  fprintf(stderr, "PE %d: %s: round %ld, %zu bytes: byte %zu is %d, want %d\n", shmem_my_pe(), what, round, len, at,
          got, want);
  shmem_global_exit(1);
}

static unsigned char pat(long round, size_t i, int pe) { return (unsigned char)(round * 31 + (long)i * 7 + pe + 1); }

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const long rounds = argc > 1 ? atol(argv[1]) : 300;
  const int peer = (me + n / 2) % n;
  unsigned char *hdata = shmem_malloc(MAXB);
  long *hflag = shmem_malloc(2 * sizeof(long));
  uint64_t *hsig = shmem_calloc(1, sizeof(uint64_t));
  unsigned char *src = malloc(MAXB), *back = malloc(MAXB);
  if (!hdata || !hflag || !hsig || !src || !back) {
    fprintf(stderr, "PE %d: out of memory\n", me);
    shmem_global_exit(1);
  }
  const size_t sizes[] = {1, 1000, 4097, 65536, 65537, MAXB};
  for (int where = 0; where < 2; ++where) {
    unsigned char *data = where == 0 ? hdata : sdata;
    const char *kind = where == 0 ? "heap" : "static data";
    /* Put then get, then put then fetch-add then get. */
    for (long r = 0; r < rounds; ++r) {
      const size_t len = sizes[r % 6];
      for (size_t i = 0; i < len; ++i) src[i] = pat(r, i, me);
      memset(back, 0xEE, len);
      shmem_putmem(data, src, len, peer); /* only this PE writes the peer's buffer */
      shmem_getmem(back, data, len, peer);
      for (size_t i = 0; i < len; ++i)
        if (back[i] != src[i]) fail(where == 0 ? "put then get (heap)" : "put then get (static data)", r, len, i, back[i], src[i]);
      src[0] ^= 0x5a;
      shmem_putmem(data, src, 1, peer);
      (void)shmem_long_atomic_fetch_add(where == 0 ? hflag + 1 : &sflag, 1, peer);
      unsigned char b = 0;
      shmem_getmem(&b, data, 1, peer);
      if (b != src[0]) fail(kind, r, 1, 0, b, src[0]);
    }
    shmem_barrier_all();
    /* Non-fetching adds (and an xor and an or) then a fetching atomic, no fence: the fetch sees
     * them all. Only this PE updates the word on its peer. */
    {
      long *w = where == 0 ? hflag + 1 : &sflag;
      long want = shmem_long_atomic_fetch(w, peer);
      for (long r = 0; r < rounds; ++r) {
        const int adds = 1 + (int)(r % 9);
        for (int k = 0; k < adds; ++k) shmem_long_atomic_add(w, k + 1, peer);
        want += (long)adds * (adds + 1) / 2;
        shmem_ulong_atomic_xor((unsigned long *)w, 0x40000000UL, peer);
        shmem_ulong_atomic_xor((unsigned long *)w, 0x40000000UL, peer);
        const long got = shmem_long_atomic_fetch_add(w, 0, peer);
        if (got != want) {
          fprintf(stderr, "PE %d: adds then fetch (%s): round %ld: %ld, want %ld\n", me, kind, r, got, want);
          shmem_global_exit(1);
        }
      }
    }
    shmem_barrier_all();
    /* Message passing: PEs of the first half send, their peers receive. */
    long *flag = where == 0 ? hflag : &sflag;
    *flag = 0;
    shmem_barrier_all();
    for (long r = 1; r <= rounds; ++r) {
      const size_t len = sizes[r % 6];
      if (me < n / 2) {
        for (size_t i = 0; i < len; ++i) src[i] = pat(r, i, me);
        shmem_putmem(data, src, len, peer);
        shmem_fence();
        if (r % 3 == 0) {
          shmem_long_p(flag, r, peer);
        } else if (r % 3 == 1) {
          shmem_long_atomic_set(flag, r, peer);
        } else {
          shmem_long_atomic_add(flag, 1, peer); /* the receiver's flag holds r - 1 */
        }
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, -r); /* the receiver has checked it */
      } else if (me - n / 2 < n / 2) {
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, r);
        for (size_t i = 0; i < len; ++i)
          if (data[i] != pat(r, i, peer)) fail(where == 0 ? "put, fence, flag (heap)" : "put, fence, flag (static data)", r, len, i, data[i], pat(r, i, peer));
        memset(data, 0xEE, MAXB); /* poison for the next round: the sender waits for the answer */
        shmem_long_p(flag, -r, peer);
        shmem_quiet();
      }
    }
    shmem_barrier_all();
    /* Put with signal: set by even rounds, add by odd ones; the signal word in the other kind of
     * memory than the data, so heap and static data each take both roles. */
    uint64_t *sig = where == 0 ? &ssig : hsig;
    *sig = 0;
    *flag = 0;
    shmem_barrier_all();
    for (long r = 1; r <= rounds; ++r) {
      const size_t len = sizes[r % 6];
      const uint64_t want = (uint64_t)r * 2; /* set to 2r, or add 2 to 2(r-1) */
      if (me < n / 2) {
        for (size_t i = 0; i < len; ++i) src[i] = pat(r, i, me);
        if (r % 2 == 0) {
          shmem_putmem_signal(data, src, len, sig, want, SHMEM_SIGNAL_SET, peer);
        } else {
          shmem_putmem_signal_nbi(data, src, len, sig, 2, SHMEM_SIGNAL_ADD, peer);
        }
        memset(src, 0xAB, len); /* the source is the program's again */
        shmem_long_wait_until(flag, SHMEM_CMP_EQ, -r); /* the receiver has checked it */
      } else if (me - n / 2 < n / 2) {
        shmem_signal_wait_until(sig, SHMEM_CMP_EQ, want);
        for (size_t i = 0; i < len; ++i)
          if (data[i] != pat(r, i, peer)) fail(where == 0 ? "put with signal (heap)" : "put with signal (static data)", r, len, i, data[i], pat(r, i, peer));
        memset(data, 0xEE, MAXB);
        shmem_long_p(flag, -r, peer);
        shmem_quiet();
      }
    }
    shmem_barrier_all();
    /* Puts then quiet, then a barrier: every byte there, the byte after each piece untouched. */
    memset(data, 0xEE, MAXB);
    shmem_barrier_all();
    size_t at = 0;
    for (int k = 0; k < 6 && at + sizes[k] + 1 <= MAXB; ++k) {
      for (size_t i = 0; i < sizes[k]; ++i) src[i] = pat(k, i, me);
      shmem_putmem_nbi(data + at, src, sizes[k], peer);
      at += sizes[k] + 1;
    }
    shmem_quiet();
    shmem_barrier_all();
    const int from = (me + n - n / 2) % n;
    at = 0;
    for (int k = 0; k < 6 && at + sizes[k] + 1 <= MAXB; ++k) {
      for (size_t i = 0; i < sizes[k]; ++i)
        if (data[at + i] != pat(k, i, from)) fail(where == 0 ? "puts and quiet (heap)" : "puts and quiet (static data)", k, sizes[k], i, data[at + i], pat(k, i, from));
      if (data[at + sizes[k]] != 0xEE) fail(kind, k, sizes[k], sizes[k], data[at + sizes[k]], 0xEE);
      at += sizes[k] + 1;
    }
    shmem_barrier_all();
  }
  if (me == 0) printf("mh_order: %d PEs ok\n", n);
  free(src);
  free(back);
  shmem_free(hsig);
  shmem_free(hflag);
  shmem_free(hdata);
  shmem_finalize();
  return 0;
}
