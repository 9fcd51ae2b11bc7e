/* collect and fcollect: team forms (mem, typed, generic) at sizes across the copy-in/direct-read
 * switch, variable per-PE sizes for collect (some in the scratch, some not), a sub-team, fcollect in
 * place (source inside dest), and the deprecated collect32/64, fcollect32/64. */
#include "conf.h"

static const size_t sizes[] = {0, 1, 8, 24, 4096, 24 * 1024, 24 * 1024 + 8, 40000};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXB = 40000 };

static unsigned char *src, *dst;
static long *psync;

static uint64_t sd_of(uint64_t seed, size_t s, int pe) { return seed * 31 + s * 1009 + (uint64_t)pe * 7919; }

static void fcollect_team(shmem_team_t t, uint64_t seed) {
  int tn = shmem_team_n_pes(t);
  for (size_t s = 0; s < NSIZES; ++s) {
    size_t nb = sizes[s];
    fill(src, nb, sd_of(seed, s, shmem_my_pe()));
    memset(dst, POISON, nb * (size_t)tn + 16);
    CHECK_EQ(shmem_fcollectmem(t, dst, src, nb), 0);
    for (int i = 0; i < tn; ++i)
      EXPECT_BYTES(dst + (size_t)i * nb, nb, sd_of(seed, s, shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD)), "fcollectmem");
    EXPECT_POISON(dst + nb * (size_t)tn, 16, "fcollectmem past the end");
    CHECK_EQ(shmem_team_sync(t), 0);
  }
}

/* PE i gives len(i) bytes; the lengths differ, and straddle the scratch size. */
static size_t len_of(int pe, size_t s) { return (sizes[s] + (size_t)pe * 13 * (s % 3)) % (MAXB + 1); }

static void collect_team(shmem_team_t t, uint64_t seed) {
  int tn = shmem_team_n_pes(t);
  for (size_t s = 0; s < NSIZES; ++s) {
    size_t mine = len_of(shmem_my_pe(), s), total = 0;
    fill(src, mine, sd_of(seed, s, shmem_my_pe()));
    for (int i = 0; i < tn; ++i) total += len_of(shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD), s);
    memset(dst, POISON, total + 16);
    CHECK_EQ(shmem_collectmem(t, dst, src, mine), 0);
    size_t at = 0;
    for (int i = 0; i < tn; ++i) {
      int w = shmem_team_translate_pe(t, i, SHMEM_TEAM_WORLD);
      EXPECT_BYTES(dst + at, len_of(w, s), sd_of(seed, s, w), "collectmem");
      at += len_of(w, s);
    }
    EXPECT_POISON(dst + total, 16, "collectmem past the end");
    CHECK_EQ(shmem_team_sync(t), 0);
  }
}

static void typed(int me, int n) {
  int *is = (int *)src, *id = (int *)dst;
  for (int i = 0; i < 3; ++i) is[i] = me * 10 + i;
  CHECK_EQ(shmem_fcollect(SHMEM_TEAM_WORLD, id, is, 3), 0);
  for (int p = 0; p < n; ++p) for (int i = 0; i < 3; ++i) CHECK_EQ(id[p * 3 + i], p * 10 + i);
  shmem_barrier_all();
  CHECK_EQ(shmem_int_collect(SHMEM_TEAM_WORLD, id, is, (size_t)(me % 3)), 0);
  int at = 0;
  for (int p = 0; p < n; ++p) for (int i = 0; i < p % 3; ++i) CHECK_EQ(id[at++], p * 10 + i);
  shmem_barrier_all();
  /* in place: each PE's source is its own block of dest */
  long *ld = (long *)dst;
  for (int i = 0; i < 4; ++i) ld[me * 4 + i] = me * 100 + i;
  CHECK_EQ(shmem_long_fcollect(SHMEM_TEAM_WORLD, ld, ld + me * 4, 4), 0);
  for (int p = 0; p < n; ++p) for (int i = 0; i < 4; ++i) CHECK_EQ(ld[p * 4 + i], p * 100 + i);
  shmem_barrier_all();
}

static void deprecated(int me, int n, uint64_t seed) {
  for (size_t s = 0; s < NSIZES; ++s) {
    size_t nb = sizes[s] & ~(size_t)7;
    fill(src, nb, sd_of(seed, s, me));
    memset(dst, POISON, nb * (size_t)n + 8);
    if (s % 2) shmem_fcollect64(dst, src, nb / 8, 0, 0, n, psync);
    else shmem_fcollect32(dst, src, nb / 4, 0, 0, n, psync);
    for (int p = 0; p < n; ++p) EXPECT_BYTES(dst + (size_t)p * nb, nb, sd_of(seed, s, p), "fcollect32/64");
    EXPECT_POISON(dst + nb * (size_t)n, 8, "fcollect32/64 past the end");
    shmem_barrier_all();
    size_t mine = (len_of(me, s) / 8) * 8, at = 0;
    fill(src, mine, sd_of(seed, s, me) + 1);
    memset(dst, POISON, MAXB);
    if (s % 2) shmem_collect64(dst, src, mine / 8, 0, 0, n, psync);
    else shmem_collect32(dst, src, mine / 4, 0, 0, n, psync);
    for (int p = 0; p < n; ++p) {
      size_t l = (len_of(p, s) / 8) * 8;
      EXPECT_BYTES(dst + at, l, sd_of(seed, s, p) + 1, "collect32/64");
      at += l;
    }
    if (at < MAXB) EXPECT_POISON(dst + at, 1, "collect32/64 past the end");
    shmem_barrier_all();
  }
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t seed = conf_seed();
  src = (unsigned char *)conf_malloc(MAXB);
  dst = (unsigned char *)conf_malloc((size_t)MAXB * (size_t)n + 64);
  psync = (long *)conf_malloc(sizeof(long) * SHMEM_COLLECT_SYNC_SIZE);
  for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  fcollect_team(SHMEM_TEAM_WORLD, seed);
  collect_team(SHMEM_TEAM_WORLD, seed);
  shmem_team_t odd = SHMEM_TEAM_INVALID; /* PEs 1, 3, 5, ... */
  if (n > 1) CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 2, n / 2, NULL, 0, &odd), 0);
  if (odd != SHMEM_TEAM_INVALID) fcollect_team(odd, seed + 1), collect_team(odd, seed + 2), shmem_team_destroy(odd);
  shmem_barrier_all();
  typed(me, n);
  deprecated(me, n, seed);
  for (int i = 0; i < SHMEM_COLLECT_SYNC_SIZE; ++i) CHECK_EQ(psync[i], SHMEM_SYNC_VALUE);
  shmem_finalize();
  if (me == 0) printf("conf_collect: %d PEs ok\n", n);
  return 0;
}
