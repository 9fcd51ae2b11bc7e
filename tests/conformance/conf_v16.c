/* OpenSHMEM 1.6 additions and their Sandia OpenSHMEM shmemx_ names: block-strided RMA (ibput,
 * ibget: typed, sized, context and generic forms), signal updates without data (signal_add,
 * signal_set), pe_quiet, sessions, and prefix sums over a team (shmem_TYPE_sum_inscan / _exscan
 * and shmemx_, in place too). Every destination is poisoned first, so a byte between the blocks
 * that gets written, or a block that does not arrive, shows. With an argument, one misuse that must
 * end the job with a message:
 *   bad_stride     an ibput whose target stride is smaller than its block
 *   bad_pe_quiet   a pe_quiet naming a PE that does not exist */
#include <complex.h>
#include <shmemx.h>

#include "conf.h"

enum { NBMAX = 9, BMAX = 9000 }; /* blocks and elements per block: up to 81000 elements */

/* Checks an ibput/ibget result of esize-byte elements: block i at i * tst elements holds the
 * pattern of source block i (source elements at i * sst), the elements in between are poison. */
static void expect_blocks(const unsigned char *got, size_t esize, size_t tst, size_t sst, size_t bsize,
                          size_t nblocks, const unsigned char *src, const char *what, int line) {
  for (size_t i = 0; i < nblocks; ++i) {
    const unsigned char *blk = got + i * tst * esize;
    if (memcmp(blk, src + i * sst * esize, bsize * esize) != 0) {
      fprintf(stderr, "CHECK FAILED on PE %d at line %d: %s: block %zu of %zu (%zu elements of %zu bytes) differs\n",
              shmem_my_pe(), line, what, i, nblocks, bsize, esize);
      shmem_global_exit(1);
    }
    if (i + 1 < nblocks) expect_poison(blk + bsize * esize, (tst - bsize) * esize, what, line);
  }
}

static void test_ib(void) {
  int me = shmem_my_pe(), n = shmem_n_pes();
  int right = (me + 1) % n, left = (me + n - 1) % n;
  uint64_t seed = conf_seed() ^ 0x1b;
  const size_t span = (size_t)NBMAX * 2 * BMAX * 16; /* the largest strided span, in bytes */
  unsigned char *dst = (unsigned char *)conf_malloc(span);
  unsigned char *src = (unsigned char *)conf_malloc(span);
  unsigned char *local = (unsigned char *)malloc(span);
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
  /* shapes: (block, blocks, dest stride, source stride) */
  static const size_t shapes[][4] = {{1, 1, 1, 1}, {4, 2, 4, 4}, {4, 2, 4, 7}, {4, 2, 7, 4},
                                     {3, 9, 5, 8}, {BMAX, 3, BMAX + 17, BMAX * 2}, {700, 9, 700, 701}};
  int round = 0;
  for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh) {
    size_t b = shapes[sh][0], nb = shapes[sh][1], tst = shapes[sh][2], sst = shapes[sh][3];
    for (int form = 0; form < 8; ++form, ++round) {
      size_t esize = form == 1 || form == 5 ? 8 : form == 2 ? 2 : form == 3 ? 16 : 4;
      if (form == 3 && sizeof(long double) != 16) esize = sizeof(long double);
      /* the bytes this shape reaches in either buffer, and the poison checked past them: only
       * these are filled and poisoned (all of span, 8 PEs under ThreadSanitizer, took 80 s) */
      size_t reach = ((nb - 1) * (tst > sst ? tst : sst) + b) * esize + 64;
      if (reach > span) reach = span;
      /* ibput: fresh source here, into the right neighbour's poisoned dest */
      memset(dst, POISON, reach);
      fill(local, reach, seed + (uint64_t)round * 131 + (uint64_t)me);
      shmem_barrier_all();
      switch (form) {
        case 0: shmem_int_ibput((int *)dst, (int *)local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 1: shmem_ibput64(dst, local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 2: shmem_ctx_short_ibput(ctx, (short *)dst, (short *)local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right);
                shmem_ctx_quiet(ctx); break;
        case 3: shmemx_longdouble_ibput((long double *)dst, (long double *)local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 4: shmem_ibput((float *)dst, (float *)local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 5: shmem_ibput(ctx, (double *)dst, (double *)local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right);
                shmem_ctx_quiet(ctx); break;
        case 6: shmemx_ibput32(dst, local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        default: shmemx_ctx_ibput32(ctx, dst, local, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right);
                 shmem_ctx_quiet(ctx); break;
      }
      shmem_barrier_all();
      unsigned char *want = (unsigned char *)malloc(span);
      fill(want, reach, seed + (uint64_t)round * 131 + (uint64_t)left);
      expect_blocks(dst, esize, tst, sst, b, nb, want, "ibput", __LINE__);
      expect_poison(dst + ((nb - 1) * tst + b) * esize, 64, "ibput past the last block", __LINE__);
      /* ibget: the right neighbour's symmetric source into a poisoned private buffer */
      fill(src, reach, seed + (uint64_t)round * 137 + (uint64_t)me);
      memset(local, POISON, reach);
      shmem_barrier_all();
      switch (form) {
        case 0: shmem_int_ibget((int *)local, (int *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 1: shmem_ibget64(local, src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 2: shmem_ctx_short_ibget(ctx, (short *)local, (short *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 3: shmemx_longdouble_ibget((long double *)local, (long double *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 4: shmem_ibget((float *)local, (float *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 5: shmem_ibget(ctx, (double *)local, (double *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        case 6: shmemx_ibget32(local, src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
        default: shmemx_ibget(ctx, (int *)local, (int *)src, (ptrdiff_t)tst, (ptrdiff_t)sst, b, nb, right); break;
      }
      fill(want, reach, seed + (uint64_t)round * 137 + (uint64_t)right);
      expect_blocks(local, esize, tst, sst, b, nb, want, "ibget", __LINE__);
      expect_poison(local + ((nb - 1) * tst + b) * esize, 64, "ibget past the last block", __LINE__);
      free(want);
      shmem_barrier_all(); /* the source stays until every PE has read it */
    }
  }
  /* nothing to move: no block, or blocks of no element, with NULL buffers */
  shmem_int_ibput((int *)dst, NULL, 4, 4, 4, 0, right);
  shmem_int_ibget(NULL, (int *)src, 4, 4, 0, 3, right);
  shmem_ctx_destroy(ctx);
  free(local);
  shmem_barrier_all();
}

static void test_signal_ops(void) {
  int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t *sig = (uint64_t *)conf_calloc(2, sizeof(uint64_t));
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
  for (int r = 1; r <= 20; ++r) {
    /* every PE adds me + 1 to PE (r % n)'s counter, through the four forms in turn */
    int target = r % n;
    switch ((me + r) % 4) {
      case 0: shmem_signal_add(sig, (uint64_t)me + 1, target); break;
      case 1: shmemx_signal_add(sig, (uint64_t)me + 1, target); break;
      case 2: shmem_ctx_signal_add(ctx, sig, (uint64_t)me + 1, target); shmem_ctx_quiet(ctx); break;
      default: shmem_signal_add(ctx, sig, (uint64_t)me + 1, target); shmem_ctx_quiet(ctx); break;
    }
    if (me == target) {
      uint64_t want = (uint64_t)n * (uint64_t)(n + 1) / 2;
      CHECK_EQ(shmem_signal_wait_until(sig, SHMEM_CMP_EQ, want), want);
      sig[0] = 0;
    }
    shmem_barrier_all();
    /* the left neighbour sets this PE's second word to r * 1000 + itself */
    int right = (me + 1) % n;
    uint64_t v = (uint64_t)r * 1000 + (uint64_t)me;
    switch (r % 3) {
      case 0: shmem_signal_set(sig + 1, v, right); break;
      case 1: shmemx_ctx_signal_set(ctx, sig + 1, v, right); break;
      default: shmemx_signal_set(ctx, sig + 1, v, right); break;
    }
    uint64_t from_left = (uint64_t)r * 1000 + (uint64_t)((me + n - 1) % n);
    CHECK_EQ(shmem_signal_wait_until(sig + 1, SHMEM_CMP_EQ, from_left), from_left);
    shmem_barrier_all();
  }
  shmem_ctx_destroy(ctx);
  shmem_barrier_all();
}

/* pe_quiet completes what was sent to the PEs named: data put to the right neighbour, then
 * pe_quiet({right}), then a flag: the neighbour that sees the flag sees the data (without the
 * quiet a put and a later put to another word need not arrive in order). Sessions around the same
 * traffic change nothing. */
static void test_pe_quiet_sessions(void) {
  int me = shmem_my_pe(), n = shmem_n_pes();
  int right = (me + 1) % n, left = (me + n - 1) % n;
  enum { W = 4096 };
  long *data = (long *)conf_malloc(W * sizeof(long));
  long *flag = (long *)conf_calloc(1, sizeof(long));
  long *local = (long *)malloc(W * sizeof(long));
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx), 0);
  for (int r = 1; r <= 30; ++r) {
    memset(data, POISON, W * sizeof(long));
    shmem_barrier_all();
    for (int i = 0; i < W; ++i) local[i] = (long)r * 100000 + (long)me * 1000 + i;
    int pes[2] = {right, me};
    shmem_ctx_session_config_t cfg = {.total_ops = 2};
    if (r % 3 == 0) shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &cfg, SHMEM_CTX_SESSION_TOTAL_OPS);
    if (r % 2) {
      shmem_long_put(data, local, (size_t)(r * 131) % W + 1, right);
      shmem_pe_quiet(pes, 1 + r % 2);
      shmem_long_atomic_set(flag, r, right);
    } else {
      shmem_ctx_long_put(ctx, data, local, (size_t)(r * 131) % W + 1, right);
      shmem_ctx_pe_quiet(ctx, pes, 1);
      shmem_ctx_long_atomic_set(ctx, flag, r, right);
      shmem_ctx_quiet(ctx);
    }
    if (r % 3 == 0) shmem_ctx_session_stop(ctx);
    shmem_long_wait_until(flag, SHMEM_CMP_EQ, r);
    size_t got = (size_t)(r * 131) % W + 1;
    for (size_t i = 0; i < got; ++i) CHECK_EQ(data[i], (long)r * 100000 + (long)left * 1000 + (long)i);
    shmem_barrier_all();
  }
  shmem_pe_quiet(NULL, 0);  /* no PE named: nothing to do */
  shmem_ctx_session_start(SHMEM_CTX_INVALID, 0, NULL, 0);
  shmem_ctx_session_stop(SHMEM_CTX_INVALID);
  shmem_ctx_destroy(ctx);
  free(local);
  shmem_barrier_all();
}

enum { SCAN_MAX = 20000 };

static void test_scans(void) {
  int me = shmem_my_pe(), n = shmem_n_pes();
  long *ls = (long *)conf_malloc(SCAN_MAX * sizeof(long));
  long *ld = (long *)conf_malloc(SCAN_MAX * sizeof(long));
  double *dd = (double *)conf_malloc(SCAN_MAX * sizeof(double));
  double _Complex *cs = (double _Complex *)conf_malloc(64 * sizeof(double _Complex));
  double _Complex *cd = (double _Complex *)conf_malloc(64 * sizeof(double _Complex));
  static const size_t counts[] = {1, 7, 1000, SCAN_MAX};
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; ++k) {
    size_t m = counts[k];
    for (int incl = 0; incl < 2; ++incl) {
      for (size_t i = 0; i < m; ++i) ls[i] = (long)(me + 1) * 1000003L + (long)i;
      memset(ld, POISON, SCAN_MAX * sizeof(long));
      shmem_barrier_all();
      int rc = incl ? (k % 2 ? shmemx_long_sum_inscan(SHMEM_TEAM_WORLD, ld, ls, m) : shmem_long_sum_inscan(SHMEM_TEAM_WORLD, ld, ls, m))
                    : (k % 2 ? shmemx_sum_exscan(SHMEM_TEAM_WORLD, ld, ls, m) : shmem_sum_exscan(SHMEM_TEAM_WORLD, ld, ls, m));
      CHECK_EQ(rc, 0);
      long upto = incl ? me + 1 : me; /* PEs 0..upto-1 summed */
      for (size_t i = 0; i < m; ++i) {
        long want = 1000003L * upto * (upto + 1) / 2 + upto * (long)i;
        if (ld[i] != want) {
          fprintf(stderr, "CHECK FAILED on PE %d: long %s of %zu: element %zu is %ld, expected %ld\n", me,
                  incl ? "inscan" : "exscan", m, i, ld[i], want);
          shmem_global_exit(1);
        }
      }
      EXPECT_POISON(ld + m, (SCAN_MAX - m) * sizeof(long) > 64 ? 64 : (SCAN_MAX - m) * sizeof(long), "scan past the end");
      /* in place, doubles (small integers: exact) */
      for (size_t i = 0; i < m; ++i) dd[i] = (double)(me + 1) + 0.5 * (double)(i % 7);
      shmem_barrier_all();
      rc = incl ? (k % 2 ? shmemx_sum_inscan(SHMEM_TEAM_WORLD, dd, dd, m) : shmem_sum_inscan(SHMEM_TEAM_WORLD, dd, dd, m))
                : (k % 2 ? shmemx_double_sum_exscan(SHMEM_TEAM_WORLD, dd, dd, m) : shmem_double_sum_exscan(SHMEM_TEAM_WORLD, dd, dd, m));
      CHECK_EQ(rc, 0);
      for (size_t i = 0; i < m; ++i) {
        double want = (double)(upto * (upto + 1) / 2) + (double)upto * 0.5 * (double)(i % 7);
        if (dd[i] != want) {
          fprintf(stderr, "CHECK FAILED on PE %d: double %s in place of %zu: element %zu is %g, expected %g\n", me,
                  incl ? "inscan" : "exscan", m, i, dd[i], want);
          shmem_global_exit(1);
        }
      }
    }
  }
  /* complex, on the team of the even PEs (a team's own numbering) */
  shmem_team_t even;
  int rc = shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &even);
  CHECK_EQ(rc, 0);
  if (even != SHMEM_TEAM_INVALID) {
    int tme = shmem_team_my_pe(even);
    for (int i = 0; i < 64; ++i) cs[i] = (double)(tme + 1) + (double)i * I;
    memset(cd, POISON, 64 * sizeof(double _Complex));
    CHECK_EQ(shmemx_complexd_sum_inscan(even, cd, cs, 64), 0);
    for (int i = 0; i < 64; ++i) {
      double _Complex want = (double)((tme + 1) * (tme + 2) / 2) + (double)(i * (tme + 1)) * I;
      CHECK(cd[i] == want);
    }
    shmem_team_destroy(even);
  }
  shmem_barrier_all();
}

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  if (argc > 1 && strcmp(argv[1], "bad_stride") == 0) {
    int *d = (int *)conf_malloc(64 * sizeof(int));
    int s[64] = {0};
    shmem_int_ibput(d, s, 3, 8, 4, 2, (me + 1) % n); /* the blocks of 4 would overlap at stride 3 */
    shmem_finalize();
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "bad_pe_quiet") == 0) {
    int pes[2] = {0, n + 3};
    shmem_pe_quiet(pes, 2);
    shmem_finalize();
    return 0;
  }
  test_ib();
  test_signal_ops();
  test_pe_quiet_sessions();
  test_scans();
  shmem_finalize();
  if (me == 0) printf("conf_v16: %d PEs ok\n", n);
  return 0;
}
