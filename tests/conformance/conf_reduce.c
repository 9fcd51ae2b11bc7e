/* Reductions: and/or/xor/max/min/sum/prod over every type of OpenSHMEM 1.5 Table 10 (team forms,
 * typed and generic), at sizes on both sides of the copy-in/direct switch, in place (dest ==
 * source), on a sub-team; and every *_to_all of 1.4 over full and strided active sets. Values are
 * small integers, so every result is exact and is checked element by element. */
#include <complex.h>

#include "conf.h"

static void *src, *dst;
static long *psync;
static const size_t counts[] = {1, 13, 300, 5000};
enum { NCOUNTS = 4, MAXN = 5000 };

/* The value PE `pe` gives for element i, per operation class. */
#define VAL_BIT(pe, i) (((i) * 7 + (pe) * 13 + 1) & 0x7f)
#define VAL_MM(pe, i) (((i) * 7 + (pe) * 13) % 100)
#define VAL_SUM(pe, i) (((i) + (pe)) % 10)
#define VAL_PROD(pe, i) (1 + (((i) + (pe)) % 2 == 1 && (pe) < 6))
#define C_AND(a, b) ((a) & (b))
#define C_OR(a, b) ((a) | (b))
#define C_XOR(a, b) ((a) ^ (b))
#define C_MAX(a, b) ((a) < (b) ? (b) : (a))
#define C_MIN(a, b) ((b) < (a) ? (b) : (a))
#define C_SUM(a, b) ((a) + (b))
#define C_PROD(a, b) ((a) * (b))

/* Checks dest against the fold over the team's PEs (world PEs start + k*stride). */
#define CHECK_RESULT(T, d, cnt, VAL, COMB, start, stride, size, what)                                   \
  for (size_t i_ = 0; i_ < (cnt); ++i_) {                                                               \
    T want_ = (T)VAL((start), i_);                                                                      \
    for (int k_ = 1; k_ < (size); ++k_) want_ = (T)COMB(want_, (T)VAL((start) + k_ * (stride), i_));    \
    if ((d)[i_] != want_) {                                                                             \
      fprintf(stderr, "CHECK FAILED on PE %d: %s, element %zu of %zu is wrong\n", shmem_my_pe(), what, i_, \
              (size_t)(cnt));                                                                           \
      shmem_global_exit(1);                                                                             \
    }                                                                                                   \
  }

#define DEF_TEAM_TEST(T, N, OP, VAL, COMB)                                                              \
  static void test_##N##_##OP(shmem_team_t t, int start, int stride) {                                  \
    T *s = (T *)src, *d = (T *)dst;                                                                     \
    int tn = shmem_team_n_pes(t), me = shmem_my_pe();                                                   \
    for (int c = 0; c < NCOUNTS; ++c) {                                                                 \
      size_t cnt = counts[c];                                                                           \
      for (size_t i = 0; i < cnt; ++i) s[i] = (T)VAL(me, i);                                            \
      memset(d, POISON, (cnt + 2) * sizeof(T));                                                         \
      CHECK_EQ(shmem_##N##_##OP##_reduce(t, d, s, cnt), 0);                                             \
      CHECK_RESULT(T, d, cnt, VAL, COMB, start, stride, tn, #N "_" #OP "_reduce");                      \
      EXPECT_POISON(d + cnt, 2 * sizeof(T), #N "_" #OP "_reduce past the end");                         \
      CHECK_EQ(shmem_team_sync(t), 0);                                                                  \
    }                                                                                                   \
    for (size_t i = 0; i < 300; ++i) s[i] = (T)VAL(me, i);                                              \
    CHECK_EQ(shmem_##N##_##OP##_reduce(t, s, s, 300), 0); /* in place */                                \
    CHECK_RESULT(T, s, 300, VAL, COMB, start, stride, tn, #N "_" #OP "_reduce in place");               \
    CHECK_EQ(shmem_team_sync(t), 0);                                                                    \
  }
#define DEF_BIT(T, N) DEF_TEAM_TEST(T, N, and, VAL_BIT, C_AND) DEF_TEAM_TEST(T, N, or, VAL_BIT, C_OR) DEF_TEAM_TEST(T, N, xor, VAL_BIT, C_XOR)
#define DEF_MM(T, N) DEF_TEAM_TEST(T, N, max, VAL_MM, C_MAX) DEF_TEAM_TEST(T, N, min, VAL_MM, C_MIN)
#define DEF_AR(T, N) DEF_TEAM_TEST(T, N, sum, VAL_SUM, C_SUM) DEF_TEAM_TEST(T, N, prod, VAL_PROD, C_PROD)
SYMMEM_REDUCE_BITWISE_TYPES(DEF_BIT)
SYMMEM_REDUCE_MINMAX_TYPES(DEF_MM)
SYMMEM_REDUCE_ARITH_TYPES(DEF_AR)

#define RUN_BIT(T, N) test_##N##_and(t, start, stride); test_##N##_or(t, start, stride); test_##N##_xor(t, start, stride);
#define RUN_MM(T, N) test_##N##_max(t, start, stride); test_##N##_min(t, start, stride);
#define RUN_AR(T, N) test_##N##_sum(t, start, stride); test_##N##_prod(t, start, stride);
static void run_team(shmem_team_t t, int start, int stride) {
  SYMMEM_REDUCE_BITWISE_TYPES(RUN_BIT)
  SYMMEM_REDUCE_MINMAX_TYPES(RUN_MM)
  SYMMEM_REDUCE_ARITH_TYPES(RUN_AR)
}

/* ---- the deprecated active-set forms ---------------------------------------------------------- */
#define DEF_TOALL_TEST(T, N, OP, VAL, COMB)                                                             \
  static void toall_##N##_##OP(int start, int logs, int size) {                                         \
    T *s = (T *)src, *d = (T *)dst;                                                                     \
    T wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];                                                          \
    int me = shmem_my_pe();                                                                             \
    for (int c = 0; c < NCOUNTS; ++c) {                                                                 \
      int cnt = (int)counts[c];                                                                         \
      for (int i = 0; i < cnt; ++i) s[i] = (T)VAL(me, i);                                               \
      memset(d, POISON, ((size_t)cnt + 2) * sizeof(T));                                                 \
      shmem_##N##_##OP##_to_all(d, s, cnt, start, logs, size, wrk, psync);                              \
      CHECK_RESULT(T, d, (size_t)cnt, VAL, COMB, start, 1 << logs, size, #N "_" #OP "_to_all");         \
      EXPECT_POISON(d + cnt, 2 * sizeof(T), #N "_" #OP "_to_all past the end");                         \
      shmem_barrier(start, logs, size, psync);                                                          \
    }                                                                                                   \
  }
#define DEF_TBIT(T, N) DEF_TOALL_TEST(T, N, and, VAL_BIT, C_AND) DEF_TOALL_TEST(T, N, or, VAL_BIT, C_OR) DEF_TOALL_TEST(T, N, xor, VAL_BIT, C_XOR)
#define DEF_TMM(T, N) DEF_TOALL_TEST(T, N, max, VAL_MM, C_MAX) DEF_TOALL_TEST(T, N, min, VAL_MM, C_MIN)
#define DEF_TAR(T, N) DEF_TOALL_TEST(T, N, sum, VAL_SUM, C_SUM) DEF_TOALL_TEST(T, N, prod, VAL_PROD, C_PROD)
SYMMEM_TOALL_BITWISE_TYPES(DEF_TBIT)
SYMMEM_TOALL_MINMAX_TYPES(DEF_TMM)
SYMMEM_TOALL_ARITH_TYPES(DEF_TAR)

#define RUN_TBIT(T, N) toall_##N##_and(start, logs, size); toall_##N##_or(start, logs, size); toall_##N##_xor(start, logs, size);
#define RUN_TMM(T, N) toall_##N##_max(start, logs, size); toall_##N##_min(start, logs, size);
#define RUN_TAR(T, N) toall_##N##_sum(start, logs, size); toall_##N##_prod(start, logs, size);
static void run_aset(int start, int logs, int size) {
  SYMMEM_TOALL_BITWISE_TYPES(RUN_TBIT)
  SYMMEM_TOALL_MINMAX_TYPES(RUN_TMM)
  SYMMEM_TOALL_ARITH_TYPES(RUN_TAR)
}

static void generic_forms(int n) {
  int *s = (int *)src, *d = (int *)dst;
  double *fs = (double *)src, *fd = (double *)dst;
  s[0] = shmem_my_pe() + 1;
  CHECK_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, 1), 0);
  CHECK_EQ(d[0], n * (n + 1) / 2);
  CHECK_EQ(shmem_max_reduce(SHMEM_TEAM_WORLD, d, s, 1), 0);
  CHECK_EQ(d[0], n);
  fs[0] = 0.5 * shmem_my_pe();
  CHECK_EQ(shmem_min_reduce(SHMEM_TEAM_WORLD, fd, fs, 1), 0);
  CHECK(fd[0] == 0.0);
  unsigned long *us = (unsigned long *)src, *ud = (unsigned long *)dst;
  us[0] = 1UL << shmem_my_pe();
  CHECK_EQ(shmem_or_reduce(SHMEM_TEAM_WORLD, ud, us, 1), 0);
  CHECK_EQ(ud[0], (1UL << n) - 1);
  double _Complex *cs = (double _Complex *)src, *cd = (double _Complex *)dst;
  cs[0] = 1.0 + 1.0 * I;
  CHECK_EQ(shmem_sum_reduce(SHMEM_TEAM_WORLD, cd, cs, 1), 0);
  CHECK(creal(cd[0]) == n && cimag(cd[0]) == n);
  shmem_barrier_all();
}

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), n = shmem_n_pes();
  src = conf_malloc(MAXN * 32 + 64);
  dst = conf_malloc(MAXN * 32 + 64);
  psync = (long *)conf_malloc(sizeof(long) * SHMEM_REDUCE_SYNC_SIZE);
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  shmem_barrier_all();
  run_team(SHMEM_TEAM_WORLD, 0, 1);
  shmem_team_t tail = SHMEM_TEAM_INVALID; /* PEs 1..n-1 */
  if (n > 1) CHECK_EQ(shmem_team_split_strided(SHMEM_TEAM_WORLD, 1, 1, n - 1, NULL, 0, &tail), 0);
  if (tail != SHMEM_TEAM_INVALID) run_team(tail, 1, 1), shmem_team_destroy(tail);
  shmem_barrier_all();
  generic_forms(n);
  run_aset(0, 0, n);
  shmem_barrier_all();
  if (me % 2 == 0) run_aset(0, 1, (n + 1) / 2);
  shmem_barrier_all();
  for (int i = 0; i < SHMEM_REDUCE_SYNC_SIZE; ++i) CHECK_EQ(psync[i], SHMEM_SYNC_VALUE);
  shmem_finalize();
  if (me == 0) printf("conf_reduce: %d PEs ok\n", n);
  return 0;
}
