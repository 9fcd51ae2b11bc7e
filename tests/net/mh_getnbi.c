/* Non-blocking gets across hosts: small ones travel in the batches of small puts (a record each,
 * the owner answering with their bytes in order), larger ones through UCX. Each PE reads the PE
 * half the job away (on another host when the PEs fill the hosts in order):
 *  - streams of nbi gets of varied sizes (1 B to 20000 B, on both sides of the batching limit)
 *    from the peer's heap and static data into a private buffer poisoned before each round, gaps
 *    between the pieces left poisoned, then quiet: every piece holds the peer's bytes, every gap
 *    its poison;
 *  - a put to the peer then an nbi get of the same bytes, no fence: after the quiet the get holds
 *    what was put;
 *  - a lone nbi get followed at once by a quiet (nothing else in flight);
 *  - nbi gets interleaved with non-fetching atomics and puts to the same PE, then a fetching
 *    atomic and a quiet;
 *  - the same streams on a private context (whose worker does not batch).
 *
 *   mh_getnbi [ROUNDS]      (default 200) */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_BYTES 65536
#define POISON 0xEE
static unsigned char sdata[SRC_BYTES]; /* static data: registered like the heap */

static unsigned char pat(size_t i, int pe) { return (unsigned char)(i * 13 + (size_t)pe * 71 + 5); }

static void fail(const char *what, long round, size_t at, int got, int want) {
  fprintf(stderr, "PE %d: %s: round %ld: byte %zu is %d, want %d\n", shmem_my_pe(), what, round, at, got, want);
  shmem_global_exit(1);
}

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const long rounds = argc > 1 ? atol(argv[1]) : 200;
  const int peer = (me + n / 2) % n;
  unsigned char *hdata = shmem_malloc(SRC_BYTES);
  unsigned char *scratch = shmem_malloc(SRC_BYTES); /* written by the PE that reads this one */
  long *ctr = shmem_calloc(1, sizeof(long));
  const size_t dst_bytes = 4 * SRC_BYTES;
  unsigned char *dst = malloc(dst_bytes), *want = malloc(dst_bytes), *src = malloc(SRC_BYTES);
  if (!hdata || !scratch || !ctr || !dst || !want || !src) {
    fprintf(stderr, "PE %d: out of memory\n", me);
    shmem_global_exit(1);
  }
  for (size_t i = 0; i < SRC_BYTES; ++i) hdata[i] = sdata[i] = pat(i, me);
  shmem_ctx_t ctx;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) ctx = SHMEM_CTX_DEFAULT;
  shmem_barrier_all();
  const size_t sizes[] = {1, 3, 8, 100, 777, 4096, 8191, 8192, 8193, 20000};
  const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
  long adds = 0;
  for (long r = 0; r < rounds; ++r) {
    const int on_ctx = r % 4 == 3;
    memset(dst, POISON, dst_bytes);
    memset(want, POISON, dst_bytes);
    size_t at = 0;
    for (int k = 0; k < 24; ++k) {
      const size_t len = sizes[(r + k * 7) % nsizes];
      const size_t from = (size_t)(r * 131 + k * 977) % (SRC_BYTES - len);
      if (at + len + 5 > dst_bytes) break;
      const unsigned char *base = k % 3 == 1 ? sdata : hdata;
      if (on_ctx) {
        shmem_ctx_getmem_nbi(ctx, dst + at, base + from, len, peer);
      } else {
        shmem_getmem_nbi(dst + at, base + from, len, peer);
      }
      for (size_t i = 0; i < len; ++i) want[at + i] = pat(from + i, peer);
      if (k % 5 == 4 && !on_ctx) { /* atomics and puts to the same PE among the gets */
        shmem_long_atomic_add(ctr, 1, peer);
        ++adds;
      }
      at += len + 5; /* a poisoned gap after each piece */
    }
    if (on_ctx) {
      shmem_ctx_quiet(ctx);
    } else {
      shmem_quiet();
    }
    for (size_t i = 0; i < at; ++i)
      if (dst[i] != want[i]) fail(on_ctx ? "nbi gets on a private context" : "nbi gets", r, i, dst[i], want[i]);

    /* A put then an nbi get of the same bytes, no fence: the get sees the put. */
    const size_t len = sizes[r % nsizes];
    for (size_t i = 0; i < len; ++i) src[i] = (unsigned char)(r + i * 3 + me);
    memset(dst, POISON, len + 1);
    shmem_putmem(scratch, src, len, peer);
    shmem_getmem_nbi(dst, scratch, len, peer);
    shmem_quiet();
    for (size_t i = 0; i < len; ++i)
      if (dst[i] != src[i]) fail("put then nbi get", r, i, dst[i], src[i]);
    if (dst[len] != POISON) fail("put then nbi get (past the end)", r, len, dst[len], POISON);

    /* A lone nbi get, then the quiet. */
    unsigned char one = POISON;
    shmem_getmem_nbi(&one, sdata + (r % SRC_BYTES), 1, peer);
    shmem_quiet();
    if (one != pat((size_t)(r % SRC_BYTES), peer)) fail("a lone nbi get", r, 0, one, pat((size_t)(r % SRC_BYTES), peer));
  }
  /* The adds all landed, and a fetching atomic sees them: only this PE adds on its peer. */
  const long got = shmem_long_atomic_fetch(ctr, peer);
  if (got != adds) {
    fprintf(stderr, "PE %d: atomic adds among nbi gets: %ld, want %ld\n", me, got, adds);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  if (me == 0) printf("mh_getnbi: %d PEs, %ld rounds ok\n", n, rounds);
  free(src);
  free(want);
  free(dst);
  shmem_free(ctr);
  shmem_free(scratch);
  shmem_free(hdata);
  shmem_finalize();
  return 0;
}
