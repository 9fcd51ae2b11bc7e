/* Reductions across hosts, large and small, back to back: sizes below one exchange, across the
 * chunks of several, and past where they are split by segments (each member folds one segment,
 * then sends it to all: from 128 KiB segments straight into the members' dest, as exchanges with
 * SYMMEM_NET_COLL_DIRECT=0); element counts the members do not divide (a short last segment, and
 * fewer elements than members), in place and into another dest (poisoned, with poison after it
 * that must stay), on SHMEM_TEAM_WORLD (its own exchange area) and on a team split from it (its
 * team area, smaller chunks). Types: long sums (exact), double sums whose result must be the
 * fold in team order 0..n-1 bit for bit on every PE, and long double maxima (16-byte elements,
 * which do not fold where they land).
 *
 *   mh_reduce [ROUNDS]   (default 2) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 300001
static long *la, *lb;
static double *da, *db;
static long double *xa, *xb;
static const long lpoison = (long)0xa5a5a5a5a5a5a5a5UL;

static void fail(const char *what, size_t m, int inplace, size_t at, const char *detail) {
  fprintf(stderr, "PE %d: %s of %zu elements%s: element %zu %s\n", shmem_my_pe(), what, m,
          inplace ? " in place" : "", at, detail);
  shmem_global_exit(1);
}

static long lval(int pe, size_t i, long r) { return (long)(pe + 1) * 1000003L + (long)i * 7 + r; }
static double dval(int pe, size_t i) { return 0.1 * (double)(pe + 1) + 1e-7 * (double)(i % 1009); }
static long double xval(int pe, size_t i) { return (long double)((pe * 7 + (int)(i % 11)) % 13) + 0.25L; }

static void run(shmem_team_t team, size_t m, long r, int inplace) {
  const int n = shmem_team_n_pes(team), me = shmem_team_my_pe(team);
  for (size_t i = 0; i < m; ++i) la[i] = lval(me, i, r);
  for (size_t i = 0; i < m; ++i) da[i] = dval(me, i);
  for (size_t i = 0; i < m; ++i) xa[i] = xval(me, i);
  if (!inplace) {
    for (size_t i = 0; i < m + 8 && i < MAXN + 8; ++i) lb[i] = lpoison;
    memset(db, 0xa5, (m + 8) * sizeof(double));
    memset(xb, 0xa5, (m + 8) * sizeof(long double));
  }
  long *ld = inplace ? la : lb;
  double *dd = inplace ? da : db;
  long double *xd = inplace ? xa : xb;
  /* three calls back to back, no barrier between them */
  if (shmem_long_sum_reduce(team, ld, la, m) != 0) fail("long_sum_reduce", m, inplace, 0, "returned an error");
  if (shmem_double_sum_reduce(team, dd, da, m) != 0) fail("double_sum_reduce", m, inplace, 0, "returned an error");
  if (shmem_longdouble_max_reduce(team, xd, xa, m) != 0) fail("longdouble_max_reduce", m, inplace, 0, "returned an error");
  for (size_t i = 0; i < m; ++i) {
    long lw = 0;
    double dw = dval(0, i);
    long double xw = xval(0, i);
    for (int p = 0; p < n; ++p) lw += lval(p, i, r);
    for (int p = 1; p < n; ++p) dw += dval(p, i); /* team order, as every path folds */
    for (int p = 1; p < n; ++p) xw = xval(p, i) > xw ? xval(p, i) : xw;
    char detail[160];
    if (ld[i] != lw) {
      snprintf(detail, sizeof detail, "is %ld, want %ld", ld[i], lw);
      fail("long_sum_reduce", m, inplace, i, detail);
    }
    if (memcmp(&dd[i], &dw, sizeof dw) != 0) {
      snprintf(detail, sizeof detail, "is %.17g, want %.17g (the fold in team order)", dd[i], dw);
      fail("double_sum_reduce", m, inplace, i, detail);
    }
    if (xd[i] != xw) {
      snprintf(detail, sizeof detail, "is %Lg, want %Lg", xd[i], xw);
      fail("longdouble_max_reduce", m, inplace, i, detail);
    }
  }
  if (!inplace) {
    for (size_t i = m; i < m + 8; ++i) {
      unsigned char p[sizeof(long double)];
      memset(p, 0xa5, sizeof p);
      if (lb[i] != lpoison) fail("long_sum_reduce", m, 0, i, "(past the end) was written");
      if (memcmp(&db[i], p, sizeof(double)) != 0) fail("double_sum_reduce", m, 0, i, "(past the end) was written");
      if (memcmp(&xb[i], p, sizeof(long double)) != 0) fail("longdouble_max_reduce", m, 0, i, "(past the end) was written");
    }
  }
}

int main(int argc, char **argv) {
  shmem_init();
  const long rounds = argc > 1 ? atol(argv[1]) : 2;
  const int npes = shmem_n_pes();
  la = shmem_malloc((MAXN + 8) * sizeof(long));
  lb = shmem_malloc((MAXN + 8) * sizeof(long));
  da = shmem_malloc((MAXN + 8) * sizeof(double));
  db = shmem_malloc((MAXN + 8) * sizeof(double));
  xa = shmem_malloc((MAXN + 8) * sizeof(long double));
  xb = shmem_malloc((MAXN + 8) * sizeof(long double));
  if (!la || !lb || !da || !db || !xa || !xb) {
    fprintf(stderr, "PE %d: shmem_malloc failed\n", shmem_my_pe());
    shmem_global_exit(1);
  }
  shmem_team_t copy;
  if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, &copy) != 0) {
    fprintf(stderr, "PE %d: team split failed\n", shmem_my_pe());
    shmem_global_exit(1);
  }
  /* fewer elements than members; one chunk; chunks of a split team's area; past the split on
   * both areas, with counts the members do not divide */
  const size_t sizes[] = {1, (size_t)npes - 1, 1000, 5003, 40000, 65537, 131075, MAXN};
  for (long r = 0; r < rounds; ++r) {
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
      if (sizes[k] == 0) continue;
      for (int inplace = 0; inplace < 2; ++inplace) {
        run(SHMEM_TEAM_WORLD, sizes[k], r, inplace);
        if (sizes[k] <= 65537) run(copy, sizes[k], r + 100, inplace);
      }
    }
  }
  shmem_team_destroy(copy);
  shmem_barrier_all();
  if (shmem_my_pe() == 0) printf("mh_reduce: %d PEs, %ld rounds ok\n", npes, rounds);
  shmem_finalize();
  return 0;
}
