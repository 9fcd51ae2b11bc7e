/* alltoall and alltoalls: team forms (mem, typed, generic) at block sizes across the
 * copy-in/direct-read switch, a sub-team, strided forms with several strides, and the deprecated
 * alltoall32/64 and alltoalls32/64. Block j of PE i's source must land as block i of PE j's dest. */
#include "conf.h"

static const size_t sizes[] = {0, 1, 8, 100, 1024, 3584, 4096, 20000};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXBLK = 20000 };

static unsigned char *src, *dst;
static long *psync;

/* The seed of the block PE `from` sends to PE `to`. */
static uint64_t blk(uint64_t seed, size_t s, int from, int to) { return seed + s * 100003 + (uint64_t)from * 131 + (uint64_t)to; }

static void alltoall_team(shmem_team_t t, uint64_t seed) {
  int tn = shmem_team_n_pes(t), me = shmem_my_pe();
  for (size_t s = 0; s < NSIZES; ++s) {
    size_t nb = sizes[s];
    for (int j = 0; j < tn; ++j) fill(src + (size_t)j * nb, nb, blk(seed, s, me, shmem_team_translate_pe(t, j, SHMEM_TEAM_WORLD)));
    memset(dst, POISON, nb * (size_t)tn + 16);
    CHECK_EQ(shmem_alltoallmem(t, dst, src, nb), 0);
    for (int i = 0; i < tn; ++i)
      EXPECT_BYTES(dst + (size_t)i * nb, nb, blk(seed, s, shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD), me), "alltoallmem");
    EXPECT_POISON(dst + nb * (size_t)tn, 16, "alltoallmem past the end");
    CHECK_EQ(shmem_team_sync(t), 0);
  }
}

static void alltoalls_team(shmem_team_t t, int me, int tn) {
  const ptrdiff_t strides[][2] = {{1, 1}, {2, 1}, {1, 3}, {3, 2}};
  int *is = (int *)src, *id = (int *)dst;
  for (int k = 0; k < 4; ++k) {
    ptrdiff_t dstr = strides[k][0], sstr = strides[k][1];
    size_t nelems = 5;
    for (size_t x = 0; x < (size_t)tn * nelems * (size_t)sstr; ++x) is[x] = -7;
    for (int j = 0; j < tn; ++j)
      for (size_t e = 0; e < nelems; ++e) is[((size_t)j * nelems + e) * (size_t)sstr] = me * 10000 + j * 100 + (int)e;
    for (size_t x = 0; x < (size_t)tn * nelems * (size_t)dstr + 4; ++x) id[x] = -1;
    CHECK_EQ(shmem_int_alltoalls(t, id, is, dstr, sstr, nelems), 0);
    int tme = shmem_team_my_pe(t);
    for (int i = 0; i < tn; ++i) {
      int wi = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
      for (size_t e = 0; e < nelems; ++e) {
        CHECK_EQ(id[((size_t)i * nelems + e) * (size_t)dstr], wi * 10000 + tme * 100 + (int)e);
        for (ptrdiff_t g = 1; g < dstr; ++g) CHECK_EQ(id[((size_t)i * nelems + e) * (size_t)dstr + (size_t)g], -1);
      }
    }
    CHECK_EQ(shmem_team_sync(t), 0);
  }
}

static void generic_and_deprecated(int me, int n, uint64_t seed) {
  long *ls = (long *)src, *ld = (long *)dst;
  for (int j = 0; j < n; ++j) ls[j * 2] = me * 100 + j, ls[j * 2 + 1] = -me;
  CHECK_EQ(shmem_alltoall(SHMEM_TEAM_WORLD, ld, ls, 2), 0);
  for (int i = 0; i < n; ++i) {
    CHECK_EQ(ld[i * 2], i * 100 + me);
    CHECK_EQ(ld[i * 2 + 1], -i);
  }
  shmem_barrier_all();
  for (size_t s = 0; s < NSIZES; ++s) {
    size_t nb = sizes[s] & ~(size_t)7;
    for (int j = 0; j < n; ++j) fill(src + (size_t)j * nb, nb, blk(seed, s, me, j));
    memset(dst, POISON, nb * (size_t)n + 8);
    if (s % 2) shmem_alltoall64(dst, src, nb / 8, 0, 0, n, psync);
    else shmem_alltoall32(dst, src, nb / 4, 0, 0, n, psync);
    for (int i = 0; i < n; ++i) EXPECT_BYTES(dst + (size_t)i * nb, nb, blk(seed, s, i, me), "alltoall32/64");
    EXPECT_POISON(dst + nb * (size_t)n, 8, "alltoall32/64 past the end");
    shmem_barrier_all();
  }
  for (int j = 0; j < n; ++j) ls[j * 3] = me * 100 + j;
  shmem_alltoalls64(ld, ls, 2, 3, 1, 0, 0, n, psync);
  for (int i = 0; i < n; ++i) CHECK_EQ(ld[i * 2], i * 100 + me);
  shmem_barrier_all();
  int *is = (int *)src, *id = (int *)dst;
  for (int j = 0; j < n; ++j) is[j] = me * 100 + j;
  shmem_alltoalls32(id, is, 1, 1, 1, 0, 0, n, psync);
  for (int i = 0; i < n; ++i) CHECK_EQ(id[i], i * 100 + me);
  shmem_barrier_all();
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t seed = conf_seed();
  src = (unsigned char *)conf_malloc((size_t)MAXBLK * (size_t)n * 3 + 64);
  dst = (unsigned char *)conf_malloc((size_t)MAXBLK * (size_t)n * 3 + 64);
  psync = (long *)conf_malloc(sizeof(long) * SHMEM_ALLTOALL_SYNC_SIZE);
  for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  alltoall_team(SHMEM_TEAM_WORLD, seed);
  alltoalls_team(SHMEM_TEAM_WORLD, me, n);
  shmem_team_t rev; /* every PE, in reverse order */
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n - 1, -1, n, NULL, 0, &rev), 0);
  alltoall_team(rev, seed + 9);
  alltoalls_team(rev, me, n);
  shmem_team_destroy(rev);
  generic_and_deprecated(me, n, seed);
  for (int i = 0; i < SHMEM_ALLTOALL_SYNC_SIZE; ++i) CHECK_EQ(psync[i], SHMEM_SYNC_VALUE);
  shmem_finalize();
  if (me == 0) printf("conf_alltoall: %d PEs ok\n", n);
  return 0;
}
