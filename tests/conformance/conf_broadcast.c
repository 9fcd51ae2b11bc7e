/* Broadcast: shmem_broadcastmem and typed/generic team forms at sizes across the copy-in/direct-read
 * switch, every root, a non-power-of-two sub-team, in place on the root; and the deprecated
 * broadcast32/64, which leave the root's dest alone. Destinations are poisoned first. */
#include "conf.h"

static const size_t sizes[] = {0, 1, 7, 8, 64, 1000, 24 * 1024, 24 * 1024 + 8, 100000};
enum { NSIZES = sizeof sizes / sizeof sizes[0], MAXB = 100000 + 64 };

static unsigned char *src, *dst;
static long *psync;

static void one_team(shmem_team_t t, uint64_t seed) {
  int tn = shmem_team_n_pes(t), tme = shmem_team_my_pe(t);
  for (size_t s = 0; s < NSIZES; ++s) {
    for (int root = 0; root < tn; ++root) {
      size_t nb = sizes[s];
      uint64_t sd = seed + s * 131 + (uint64_t)root;
      fill(src, nb, sd);
      memset(dst, POISON, nb + 64);
      CHECK_EQ(shmem_broadcastmem(t, dst, src, nb, root), 0);
      EXPECT_BYTES(dst, nb, sd, "broadcastmem dest");
      EXPECT_POISON(dst + nb, 64, "broadcastmem past the end");
      CHECK_EQ(shmem_team_sync(t), 0);
      (void)tme;
    }
  }
}

static void typed_and_in_place(int me, int n, uint64_t seed) {
  long *ls = (long *)src, *ld = (long *)dst;
  for (int i = 0; i < 100; ++i) ls[i] = (long)((seed + (uint64_t)i) * (uint64_t)(me + 1));
  memset(dst, POISON, 800);
  int root = n - 1;
  CHECK_EQ(shmem_broadcast(SHMEM_TEAM_WORLD, ld, ls, 100, root), 0); /* generic */
  for (int i = 0; i < 100; ++i) CHECK_EQ(ld[i], (long)((seed + (uint64_t)i) * (uint64_t)n));
  shmem_barrier_all();
  for (int i = 0; i < 100; ++i) ls[i] = (long)((seed + (uint64_t)i) * (uint64_t)(me + 1));
  CHECK_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, ls, ls, 100, 0), 0); /* dest == source */
  for (int i = 0; i < 100; ++i) CHECK_EQ(ls[i], (long)(seed + (uint64_t)i));
  shmem_barrier_all();
}

/* Back to back with no other synchronisation: the barrier-free small broadcasts overlap, and must
 * neither lose nor mix messages (tiny ones in the ring, <= 2 KiB ones in two halves). */
static void back_to_back(int me, int n) {
  long *ls = (long *)src, *ld = (long *)dst;
  for (int i = 0; i < 3000; ++i) {
    int root = (i / 3) % n;
    size_t cnt = i % 7 == 0 ? 200 : i % 11 == 0 ? 31 : (size_t)(1 + i % 5); /* 1600 B, 248 B, or up to 40 B */
    for (size_t k = 0; k < cnt; ++k) ls[k] = (long)i * 1000 + me * 10 + (long)k;
    ld[0] = ld[cnt - 1] = -1;
    CHECK_EQ(shmem_long_broadcast(SHMEM_TEAM_WORLD, ld, ls, cnt, root), 0);
    CHECK_EQ(ld[0], (long)i * 1000 + root * 10);
    CHECK_EQ(ld[cnt - 1], (long)i * 1000 + root * 10 + (long)cnt - 1);
  }
  shmem_barrier_all();
}

static void deprecated(int me, int n, uint64_t seed) {
  for (int root = 0; root < n; ++root) {
    for (size_t s = 0; s < NSIZES; ++s) {
      size_t nb = sizes[s] & ~(size_t)7;
      uint64_t sd = seed ^ (s * 977 + (uint64_t)root);
      fill(src, nb, sd);
      memset(dst, POISON, nb + 8);
      if (s % 2) shmem_broadcast64(dst, src, nb / 8, root, 0, 0, n, psync);
      else shmem_broadcast32(dst, src, nb / 4, root, 0, 0, n, psync);
      if (me == root) EXPECT_POISON(dst, nb + 8, "broadcast: the root's dest");
      else EXPECT_BYTES(dst, nb, sd, "broadcast32/64 dest"), EXPECT_POISON(dst + nb, 8, "past the end");
      shmem_barrier_all();
    }
  }
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  uint64_t seed = conf_seed();
  src = (unsigned char *)conf_malloc(MAXB);
  dst = (unsigned char *)conf_malloc(MAXB);
  psync = (long *)conf_malloc(sizeof(long) * SHMEM_BCAST_SYNC_SIZE);
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  one_team(SHMEM_TEAM_WORLD, seed);
  shmem_team_t tail; /* PEs 1..n-1: size n-1, often not a power of two */
  CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, n > 1 ? 1 : 0, 1, n > 1 ? n - 1 : 1, NULL, 0, &tail), 0);
  if (tail != SHMEM_TEAM_INVALID) one_team(tail, seed + 5), shmem_team_destroy(tail);
  shmem_barrier_all();
  typed_and_in_place(me, n, seed);
  back_to_back(me, n);
  deprecated(me, n, seed);
  for (int i = 0; i < SHMEM_BCAST_SYNC_SIZE; ++i) CHECK_EQ(psync[i], SHMEM_SYNC_VALUE);
  shmem_finalize();
  if (me == 0) printf("conf_broadcast: %d PEs ok\n", n);
  return 0;
}
