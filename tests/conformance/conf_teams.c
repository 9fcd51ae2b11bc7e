/* Teams: WORLD and SHARED, queries, split_strided, split_2d, translate_pe, get_config, team_ptr,
 * team_sync, destroy, slot reuse, running out of teams, and invalid splits; and symmem's teams from
 * a unique id (symmem_team_init, NVSHMEM's nvshmemx_team_init), which have no parent.
 * `conf_teams init_missing`: PE 0 waits in team_init for a member that never comes. */
#include <unistd.h>

#include "conf.h"

static int *scratch;

/* A small collective on the team proves its members agree on its slot. */
static void check_team_works(shmem_team_t t) {
  int n = shmem_team_n_pes(t), me = shmem_team_my_pe(t);
  int *src = (int *)scratch, *dst = (int *)scratch + 1;
  *src = shmem_my_pe();
  for (int i = 0; i < n; ++i) dst[i] = -1;
  CHECK_EQ(shmem_int_fcollect(t, dst, src, 1), 0);
  for (int i = 0; i < n; ++i) CHECK_EQ(dst[i], shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD));
  CHECK_EQ(dst[me], shmem_my_pe());
  /* and a few small broadcasts (the barrier-free path, whose flags outlive a destroyed team) */
  for (int root = 0; root < n; ++root) {
    for (int k = 0; k < 3; ++k) {
      *src = shmem_my_pe() * 10 + k;
      dst[0] = -1;
      CHECK_EQ(shmem_int_broadcast(t, dst, src, 1, root), 0);
      CHECK_EQ(dst[0], shmem_team_translate_pe(t, root, SHMEM_TEAM_WORLD) * 10 + k);
    }
  }
  CHECK_EQ(shmem_team_sync(t), 0);
}

static void test_predefined(int me, int n) {
  CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_WORLD), me);
  CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_WORLD), n);
  CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_SHARED), conf_host_pes(me, n)); /* the PEs of this host */
  CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_SHARED), conf_host_index(me));
  CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
  CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, SHMEM_TEAM_SHARED), conf_host_index(me));
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n, SHMEM_TEAM_SHARED), -1);
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
  check_team_works(SHMEM_TEAM_WORLD);
  check_team_works(SHMEM_TEAM_SHARED);
}

static void test_strided(int me, int n) {
  shmem_team_config_t conf = {3};
  shmem_team_t evens, odds = SHMEM_TEAM_INVALID;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, &conf, SHMEM_TEAM_NUM_CONTEXTS, &evens), 0);
  if (n > 1) CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odds), 0);
  shmem_team_t mine = me % 2 == 0 ? evens : odds;
  CHECK((me % 2 == 0) == (evens != SHMEM_TEAM_INVALID));
  CHECK((me % 2 == 1) == (odds != SHMEM_TEAM_INVALID));
  CHECK_EQ(shmem_team_my_pe(mine), me / 2);
  CHECK_EQ(shmem_team_n_pes(mine), me % 2 == 0 ? (n + 1) / 2 : n / 2);
  for (int i = 0; i < shmem_team_n_pes(mine); ++i) {
    CHECK_EQ(shmem_team_translate_pe(mine, i, SHMEM_TEAM_WORLD), 2 * i + me % 2);
    CHECK(shmem_team_ptr(mine, scratch, i) == shmem_ptr(scratch, 2 * i + me % 2));
    CHECK((shmem_ptr(scratch, 2 * i + me % 2) != NULL) == conf_same_host(me, 2 * i + me % 2));
  }
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, me, mine), me / 2);
  shmem_team_config_t got = {0};
  if (me % 2 == 0) {
    CHECK_EQ(shmem_team_get_config(evens, SHMEM_TEAM_NUM_CONTEXTS, &got), 0);
    CHECK_EQ(got.num_contexts, 3);
  }
  check_team_works(mine);
  /* a split of a split: every other PE of the evens, i.e. world PEs 0, 4, 8, ... */
  if (me % 2 == 0) {
    shmem_team_t quarter;
    int ne = shmem_team_n_pes(evens);
    CHECK_EQ(shmem_team_split_strided(evens, 0, 2, (ne + 1) / 2, NULL, 0, &quarter), 0);
    CHECK((me % 4 == 0) == (quarter != SHMEM_TEAM_INVALID));
    if (quarter != SHMEM_TEAM_INVALID) {
      CHECK_EQ(shmem_team_my_pe(quarter), me / 4);
      CHECK_EQ(shmem_team_translate_pe(quarter, shmem_team_my_pe(quarter), SHMEM_TEAM_WORLD), me);
      check_team_works(quarter);
      shmem_team_destroy(quarter);
    }
  }
  if (evens != SHMEM_TEAM_INVALID) shmem_team_destroy(evens);
  if (odds != SHMEM_TEAM_INVALID) shmem_team_destroy(odds);
  /* one-PE teams and a reversed (negative stride) team */
  shmem_team_t self, rev;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, NULL, 0, &self), 0);
  if (me == 0) check_team_works(self), shmem_team_destroy(self);
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev), 0);
  CHECK_EQ(shmem_team_my_pe(rev), n - 1 - me);
  check_team_works(rev);
  shmem_team_destroy(rev);
}

static void test_2d(int me, int n) {
  for (int xr = 1; xr <= 3; ++xr) {
    shmem_team_t x, y;
    CHECK_EQ(shmem_team_split_2d(SHMEM_TEAM_WORLD, xr, NULL, 0, &x, NULL, 0, &y), 0);
    int xs = xr < n ? xr : n;
    CHECK_EQ(shmem_team_my_pe(x), me % xs);
    CHECK_EQ(shmem_team_n_pes(x), (me / xs + 1) * xs <= n ? xs : n - (me / xs) * xs);
    CHECK_EQ(shmem_team_my_pe(y), me / xs);
    CHECK_EQ(shmem_team_n_pes(y), (n - me % xs + xs - 1) / xs);
    check_team_works(x);
    check_team_works(y);
    shmem_team_destroy(x);
    shmem_team_destroy(y);
  }
}

static void test_invalid(int n) {
  shmem_team_t t = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 0, NULL, 0, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  t = SHMEM_TEAM_WORLD;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n + 1, NULL, 0, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_split_2d(SHMEM_TEAM_WORLD, 0, NULL, 0, &t, NULL, 0, &t) != 0);
  CHECK(shmem_team_sync(SHMEM_TEAM_INVALID) != 0);
  CHECK(shmem_int_fcollect(SHMEM_TEAM_INVALID, scratch, scratch, 1) != 0);
}

/* Teams come and go: slots are reused, epochs never collide; then all 62 free slots, and one more fails. */
static void test_reuse_and_limit(int me, int n) {
  for (int i = 0; i < 40; ++i) {
    shmem_team_t t;
    int size = 1 + i % n;
    CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, size, NULL, 0, &t), 0);
    if (me < size) {
      check_team_works(t);
      for (int k = 0; k < i % 3; ++k) CHECK_EQ(shmem_team_sync(t), 0);
      shmem_team_destroy(t);
    }
  }
  shmem_team_t many[64];
  int made = 0;
  while (made < 64) {
    if (shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &many[made]) != 0) break;
    ++made;
  }
  CHECK_EQ(made, 62);
  check_team_works(many[61]);
  for (int i = 0; i < made; ++i) shmem_team_destroy(many[i]);
  shmem_team_t again;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &again), 0);
  check_team_works(again);
  shmem_team_destroy(again);
}

/* A unique id made on PE `from`, handed to every PE by a broadcast (as a program would by MPI). */
static uint64_t *uid_box;
static uint64_t uid_from(int from) {
  uint64_t *mine = uid_box + 1;
  *uid_box = 0;
  *mine = 0;
  if (shmem_my_pe() == from) CHECK_EQ(symmem_team_get_uniqueid(mine), 0);
  CHECK_EQ(shmem_uint64_broadcast(SHMEM_TEAM_WORLD, uid_box, mine, 1, from), 0);
  if (shmem_my_pe() == from) *uid_box = *mine; /* broadcast leaves the root's dest alone (1.5) */
  CHECK(*uid_box != 0 && *uid_box != ~(uint64_t)0);
  return *uid_box;
}

/* The team's members in world PE order by team index, as team_init was told. */
static void check_members(shmem_team_t t, int size, int my_index, const int *world_of) {
  CHECK(t != SHMEM_TEAM_INVALID);
  CHECK_EQ(shmem_team_n_pes(t), size);
  CHECK_EQ(shmem_team_my_pe(t), my_index);
  for (int i = 0; i < size; ++i) {
    CHECK_EQ(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD), world_of[i]);
    CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, world_of[i], t), i);
  }
  check_team_works(t);
}

static void test_team_init(int me, int n) {
  int world_of[64];
  /* Every PE, in reverse order; the id from the last PE. */
  uint64_t id = uid_from(n - 1);
  shmem_team_t rev = SHMEM_TEAM_WORLD;
  CHECK_EQ(symmem_team_init(&rev, id, n, n - 1 - me, NULL, 0), 0);
  for (int i = 0; i < n; ++i) world_of[i] = n - 1 - i;
  check_members(rev, n, n - 1 - me, world_of);

  /* Two disjoint teams made at once (evens, odds), each rotated by one, each with its own id; the
   * reversed team stays live, so these take other slots. */
  uint64_t ids[2];
  ids[0] = uid_from(0);
  ids[1] = uid_from(n - 1);
  const int par = me % 2, size = par == 0 ? (n + 1) / 2 : n / 2;
  const int idx = (me / 2 + 1) % size;
  shmem_team_t half = SHMEM_TEAM_INVALID;
  CHECK_EQ(symmem_team_init(&half, ids[par], size, idx, NULL, 0), 0);
  for (int i = 0; i < size; ++i) world_of[(i + 1) % size] = 2 * i + par;
  check_members(half, size, idx, world_of);

  /* Ten rounds of make and destroy (slots and epochs reused), the members PEs 1..n-1 and the id
   * from PE 0, which is not one of them. */
  for (int round = 0; round < 10 && n > 1; ++round) {
    id = uid_from(0);
    if (me == 0) continue;
    shmem_team_t t = SHMEM_TEAM_INVALID;
    CHECK_EQ(symmem_team_init(&t, id, n - 1, me - 1, NULL, 0), 0);
    for (int i = 0; i < n - 1; ++i) world_of[i] = i + 1;
    check_members(t, n - 1, me - 1, world_of);
    shmem_team_destroy(t);
  }
  shmem_team_destroy(half);
  shmem_team_destroy(rev);
  shmem_barrier_all();

  /* Bad arguments: an error, no team, no wait. */
  shmem_team_t bad = SHMEM_TEAM_WORLD;
  CHECK(symmem_team_init(&bad, 0, n, me, NULL, 0) != 0);
  CHECK(bad == SHMEM_TEAM_INVALID);
  id = uid_from(0);
  CHECK(symmem_team_init(&bad, id, 0, 0, NULL, 0) != 0);
  CHECK(symmem_team_init(&bad, id, n + 1, me, NULL, 0) != 0);
  CHECK(symmem_team_init(&bad, id, n, n, NULL, 0) != 0);
  CHECK(symmem_team_init(NULL, id, n, me, NULL, 0) != 0);
  CHECK(symmem_team_get_uniqueid(NULL) != 0);
  /* Members that disagree both get the error: PE 0 asks for 2 PEs, PE 1 for 3; then two PEs that
   * both take index 0. */
  if (n >= 3 && me < 2) {
    CHECK_EQ(symmem_team_init(&bad, id, 2 + me, me, NULL, 0), SYMMEM_ERR_MISMATCH);
    CHECK(bad == SHMEM_TEAM_INVALID);
  }
  /* (a PE's board stays set after such an error until its next team_init: the barrier lets the
   * other PE find the disagreement before the next test sets PE 1's board again) */
  shmem_barrier_all();
  id = uid_from(1 % n);
  if (n >= 2 && me < 2) {
    CHECK_EQ(symmem_team_init(&bad, id, 2, 0, NULL, 0), SYMMEM_ERR_MISMATCH);
    CHECK(bad == SHMEM_TEAM_INVALID);
  }
  shmem_barrier_all();
}

int main(int argc, char **argv) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  scratch = (int *)conf_malloc(sizeof(int) * (size_t)(n + 1));
  uid_box = (uint64_t *)shmem_malloc(2 * sizeof(uint64_t));
  if (argc > 1 && strcmp(argv[1], "init_missing") == 0) {
    uint64_t id = uid_from(0);
    shmem_team_t t;
    if (me == 0) symmem_team_init(&t, id, 2, 0, NULL, 0); /* PE 1 never comes: the wait limit ends it */
    sleep(60);
    return 1;
  }
  test_predefined(me, n);
  test_strided(me, n);
  test_2d(me, n);
  test_invalid(n);
  test_reuse_and_limit(me, n);
  if (n <= 64) test_team_init(me, n);
  shmem_free(uid_box);
  conf_free(scratch);
  shmem_finalize();
  if (me == 0) printf("conf_teams: %d PEs ok\n", n);
  return 0;
}
