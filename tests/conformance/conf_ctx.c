/* Contexts: ctx_create with each option, team_create_ctx (PE numbers relative to the team),
 * ctx_get_team, ctx_destroy, and the ctx_ form of RMA, AMO, signal, fence and quiet, typed and
 * through the C11 generics with a leading context. */
#include "conf.h"

static long *buf;
static int *ibuf;
static uint64_t *sig;

static void rma_through(shmem_ctx_t ctx, int target_rel, int target_world, int from_world, long tag) {
  long v[4] = {tag, tag + 1, tag + 2, tag + 3};
  shmem_ctx_long_put(ctx, buf, v, 4, target_rel);
  shmem_ctx_long_p(ctx, buf + 4, tag + 4, target_rel);
  shmem_ctx_putmem_nbi(ctx, buf + 5, &v[1], sizeof(long), target_rel);
  shmem_ctx_long_iput(ctx, buf + 6, v, 2, 1, 2, target_rel); /* buf[6], buf[8] = v[0], v[1] */
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  CHECK_EQ(buf[0], tag - 0 + 0 * from_world);
  (void)target_world;
  CHECK_EQ(buf[3], tag + 3);
  CHECK_EQ(buf[4], tag + 4);
  CHECK_EQ(buf[5], tag + 1);
  CHECK_EQ(buf[6], tag);
  CHECK_EQ(buf[8], tag + 1);
  shmem_barrier_all();
  long back[4] = {0};
  shmem_ctx_long_get(ctx, back, buf, 4, target_rel);
  CHECK_EQ(back[2], tag + 2 + 0 * target_world);
  CHECK_EQ(shmem_ctx_long_g(ctx, buf + 4, target_rel), tag + 4);
  long strided[2];
  shmem_ctx_long_iget(ctx, strided, buf + 6, 1, 2, 2, target_rel);
  CHECK_EQ(strided[0], tag);
  CHECK_EQ(strided[1], tag + 1);
  shmem_barrier_all();
}

static void amo_through(shmem_ctx_t ctx, int target_rel, int n_in_team) {
  *ibuf = 0;
  shmem_barrier_all();
  shmem_ctx_int_atomic_add(ctx, ibuf, 2, target_rel);
  shmem_ctx_int_atomic_inc(ctx, ibuf, target_rel);
  int old = shmem_ctx_int_atomic_fetch_add(ctx, ibuf, 10, target_rel);
  CHECK(old >= 3);
  int f = -1;
  shmem_ctx_int_atomic_fetch_inc_nbi(ctx, &f, ibuf, target_rel);
  shmem_ctx_quiet(ctx);
  CHECK(f >= 13);
  shmem_barrier_all();
  CHECK_EQ(*ibuf, 14 * n_in_team);
  CHECK_EQ(shmem_ctx_int_atomic_fetch(ctx, ibuf, target_rel), 14 * n_in_team);
  shmem_barrier_all();
  unsigned long *u = (unsigned long *)buf;
  *u = 0;
  shmem_barrier_all();
  shmem_ctx_ulong_atomic_or(ctx, u, 1UL << shmem_my_pe(), target_rel);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  CHECK(*u != 0);
  shmem_barrier_all();
}

static void test_world_ctx(int me, int n) {
  const long opts[] = {0, SHMEM_CTX_SERIALIZED, SHMEM_CTX_PRIVATE, SHMEM_CTX_NOSTORE,
                       SHMEM_CTX_SERIALIZED | SHMEM_CTX_PRIVATE};
  for (int k = 0; k < 5; ++k) {
    shmem_ctx_t ctx;
    CHECK_EQ(shmem_ctx_create(opts[k], &ctx), 0);
    CHECK(ctx != SHMEM_CTX_INVALID);
    shmem_team_t t;
    CHECK_EQ(shmem_ctx_get_team(ctx, &t), 0);
    CHECK(t == SHMEM_TEAM_WORLD);
    int right = (me + 1) % n;
    rma_through(ctx, right, right, (me + n - 1) % n, 1000 * k + 7);
    amo_through(ctx, right, 1);
    shmem_ctx_fence(ctx);
    shmem_ctx_destroy(ctx);
  }
  shmem_team_t t;
  CHECK_EQ(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &t), 0);
  CHECK(t == SHMEM_TEAM_WORLD);
  rma_through(SHMEM_CTX_DEFAULT, (me + 1) % n, 0, 0, 55);
  shmem_ctx_t bad = SHMEM_CTX_DEFAULT;
  CHECK(shmem_ctx_create(1L << 20, &bad) != 0);
  CHECK(bad == SHMEM_CTX_INVALID);
}

/* A context on the reversed team: its PE k is world PE n-1-k. */
static void test_team_ctx(int me, int n) {
  shmem_team_t rev;
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev), 0);
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_team_create_ctx(rev, SHMEM_CTX_PRIVATE, &ctx), 0);
  shmem_team_t t;
  CHECK_EQ(shmem_ctx_get_team(ctx, &t), 0);
  CHECK(t == rev);
  /* everyone writes to team PE 0 = world PE n-1 */
  *ibuf = 0;
  shmem_barrier_all();
  shmem_ctx_int_atomic_add(ctx, ibuf, me + 1, 0);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  if (me == n - 1) CHECK_EQ(*ibuf, n * (n + 1) / 2);
  else CHECK_EQ(*ibuf, 0);
  shmem_barrier_all();
  /* put-with-signal through the context to team PE (tme + 1) % n */
  int tme = shmem_team_my_pe(rev);
  *sig = 0;
  shmem_barrier_all();
  long v = 4242 + me;
  shmem_ctx_long_put_signal(ctx, buf, &v, 1, sig, 1, SHMEM_SIGNAL_ADD, (tme + 1) % n);
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
  CHECK_EQ(*buf, 4242 + shmem_team_translate_pe(rev, (tme + n - 1) % n, SHMEM_TEAM_WORLD));
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
  shmem_team_destroy(rev);
}

static void test_generic(int me, int n) {
  shmem_ctx_t ctx;
  CHECK_EQ(shmem_ctx_create(0, &ctx), 0);
  long v = 99 + me;
  shmem_put(ctx, buf, &v, 1, (me + 1) % n);
  shmem_p(ctx, buf + 1, v, (me + 1) % n);
  shmem_ctx_quiet(ctx);
  shmem_barrier_all();
  CHECK_EQ(buf[0], 99 + (me + n - 1) % n);
  CHECK_EQ(shmem_g(ctx, buf + 1, me), 99 + (me + n - 1) % n);
  *ibuf = 0;
  shmem_barrier_all();
  shmem_atomic_add(ctx, ibuf, 1, 0);
  int f;
  shmem_atomic_fetch_add_nbi(ctx, &f, ibuf, 1, 0);
  shmem_quiet();
  shmem_barrier_all();
  if (me == 0) CHECK_EQ(shmem_atomic_fetch(ctx, ibuf, 0), 2 * n);
  shmem_barrier_all();
  shmem_ctx_destroy(ctx);
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  buf = (long *)conf_calloc(16, sizeof(long));
  ibuf = (int *)conf_calloc(1, sizeof(int) * 2);
  sig = (uint64_t *)conf_calloc(1, sizeof(uint64_t));
  test_world_ctx(me, n);
  test_team_ctx(me, n);
  test_generic(me, n);
  shmem_finalize();
  if (me == 0) printf("conf_ctx: %d PEs ok\n", n);
  return 0;
}
