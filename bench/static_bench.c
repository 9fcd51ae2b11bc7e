/* static_bench: the same operations on symmetric heap memory and on global (static) variables,
 * side by side, written purely to the OpenSHMEM 1.4 API so the one source builds against symmem's
 * <shmem.h> and OpenMPI's OSHMEM (oshcc); bench/compare_static.sh runs both.
 *
 * Between PE 0 and PE 1 (further PEs only join the collectives; one PE targets itself):
 *   long_p+quiet, putmem8+quiet, long_g       latency (us)
 *   long_p_rate, putmem8_nbi_rate             message rate: back-to-back puts, one quiet (Mmsg/s)
 *   fetch_add, atomic_add+quiet, compare_swap, atomic_fetch, atomic_swap   latency (us)
 *   putmem_bw, getmem_bw                      8 B .. 16 MiB (GB/s)
 *   sum_to_all_8B, broadcast64_8B, barrier    all PEs; pSync and pWrk in the memory measured (us)
 * Each figure is measured on "heap" (shmem_malloc) and on "static" (file-scope arrays), in that
 * order, figure by figure, so both see the same machine state. Median of BENCH_REPS repetitions
 * (default 5) after a warm-up; about 30 ms per repetition.
 *
 * CSV (argv[1], else $BENCH_CSV, else static_bench.csv): impl,npes,figure,memory,size_bytes,value,unit.
 * Written as <path>.tmp and renamed before shmem_finalize. BENCH_QUICK=1: short smoke run. */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 31
#define MAX_ROWS 256
#define BW_MAX (16L << 20)

static int me, npes, peer, reps = 5, quick;

/* The symmetric objects of one kind of memory. */
struct mem {
  const char *name;
  long *lat;   /* 8 longs: target words */
  char *bw_a;  /* BW_MAX bytes each */
  char *bw_b;
  long *psync; /* SHMEM_REDUCE_SYNC_SIZE */
  long *pwrk;  /* SHMEM_REDUCE_MIN_WRKDATA_SIZE */
  long *red;   /* 2 longs: source, destination */
};

static long s_lat[8];
static char s_bw_a[BW_MAX], s_bw_b[BW_MAX];
static long s_psync[SHMEM_REDUCE_SYNC_SIZE];
static long s_pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
static long s_red[2];
static long ctl; /* PE 0's decisions (iteration counts), a static as in real benchmarks */

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct row {
  char figure[32];
  char memory[8];
  long size;
  double value;
  char unit[8];
};
static struct row rows[MAX_ROWS];
static int nrows;

static void record(const char *figure, const struct mem *m, long size, double value, const char *unit) {
  if (me != 0 || nrows >= MAX_ROWS) return;
  struct row *r = &rows[nrows++];
  snprintf(r->figure, sizeof r->figure, "%s", figure);
  snprintf(r->memory, sizeof r->memory, "%s", m->name);
  r->size = size, r->value = value;
  snprintf(r->unit, sizeof r->unit, "%s", unit);
  printf("%-18s %-7s %9ld %12.4f %s\n", figure, m->name, size, value, unit);
  fflush(stdout);
}

static int write_csv(const char *path, const char *impl) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) return fprintf(stderr, "static_bench: cannot open %s: %s\n", tmp, strerror(errno)), 1;
  fprintf(f, "impl,npes,figure,memory,size_bytes,value,unit\n");
  for (int i = 0; i < nrows; i++)
    fprintf(f, "%s,%d,%s,%s,%ld,%.6g,%s\n", impl, npes, rows[i].figure, rows[i].memory, rows[i].size,
            rows[i].value, rows[i].unit);
  if (fclose(f) != 0 || rename(tmp, path) != 0) return fprintf(stderr, "static_bench: writing %s failed\n", path), 1;
  return 0;
}

/* PE 0's value of v, on every PE (collective). */
static long agree(long v) {
  shmem_barrier_all();
  if (me == 0) {
    for (int pe = 0; pe < npes; pe++) shmem_long_p(&ctl, v, pe);
    shmem_quiet();
  }
  shmem_barrier_all();
  return *(volatile long *)&ctl;
}

static long iterations(double per_op_s, long lo, long hi) {
  double target = quick ? 0.003 : 0.03;
  double n = per_op_s > 0 ? target / per_op_s : (double)hi;
  return n < (double)lo ? lo : n > (double)hi ? hi : (long)n;
}

/* ---- point to point: PE 0 issues, PE 1 is the target ---------------------------------------- */

enum op { P_QUIET, PUT8_QUIET, G, P_RATE, PUT8_NBI_RATE, FADD, ADD_QUIET, CSWAP, FETCH, SWAP, NOPS };
static const char *op_name[NOPS] = {"long_p+quiet", "putmem8+quiet", "long_g", "long_p_rate", "putmem8_nbi_rate",
                                    "fetch_add", "atomic_add+quiet", "compare_swap", "atomic_fetch", "atomic_swap"};
static volatile long sink;

static double run_op(enum op op, long *t, long n) {
  long acc = 0, v = 7;
  double t0 = now_s();
  switch (op) {
  case P_QUIET: for (long i = 0; i < n; i++) shmem_long_p(t, i, peer), shmem_quiet(); break;
  case PUT8_QUIET: for (long i = 0; i < n; i++) v = i, shmem_putmem(t, &v, 8, peer), shmem_quiet(); break;
  case G: for (long i = 0; i < n; i++) acc += shmem_long_g(t, peer); break;
  case P_RATE: for (long i = 0; i < n; i++) shmem_long_p(t + (i & 7), i, peer); shmem_quiet(); break;
  case PUT8_NBI_RATE: for (long i = 0; i < n; i++) shmem_putmem_nbi(t + (i & 7), &v, 8, peer); shmem_quiet(); break;
  case FADD: for (long i = 0; i < n; i++) acc += shmem_long_atomic_fetch_add(t, 1, peer); break;
  case ADD_QUIET: for (long i = 0; i < n; i++) shmem_long_atomic_add(t, 1, peer), shmem_quiet(); break;
  case CSWAP: for (long i = 0; i < n; i++) acc += shmem_long_atomic_compare_swap(t, i, i + 1, peer); break;
  case FETCH: for (long i = 0; i < n; i++) acc += shmem_long_atomic_fetch(t, peer); break;
  case SWAP: for (long i = 0; i < n; i++) acc += shmem_long_atomic_swap(t, i, peer); break;
  default: break;
  }
  sink = acc;
  return now_s() - t0;
}

static void bench_op(enum op op, const struct mem *m) {
  double v[MAX_REPS];
  const int rate = op == P_RATE || op == PUT8_NBI_RATE;
  if (me == 0) {
    run_op(op, m->lat, 1000);
    long n = iterations(run_op(op, m->lat, 2000) / 2000.0, 1000, 20000000);
    for (int r = 0; r < reps; r++) {
      double t = run_op(op, m->lat, n);
      v[r] = rate ? (double)n / t / 1e6 : t / (double)n * 1e6;
    }
  }
  shmem_barrier_all();
  if (me == 0) record(op_name[op], m, 8, median(v, reps), rate ? "Mmsg/s" : "us");
}

static double run_bw(int get, const struct mem *m, size_t size, long n) {
  double t0 = now_s();
  if (get) for (long i = 0; i < n; i++) shmem_getmem(m->bw_b, m->bw_a, size, peer);
  else for (long i = 0; i < n; i++) shmem_putmem(m->bw_b, m->bw_a, size, peer);
  shmem_quiet();
  return now_s() - t0;
}

static void bench_bw(int get, const struct mem *m, size_t size) {
  double v[MAX_REPS];
  if (me == 0) {
    run_bw(get, m, size, 4);
    long n = iterations(run_bw(get, m, size, 8) / 8.0, 4, 10000000);
    for (int r = 0; r < reps; r++) v[r] = (double)size * (double)n / run_bw(get, m, size, n) / 1e9;
  }
  shmem_barrier_all();
  if (me == 0) record(get ? "getmem_bw" : "putmem_bw", m, (long)size, median(v, reps), "GB/s");
}

/* ---- collectives, all PEs, with pSync/pWrk in the memory measured --------------------------- */

enum coll { SUM_TO_ALL, BCAST64, BARRIER };

static void run_coll(enum coll c, const struct mem *m, long n) {
  for (long i = 0; i < n; i++) {
    if (c == SUM_TO_ALL) shmem_long_sum_to_all(m->red + 1, m->red, 1, 0, 0, npes, m->pwrk, m->psync);
    else if (c == BCAST64) shmem_broadcast64(m->red + 1, m->red, 1, 0, 0, 0, npes, m->psync);
    else shmem_barrier_all();
    if (c != BARRIER) shmem_barrier_all(); /* pSync may be reused only after every PE left (1.4) */
  }
}

static void bench_coll(enum coll c, const struct mem *m) {
  static const char *names[] = {"sum_to_all_8B+barrier", "broadcast64_8B+barrier", "barrier_all"};
  run_coll(c, m, 50);
  double t0 = now_s();
  run_coll(c, m, 100);
  long n = agree(iterations((now_s() - t0) / 100.0, 50, 1000000));
  double v[MAX_REPS];
  for (int r = 0; r < reps; r++) {
    shmem_barrier_all();
    t0 = now_s();
    run_coll(c, m, n);
    v[r] = (now_s() - t0) / (double)n * 1e6;
  }
  record(names[c], m, c == BARRIER ? 0 : 8, median(v, reps), "us");
}

static long env_long(const char *name, long def) {
  const char *s = getenv(name);
  char *end;
  long v = s ? strtol(s, &end, 0) : 0;
  return (s && *s && *end == '\0' && v > 0) ? v : def;
}

int main(int argc, char **argv) {
  shmem_init();
  me = shmem_my_pe(), npes = shmem_n_pes(), peer = npes > 1 ? 1 : 0;
  quick = env_long("BENCH_QUICK", 0) != 0;
  reps = (int)env_long("BENCH_REPS", quick ? 3 : 5);
  if (reps > MAX_REPS) reps = MAX_REPS;
  const char *impl = getenv("BENCH_IMPL") ? getenv("BENCH_IMPL") : "unknown";
  const char *csv = argc > 1 ? argv[1] : getenv("BENCH_CSV") ? getenv("BENCH_CSV") : "static_bench.csv";
  struct mem heap = {"heap", shmem_malloc(8 * sizeof(long)), shmem_malloc(BW_MAX), shmem_malloc(BW_MAX),
                     shmem_malloc(sizeof s_psync), shmem_malloc(sizeof s_pwrk), shmem_malloc(sizeof s_red)};
  struct mem stat = {"static", s_lat, s_bw_a, s_bw_b, s_psync, s_pwrk, s_red};
  if (!heap.lat || !heap.bw_a || !heap.bw_b || !heap.psync || !heap.pwrk || !heap.red) {
    fprintf(stderr, "static_bench: shmem_malloc failed (needs 32 MiB of symmetric heap)\n");
    return 1;
  }
  struct mem *ms[2] = {&heap, &stat};
  for (int k = 0; k < 2; k++) {
    memset(ms[k]->lat, 0, 8 * sizeof(long));
    memset(ms[k]->bw_a, 0xa5, BW_MAX), memset(ms[k]->bw_b, 0, BW_MAX);
    for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; i++) ms[k]->psync[i] = SHMEM_SYNC_VALUE;
  }
  shmem_barrier_all();
  if (me == 0) printf("# static_bench impl=%s npes=%d reps=%d%s\n", impl, npes, reps, quick ? " QUICK" : "");
  for (int op = 0; op < NOPS; op++)
    for (int k = 0; k < 2; k++) bench_op((enum op)op, ms[k]);
  for (int get = 0; get < 2; get++)
    for (size_t s = 8; s <= (size_t)BW_MAX; s = s * 4 > (size_t)BW_MAX && s < (size_t)BW_MAX ? (size_t)BW_MAX : s * 4)
      for (int k = 0; k < 2; k++) bench_bw(get, ms[k], s);
  for (int c = 0; c < 3; c++)
    for (int k = 0; k < 2; k++) bench_coll((enum coll)c, ms[k]);
  int rc = me == 0 ? write_csv(csv, impl) : 0;
  shmem_barrier_all();
  shmem_finalize();
  return rc;
}
