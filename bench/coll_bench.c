/* coll_bench: latency of the collectives (barrier, broadcast, fcollect, alltoall, sum reduction)
 * from 8 B to 1 MiB, from one source for any OpenSHMEM: the 1.5 team routines where the library
 * has them (SHMEM_MINOR_VERSION >= 5), the 1.4 active-set routines (pSync/pWrk) otherwise, so the
 * same file runs on symmem and on OpenMPI's OSHMEM (1.4).
 *
 * Output: one CSV line per measurement on PE 0, "impl,op,npes,bytes,usec" (usec per call, the
 * largest of the PEs' averages), to stdout and to $COLL_BENCH_CSV when set.
 * Environment: COLL_BENCH_MAX (largest size, default 1 MiB), COLL_BENCH_IMPL (name in the CSV).
 */
#define _POSIX_C_SOURCE 200809L
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* -DHAVE_TEAMS=0 builds the 1.4 active-set forms on a 1.5 library too (both APIs side by side). */
#ifndef HAVE_TEAMS
#if defined(SHMEM_MAJOR_VERSION) && (SHMEM_MAJOR_VERSION > 1 || SHMEM_MINOR_VERSION >= 5)
#define HAVE_TEAMS 1
#else
#define HAVE_TEAMS 0
#endif
#endif

#define NSYNC 4 /* pSync arrays used in turn: a 1.4 pSync may not be reused by the next call at once */
static long *psync[NSYNC];
static long *pwrk;
static long *times; /* each PE's average, gathered on PE 0 */
static int turn;
static int me, npes;
static char *src, *dst;

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* only the 1.4 forms use it */
__attribute__((unused)) static long *next_psync(void) { return psync[turn++ % NSYNC]; }

static void op_barrier(size_t bytes) {
  (void)bytes;
  shmem_barrier_all();
}

static void op_broadcast(size_t bytes) {
#if HAVE_TEAMS
  shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, bytes, 0);
#else
  shmem_broadcast64(dst, src, bytes / 8, 0, 0, 0, npes, next_psync());
#endif
}

static void op_fcollect(size_t bytes) {
#if HAVE_TEAMS
  shmem_fcollectmem(SHMEM_TEAM_WORLD, dst, src, bytes);
#else
  shmem_fcollect64(dst, src, bytes / 8, 0, 0, npes, next_psync());
#endif
}

static void op_alltoall(size_t bytes) {
#if HAVE_TEAMS
  shmem_alltoallmem(SHMEM_TEAM_WORLD, dst, src, bytes);
#else
  shmem_alltoall64(dst, src, bytes / 8, 0, 0, npes, next_psync());
#endif
}

static void op_reduce(size_t bytes) {
#if HAVE_TEAMS
  shmem_long_sum_reduce(SHMEM_TEAM_WORLD, (long *)dst, (const long *)src, bytes / 8);
#else
  shmem_long_sum_to_all((long *)dst, (const long *)src, (int)(bytes / 8), 0, 0, npes, pwrk, next_psync());
#endif
}

/* Runs `op` for about 0.15 s (at least 5 calls) after a warm-up; returns the slowest PE's average. */
static double measure(void (*op)(size_t), size_t bytes) {
  for (int i = 0; i < 10; ++i) op(bytes);
  shmem_barrier_all();
  int iters = 5;
  double t0 = now_us();
  op(bytes);
  double one = now_us() - t0;
  long want = (long)(150000.0 / (one > 0.05 ? one : 0.05));
  /* every PE must run the same count: take PE 0's */
  times[0] = want < 5 ? 5 : (want > 200000 ? 200000 : want);
  shmem_barrier_all();
  iters = (int)shmem_long_g(times, 0);
  shmem_barrier_all();
  t0 = now_us();
  for (int i = 0; i < iters; ++i) op(bytes);
  double avg = (now_us() - t0) / iters;
  shmem_barrier_all();
  shmem_long_p(times + 1 + me, (long)(avg * 1000.0), 0); /* nanoseconds */
  shmem_barrier_all();
  double worst = 0;
  if (me == 0)
    for (int p = 0; p < npes; ++p) worst = times[1 + p] / 1000.0 > worst ? times[1 + p] / 1000.0 : worst;
  shmem_barrier_all();
  return worst;
}

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  size_t max = getenv("COLL_BENCH_MAX") ? (size_t)strtoull(getenv("COLL_BENCH_MAX"), NULL, 0) : (size_t)1 << 20;
  const char *impl = getenv("COLL_BENCH_IMPL") ? getenv("COLL_BENCH_IMPL") : "shmem";
  for (int i = 0; i < NSYNC; ++i) {
    psync[i] = (long *)shmem_malloc(sizeof(long) * SHMEM_REDUCE_SYNC_SIZE > sizeof(long) * SHMEM_BCAST_SYNC_SIZE
                                        ? sizeof(long) * SHMEM_REDUCE_SYNC_SIZE * 2
                                        : sizeof(long) * SHMEM_BCAST_SYNC_SIZE * 2);
    for (int k = 0; k < SHMEM_REDUCE_SYNC_SIZE; ++k) psync[i][k] = SHMEM_SYNC_VALUE;
    for (int k = 0; k < SHMEM_BCAST_SYNC_SIZE; ++k) psync[i][k] = SHMEM_SYNC_VALUE;
  }
  size_t wrk = max / 8 / 2 + 1 > SHMEM_REDUCE_MIN_WRKDATA_SIZE ? max / 8 / 2 + 1 : SHMEM_REDUCE_MIN_WRKDATA_SIZE;
  pwrk = (long *)shmem_malloc(wrk * sizeof(long));
  times = (long *)shmem_malloc(sizeof(long) * (size_t)(npes + 1));
  src = (char *)shmem_malloc(max * (size_t)npes);
  dst = (char *)shmem_malloc(max * (size_t)npes);
  memset(src, 1, max * (size_t)npes);
  memset(dst, 0, max * (size_t)npes);
  FILE *csv = NULL;
  if (me == 0 && getenv("COLL_BENCH_CSV")) csv = fopen(getenv("COLL_BENCH_CSV"), "w");
  shmem_barrier_all();
  struct { const char *name; void (*op)(size_t); } ops[] = {
      {"barrier", op_barrier}, {"broadcast", op_broadcast}, {"fcollect", op_fcollect},
      {"alltoall", op_alltoall}, {"sum_reduce", op_reduce}};
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; ++k) {
    static const size_t sizes[] = {8, 64, 512, 4096, 32768, 262144, 1048576};
    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0] && sizes[si] <= max; ++si) {
      size_t bytes = sizes[si];
      double us = measure(ops[k].op, bytes);
      if (me == 0) {
        printf("%s,%s,%d,%zu,%.3f\n", impl, ops[k].name, npes, bytes, us);
        if (csv) fprintf(csv, "%s,%s,%d,%zu,%.3f\n", impl, ops[k].name, npes, bytes, us), fflush(csv);
        fflush(stdout);
      }
      if (ops[k].op == op_barrier) break;
    }
  }
  if (csv) fclose(csv);
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
