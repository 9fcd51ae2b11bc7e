/* Small puts across hosts that travel together (the UCX plugin's batches of staged puts) keep what
 * OpenSHMEM promises, on the heap and on static data:
 *  - streams of puts of varied sizes (1 B to past the batched size) to adjacent bytes of two PEs
 *    in turn, and to bytes written before with a fence between (what orders them), their source
 *    changed right after each blocking put, with gets, fetching and non-fetching atomics, puts
 *    with signal, non-blocking puts and fences among them: every get sees the puts before it, and
 *    after a quiet the target holds exactly the last bytes written;
 *  - message passing: many small puts, fence, flag: the receiver that sees flag i sees them all;
 *  - non-blocking puts then quiet, and puts on a private context then its quiet;
 *  - puts and a flag with no quiet, then a loop outside the library: they still arrive (the
 *    receiver answers, and the answer must reach a PE that is not in the library either).
 * Each PE writes the slot of its own number in the buffers of two other PEs (the one half the job
 * away, on another host when the PEs fill the hosts in order, and the next one). Buffers are
 * poisoned before each round so unwritten bytes show.
 *
 *   mh_batch [ROUNDS]      (default 40) */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SLOT 24576 /* bytes of one writer's slot in a target's buffer */
#define MAXPE 16
static unsigned char sbuf[MAXPE * SLOT]; /* static data: registered like the heap */
static long sflag[MAXPE];
static long sack;

static int me, npes;

static void fail(const char *what, long round, size_t at, int got, int want) {
  fprintf(stderr, "PE %d: %s: round %ld: byte %zu is %d, want %d\n", me, what, round, at, got, want);
  shmem_global_exit(1);
}

static uint64_t rng_state;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* 1 B to 9 KiB, mostly small, now and then past the batched size (8 KiB) or zero. */
static size_t some_size(void) {
  const uint64_t r = rnd() % 100;
  if (r < 2) return 0;
  if (r < 50) return 1 + rnd() % 16;
  if (r < 85) return 1 + rnd() % 512;
  if (r < 95) return 1 + rnd() % 4096;
  return 4096 + rnd() % 5200;
}

/* OpenSHMEM orders two puts to the same bytes only across a fence: a write that overlaps one of
 * this epoch's (per target, since the last fence) starts a new epoch with a fence. */
static uint32_t *used[2];
static uint32_t epoch = 1;
static void claim(int t, size_t at, size_t len) {
  for (size_t i = at; i < at + len; ++i)
    if (used[t][i] == epoch) {
      shmem_fence();
      ++epoch;
      break;
    }
  for (size_t i = at; i < at + len; ++i) used[t][i] = epoch;
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(int argc, char **argv) {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  const long rounds = argc > 1 ? atol(argv[1]) : 40;
  if (npes > MAXPE) {
    if (me == 0) fprintf(stderr, "mh_batch: at most %d PEs\n", MAXPE);
    shmem_global_exit(1);
  }
  const int far = (me + npes / 2) % npes, next = (me + 1) % npes;
  const int targets[2] = {far, next};
  const int two = far != next; /* else one target, one shadow */
  used[0] = calloc(SLOT, sizeof(uint32_t));
  used[1] = calloc(SLOT, sizeof(uint32_t));
  unsigned char *hbuf = shmem_malloc((size_t)npes * SLOT);
  long *hflag = shmem_malloc(MAXPE * sizeof(long));
  long *hctr = shmem_calloc(2, sizeof(long));
  uint64_t *hsig = shmem_calloc(1, sizeof(uint64_t));
  unsigned char *shadow[2] = {malloc(SLOT), malloc(SLOT)};
  unsigned char *src = malloc(SLOT), *back = malloc(SLOT);
  if (!used[0] || !used[1] || !hbuf || !hflag || !hctr || !hsig || !shadow[0] || !shadow[1] || !src || !back) {
    fprintf(stderr, "PE %d: out of memory\n", me);
    shmem_global_exit(1);
  }
  for (int where = 0; where < 2; ++where) {
    unsigned char *buf = where == 0 ? hbuf : sbuf;
    unsigned char *mine = buf + (size_t)me * SLOT; /* my slot, in every PE's buffer */
    const char *kind = where == 0 ? "heap" : "static data";
    char what[128];
    /* Streams of puts with other operations among them. */
    for (long r = 0; r < rounds; ++r) {
      memset(buf, 0xEE, (size_t)npes * SLOT);
      memset(shadow[0], 0xEE, SLOT);
      memset(shadow[1], 0xEE, SLOT);
      shmem_barrier_all();
      rng_state = 0x9E3779B97F4A7C15ULL ^ (uint64_t)(me * 1000003 + r * 7919 + where);
      const int ops = 200 + (int)(rnd() % 400);
      for (int k = 0; k < ops; ++k) {
        const int t = (rnd() % 8) == 0 && two ? 1 : 0; /* mostly one target, now and then the other */
        const size_t len = some_size();
        const size_t at = (size_t)(rnd() % (SLOT - len + 1));
        for (size_t i = 0; i < len; ++i) src[i] = (unsigned char)rnd();
        claim(t, at, len);
        shmem_putmem(mine + at, src, len, targets[t]);
        memcpy(shadow[t] + at, src, len);
        memset(src, 0x11, len); /* a blocking put's source may be reused on return */
        const uint64_t op = rnd() % 64;
        if (op == 0) { /* a get of a range of what was written: it sees every put before it */
          const size_t glen = 1 + rnd() % 2048, gat = (size_t)(rnd() % (SLOT - glen + 1));
          shmem_getmem(back, mine + gat, glen, targets[t]);
          for (size_t i = 0; i < glen; ++i)
            if (back[i] != shadow[t][gat + i]) {
              snprintf(what, sizeof what, "get after puts (%s, PE %d)", kind, targets[t]);
              fail(what, r, gat + i, back[i], shadow[t][gat + i]);
            }
        } else if (op == 1) {
          (void)shmem_long_atomic_fetch_add(hctr, 1, targets[t]);
        } else if (op == 2) {
          shmem_long_atomic_add(hctr + 1, 1, targets[t]);
        } else if (op == 3) {
          shmem_fence();
          ++epoch;
        } else if (op == 4) { /* a put with signal into the same slot */
          const size_t plen = 1 + rnd() % 64, pat = (size_t)(rnd() % (SLOT - plen + 1));
          for (size_t i = 0; i < plen; ++i) src[i] = (unsigned char)rnd();
          claim(t, pat, plen);
          shmem_putmem_signal(mine + pat, src, plen, hsig, 1, SHMEM_SIGNAL_ADD, targets[t]);
          memcpy(shadow[t] + pat, src, plen);
        } else if (op == 5) { /* non-blocking: the source stays until the quiet */
          const size_t nlen = 1 + rnd() % 32, nat = (size_t)(rnd() % (SLOT - nlen + 1));
          static unsigned char keep[64 * 64];
          static int kept = 0;
          if (kept % 64 == 0) shmem_quiet(); /* before a source is reused */
          unsigned char *s = keep + 64 * (kept++ % 64);
          for (size_t i = 0; i < nlen; ++i) s[i] = (unsigned char)rnd();
          claim(t, nat, nlen);
          shmem_putmem_nbi(mine + nat, s, nlen, targets[t]);
          memcpy(shadow[t] + nat, s, nlen);
        }
      }
      shmem_quiet();
      shmem_barrier_all();
      /* Each target checks the slots of its writers against the writers' shadows, fetched back. */
      for (int t = 0; t < 1 + two; ++t) {
        shmem_getmem(back, mine, SLOT, targets[t]);
        for (size_t i = 0; i < SLOT; ++i)
          if (back[i] != shadow[t][i]) {
            snprintf(what, sizeof what, "after quiet (%s, PE %d)", kind, targets[t]);
            fail(what, r, i, back[i], shadow[t][i]);
          }
      }
      shmem_barrier_all();
    }
    /* Message passing: many small puts, a fence, the flag. */
    long *flag = where == 0 ? hflag : sflag;
    for (int i = 0; i < MAXPE; ++i) flag[i] = 0;
    shmem_barrier_all();
    const int sender = me < npes / 2, receiver = me >= npes / 2 && me - npes / 2 < npes / 2;
    const int from = (me + npes - npes / 2) % npes; /* whose far PE I am */
    for (long r = 1; r <= rounds; ++r) {
      const int pieces = 1 + (int)(r * 13 % 97);
      if (sender) {
        memset(shadow[0], 0, SLOT);
        for (int p = 0; p < pieces; ++p) {
          const size_t len = 1 + (size_t)((r * 31 + p * 17) % 300), at = (size_t)((p * 211 + r) % (SLOT - 300));
          for (size_t i = 0; i < len; ++i) src[i] = (unsigned char)(r + p + i);
          shmem_putmem(mine + at, src, len, far);
        }
        shmem_fence();
        shmem_long_p(flag + me, r, far);
        shmem_long_wait_until(flag + me, SHMEM_CMP_EQ, -r); /* the receiver has checked it */
      } else if (receiver) {
        shmem_long_wait_until(flag + from, SHMEM_CMP_EQ, r);
        unsigned char *got = buf + (size_t)from * SLOT;
        for (int p = 0; p < pieces; ++p) { /* later pieces may overwrite earlier ones: replay */
          const size_t len = 1 + (size_t)((r * 31 + p * 17) % 300), at = (size_t)((p * 211 + r) % (SLOT - 300));
          for (size_t i = 0; i < len; ++i) shadow[0][at + i] = (unsigned char)(r + p + i);
        }
        for (int p = 0; p < pieces; ++p) {
          const size_t len = 1 + (size_t)((r * 31 + p * 17) % 300), at = (size_t)((p * 211 + r) % (SLOT - 300));
          for (size_t i = at; i < at + len; ++i)
            if (got[i] != shadow[0][i]) fail(where == 0 ? "fence then flag (heap)" : "fence then flag (static data)", r, i, got[i], shadow[0][i]);
        }
        shmem_long_p(flag + from, -r, from);
      }
    }
    shmem_barrier_all();
  }
  /* Puts on a private context, then its quiet. */
  shmem_ctx_t ctx;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) ctx = SHMEM_CTX_DEFAULT;
  memset(hbuf, 0xEE, (size_t)npes * SLOT);
  shmem_barrier_all();
  unsigned char *mine = hbuf + (size_t)me * SLOT;
  for (size_t i = 0; i < SLOT / 8; ++i) {
    unsigned char v[8];
    memset(v, (int)(unsigned char)(i * 3 + me), sizeof v);
    shmem_ctx_putmem(ctx, mine + 8 * i, v, 1, far);
    shmem_ctx_putmem(ctx, mine + 8 * i + 1, v, 7 - i % 7, far);
  }
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  {
    const unsigned char *got = hbuf + (size_t)((me + npes - npes / 2) % npes) * SLOT;
    const int w = (me + npes - npes / 2) % npes;
    for (size_t i = 0; i < SLOT / 8; ++i) {
      const unsigned char v = (unsigned char)(i * 3 + w);
      const size_t n = 1 + 7 - i % 7;
      for (size_t j = 0; j < 8; ++j)
        if (got[8 * i + j] != (j < n ? v : 0xEE)) fail("context puts then its quiet", 0, 8 * i + j, got[8 * i + j], j < n ? v : 0xEE);
    }
  }
  if (ctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(ctx);
  /* No quiet: puts and a flag, then a loop outside the library until the answer lands; on the
   * default context, then on a private one (whose worker no progress thread serves: its puts must
   * not wait for the program's next call). */
  for (int pass = 0; pass < 2; ++pass) {
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;
    if (pass == 1 && shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) != 0) c = SHMEM_CTX_DEFAULT;
    if (c != SHMEM_CTX_DEFAULT && me < npes / 2) {
      /* A context's worker connects to a PE on its first operation, which needs the library's
       * progress: connected first, so that what follows tests its sends, not its connection. */
      const unsigned char z = 0;
      shmem_ctx_putmem(c, mine + SLOT - 1, &z, 1, far);
      shmem_ctx_quiet(c);
    }
    sack = 0;
    for (int i = 0; i < MAXPE; ++i) hflag[i] = 0;
    memset(hbuf, 0, (size_t)npes * SLOT);
    shmem_barrier_all();
    if (me < npes / 2) {
      for (int p = 0; p < 50; ++p) {
        const unsigned char v = (unsigned char)(p + 1 + 100 * pass);
        shmem_ctx_putmem(c, mine + p, &v, 1, far);
      }
      shmem_ctx_long_p(c, hflag + me, 1, far);
      const double t0 = now();
      while (__atomic_load_n(&sack, __ATOMIC_ACQUIRE) == 0) {
        if (now() - t0 > 20) {
          fprintf(stderr, "PE %d: puts and a flag without quiet (%s context): no answer from PE %d in 20 s\n", me,
                  pass == 0 ? "default" : "private", far);
          shmem_global_exit(1);
        }
      }
    } else if (me - npes / 2 < npes / 2) {
      const int w = me - npes / 2;
      shmem_long_wait_until(hflag + w, SHMEM_CMP_EQ, 1);
      shmem_fence(); /* nothing to order: the flag may come before the data; wait for the data too */
      const unsigned char *got = hbuf + (size_t)w * SLOT;
      const double t0 = now();
      for (int p = 0; p < 50; ++p)
        while (__atomic_load_n(&got[p], __ATOMIC_ACQUIRE) != (unsigned char)(p + 1 + 100 * pass)) {
          if (now() - t0 > 20) fail("puts without quiet never arrived", pass, (size_t)p, got[p], p + 1 + 100 * pass);
          shmem_long_test(hflag + w, SHMEM_CMP_EQ, 1); /* progress */
        }
      const long one = 1;
      shmem_long_put(&sack, &one, 1, w);
    }
    shmem_barrier_all();
    if (c != SHMEM_CTX_DEFAULT) {
      shmem_ctx_quiet(c);
      shmem_ctx_destroy(c);
    }
  }
  shmem_barrier_all();
  if (me == 0) printf("mh_batch: %ld rounds on %d PEs: ok\n", rounds, npes);
  free(shadow[0]);
  free(shadow[1]);
  free(src);
  free(back);
  free(used[0]);
  free(used[1]);
  shmem_free(hbuf);
  shmem_free(hflag);
  shmem_free(hctr);
  shmem_free(hsig);
  shmem_finalize();
  return 0;
}
