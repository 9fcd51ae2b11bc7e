/* symmem: the OpenSHMEM 1.6 routines that Sandia OpenSHMEM first had as shmemx_ extensions:
 * block-strided RMA (ibput, ibget), signal updates without data (signal_add, signal_set) and prefix
 * sums (sum_inscan, sum_exscan). One routine list like <shmem/routines.h>, read under two
 * prefixes: the includer defines SYMMEM_SHR16_X as shmem_ (<shmem/routines.h>) or shmemx_
 * (<shmem/routines_x.h>), and SYMMEM_SHMEM_FN / SYMMEM_SHMEM_VFN as for that list. No include
 * guard on purpose. */
#define SYMMEM_SHR16_NOCTX()
#define SYMMEM_SHR16_CTXP() shmem_ctx_t c,
#define SYMMEM_SHR16_CTXA() c,
/* X: the prefix; P: nothing or ctx_; CP/CA: the context parameter and argument (or nothing). */
#define SYMMEM_SHR16_IB2(X, T, N, P, CP, CA)                                                           \
  SYMMEM_SHMEM_VFN(X##P##N##_ibput, (CP() T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibput_sized(CA() d, s, tst, sst, bsize, nblocks, sizeof(T), pe))                \
  SYMMEM_SHMEM_VFN(X##P##N##_ibget, (CP() T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibget_sized(CA() d, s, tst, sst, bsize, nblocks, sizeof(T), pe))
#define SYMMEM_SHR16_IBS2(X, B, P, CP, CA)                                                             \
  SYMMEM_SHMEM_VFN(X##P##ibput##B, (CP() void *d, const void *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibput_sized(CA() d, s, tst, sst, bsize, nblocks, B / 8, pe))                    \
  SYMMEM_SHMEM_VFN(X##P##ibget##B, (CP() void *d, const void *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibget_sized(CA() d, s, tst, sst, bsize, nblocks, B / 8, pe))
#define SYMMEM_SHR16_SIG2(X, P, CP, CA)                                                                \
  SYMMEM_SHMEM_VFN(X##P##signal_add, (CP() uint64_t *sig, uint64_t v, int pe), symmem_##P##signal_add(CA() sig, v, pe)) \
  SYMMEM_SHMEM_VFN(X##P##signal_set, (CP() uint64_t *sig, uint64_t v, int pe), symmem_##P##signal_set(CA() sig, v, pe))
#define SYMMEM_SHR16_SCAN2(X, T, N)                                                                    \
  SYMMEM_SHMEM_FN(int, X##N##_sum_inscan, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_sum_inscan(t, d, s, n)) \
  SYMMEM_SHMEM_FN(int, X##N##_sum_exscan, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_sum_exscan(t, d, s, n))
/* One more level, so that SYMMEM_SHR16_X is replaced by its prefix before ## pastes it. */
#define SYMMEM_SHR16_IB1(X, T, N)                                                                      \
  SYMMEM_SHR16_IB2(X, T, N, , SYMMEM_SHR16_NOCTX, SYMMEM_SHR16_NOCTX)                                  \
  SYMMEM_SHR16_IB2(X, T, N, ctx_, SYMMEM_SHR16_CTXP, SYMMEM_SHR16_CTXA)
#define SYMMEM_SHR16_IBS1(X, B)                                                                        \
  SYMMEM_SHR16_IBS2(X, B, , SYMMEM_SHR16_NOCTX, SYMMEM_SHR16_NOCTX)                                    \
  SYMMEM_SHR16_IBS2(X, B, ctx_, SYMMEM_SHR16_CTXP, SYMMEM_SHR16_CTXA)
#define SYMMEM_SHR16_SIG1(X)                                                                           \
  SYMMEM_SHR16_SIG2(X, , SYMMEM_SHR16_NOCTX, SYMMEM_SHR16_NOCTX)                                       \
  SYMMEM_SHR16_SIG2(X, ctx_, SYMMEM_SHR16_CTXP, SYMMEM_SHR16_CTXA)
#define SYMMEM_SHR16_SCAN1(X, T, N) SYMMEM_SHR16_SCAN2(X, T, N)
#define SYMMEM_SHR16_IB(T, N) SYMMEM_SHR16_IB1(SYMMEM_SHR16_X, T, N)
#define SYMMEM_SHR16_IBS(B) SYMMEM_SHR16_IBS1(SYMMEM_SHR16_X, B)
#define SYMMEM_SHR16_SCAN(T, N) SYMMEM_SHR16_SCAN1(SYMMEM_SHR16_X, T, N)
SYMMEM_RMA_TYPES(SYMMEM_SHR16_IB)
SYMMEM_RMA_SIZES(SYMMEM_SHR16_IBS)
SYMMEM_SHR16_SIG1(SYMMEM_SHR16_X)
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_SHR16_SCAN)
#undef SYMMEM_SHR16_IB
#undef SYMMEM_SHR16_IBS
#undef SYMMEM_SHR16_SCAN
#undef SYMMEM_SHR16_IB1
#undef SYMMEM_SHR16_IBS1
#undef SYMMEM_SHR16_SIG1
#undef SYMMEM_SHR16_SCAN1
#undef SYMMEM_SHR16_IB2
#undef SYMMEM_SHR16_IBS2
#undef SYMMEM_SHR16_SIG2
#undef SYMMEM_SHR16_SCAN2
#undef SYMMEM_SHR16_NOCTX
#undef SYMMEM_SHR16_CTXP
#undef SYMMEM_SHR16_CTXA
