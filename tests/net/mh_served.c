/* A PE whose thread is busy on a private context still serves the other hosts at once.
 *
 * PE 0 puts to the first PE of the other host through a private context (its own network worker),
 * one put each 10 us in bursts of `burst` puts, each burst then quieted, until that PE sets PE 0's
 * `stop` word.
 * Meanwhile that PE gets a word of PE 0's data and fetch-adds a counter there `rounds` times: over
 * a transport without remote memory access in hardware (TCP) PE 0's CPU serves each of them on PE
 * 0's default worker. PE 0's thread progresses that worker only while it waits (the quiet), so
 * during a burst the progress thread must. It used to count the private worker's use as the PE's
 * own progress of the default worker and nap (200 us, doubling up to SYMMEM_NET_PROGRESS_NAP)
 * instead of sleeping on the default worker's messages: 41.2 ms a get and fetch-add here, worst
 * 98 ms, with bursts of 1000 (0.59 ms since; 2 x 1 PE on a 2-CPU machine under a build). A GPU job's proxy thread is such a thread: it posts
 * a kernel's requests on a private context.
 *
 * Run it with SYMMEM_NET_PROGRESS_NAP=0.05 (as ctest does): a request served only after a nap
 * then takes tens of ms; the bound is `limit_ms` for the mean request pair (default 5 ms).
 *
 *   mh_served [ROUNDS] [LIMIT_MS] [BURST]   (default 100, 5, 1000) */
#include <shmem.h>
#include <shmemx.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long stop;
static long word = 42;
static long counter;
static long sink[64];

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
  shmem_init();
  const long rounds = argc > 1 ? atol(argv[1]) : 100;
  const double limit_ms = argc > 2 ? atof(argv[2]) : 5.0;
  const long burst = argc > 3 && atol(argv[3]) > 0 ? atol(argv[3]) : 1000;
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int peer = n / 2; /* symmem-run --hosts A:k,B:k: the first PE on the second host */
  int failed = 0;
  shmem_ctx_t ctx;
  if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
    fprintf(stderr, "PE %d: shmem_ctx_create(SHMEM_CTX_PRIVATE) failed\n", me);
    shmem_global_exit(1);
  }
  shmem_barrier_all();
  if (me == 0) {
    long puts = 0;
    while (__atomic_load_n(&stop, __ATOMIC_ACQUIRE) == 0) {
      shmem_ctx_long_p(ctx, &sink[puts % 64], puts, peer);
      ++puts;
      for (const double t = now(); now() - t < 10e-6;) {
      } /* one put each 10 us: the peer serves them beside its own requests */
      if (puts % burst == 0) shmem_ctx_quiet(ctx);
    }
    shmem_ctx_quiet(ctx);
    printf("mh_served: PE 0 put %ld values through its private context meanwhile\n", puts);
  } else if (me == peer) {
    double worst = 0;
    const double t0 = now();
    for (long i = 0; i < rounds; ++i) {
      const double t = now();
      const long got = shmem_long_g(&word, 0);
      const long old = shmem_long_atomic_fetch_add(&counter, 1, 0);
      const double dt = now() - t;
      if (dt > worst) worst = dt;
      if (got != 42 || old != i) {
        fprintf(stderr, "PE %d: round %ld: got %ld (want 42), fetch-add returned %ld (want %ld)\n", me, i, got, old, i);
        failed = 1;
        break;
      }
    }
    const double mean_ms = (now() - t0) / (double)rounds * 1e3;
    shmem_long_atomic_set(&stop, 1, 0);
    shmem_quiet();
    printf("mh_served: %ld gets and fetch-adds served by a PE busy on a private context: %.3f ms a pair, worst %.3f ms\n",
           rounds, mean_ms, worst * 1e3);
    if (mean_ms > limit_ms) {
      fprintf(stderr, "PE %d: a get and a fetch-add to PE 0 took %.3f ms on average, over the %.1f ms bound: PE 0's "
                      "default worker waited for its progress thread's naps while PE 0 worked on a private context\n",
              me, mean_ms, limit_ms);
      failed = 1;
    }
  }
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
  if (me == 0 && counter != rounds && !failed) {
    fprintf(stderr, "PE 0: counter %ld, want %ld\n", counter, rounds);
    failed = 1;
  }
  int all = 0;
  static int flag, out;
  flag = failed;
  shmem_barrier_all();
  shmem_int_max_reduce(SHMEM_TEAM_WORLD, &out, &flag, 1);
  all = out;
  shmem_finalize();
  if (me == 0) puts(all ? "mh_served: FAILED" : "mh_served: ok");
  return all ? 1 : 0;
}
