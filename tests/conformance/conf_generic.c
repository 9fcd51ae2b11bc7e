/* Every generic routine of OpenSHMEM 1.5 with every type of the spec's tables: RMA (Table 5) for
 * put/get/p/g/iput/iget/nbi/put_signal and the typed collectives, the AMO tables 6-8 for the
 * atomics (and their nbi and context forms), Table 11 for the waits and tests, Table 10 for the
 * reductions, and the deprecated generic atomics. Generated from the library's own type lists, so
 * a type added there is tested here; every call is checked, so a selection that picked the wrong
 * typed routine fails as well as one that does not compile. Built as C11 (this file) and as C++
 * (conf_generic_cxx.cpp includes it) for the overloads; buffers in the heap or, with
 * CONF_MEMORY=static, in a global array (conf_mem.h). */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

#include "conf_mem.h"

#define CHECK(cond)                                                                                     \
  do {                                                                                                  \
    if (!(cond)) {                                                                                      \
      fprintf(stderr, "CHECK FAILED on PE %d at line %d (%s): %s\n", me, __LINE__, cur_type, #cond);    \
      shmem_global_exit(1);                                                                             \
    }                                                                                                   \
  } while (0)

#define NB 4
static int me, np, next, prev;
static const char *cur_type = "";
static unsigned char *dbuf, *sbuf; /* symmetric, 16 * NB * np bytes each */
static uint64_t *sig;
static long *psync;

static void reset(const char *type) {
  cur_type = type;
  memset(dbuf, 0, 16 * NB * (size_t)np);
  memset(sbuf, 0, 16 * NB * (size_t)np);
  *sig = 0;
  shmem_barrier_all();
}

/* ---- RMA and the typed team collectives (Table 5) --------------------------------------------- */
#define GEN_RMA(T, N)                                                                                   \
  static void rma_##N(void) {                                                                           \
    T *d = (T *)dbuf, *s = (T *)sbuf, l[NB];                                                            \
    reset(#T);                                                                                          \
    for (int i = 0; i < NB; ++i) s[i] = (T)(i + 1);                                                     \
    shmem_barrier_all();                                                                                \
    shmem_put(d, s, 2, next);                                                                           \
    shmem_p(d + 2, (T)7, next);                                                                         \
    shmem_put_nbi(SHMEM_CTX_DEFAULT, d + 3, s + 3, 1, next);                                            \
    shmem_quiet();                                                                                      \
    shmem_barrier_all();                                                                                \
    CHECK(d[0] == (T)1 && d[1] == (T)2 && d[2] == (T)7 && d[3] == (T)4);                                \
    CHECK(shmem_g(s + 1, next) == (T)2 && shmem_g(SHMEM_CTX_DEFAULT, d + 2, next) == (T)7);             \
    shmem_get(l, s, 2, next);                                                                           \
    CHECK(l[0] == (T)1 && l[1] == (T)2);                                                                \
    shmem_get_nbi(SHMEM_CTX_DEFAULT, l, d, 3, prev);                                                    \
    shmem_get(SHMEM_CTX_DEFAULT, l + 3, s + 2, 1, prev);                                                \
    shmem_quiet();                                                                                      \
    CHECK(l[2] == (T)7 && l[3] == (T)3);                                                                \
    shmem_barrier_all();                                                                                \
    shmem_iput(d, s, 2, 1, 2, next); /* d[0] = s[0], d[2] = s[1] */                                     \
    shmem_barrier_all();                                                                                \
    CHECK(d[0] == (T)1 && d[2] == (T)2);                                                                \
    shmem_iget(l, s, 1, 2, 2, next); /* l[0] = s[0], l[1] = s[2] */                                     \
    CHECK(l[0] == (T)1 && l[1] == (T)3);                                                                \
    shmem_barrier_all();                                                                                \
    shmem_put_signal(d + 1, s + 3, 1, sig, 1, SHMEM_SIGNAL_ADD, next);                                  \
    shmem_put_signal_nbi(SHMEM_CTX_DEFAULT, d + 3, s, 1, sig, 1, SHMEM_SIGNAL_ADD, next);               \
    shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 2);                                                      \
    CHECK(d[1] == (T)4 && d[3] == (T)1);                                                                \
    shmem_barrier_all();                                                                                \
    CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, d, s, 2, 0) == 0 && d[0] == (T)1 && d[1] == (T)2);          \
    shmem_barrier_all();                                                                                \
    s[0] = (T)(me + 1);                                                                                 \
    CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, d, s, 1) == 0);                                              \
    for (int p = 0; p < np; ++p) CHECK(d[p] == (T)(p + 1));                                             \
    CHECK(shmem_collect(SHMEM_TEAM_WORLD, d + np, s, 1) == 0);                                          \
    for (int p = 0; p < np; ++p) CHECK(d[np + p] == (T)(p + 1));                                        \
    shmem_barrier_all();                                                                                \
    for (int p = 0; p < np; ++p) s[p] = (T)(me * np + p);                                               \
    CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, d, s, 1) == 0);                                              \
    for (int p = 0; p < np; ++p) CHECK(d[p] == (T)(p * np + me));                                       \
    CHECK(shmem_alltoalls(SHMEM_TEAM_WORLD, d + np, s, 1, 1, 1) == 0);                                  \
    for (int p = 0; p < np; ++p) CHECK(d[np + p] == (T)(p * np + me));                                  \
    shmem_barrier_all();                                                                                \
  }
SYMMEM_RMA_TYPES(GEN_RMA)

/* ---- atomics: extended (Table 7), standard (Table 6), bitwise (Table 8) ---------------------- */
#define GEN_AMO_EXT(T, N)                                                                               \
  static void amo_ext_##N(void) {                                                                       \
    T *d = (T *)dbuf, f = (T)0;                                                                         \
    reset(#T);                                                                                          \
    shmem_atomic_set(d, (T)5, next);                                                                    \
    CHECK(shmem_atomic_fetch(d, next) == (T)5 && shmem_atomic_fetch((const T *)d, next) == (T)5);       \
    CHECK(shmem_atomic_swap(d, (T)6, next) == (T)5);                                                    \
    shmem_atomic_fetch_nbi(&f, d, next);                                                                \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)6);                                                                                   \
    shmem_atomic_swap_nbi(SHMEM_CTX_DEFAULT, &f, d, (T)8, next);                                        \
    shmem_atomic_set(SHMEM_CTX_DEFAULT, d + 1, (T)9, next);                                             \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)6 && shmem_atomic_fetch(SHMEM_CTX_DEFAULT, d + 1, next) == (T)9);                     \
    CHECK(shmem_atomic_swap(SHMEM_CTX_DEFAULT, d + 1, (T)2, next) == (T)9);                             \
    shmem_atomic_fetch_nbi(SHMEM_CTX_DEFAULT, &f, d + 1, next);                                         \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)2);                                                                                   \
    shmem_atomic_swap_nbi(&f, d + 3, (T)1, next);                                                       \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)0);                                                                                   \
    CHECK(shmem_swap(d + 2, (T)3, next) == (T)0 && shmem_fetch(d + 2, next) == (T)3); /* deprecated */  \
    shmem_set(d + 2, (T)4, next);                                                                       \
    shmem_barrier_all();                                                                                \
    CHECK(d[0] == (T)8 && d[1] == (T)2 && d[2] == (T)4 && d[3] == (T)1);                                \
    shmem_barrier_all();                                                                                \
  }
#define GEN_AMO_STD(T, N)                                                                               \
  static void amo_std_##N(void) {                                                                       \
    T *d = (T *)dbuf, f = (T)0;                                                                         \
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;                                                                  \
    reset(#T);                                                                                          \
    CHECK(shmem_atomic_compare_swap(d, (T)0, (T)3, next) == (T)0);                                      \
    CHECK(shmem_atomic_fetch_inc(d, next) == (T)3);                                                     \
    shmem_atomic_inc(d, next);                                                                          \
    CHECK(shmem_atomic_fetch_add(d, (T)2, next) == (T)5);                                               \
    shmem_atomic_add(d, (T)1, next);                                                                    \
    shmem_atomic_compare_swap_nbi(&f, d, (T)8, (T)9, next);                                             \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)8);                                                                                   \
    shmem_atomic_fetch_inc_nbi(&f, d, next);                                                            \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)9);                                                                                   \
    shmem_atomic_fetch_add_nbi(&f, d, (T)2, next);                                                      \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)10);                                                                                  \
    CHECK(shmem_atomic_compare_swap(c, d + 1, (T)0, (T)1, next) == (T)0);                               \
    CHECK(shmem_atomic_fetch_inc(c, d + 1, next) == (T)1);                                              \
    shmem_atomic_inc(c, d + 1, next);                                                                   \
    CHECK(shmem_atomic_fetch_add(c, d + 1, (T)3, next) == (T)3);                                        \
    shmem_atomic_add(c, d + 1, (T)1, next);                                                             \
    shmem_atomic_compare_swap_nbi(c, &f, d + 1, (T)7, (T)10, next);                                     \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)7);                                                                                   \
    shmem_atomic_fetch_inc_nbi(c, &f, d + 1, next);                                                     \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)10);                                                                                  \
    shmem_atomic_fetch_add_nbi(c, &f, d + 1, (T)2, next);                                               \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)11);                                                                                  \
    CHECK(shmem_cswap(d + 2, (T)0, (T)1, next) == (T)0 && shmem_finc(d + 2, next) == (T)1); /* deprecated */ \
    shmem_inc(d + 2, next);                                                                             \
    CHECK(shmem_fadd(d + 2, (T)2, next) == (T)3);                                                       \
    shmem_add(d + 2, (T)1, next);                                                                       \
    shmem_barrier_all();                                                                                \
    CHECK(d[0] == (T)12 && d[1] == (T)13 && d[2] == (T)6);                                              \
    shmem_barrier_all();                                                                                \
  }
#define GEN_AMO_BIT(T, N)                                                                               \
  static void amo_bit_##N(void) {                                                                       \
    T *d = (T *)dbuf, f = (T)0;                                                                         \
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;                                                                  \
    reset(#T);                                                                                          \
    shmem_atomic_or(d, (T)5, next);                                                                     \
    CHECK(shmem_atomic_fetch_or(d, (T)2, next) == (T)5);                                                \
    shmem_atomic_and(d, (T)6, next);                                                                    \
    CHECK(shmem_atomic_fetch_and(d, (T)3, next) == (T)6);                                               \
    shmem_atomic_xor(d, (T)3, next);                                                                    \
    CHECK(shmem_atomic_fetch_xor(d, (T)1, next) == (T)1);                                               \
    shmem_atomic_fetch_or_nbi(&f, d, (T)4, next);                                                       \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)0);                                                                                   \
    shmem_atomic_fetch_and_nbi(&f, d, (T)6, next);                                                      \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)4);                                                                                   \
    shmem_atomic_fetch_xor_nbi(&f, d, (T)5, next);                                                      \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)4);                                                                                   \
    shmem_atomic_or(c, d + 1, (T)12, next);                                                             \
    shmem_atomic_and(c, d + 1, (T)4, next);                                                             \
    shmem_atomic_xor(c, d + 1, (T)1, next);                                                             \
    CHECK(shmem_atomic_fetch_or(c, d + 1, (T)0, next) == (T)5);                                         \
    CHECK(shmem_atomic_fetch_and(c, d + 1, (T)7, next) == (T)5);                                        \
    CHECK(shmem_atomic_fetch_xor(c, d + 1, (T)2, next) == (T)5);                                        \
    shmem_atomic_fetch_or_nbi(c, &f, d + 1, (T)8, next);                                                \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)7);                                                                                   \
    shmem_atomic_fetch_and_nbi(c, &f, d + 1, (T)9, next);                                               \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)15);                                                                                  \
    shmem_atomic_fetch_xor_nbi(c, &f, d + 1, (T)1, next);                                               \
    shmem_quiet();                                                                                      \
    CHECK(f == (T)9);                                                                                   \
    shmem_barrier_all();                                                                                \
    CHECK(d[0] == (T)1 && d[1] == (T)8);                                                                \
    shmem_barrier_all();                                                                                \
  }
SYMMEM_AMO_EXTENDED_TYPES(GEN_AMO_EXT)
SYMMEM_AMO_STANDARD_TYPES(GEN_AMO_STD)
SYMMEM_AMO_BITWISE_TYPES(GEN_AMO_BIT)

/* ---- point-to-point synchronization (Table 11) ----------------------------------------------- */
#define GEN_P2P(T, N)                                                                                   \
  static void p2p_##N(void) {                                                                           \
    T *iv = (T *)dbuf, want[2] = {(T)1, (T)2};                                                          \
    size_t idx[2];                                                                                      \
    reset(#T);                                                                                          \
    shmem_p(iv, (T)1, next);                                                                            \
    shmem_p(iv + 1, (T)2, next);                                                                        \
    shmem_wait_until(iv, SHMEM_CMP_EQ, (T)1);                                                           \
    shmem_wait_until(iv + 1, SHMEM_CMP_GE, (T)2);                                                       \
    CHECK(shmem_test(iv, SHMEM_CMP_EQ, (T)1) == 1 && shmem_test(iv, SHMEM_CMP_LT, (T)1) == 0);          \
    shmem_wait_until_all(iv, 2, NULL, SHMEM_CMP_GT, (T)0);                                              \
    CHECK(shmem_wait_until_any(iv, 2, NULL, SHMEM_CMP_EQ, (T)2) == 1);                                  \
    CHECK(shmem_wait_until_some(iv, 2, idx, NULL, SHMEM_CMP_GE, (T)1) == 2);                            \
    shmem_wait_until_all_vector(iv, 2, NULL, SHMEM_CMP_EQ, want);                                       \
    CHECK(shmem_wait_until_any_vector(iv, 2, NULL, SHMEM_CMP_EQ, want) < 2);                            \
    CHECK(shmem_wait_until_some_vector(iv, 2, idx, NULL, SHMEM_CMP_EQ, want) == 2);                     \
    CHECK(shmem_test_all(iv, 2, NULL, SHMEM_CMP_NE, (T)0) == 1);                                        \
    CHECK(shmem_test_any(iv, 2, NULL, SHMEM_CMP_EQ, (T)1) == 0);                                        \
    CHECK(shmem_test_some(iv, 2, idx, NULL, SHMEM_CMP_EQ, (T)2) == 1 && idx[0] == 1);                   \
    CHECK(shmem_test_all_vector(iv, 2, NULL, SHMEM_CMP_EQ, want) == 1);                                 \
    CHECK(shmem_test_any_vector(iv, 2, NULL, SHMEM_CMP_NE, want) == SIZE_MAX);                          \
    CHECK(shmem_test_some_vector(iv, 2, idx, NULL, SHMEM_CMP_LE, want) == 2);                           \
    shmem_wait(iv, (T)0); /* deprecated: returns once the value differs */                              \
    shmem_barrier_all();                                                                                \
  }
SYMMEM_P2P_SYNC_TYPES(GEN_P2P)

/* ---- reductions (Table 10) ------------------------------------------------------------------- */
#define GEN_RED_BIT(T, N)                                                                               \
  static void red_bit_##N(void) {                                                                       \
    T *d = (T *)dbuf, *s = (T *)sbuf;                                                                   \
    reset(#T);                                                                                          \
    s[0] = (T)1;                                                                                        \
    s[1] = (T)(1 << (me % 4));                                                                          \
    T all = (T)(np >= 4 ? 15 : (1 << np) - 1);                                                          \
    CHECK(shmem_and_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)1 && d[1] == (T)(np == 1));    \
    CHECK(shmem_or_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)1 && d[1] == all);              \
    CHECK(shmem_xor_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)(np & 1));                     \
    shmem_barrier_all();                                                                                \
  }
#define GEN_RED_MM(T, N)                                                                                \
  static void red_mm_##N(void) {                                                                        \
    T *d = (T *)dbuf, *s = (T *)sbuf;                                                                   \
    reset(#T);                                                                                          \
    s[0] = (T)(me + 1);                                                                                 \
    s[1] = (T)(np - me);                                                                                \
    CHECK(shmem_max_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)np && d[1] == (T)np);          \
    CHECK(shmem_min_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)1 && d[1] == (T)1);            \
    shmem_barrier_all();                                                                                \
  }
#define GEN_RED_AR(T, N)                                                                                \
  static void red_ar_##N(void) {                                                                        \
    T *d = (T *)dbuf, *s = (T *)sbuf;                                                                   \
    reset(#T);                                                                                          \
    s[0] = (T)1;                                                                                        \
    s[1] = (T)(me == 0 ? 2 : 1);                                                                        \
    CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)np && d[1] == (T)(np + 1));    \
    CHECK(shmem_prod_reduce(SHMEM_TEAM_WORLD, d, s, 2) == 0 && d[0] == (T)1 && d[1] == (T)2);           \
    shmem_barrier_all();                                                                                \
  }
SYMMEM_REDUCE_BITWISE_TYPES(GEN_RED_BIT)
SYMMEM_REDUCE_MINMAX_TYPES(GEN_RED_MM)
SYMMEM_REDUCE_ARITH_TYPES(GEN_RED_AR)

#define RUN_RMA(T, N) rma_##N();
#define RUN_AMO_EXT(T, N) amo_ext_##N();
#define RUN_AMO_STD(T, N) amo_std_##N();
#define RUN_AMO_BIT(T, N) amo_bit_##N();
#define RUN_P2P(T, N) p2p_##N();
#define RUN_RED_BIT(T, N) red_bit_##N();
#define RUN_RED_MM(T, N) red_mm_##N();
#define RUN_RED_AR(T, N) red_ar_##N();

int main(void) {
  shmem_init();
  me = shmem_my_pe();
  np = shmem_n_pes();
  next = (me + 1) % np;
  prev = (me + np - 1) % np;
  dbuf = (unsigned char *)conf_malloc(16 * NB * (size_t)np);
  sbuf = (unsigned char *)conf_malloc(16 * NB * (size_t)np);
  sig = (uint64_t *)conf_malloc(sizeof(uint64_t));
  psync = (long *)conf_malloc(SHMEM_SYNC_SIZE * sizeof(long));
  for (int i = 0; i < SHMEM_SYNC_SIZE; ++i) psync[i] = SHMEM_SYNC_VALUE;
  SYMMEM_RMA_TYPES(RUN_RMA)
  SYMMEM_AMO_EXTENDED_TYPES(RUN_AMO_EXT)
  SYMMEM_AMO_STANDARD_TYPES(RUN_AMO_STD)
  SYMMEM_AMO_BITWISE_TYPES(RUN_AMO_BIT)
  SYMMEM_P2P_SYNC_TYPES(RUN_P2P)
  SYMMEM_REDUCE_BITWISE_TYPES(RUN_RED_BIT)
  SYMMEM_REDUCE_MINMAX_TYPES(RUN_RED_MM)
  SYMMEM_REDUCE_ARITH_TYPES(RUN_RED_AR)
  /* shmem_sync: the 1.5 team form and the deprecated active-set form, one name */
  cur_type = "shmem_sync";
  CHECK(shmem_sync(SHMEM_TEAM_WORLD) == 0);
  shmem_sync(0, 0, np, psync);
  shmem_barrier_all();
  if (me == 0) printf("conf_generic: every generic routine with every type of the tables, %d PEs\n", np);
  shmem_finalize();
  return 0;
}
