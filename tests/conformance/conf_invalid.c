/* What OpenSHMEM 1.5 defines for SHMEM_TEAM_INVALID and SHMEM_CTX_INVALID, routine by routine:
 * team_my_pe and team_n_pes give -1; team_get_config, the splits (with SHMEM_TEAM_INVALID handles
 * out), team_create_ctx (with SHMEM_CTX_INVALID out) and ctx_get_team (with SHMEM_TEAM_INVALID out)
 * return non-zero; team_translate_pe gives -1; team_ptr gives NULL; team_destroy, ctx_destroy,
 * ctx_fence and ctx_quiet do nothing. PEs left out of a split hold SHMEM_TEAM_INVALID and pass it
 * on, as real programs do when they split again. These are defined results, so they print nothing
 * (conf.invalid_quiet checks the output). Afterwards everything still works. */
#include "conf.h"

#define GARBAGE_TEAM ((shmem_team_t)(uintptr_t)0x1)
#define GARBAGE_CTX ((shmem_ctx_t)(uintptr_t)0x1)

static void team_routines(int me, int n) {
  shmem_team_config_t cfg = {42};
  CHECK_EQ(shmem_team_my_pe(SHMEM_TEAM_INVALID), -1);
  CHECK_EQ(shmem_team_n_pes(SHMEM_TEAM_INVALID), -1);
  CHECK(shmem_team_get_config(SHMEM_TEAM_INVALID, SHMEM_TEAM_NUM_CONTEXTS, &cfg) != 0);
  CHECK_EQ(cfg.num_contexts, 42);
  CHECK_EQ(shmem_team_get_config(SHMEM_TEAM_WORLD, 0, NULL), 0);
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD), -1);
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, 0, SHMEM_TEAM_INVALID), -1);
  CHECK_EQ(shmem_team_translate_pe(SHMEM_TEAM_WORLD, n, SHMEM_TEAM_WORLD), -1);
  CHECK(shmem_team_ptr(SHMEM_TEAM_INVALID, &cfg, 0) == NULL);
  shmem_team_t t = GARBAGE_TEAM, x = GARBAGE_TEAM, y = GARBAGE_TEAM;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_INVALID, 0, 1, 1, NULL, 0, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  CHECK(shmem_team_split_2d(SHMEM_TEAM_INVALID, 1, NULL, 0, &x, NULL, 0, &y) != 0);
  CHECK(x == SHMEM_TEAM_INVALID && y == SHMEM_TEAM_INVALID);
  shmem_team_destroy(SHMEM_TEAM_INVALID);
  /* A bad triplet: non-zero on every PE of the parent, and no team. */
  t = GARBAGE_TEAM;
  CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, n, 1, 1, NULL, 0, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  /* The even PEs; the odd ones get SHMEM_TEAM_INVALID and 0, then pass it to a second split. */
  shmem_team_t evens = GARBAGE_TEAM, first = GARBAGE_TEAM;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (n + 1) / 2, NULL, 0, &evens), 0);
  CHECK((evens == SHMEM_TEAM_INVALID) == (me % 2 == 1));
  int rc = shmem_team_split_strided(evens, 0, 1, 1, NULL, 0, &first);
  CHECK(me % 2 == 0 ? rc == 0 : rc != 0);
  CHECK((first == SHMEM_TEAM_INVALID) == (me != 0));
  CHECK_EQ(shmem_team_my_pe(evens), me % 2 == 0 ? me / 2 : -1);
  CHECK_EQ(shmem_team_n_pes(first), me == 0 ? 1 : -1);
  shmem_team_destroy(first); /* on every PE: SHMEM_TEAM_INVALID ones do nothing */
  shmem_team_destroy(evens);
}

static void ctx_routines(void) {
  shmem_ctx_t c = GARBAGE_CTX;
  shmem_team_t t = GARBAGE_TEAM;
  CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &c) != 0);
  CHECK(c == SHMEM_CTX_INVALID);
  CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &t) != 0);
  CHECK(t == SHMEM_TEAM_INVALID);
  CHECK_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t), 0);
  CHECK(t == SHMEM_TEAM_WORLD);
  shmem_ctx_fence(SHMEM_CTX_INVALID);
  shmem_ctx_quiet(SHMEM_CTX_INVALID);
  shmem_ctx_destroy(SHMEM_CTX_INVALID);
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  team_routines(me, n);
  ctx_routines();
  /* Still working: a team split, a context on it, a reduction. */
  long *v = (long *)conf_calloc(2, sizeof(long));
  v[0] = me + 1;
  shmem_team_t all;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, n, NULL, 0, &all), 0);
  shmem_ctx_t c;
  CHECK_EQ(shmem_team_create_ctx(all, 0, &c), 0);
  shmem_ctx_long_atomic_add(c, &v[1], 1, 0);
  shmem_ctx_quiet(c);
  CHECK_EQ(shmem_long_sum_reduce(all, &v[0], &v[0], 1), 0);
  CHECK_EQ(v[0], (long)n * (n + 1) / 2);
  shmem_barrier_all();
  if (me == 0) CHECK_EQ(v[1], n);
  shmem_ctx_destroy(c);
  shmem_team_destroy(all);
  conf_free(v);
  shmem_finalize();
  if (me == 0) printf("conf_invalid: %d PEs ok\n", n);
  return 0;
}
