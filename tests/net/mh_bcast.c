/* Team broadcasts across hosts, back to back, with the root moving every call: on return a
 * member's dest must hold that call's data, even when a later root's broadcast reached it first
 * (the broadcast has no barrier; docs/multihost.md). One dest reused and reset by every member
 * between calls, and a slot of a large poisoned array per call, each checked as the call returns.
 * Then the same with one root for every call (it runs ahead of the members as far as the
 * broadcasts' ring lets it, and one member falls behind now and then, so the root must learn how
 * far each got before it reuses a slot), on a team split across the hosts, destroyed and split
 * again into the same slot (its counts start over), and on sizes from 8 B to 258 KiB: those that
 * take one of the ring's slots (up to 4 KiB), those that go as exchanges (4 KiB + 8 B to 128 KiB
 * - 1 B, up to 8 PEs; with more PEs, two of the ring's slots up to 8 KiB, then pulled), from
 * 128 KiB (SYMMEM_NET_COLL_DIRECT) at up to 8 PEs written straight into the dest (see
 * mh_bcast_large; pulled with more PEs; as exchanges up to 512 KiB with SYMMEM_NET_COLL_DIRECT=0),
 * and sizes that change from call to call, so the slots of one broadcast wrap around the ring at
 * every place.
 *
 *   mh_bcast [ROUNDS]      (default 400) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void check_slot(const long *slot, size_t nelems, long round, int root, const char *what) {
  for (size_t k = 0; k < nelems; ++k) {
    const long want = round * 1000003L + root * 7919L + (long)k;
    if (slot[k] != want) {
      fprintf(stderr, "PE %d: %s: broadcast %ld (root %d) element %zu is %ld, want %ld\n", shmem_my_pe(), what, round,
              root, k, slot[k], want);
      shmem_global_exit(1);
    }
  }
}

/* `rounds` broadcasts on `team`, root i % size (or `fixed_root` when it is >= 0), `nelems` longs each: into one dest, which every
 * member poisons right before each call (a program may reuse and reset its dest between
 * broadcasts: nobody else writes it), and into slot i of `slots`. Checked as each call returns. */
static long *one, *slots, *src;

static const size_t mixed[] = {1, 513, 8192, 3, 1024, 512}; /* longs: 1 slot, 2 slots or an exchange, pulled or an exchange, ... */

/* `cycle`: the sizes of the calls in turn (`nelems` then only sizes the slots), else `nelems` each. */
static void run_sizes(shmem_team_t team, long rounds, size_t nelems, const size_t *cycle, size_t ncycle, int fixed_root,
                      const char *what) {
  const int me = shmem_team_my_pe(team), size = shmem_team_n_pes(team);
  memset(slots, 0xa5, (size_t)rounds * nelems * sizeof(long)); /* poison: unwritten data shows */
  shmem_team_sync(team);
  for (long i = 0; i < rounds; ++i) {
    const int root = fixed_root >= 0 ? fixed_root : (int)(i % size);
    const size_t n = cycle ? cycle[(size_t)i % ncycle] : nelems;
    if (fixed_root >= 0 && me == (fixed_root + 1) % size && i % 97 == 0) usleep(3000); /* falls behind */
    if (me == root)
      for (size_t k = 0; k < n; ++k) src[k] = i * 1000003L + root * 7919L + (long)k;
    memset(one, 0xa5, n * sizeof(long));
    if (shmem_long_broadcast(team, one, src, n, root) != 0) {
      fprintf(stderr, "PE %d: %s: broadcast %ld failed\n", shmem_my_pe(), what, i);
      shmem_global_exit(1);
    }
    check_slot(one, n, i, root, what);
    long *slot = slots + (size_t)i * nelems;
    if (shmem_long_broadcast(team, slot, src, n, root) != 0) {
      fprintf(stderr, "PE %d: %s: broadcast %ld failed\n", shmem_my_pe(), what, i);
      shmem_global_exit(1);
    }
    check_slot(slot, n, i, root, what);
  }
  shmem_team_sync(team);
  for (long i = 0; i < rounds; ++i)
    check_slot(slots + (size_t)i * nelems, cycle ? cycle[(size_t)i % ncycle] : nelems, i,
               fixed_root >= 0 ? fixed_root : (int)(i % size), what);
}

static void run(shmem_team_t team, long rounds, size_t nelems, int fixed_root, const char *what) {
  run_sizes(team, rounds, nelems, NULL, 0, fixed_root, what);
}

int main(int argc, char **argv) {
  shmem_init();
  const long rounds = argc > 1 ? atol(argv[1]) : 400;
  const int me = shmem_my_pe(), n = shmem_n_pes();
  size_t most = (size_t)rounds * 128 > 8 * 33000 ? (size_t)rounds * 128 : 8 * 33000; /* longs */
  if ((size_t)(rounds / 4) * 8192 > most) most = (size_t)(rounds / 4) * 8192;
  one = shmem_malloc(33000 * sizeof(long));
  slots = shmem_malloc(most * sizeof(long));
  src = shmem_malloc(33000 * sizeof(long));
  if (!one || !slots || !src) {
    fprintf(stderr, "PE %d: shmem_malloc failed\n", me);
    shmem_global_exit(1);
  }
  run(SHMEM_TEAM_WORLD, rounds, 1, -1, "world, 8 B");
  run(SHMEM_TEAM_WORLD, rounds, 1, 0, "world, 8 B, root 0");
  run(SHMEM_TEAM_WORLD, rounds, 1, n - 1, "world, 8 B, the last PE the root");
  run(SHMEM_TEAM_WORLD, rounds / 4, 128, -1, "world, 1 KiB");
  run(SHMEM_TEAM_WORLD, rounds / 4, 128, 0, "world, 1 KiB, root 0");
  run(SHMEM_TEAM_WORLD, rounds / 8, 513, -1, "world, 4 KiB + 8 B");
  run(SHMEM_TEAM_WORLD, rounds / 8, 4096, 0, "world, 32 KiB, root 0");
  run(SHMEM_TEAM_WORLD, rounds / 8, 1024, 0, "world, 8 KiB, root 0");
  run(SHMEM_TEAM_WORLD, rounds / 8, 8192, -1, "world, 64 KiB");
  run(SHMEM_TEAM_WORLD, rounds / 8, 8193, 0, "world, 64 KiB + 8 B, root 0");
  run_sizes(SHMEM_TEAM_WORLD, rounds / 4, 8192, mixed, sizeof mixed / sizeof mixed[0], -1, "world, mixed sizes");
  run_sizes(SHMEM_TEAM_WORLD, rounds / 4, 8192, mixed, sizeof mixed / sizeof mixed[0], 0, "world, mixed sizes, root 0");
  run(SHMEM_TEAM_WORLD, 8, 16383, -1, "world, 128 KiB - 8 B"); /* just below SYMMEM_NET_COLL_DIRECT */
  run(SHMEM_TEAM_WORLD, 8, 16384, 0, "world, 128 KiB, root 0");  /* from it: direct */
  run(SHMEM_TEAM_WORLD, 8, 32768, -1, "world, 256 KiB");
  run(SHMEM_TEAM_WORLD, 8, 33000, -1, "world, 258 KiB"); /* past the exchanges: direct, or pulled */
  for (int again = 0; again < 3; ++again) {
    /* every other PE: with the PEs filling the hosts in order, a team with members on each host */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
      run(odd, rounds / 2, 3, -1, "odd PEs");
      run(odd, rounds / 2, 3, 0, "odd PEs, one root");
      run_sizes(odd, rounds / 8, 8192, mixed, sizeof mixed / sizeof mixed[0], 0, "odd PEs, mixed sizes");
      shmem_team_destroy(odd);
    }
    shmem_barrier_all();
  }
  shmem_barrier_all();
  shmem_free(src);
  shmem_free(slots);
  shmem_free(one);
  if (me == 0) printf("mh_bcast: %d PEs ok\n", n);
  shmem_finalize();
  return 0;
}
