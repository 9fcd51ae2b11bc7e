/* Large team broadcasts across hosts (past 256 KiB, up to 8 PEs: the root writes straight into
 * the members' dest, coll_net.cpp's broadcast_direct), back to back, with the root moving every
 * call, into one dest that every member poisons right before each call (nobody else writes it), so
 * bytes the call did not write show. Interleaved with small broadcasts (the ring's slots and the
 * exchanges) and sizes that are no multiple of a piece, one past a heap granule (2 MiB + 8 B), so
 * the counts of every broadcast path interleave; then one root for every call, with a member
 * falling behind now and then; on the world and on a team split across the hosts, destroyed and
 * split again into the same slot (its counts start over); and into a dest in static data. Each
 * call is checked as it returns.
 *
 *   mh_bcast_large [ROUNDS]   (default 12)
 *   mh_bcast_large mismatch   PE 1 expects a longer broadcast (1 MiB) than the root sends
 *                             (512 KiB): every PE fails the call, naming the calls, none hangs */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MOST ((size_t)(2 << 20) / sizeof(long) + 1) /* longs: 2 MiB + 8 B */

static long *dest_heap, *src;
static long static_dest[MOST]; /* symmetric too: the program's static data */

/* Longs per call, in turn. */
static const size_t sizes[] = {65536, 1, 131072, 2048, 76801, MOST, 38400, 513, 32769, 4, 131072, 65536};
#define NSIZES (sizeof sizes / sizeof sizes[0])

static long value(long round, int root, size_t k) { return round * 1000003L + root * 7919L + (long)k; }

static void run(shmem_team_t team, long rounds, int fixed_root, const char *what) {
  long *const dest = strstr(what, "static") ? static_dest : dest_heap;
  const int me = shmem_team_my_pe(team), size = shmem_team_n_pes(team);
  shmem_team_sync(team);
  for (long i = 0; i < rounds; ++i) {
    const int root = fixed_root >= 0 ? fixed_root : (int)(i % size);
    const size_t n = sizes[(size_t)i % NSIZES];
    if (fixed_root >= 0 && me == (fixed_root + 1) % size && i % 5 == 0) usleep(3000); /* falls behind */
    if (me == root)
      for (size_t k = 0; k < n; ++k) src[k] = value(i, root, k);
    memset(dest, 0xa5, n * sizeof(long));
    if (shmem_long_broadcast(team, dest, src, n, root) != 0) {
      fprintf(stderr, "PE %d: %s: broadcast %ld (%zu longs, root %d) failed\n", shmem_my_pe(), what, i, n, root);
      shmem_global_exit(1);
    }
    for (size_t k = 0; k < n; ++k) {
      if (dest[k] != value(i, root, k)) {
        fprintf(stderr, "PE %d: %s: broadcast %ld (%zu longs, root %d) element %zu is %ld, want %ld\n", shmem_my_pe(),
                what, i, n, root, k, dest[k], value(i, root, k));
        shmem_global_exit(1);
      }
    }
  }
  shmem_team_sync(team);
}

int main(int argc, char **argv) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  long *const dest = dest_heap = shmem_malloc(MOST * sizeof(long));
  src = shmem_malloc(MOST * sizeof(long));
  if (!dest || !src) {
    fprintf(stderr, "PE %d: shmem_malloc failed\n", me);
    shmem_global_exit(1);
  }
  if (argc > 1 && strcmp(argv[1], "mismatch") == 0) {
    const size_t mine = me == 1 ? 131072 : 65536;
    const int rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, dest, src, mine, 0);
    printf("PE %d: broadcast of %zu longs returned %d\n", me, mine, rc);
    shmem_finalize();
    return rc == 0;
  }
  const long rounds = argc > 1 ? atol(argv[1]) : 12;
  run(SHMEM_TEAM_WORLD, rounds * 2, -1, "world");
  run(SHMEM_TEAM_WORLD, rounds, 0, "world, root 0");
  run(SHMEM_TEAM_WORLD, rounds, n - 1, "world, the last PE the root");
  run(SHMEM_TEAM_WORLD, rounds, -1, "world, dest in static data");
  for (int again = 0; again < 2; ++again) {
    /* every other PE: with the PEs filling the hosts in order, a team with members on each host */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
      run(odd, rounds, -1, "odd PEs");
      shmem_team_destroy(odd);
    }
    shmem_barrier_all();
  }
  shmem_free(src);
  shmem_free(dest);
  if (me == 0) printf("mh_bcast_large: %d PEs ok\n", n);
  shmem_finalize();
  return 0;
}
