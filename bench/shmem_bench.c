/* shmem_bench: CPU micro-benchmark written purely to the OpenSHMEM API.
 *
 * One source, built unchanged against the project's <shmem.h> (symmem) and against
 * OpenMPI's OSHMEM (oshcc), so the two can be compared side by side. It sticks to routines
 * OpenSHMEM 1.4 already has.
 *
 * What it measures (between PE 0 and PE 1; other PEs only join the barriers; with a single
 * PE, PE 0 targets itself):
 *   long_p+quiet         latency of shmem_long_p followed by shmem_quiet
 *   putmem+quiet         latency of an 8-byte shmem_putmem followed by shmem_quiet
 *   long_g               latency of shmem_long_g
 *   atomic_fetch_add     latency of a remote shmem_long_atomic_fetch_add
 *   atomic_add_stream    time per shmem_long_atomic_add in a stream of them to 64 words of the
 *                        target (a histogram's updates), the shmem_quiet that completes them
 *                        included
 *   ctx_putmem+quiet     the same as putmem+quiet on a private context (shmem_ctx_putmem, shmem_ctx_quiet)
 *   putmem_signal+quiet  an 8-byte shmem_putmem_signal (signal set) followed by shmem_quiet, where the
 *                        library has OpenSHMEM 1.5's put-with-signal (SHMEM_SIGNAL_SET defined)
 *   ctx_fetch_add        atomic_fetch_add on that context
 *   putmem_bw, getmem_bw bandwidth for sizes 8 B .. 64 MiB (one shmem_quiet per repetition)
 *   memcpy_bw            local memcpy on PE 0 with the same sizes, as the reference
 *   barrier_all          latency of shmem_barrier_all (all PEs)
 *   malloc_free_1MiB     shmem_malloc(1 MiB) + shmem_free pair (all PEs, collective)
 *   init                 wall-clock time of shmem_init, max over the PEs
 *
 * Every figure is the median over REPS repetitions, after a warm-up. Times are per operation
 * (us, init in ms), bandwidth is GB/s = 1e9 bytes/s.
 *
 * Output: a table on stdout (PE 0) and a CSV file, path from argv[1], else $BENCH_CSV, else
 * "shmem_bench.csv", with the columns impl,npes,figure,size_bytes,value,unit; impl comes from
 * $BENCH_IMPL (default "unknown"). The CSV is written to "<path>.tmp" and renamed to <path>
 * before shmem_finalize, so the file exists only when complete (some implementations crash in
 * shmem_finalize).
 *
 * Environment knobs: BENCH_PEER (the PE that PE 0 targets, default 1), BENCH_MAX_SIZE (bytes, default 64 MiB; needs 2x that in symmetric heap),
 * BENCH_REPS (default 5), BENCH_QUICK=1 (shorter runs, for smoke tests), BENCH_SKIP_BW=1 (no
 * bandwidth sweeps).
 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_REPS 31
#define MAX_ROWS 256

static int me, npes, peer;
static int reps = 5;
static int quick = 0;
static int skip_bw = 0; /* BENCH_SKIP_BW=1: latencies, barrier and malloc only */

/* Symmetric control word used to agree on iteration counts (PE 0 decides). */
static long *ctl;

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

/* ---------------------------------------------------------------- results */

struct row {
  char figure[40];
  long size;
  double value;
  char unit[8];
};
static struct row rows[MAX_ROWS];
static int nrows;

static void record(const char *figure, long size, double value, const char *unit) {
  if (me != 0) return;
  if (nrows < MAX_ROWS) {
    struct row *r = &rows[nrows++];
    snprintf(r->figure, sizeof r->figure, "%s", figure);
    r->size = size;
    r->value = value;
    snprintf(r->unit, sizeof r->unit, "%s", unit);
  }
  char sz[32];
  if (size < 0) snprintf(sz, sizeof sz, "-");
  else if (size >= (1L << 20) && size % (1L << 20) == 0) snprintf(sz, sizeof sz, "%ld MiB", size >> 20);
  else if (size >= 1024 && size % 1024 == 0) snprintf(sz, sizeof sz, "%ld KiB", size >> 10);
  else snprintf(sz, sizeof sz, "%ld B", size);
  printf("%-20s %10s %14.3f %s\n", figure, sz, value, unit);
  fflush(stdout);
}

static int write_csv(const char *path, const char *impl) {
  char tmp[4096];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "shmem_bench: cannot open %s: %s\n", tmp, strerror(errno));
    return 1;
  }
  fprintf(f, "impl,npes,figure,size_bytes,value,unit\n");
  for (int i = 0; i < nrows; i++)
    fprintf(f, "%s,%d,%s,%ld,%.6g,%s\n", impl, npes, rows[i].figure, rows[i].size < 0 ? 0 : rows[i].size,
            rows[i].value, rows[i].unit);
  if (fflush(f) != 0 || fclose(f) != 0) {
    fprintf(stderr, "shmem_bench: writing %s failed: %s\n", tmp, strerror(errno));
    return 1;
  }
  if (rename(tmp, path) != 0) {
    fprintf(stderr, "shmem_bench: rename %s -> %s failed: %s\n", tmp, path, strerror(errno));
    return 1;
  }
  printf("# CSV written to %s\n", path);
  fflush(stdout);
  return 0;
}

/* ------------------------------------------------------------------ helpers */

static void die(void) {
  /* Not shmem_global_exit: this source sticks to the routines listed in the header. */
  fflush(stdout);
  exit(1);
}

/* PE 0's value of v, on every PE. Collective. */
static long agree(long v) {
  shmem_barrier_all();
  if (me == 0) {
    for (int pe = 0; pe < npes; pe++) shmem_long_p(ctl, v, pe);
    shmem_quiet();
  }
  shmem_barrier_all();
  return *(volatile long *)ctl;
}

/* Iterations so that one repetition lasts about target_s, given a warm-up estimate. */
static long calibrate(double per_op_s, double target_s, long lo, long hi) {
  if (quick) target_s /= 10.0;
  double n = per_op_s > 0 ? target_s / per_op_s : (double)hi;
  if (n < (double)lo) n = (double)lo;
  if (n > (double)hi) n = (double)hi;
  return (long)n;
}

/* The point-to-point latency kernels; PE 0 runs them, PE 1 is the target. */
enum op { OP_LONG_P, OP_PUTMEM8, OP_LONG_G, OP_FADD, OP_CTX_PUTMEM8, OP_CTX_FADD, OP_PUTSIGNAL8, OP_ADD_STREAM };
static shmem_ctx_t bctx; /* PE 0's private context (SHMEM_CTX_DEFAULT when none could be made) */

static long *lat_dst;  /* symmetric, 1 long */
static long *lat_src;  /* symmetric, 1 long */
static long *lat_ctr;  /* symmetric, 1 long */
static long *hist;     /* symmetric, 64 longs */
static volatile long sink;

static double run_op(enum op op, long iters) {
  long acc = 0, val = 42;
  double t0 = now_s();
  switch (op) {
  case OP_LONG_P:
    for (long i = 0; i < iters; i++) {
      shmem_long_p(lat_dst, i, peer);
      shmem_quiet();
    }
    break;
  case OP_PUTMEM8:
    for (long i = 0; i < iters; i++) {
      val = i;
      shmem_putmem(lat_dst, &val, sizeof val, peer);
      shmem_quiet();
    }
    break;
  case OP_LONG_G:
    for (long i = 0; i < iters; i++) acc += shmem_long_g(lat_src, peer);
    break;
  case OP_FADD:
    for (long i = 0; i < iters; i++) acc += shmem_long_atomic_fetch_add(lat_ctr, 1, peer);
    break;
  case OP_CTX_PUTMEM8:
    for (long i = 0; i < iters; i++) {
      val = i;
      shmem_ctx_putmem(bctx, lat_dst, &val, sizeof val, peer);
      shmem_ctx_quiet(bctx);
    }
    break;
  case OP_ADD_STREAM:
    for (long i = 0; i < iters; i++) shmem_long_atomic_add(&hist[(i * 37) & 63], 1, peer);
    shmem_quiet();
    break;
  case OP_CTX_FADD:
    for (long i = 0; i < iters; i++) acc += shmem_ctx_long_atomic_fetch_add(bctx, lat_ctr, 1, peer);
    break;
  case OP_PUTSIGNAL8:
#ifdef SHMEM_SIGNAL_SET
    for (long i = 0; i < iters; i++) {
      val = i;
      shmem_putmem_signal(lat_dst, &val, sizeof val, (uint64_t *)lat_ctr, (uint64_t)i, SHMEM_SIGNAL_SET, peer);
      shmem_quiet();
    }
#endif
    break;
  }
  double t = now_s() - t0;
  sink = acc;
  return t;
}

static void bench_latency(const char *figure, enum op op) {
  double est = 0;
  if (me == 0) {
    run_op(op, 100); /* warm-up */
    est = run_op(op, 200) / 200.0;
  }
  long iters = calibrate(est, 0.05, 100, 200000);
  double v[MAX_REPS];
  if (me == 0)
    for (int r = 0; r < reps; r++) v[r] = run_op(op, iters) / (double)iters * 1e6;
  shmem_barrier_all();
  if (me == 0) record(figure, op == OP_PUTMEM8 || op == OP_CTX_PUTMEM8 ? 8 : (long)sizeof(long), median(v, reps), "us");
}

/* ---------------------------------------------------------------- bandwidth */

static char *bw_a, *bw_b; /* symmetric, max_size each */
static char *loc_a, *loc_b; /* private, for memcpy */
static void *(*volatile memcpy_fn)(void *, const void *, size_t) = memcpy;

enum bwop { BW_PUT, BW_GET, BW_MEMCPY };

static double run_bw(enum bwop op, size_t size, long iters) {
  double t0 = now_s();
  switch (op) {
  case BW_PUT:
    for (long i = 0; i < iters; i++) shmem_putmem(bw_b, bw_a, size, peer);
    shmem_quiet();
    break;
  case BW_GET:
    for (long i = 0; i < iters; i++) shmem_getmem(bw_b, bw_a, size, peer);
    break;
  case BW_MEMCPY:
    for (long i = 0; i < iters; i++) memcpy_fn(loc_b, loc_a, size);
    break;
  }
  return now_s() - t0;
}

static void bench_bw(const char *figure, enum bwop op, size_t size) {
  double est = 0;
  if (me == 0) {
    long w = size >= (1u << 20) ? 2 : 50;
    run_bw(op, size, w); /* warm-up, also faults the pages in */
    est = run_bw(op, size, w) / (double)w;
  }
  /* About 50 ms per repetition, at least 4 transfers. */
  long iters = calibrate(est, 0.05, 4, 2000000); /* PE 0 alone uses it */
  double v[MAX_REPS];
  if (me == 0)
    for (int r = 0; r < reps; r++) v[r] = (double)size * (double)iters / run_bw(op, size, iters) / 1e9;
  if (op != BW_MEMCPY) shmem_barrier_all(); /* memcpy runs on PE 0 alone */
  if (me == 0) record(figure, (long)size, median(v, reps), "GB/s");
}

/* ---------------------------------------------------------------- collectives */

static void bench_barrier(void) {
  double est = 0;
  for (int i = 0; i < 50; i++) shmem_barrier_all();
  double t0 = now_s();
  for (int i = 0; i < 100; i++) shmem_barrier_all();
  est = (now_s() - t0) / 100.0;
  long iters = agree(calibrate(est, 0.05, 50, 100000));
  double v[MAX_REPS];
  for (int r = 0; r < reps; r++) {
    shmem_barrier_all();
    t0 = now_s();
    for (long i = 0; i < iters; i++) shmem_barrier_all();
    v[r] = (now_s() - t0) / (double)iters * 1e6;
  }
  record("barrier_all", -1, median(v, reps), "us");
}

static void bench_malloc_free(void) {
  const size_t sz = 1u << 20;
  for (int i = 0; i < 5; i++) shmem_free(shmem_malloc(sz));
  double t0 = now_s();
  for (int i = 0; i < 20; i++) shmem_free(shmem_malloc(sz));
  double est = (now_s() - t0) / 20.0;
  long iters = agree(calibrate(est, 0.05, 20, 20000));
  double v[MAX_REPS];
  for (int r = 0; r < reps; r++) {
    shmem_barrier_all();
    t0 = now_s();
    for (long i = 0; i < iters; i++) {
      void *p = shmem_malloc(sz);
      if (!p) {
        if (me == 0) fprintf(stderr, "shmem_bench: shmem_malloc(1 MiB) failed\n");
        die();
      }
      shmem_free(p);
    }
    v[r] = (now_s() - t0) / (double)iters * 1e6;
  }
  record("malloc_free_1MiB", (long)sz, median(v, reps), "us");
}

/* --------------------------------------------------------------------- main */

static long env_long(const char *name, long def) {
  const char *s = getenv(name);
  if (!s || !*s) return def;
  char *end;
  long v = strtol(s, &end, 0);
  return (*end == '\0' && v > 0) ? v : def;
}

int main(int argc, char **argv) {
  double t_init0 = now_s();
  shmem_init();
  double t_init = now_s() - t_init0;

  me = shmem_my_pe();
  npes = shmem_n_pes();
  /* BENCH_PEER picks the target (default PE 1): across hosts, the first PE of the other host. */
  peer = npes > 1 ? (int)(env_long("BENCH_PEER", 1) % npes) : 0;
  if (npes > 1 && peer == 0) peer = 1;

  const char *impl = getenv("BENCH_IMPL");
  if (!impl || !*impl) impl = "unknown";
  const char *csv = argc > 1 ? argv[1] : getenv("BENCH_CSV");
  if (!csv || !*csv) csv = "shmem_bench.csv";
  quick = env_long("BENCH_QUICK", 0) != 0;
  skip_bw = env_long("BENCH_SKIP_BW", 0) != 0;
  reps = (int)env_long("BENCH_REPS", quick ? 3 : 5);
  if (reps > MAX_REPS) reps = MAX_REPS;
  size_t max_size = (size_t)env_long("BENCH_MAX_SIZE", quick ? (1L << 20) : (64L << 20));

  /* init: every PE puts its own time into PE 0's symmetric array. */
  double *init_times = shmem_malloc((size_t)npes * sizeof(double));
  ctl = shmem_malloc(sizeof(long));
  lat_dst = shmem_malloc(sizeof(long));
  lat_src = shmem_malloc(sizeof(long));
  lat_ctr = shmem_malloc(sizeof(long));
  hist = shmem_calloc(64, sizeof(long));
  bw_a = shmem_malloc(max_size);
  bw_b = shmem_malloc(max_size);
  if (!init_times || !ctl || !lat_dst || !lat_src || !lat_ctr || !hist || !bw_a || !bw_b) {
    if (me == 0)
      fprintf(stderr,
              "shmem_bench: shmem_malloc failed; needs 2 x %zu bytes of symmetric heap "
              "(raise SHMEM_SYMMETRIC_SIZE, for OSHMEM SHMEM_SYMMETRIC_HEAP_SIZE, or lower BENCH_MAX_SIZE)\n",
              max_size);
    die();
  }
  *lat_dst = 0;
  *lat_src = 7;
  *lat_ctr = 0;
  memset(bw_a, 0xa5, max_size);
  memset(bw_b, 0, max_size);
  shmem_barrier_all();
  shmem_putmem(&init_times[me], &t_init, sizeof t_init, 0);
  shmem_quiet();
  shmem_barrier_all();

  if (me == 0) {
    loc_a = malloc(max_size);
    loc_b = malloc(max_size);
    if (!loc_a || !loc_b) {
      fprintf(stderr, "shmem_bench: malloc(%zu) failed\n", max_size);
      die();
    }
    memset(loc_a, 0xa5, max_size);
    memset(loc_b, 0, max_size);
    printf("# shmem_bench impl=%s npes=%d peer=%d reps=%d (median reported)%s\n", impl, npes, peer, reps,
           quick ? " QUICK" : "");
    printf("%-20s %10s %14s %s\n", "figure", "size", "value", "unit");
    double mx = 0;
    for (int i = 0; i < npes; i++)
      if (init_times[i] > mx) mx = init_times[i];
    record("init", -1, mx * 1e3, "ms");
  }

  bench_latency("long_p+quiet", OP_LONG_P);
  bench_latency("putmem+quiet", OP_PUTMEM8);
  bench_latency("long_g", OP_LONG_G);
  bench_latency("atomic_fetch_add", OP_FADD);
  bench_latency("atomic_add_stream", OP_ADD_STREAM);
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &bctx) != 0) bctx = SHMEM_CTX_DEFAULT;
  bench_latency("ctx_putmem+quiet", OP_CTX_PUTMEM8);
  bench_latency("ctx_fetch_add", OP_CTX_FADD);
  if (bctx != SHMEM_CTX_DEFAULT) shmem_ctx_destroy(bctx);
#ifdef SHMEM_SIGNAL_SET
  bench_latency("putmem_signal+quiet", OP_PUTSIGNAL8);
#endif
  bench_barrier();
  bench_malloc_free();

  /* Sizes: 8 B * 4^k up to max_size, and max_size itself. */
  size_t sizes[40];
  int nsizes = 0;
  for (size_t s = 8; s <= max_size && nsizes < 39; s *= 4) sizes[nsizes++] = s;
  if (sizes[nsizes - 1] != max_size) sizes[nsizes++] = max_size;

  if (!skip_bw) {
    for (int i = 0; i < nsizes; i++) bench_bw("putmem_bw", BW_PUT, sizes[i]);
    for (int i = 0; i < nsizes; i++) bench_bw("getmem_bw", BW_GET, sizes[i]);
    if (me == 0)
      for (int i = 0; i < nsizes; i++) bench_bw("memcpy_bw", BW_MEMCPY, sizes[i]);
  }

  int rc = 0;
  if (me == 0) {
    rc = write_csv(csv, impl);
  }
  shmem_barrier_all();

  free(loc_a);
  free(loc_b);
  shmem_free(bw_b);
  shmem_free(bw_a);
  shmem_free(hist);
  shmem_free(lat_ctr);
  shmem_free(lat_src);
  shmem_free(lat_dst);
  shmem_free(ctl);
  shmem_free(init_times);
  shmem_finalize();
  return rc;
}
