/* Small collectives across hosts, back to back: fcollect, alltoall, collect and sum reductions without a
 * barrier between them go as one exchange of data signals each (docs/multihost.md), with blocks
 * landing by the parity of the team's exchange number. Every call writes a fresh, poisoned slot of
 * a large array and is checked as it returns, with the calls of one round interleaved so that a
 * block of one kind of call could land in the place of another's; fcollect in place (the source
 * inside the dest); a reduction whose dest is its source; blocks that fit a slot, blocks that
 * take several exchanges (past 256 KiB too, in at most 16 chunks), and blocks past the exchanges'
 * limit (pushed: 1 MiB + 8 B on the world, 300 KiB on a team); then all of it on a team split
 * across the hosts, destroyed and split again into the same slot (its counts start over). With
 * the default SYMMEM_NET_COLL_DIRECT (128 KiB) the blocks from 200 KiB on go straight into the
 * members' dest instead (gather_direct), sharing one count with the large broadcasts; with
 * SYMMEM_NET_COLL_DIRECT=0 they take the exchanges and the pushes.
 *
 *   mh_xchg [ROUNDS]          (default 300)
 *   mh_xchg mismatch          PE 1 passes another size to fcollect: every PE must fail the call
 *                             with a message naming the PEs and their calls, not hang
 *   mh_xchg mismatch-bcast    PE 1 expects a longer broadcast than the root sends: PE 1 fails
 *                             it naming the root's call, the others complete it
 *   mh_xchg skip-bcast        PE 2 skips a 16 KiB broadcast (an exchange; its root returns without
 *                             waiting for the members' calls) and all go on to barrier_all: the
 *                             root's barrier must wait for PE 2's call to that broadcast and name
 *                             it, not let the PEs go on out of step */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long *dst, *src, *red;
static const long poison = (long)0xa5a5a5a5a5a5a5a5UL;

static long value(long round, int pe, size_t k) { return round * 1000003L + pe * 7919L + (long)k; }

static void fail_at(const char *what, long round, size_t at, long got, long want) {
  fprintf(stderr, "PE %d: %s: round %ld element %zu is %ld, want %ld\n", shmem_my_pe(), what, round, at, got, want);
  shmem_global_exit(1);
}

/* A collect's contribution of team PE i in round r: nelems, nelems / 2 or none. */
static size_t collect_size(long r, int i, size_t nelems) {
  const long k = (i + r) % 3;
  return k == 0 ? nelems : k == 1 ? nelems / 2 : 0;
}

/* `rounds` rounds on `team` of: fcollect (nelems per PE), alltoall (nelems per pair), collect (sizes
 * that differ, some zero), sum reduce (nelems) into dest == source, fcollect in place. */
static void run(shmem_team_t team, long rounds, size_t nelems, const char *what) {
  const int me = shmem_team_my_pe(team), n = shmem_team_n_pes(team);
  const size_t all = (size_t)n * nelems;
  shmem_team_sync(team);
  for (long r = 0; r < rounds; ++r) {
    /* fcollect */
    for (size_t k = 0; k < nelems; ++k) src[k] = value(r, me, k);
    for (size_t k = 0; k < all; ++k) dst[k] = poison;
    if (shmem_long_fcollect(team, dst, src, nelems) != 0) fail_at(what, r, 0, -1, 0);
    for (int i = 0; i < n; ++i)
      for (size_t k = 0; k < nelems; ++k)
        if (dst[(size_t)i * nelems + k] != value(r, i, k)) fail_at(what, r, (size_t)i * nelems + k, dst[(size_t)i * nelems + k], value(r, i, k));
    /* alltoall: block j of the source goes to team PE j */
    for (int j = 0; j < n; ++j)
      for (size_t k = 0; k < nelems; ++k) src[(size_t)j * nelems + k] = value(r, me * 64 + j, k);
    for (size_t k = 0; k < all; ++k) dst[k] = poison;
    if (shmem_long_alltoall(team, dst, src, nelems) != 0) fail_at(what, r, 0, -2, 0);
    for (int i = 0; i < n; ++i)
      for (size_t k = 0; k < nelems; ++k)
        if (dst[(size_t)i * nelems + k] != value(r, i * 64 + me, k))
          fail_at(what, r, (size_t)i * nelems + k, dst[(size_t)i * nelems + k], value(r, i * 64 + me, k));
    /* collect: contributions of nelems, nelems / 2 or none, by PE and round; nothing past them */
    {
      size_t at[64], total = 0;
      for (int i = 0; i < n && i < 64; ++i) {
        at[i] = total;
        total += collect_size(r, i, nelems);
      }
      const size_t mine = collect_size(r, me, nelems);
      for (size_t k = 0; k < mine; ++k) src[k] = value(r + 2, me, k);
      for (size_t k = 0; k < all; ++k) dst[k] = poison;
      if (shmem_long_collect(team, dst, src, mine) != 0) fail_at(what, r, 0, -5, 0);
      for (int i = 0; i < n && i < 64; ++i)
        for (size_t k = 0; k < collect_size(r, i, nelems); ++k)
          if (dst[at[i] + k] != value(r + 2, i, k)) fail_at(what, r, at[i] + k, dst[at[i] + k], value(r + 2, i, k));
      for (size_t k = total; k < all; ++k)
        if (dst[k] != poison) fail_at(what, r, k, dst[k], poison);
    }
    /* sum reduce in place: the sum of value(r, i, k) over the team */
    for (size_t k = 0; k < nelems; ++k) red[k] = value(r, me, k);
    if (shmem_long_sum_reduce(team, red, red, nelems) != 0) fail_at(what, r, 0, -3, 0);
    for (size_t k = 0; k < nelems; ++k) {
      long want = 0;
      for (int i = 0; i < n; ++i) want += value(r, i, k);
      if (red[k] != want) fail_at(what, r, k, red[k], want);
    }
    /* fcollect in place: this PE's block already sits at its place in dest */
    for (size_t k = 0; k < all; ++k) dst[k] = poison;
    for (size_t k = 0; k < nelems; ++k) dst[(size_t)me * nelems + k] = value(r + 1, me, k);
    if (shmem_long_fcollect(team, dst, dst + (size_t)me * nelems, nelems) != 0) fail_at(what, r, 0, -4, 0);
    for (int i = 0; i < n; ++i)
      for (size_t k = 0; k < nelems; ++k)
        if (dst[(size_t)i * nelems + k] != value(r + 1, i, k))
          fail_at(what, r, (size_t)i * nelems + k, dst[(size_t)i * nelems + k], value(r + 1, i, k));
  }
  shmem_team_sync(team);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "skip-bcast") == 0) {
    /* The root's wait is the one checked: the others wait longer, so that it runs out first. */
    const char *rank = getenv("SYMMEM_LAUNCHER_RANK");
    if (rank != NULL && strcmp(rank, "0") != 0) setenv("SYMMEM_WAIT_TIMEOUT", "30", 1);
  }
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  const size_t most = 131073; /* longs per PE block at most below */
  dst = shmem_malloc((size_t)n * most * sizeof(long));
  src = shmem_malloc((size_t)n * most * sizeof(long));
  red = shmem_malloc(most * sizeof(long));
  if (!dst || !src || !red) {
    fprintf(stderr, "PE %d: shmem_malloc failed\n", me);
    shmem_global_exit(1);
  }
  if (argc > 1 && strcmp(argv[1], "mismatch") == 0) {
    const size_t mine = me == 1 ? 4 : 2;
    const int rc = shmem_long_fcollect(SHMEM_TEAM_WORLD, dst, src, mine);
    printf("PE %d: fcollect of %zu longs returned %d\n", me, mine, rc);
    shmem_finalize();
    return rc == 0;
  }
  if (argc > 1 && strcmp(argv[1], "mismatch-bcast") == 0) {
    const size_t mine = me == 1 ? 4 : 2; /* a broadcast from PE 0 that PE 1 thinks is longer */
    const int rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, mine, 0);
    printf("PE %d: broadcast of %zu longs returned %d\n", me, mine, rc);
    shmem_finalize();
    return me == 1 ? rc == 0 : rc != 0;
  }
  if (argc > 1 && strcmp(argv[1], "skip-bcast") == 0) {
    for (size_t k = 0; k < 2048; ++k) src[k] = (long)k;
    if (me != 2) {
      const int rc = shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 2048, 0);
      printf("PE %d: broadcast returned %d\n", me, rc);
      fflush(stdout);
    }
    shmem_barrier_all();
    printf("PE %d: barrier_all returned\n", me); /* must not be reached */
    shmem_finalize();
    return 0;
  }
  const long rounds = argc > 1 ? atol(argv[1]) : 300;
  run(SHMEM_TEAM_WORLD, rounds, 1, "world, 8 B");
  run(SHMEM_TEAM_WORLD, rounds / 4, 64, "world, 512 B");
  run(SHMEM_TEAM_WORLD, 20, 4096 / (size_t)n + 3, "world, 32 KiB in all"); /* blocks past a slot: in chunks */
  run(SHMEM_TEAM_WORLD, 3, 25600, "world, 200 KiB blocks");                  /* several exchanges */
  run(SHMEM_TEAM_WORLD, 2, 33000, "world, 258 KiB blocks"); /* past 256 KiB: exchanges while 16 chunks hold it */
  run(SHMEM_TEAM_WORLD, 2, 76800, "world, 600 KiB blocks"); /* 10 chunks at 4 PEs, 14 at 6 */
  run(SHMEM_TEAM_WORLD, 2, 131073, "world, 1 MiB + 8 B blocks"); /* past the exchanges: pushed */
  for (int again = 0; again < 3; ++again) {
    /* every other PE: with the PEs filling the hosts in order, a team with members on each host */
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) {
      run(odd, rounds / 3, 3, "odd PEs");
      run(odd, 4, 2000, "odd PEs, 16 KiB blocks"); /* past a team area's slot: in chunks */
      if (again == 0) run(odd, 2, 38400, "odd PEs, 300 KiB blocks"); /* 25 chunks of a team area: pushed */
      shmem_team_destroy(odd);
    }
    shmem_barrier_all();
  }
  run(SHMEM_TEAM_WORLD, rounds / 4, 16, "world again, 128 B");
  shmem_free(red);
  shmem_free(src);
  shmem_free(dst);
  if (me == 0) printf("mh_xchg: %d PEs ok\n", n);
  shmem_finalize();
  return 0;
}
