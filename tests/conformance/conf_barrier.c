/* Barriers and syncs: barrier_all, sync_all, team_sync (world and a sub-team), and the deprecated
 * active-set shmem_barrier / shmem_sync with pSync (which must come back as SHMEM_SYNC_VALUE).
 * Each round every PE writes its left neighbour's slot, synchronises, and checks the value it got. */
#include "conf.h"

static long *slot;
static long *psync;

enum { ROUNDS = 50 };

static void ring_round(int kind, long r, int me, int n, shmem_team_t sub) {
  int left = (me + n - 1) % n;
  long v = r * 1000 + me;
  shmem_long_p(slot, v, left);
  switch (kind) {
    case 0: shmem_barrier_all(); break;
    case 1: shmem_quiet(); shmem_sync_all(); break;
    case 2: shmem_quiet(); CHECK_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0); break;
    case 3: shmem_barrier(0, 0, n, psync); break;
    case 4: shmem_quiet(); shmem_sync(0, 0, n, psync); break;
    case 5: /* sync_all is team_sync(SHMEM_TEAM_WORLD): PEs may mix the two */
      shmem_quiet();
      if (me % 2) shmem_sync_all();
      else CHECK_EQ(shmem_team_sync(SHMEM_TEAM_WORLD), 0);
      break;
    default: break;
  }
  CHECK_EQ(*slot, r * 1000 + (me + 1) % n);
  (void)sub;
  shmem_barrier_all(); /* nobody overwrites the slot before its owner has checked it */
}

/* Sub-teams and strided active sets: only their members take part. */
static void test_subsets(int me, int n) {
  shmem_team_t odd = SHMEM_TEAM_INVALID;
  if (n > 1) CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd), 0);
  for (int r = 0; r < ROUNDS; ++r) {
    if (odd != SHMEM_TEAM_INVALID) {
      int tn = shmem_team_n_pes(odd), tme = shmem_team_my_pe(odd);
      int left = shmem_team_translate_pe(odd, (tme + tn - 1) % tn, SHMEM_TEAM_WORLD);
      shmem_long_p(slot, r * 7 + me, left);
      shmem_quiet();
      CHECK_EQ(shmem_team_sync(odd), 0);
      CHECK_EQ(*slot, r * 7 + shmem_team_translate_pe(odd, (tme + 1) % tn, SHMEM_TEAM_WORLD));
      CHECK_EQ(shmem_team_sync(odd), 0);
    }
    if (me % 2 == 0) { /* evens as an active set: start 0, log stride 1 */
      int size = (n + 1) / 2, idx = me / 2;
      shmem_long_p(slot, r * 11 + me, 2 * ((idx + size - 1) % size));
      shmem_barrier(0, 1, size, psync);
      CHECK_EQ(*slot, r * 11 + 2 * ((idx + 1) % size));
      shmem_barrier(0, 1, size, psync);
    }
  }
  if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  slot = (long *)conf_malloc(sizeof(long));
  psync = (long *)conf_malloc(sizeof(long) * SHMEM_BARRIER_SYNC_SIZE);
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  for (int kind = 0; kind < 6; ++kind) {
    for (long r = 0; r < ROUNDS; ++r) ring_round(kind, r + kind * ROUNDS, me, n, SHMEM_TEAM_INVALID);
  }
  test_subsets(me, n);
  shmem_barrier_all();
  for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; ++i) CHECK_EQ(psync[i], SHMEM_SYNC_VALUE);
  conf_free(psync);
  conf_free(slot);
  shmem_finalize();
  if (me == 0) printf("conf_barrier: %d PEs ok\n", n);
  return 0;
}
