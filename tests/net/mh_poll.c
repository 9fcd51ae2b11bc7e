/* PEs that poll in loops of their own across hosts: a ping-pong between PE 0 and the first PE on
 * another host, each side putting the next value into the other's word and polling its own with
 * shmem_long_test, shmem_long_test_any or shmem_signal_fetch (the other PEs wait at the barrier).
 * A miss of those calls progresses the network, so a put from the other host lands in the poller's
 * own turn: before that, it waited for the progress thread, which naps while the PE's own thread
 * posts (1.1-1.5 ms per round trip, against 35-41 us since, 2 hosts x 1 PE on a 2-CPU machine).
 * Every value is checked as it arrives; the whole run must take less than `limit` seconds. Run
 * it with SYMMEM_NET_PROGRESS_NAP=0.05 (as ctest does): the progress thread's naps then cost 50 ms
 * per round trip, and a limit of 10 ms per round trip lies far from both (tests/net/CMakeLists.txt).
 *
 *   mh_poll [ROUNDS] [LIMIT_S]   (default 600, 6) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long word;
static uint64_t sig;

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Polls until this PE's word holds `want`, by `how`; fails on any other value but the one before. */
static void await(int how, long want) {
  for (;;) {
    long v;
    if (how == 0) {
      if (shmem_long_test(&word, SHMEM_CMP_EQ, want)) return;
      v = __atomic_load_n(&word, __ATOMIC_ACQUIRE);
    } else if (how == 1) {
      if (shmem_long_test_any(&word, 1, NULL, SHMEM_CMP_EQ, want) == 0) return;
      v = __atomic_load_n(&word, __ATOMIC_ACQUIRE);
    } else {
      v = (long)shmem_signal_fetch(&sig);
      if (v == want) return;
    }
    if (v == want) return; /* it landed after the call looked */
    if (v != want - 1 && v != want - 2) { /* the value before this round's */
      fprintf(stderr, "PE %d: polled %ld while waiting for %ld\n", shmem_my_pe(), v, want);
      shmem_global_exit(1);
    }
  }
}

int main(int argc, char **argv) {
  shmem_init();
  const long rounds = argc > 1 ? atol(argv[1]) : 600;
  const double limit = argc > 2 ? atof(argv[2]) : 6.0;
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const int peer = n / 2; /* symmem-run --hosts A:k,B:k: the first PE on the second host */
  static const char *names[] = {"shmem_long_test", "shmem_long_test_any", "shmem_signal_fetch"};
  int failed = 0;
  for (int how = 0; how < 3; ++how) {
    word = 0;
    sig = 0;
    shmem_barrier_all();
    const double t0 = now();
    if (me == 0 || me == peer) {
      const int other = me == 0 ? peer : 0;
      for (long i = 1; i <= rounds; ++i) {
        /* Words: PE 0 sends the odd values, the peer the even ones. The signal: each side's counts
         * the other's messages, so it is i in round i. */
        const long odd = how == 2 ? i : 2 * i - 1, even = how == 2 ? i : 2 * i;
        if (me == 0) {
          if (how == 2) shmem_long_put_signal(&word, &odd, 1, &sig, 1, SHMEM_SIGNAL_ADD, other);
          else shmem_long_p(&word, odd, other);
          await(how, even);
        } else {
          await(how, odd);
          if (how == 2) shmem_long_put_signal(&word, &even, 1, &sig, 1, SHMEM_SIGNAL_ADD, other);
          else shmem_long_p(&word, even, other);
        }
      }
    }
    const double t = now() - t0;
    if (me == 0) {
      printf("mh_poll: %s: %ld round trips in %.3f s (%.1f us each)\n", names[how], rounds, t, t / rounds * 1e6);
      if (t > limit) {
        fprintf(stderr, "mh_poll: %s: %ld round trips took %.3f s, more than %.1f s: a poll loop is not served in its "
                "own turn\n", names[how], rounds, t, limit);
        failed = 1;
      }
    }
    shmem_barrier_all();
  }
  shmem_finalize();
  return failed;
}
