/* symmem: every routine of <shmem.h>, as one list (OpenSHMEM 1.5; the deprecated names follow in
 * <shmem/routines_deprecated.h>).
 *
 * Each entry is
 *   SYMMEM_SHMEM_FN(RET, NAME, (PARAMS), CALL)    a routine that returns RET, or
 *   SYMMEM_SHMEM_VFN(NAME, (PARAMS), CALL)        a routine that returns nothing,
 * where CALL is the symmem_ expression that implements it. The includer defines both macros and
 * includes this file; it is read three times, so the declarations, the profiling names and the
 * exported definitions cannot drift apart:
 *   <shmem.h>            declarations (or static inline definitions with SYMMEM_SHMEM_INLINE);
 *   <pshmem.h>           the pshmem_ declarations for profiling tools;
 *   src/abi/shmem_abi.c  the exported pshmem_ functions and their weak shmem_ aliases.
 * No include guard on purpose. The typed families come from the type lists of
 * <symmem/detail/typelists.h> and <symmem/shmem15.h>, so a type added there appears everywhere. */

/* ---- 9.1 setup, exit, query; 9.2 threads ----------------------------------------------------- */
SYMMEM_SHMEM_VFN(shmem_init, (void), symmem_shmem_init_or_exit())
SYMMEM_SHMEM_FN(int, shmem_init_thread, (int requested, int *provided),
                symmem_init_thread(requested, provided) == SYMMEM_SUCCESS ? 0 : 1)
SYMMEM_SHMEM_VFN(shmem_query_thread, (int *provided), symmem_query_thread(provided))
SYMMEM_SHMEM_VFN(shmem_finalize, (void), symmem_finalize())
SYMMEM_SHMEM_VFN(shmem_global_exit, (int status), symmem_global_exit(status))
SYMMEM_SHMEM_FN(int, shmem_my_pe, (void), symmem_detail_my_pe())
SYMMEM_SHMEM_FN(int, shmem_n_pes, (void), symmem_detail_n_pes())
SYMMEM_SHMEM_VFN(shmem_info_get_version, (int *major, int *minor), symmem_info_get_version(major, minor))
SYMMEM_SHMEM_VFN(shmem_info_get_name, (char *name), symmem_info_get_name(name))
SYMMEM_SHMEM_FN(int, shmem_pe_accessible, (int pe), symmem_pe_accessible(pe))
SYMMEM_SHMEM_FN(int, shmem_addr_accessible, (const void *addr, int pe), symmem_addr_accessible(addr, pe))
SYMMEM_SHMEM_FN(void *, shmem_ptr, (const void *dest, int pe), symmem_ptr(dest, pe))

/* ---- 9.3 memory management ------------------------------------------------------------------- */
SYMMEM_SHMEM_FN(void *, shmem_malloc, (size_t size), symmem_malloc(size))
SYMMEM_SHMEM_FN(void *, shmem_calloc, (size_t count, size_t size), symmem_calloc(count, size))
SYMMEM_SHMEM_FN(void *, shmem_align, (size_t alignment, size_t size), symmem_align(alignment, size))
SYMMEM_SHMEM_FN(void *, shmem_realloc, (void *ptr, size_t size), symmem_realloc(ptr, size))
SYMMEM_SHMEM_VFN(shmem_free, (void *ptr), symmem_free(ptr))
SYMMEM_SHMEM_FN(void *, shmem_malloc_with_hints, (size_t size, long hints), symmem_malloc_with_hints(size, hints))

/* ---- 9.4 teams ------------------------------------------------------------------------------- */
SYMMEM_SHMEM_FN(int, shmem_team_my_pe, (shmem_team_t team), symmem_team_my_pe(team))
SYMMEM_SHMEM_FN(int, shmem_team_n_pes, (shmem_team_t team), symmem_team_n_pes(team))
SYMMEM_SHMEM_FN(int, shmem_team_get_config, (shmem_team_t team, long mask, shmem_team_config_t *config),
                symmem_team_get_config(team, mask, config))
SYMMEM_SHMEM_FN(int, shmem_team_translate_pe, (shmem_team_t src, int pe, shmem_team_t dest),
                symmem_team_translate_pe(src, pe, dest))
SYMMEM_SHMEM_FN(int, shmem_team_split_strided,
                (shmem_team_t parent, int start, int stride, int size, const shmem_team_config_t *config,
                 long mask, shmem_team_t *new_team),
                symmem_team_split_strided(parent, start, stride, size, config, mask, new_team))
SYMMEM_SHMEM_FN(int, shmem_team_split_2d,
                (shmem_team_t parent, int xrange, const shmem_team_config_t *xconfig, long xmask,
                 shmem_team_t *xteam, const shmem_team_config_t *yconfig, long ymask, shmem_team_t *yteam),
                symmem_team_split_2d(parent, xrange, xconfig, xmask, xteam, yconfig, ymask, yteam))
SYMMEM_SHMEM_VFN(shmem_team_destroy, (shmem_team_t team), symmem_team_destroy(team))
SYMMEM_SHMEM_FN(void *, shmem_team_ptr, (shmem_team_t team, const void *dest, int pe), symmem_team_ptr(team, dest, pe))

/* ---- 9.5 contexts; 9.11 ordering ------------------------------------------------------------- */
SYMMEM_SHMEM_FN(int, shmem_ctx_create, (long options, shmem_ctx_t *ctx), symmem_ctx_create(options, ctx))
SYMMEM_SHMEM_FN(int, shmem_team_create_ctx, (shmem_team_t team, long options, shmem_ctx_t *ctx),
                symmem_team_create_ctx(team, options, ctx))
SYMMEM_SHMEM_VFN(shmem_ctx_destroy, (shmem_ctx_t ctx), symmem_ctx_destroy(ctx))
SYMMEM_SHMEM_FN(int, shmem_ctx_get_team, (shmem_ctx_t ctx, shmem_team_t *team), symmem_ctx_get_team(ctx, team))
SYMMEM_SHMEM_VFN(shmem_fence, (void), symmem_fence())
SYMMEM_SHMEM_VFN(shmem_quiet, (void), symmem_quiet())
SYMMEM_SHMEM_VFN(shmem_ctx_fence, (shmem_ctx_t ctx), symmem_ctx_fence(ctx))
SYMMEM_SHMEM_VFN(shmem_ctx_quiet, (shmem_ctx_t ctx), symmem_ctx_quiet(ctx))

/* ---- 9.6 RMA: untyped, typed (Table 5), sized; with and without a context -------------------- */
#define SYMMEM_SHR_MEM(P, CP, C, S)                                                                     \
  SYMMEM_SHMEM_VFN(shmem_##P##putmem##S, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##putmem##S(C() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##getmem##S, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##getmem##S(C() d, s, n, pe))
#define SYMMEM_SHR_NOCTX()
#define SYMMEM_SHR_CTXP() shmem_ctx_t c,
#define SYMMEM_SHR_CTXA() c,
SYMMEM_SHR_MEM(, SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX, )
SYMMEM_SHR_MEM(, SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX, _nbi)
SYMMEM_SHR_MEM(ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA, )
SYMMEM_SHR_MEM(ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA, _nbi)
#undef SYMMEM_SHR_MEM

/* P: nothing or ctx_ (the context forms); CP/CA: the context parameter and argument (or nothing). */
#define SYMMEM_SHR_RMA1(T, N, P, CP, CA)                                                               \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_put, (CP() T *d, const T *s, size_t n, int pe), symmem_##P##N##_put(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_get, (CP() T *d, const T *s, size_t n, int pe), symmem_##P##N##_get(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_put_nbi, (CP() T *d, const T *s, size_t n, int pe), symmem_##P##N##_put_nbi(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_get_nbi, (CP() T *d, const T *s, size_t n, int pe), symmem_##P##N##_get_nbi(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_p, (CP() T *d, T v, int pe), symmem_##P##N##_p(CA() d, v, pe))                        \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_g, (CP() const T *s, int pe), symmem_##P##N##_g(CA() s, pe))                        \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_iput, (CP() T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe),   \
                   symmem_##P##N##_iput(CA() d, s, dst, sst, n, pe))                                         \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_iget, (CP() T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe),   \
                   symmem_##P##N##_iget(CA() d, s, dst, sst, n, pe))                                         \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_put_signal, (CP() T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe), \
                   symmem_##P##N##_put_signal(CA() d, s, n, sig, sv, op, pe))                                \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_put_signal_nbi,                                                              \
                   (CP() T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe),         \
                   symmem_##P##N##_put_signal_nbi(CA() d, s, n, sig, sv, op, pe))
#define SYMMEM_SHR_RMA(T, N)                                                                           \
  SYMMEM_SHR_RMA1(T, N, , SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX)                                     \
  SYMMEM_SHR_RMA1(T, N, ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA)
SYMMEM_RMA_TYPES(SYMMEM_SHR_RMA)
#undef SYMMEM_SHR_RMA
#undef SYMMEM_SHR_RMA1

#define SYMMEM_SHR_SIZED1(B, P, CP, CA)                                                                \
  SYMMEM_SHMEM_VFN(shmem_##P##put##B, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##put##B(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##get##B, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##get##B(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##put##B##_nbi, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##put##B##_nbi(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##get##B##_nbi, (CP() void *d, const void *s, size_t n, int pe), symmem_##P##get##B##_nbi(CA() d, s, n, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##iput##B, (CP() void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe), \
                   symmem_##P##iput##B(CA() d, s, dst, sst, n, pe))                                          \
  SYMMEM_SHMEM_VFN(shmem_##P##iget##B, (CP() void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe), \
                   symmem_##P##iget##B(CA() d, s, dst, sst, n, pe))                                          \
  SYMMEM_SHMEM_VFN(shmem_##P##put##B##_signal,                                                                 \
                   (CP() void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe),   \
                   symmem_##P##put##B##_signal(CA() d, s, n, sig, sv, op, pe))                               \
  SYMMEM_SHMEM_VFN(shmem_##P##put##B##_signal_nbi,                                                             \
                   (CP() void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe),   \
                   symmem_##P##put##B##_signal_nbi(CA() d, s, n, sig, sv, op, pe))
#define SYMMEM_SHR_SIZED(B)                                                                            \
  SYMMEM_SHR_SIZED1(B, , SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX)                                      \
  SYMMEM_SHR_SIZED1(B, ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA)
SYMMEM_RMA_SIZES(SYMMEM_SHR_SIZED)
#undef SYMMEM_SHR_SIZED
#undef SYMMEM_SHR_SIZED1

/* ---- 9.8 signals ----------------------------------------------------------------------------- */
#define SYMMEM_SHR_SIG(P, CP, CA, S)                                                                   \
  SYMMEM_SHMEM_VFN(shmem_##P##putmem_signal##S,                                                                \
                   (CP() void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe),   \
                   symmem_##P##putmem_signal##S(CA() d, s, n, sig, sv, op, pe))
SYMMEM_SHR_SIG(, SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX, )
SYMMEM_SHR_SIG(, SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX, _nbi)
SYMMEM_SHR_SIG(ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA, )
SYMMEM_SHR_SIG(ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA, _nbi)
#undef SYMMEM_SHR_SIG
SYMMEM_SHMEM_FN(uint64_t, shmem_signal_fetch, (const uint64_t *sig), symmem_signal_fetch(sig))
SYMMEM_SHMEM_FN(uint64_t, shmem_signal_wait_until, (uint64_t *sig, int cmp, uint64_t v),
                symmem_signal_wait_until(sig, cmp, v))

/* ---- OpenSHMEM 1.6: block-strided RMA, signal updates, prefix sums (<shmem/routines_16.h>, also
 * read by <shmem/routines_x.h> for Sandia OpenSHMEM's shmemx_ names), pe_quiet, sessions ------- */
#define SYMMEM_SHR16_X shmem_
#include "shmem/routines_16.h"
#undef SYMMEM_SHR16_X
SYMMEM_SHMEM_VFN(shmem_pe_quiet, (const int *target_pes, size_t npes), symmem_pe_quiet(target_pes, npes))
SYMMEM_SHMEM_VFN(shmem_ctx_pe_quiet, (shmem_ctx_t c, const int *target_pes, size_t npes),
                 symmem_ctx_pe_quiet(c, target_pes, npes))
SYMMEM_SHMEM_VFN(shmem_ctx_session_start, (shmem_ctx_t c, long options, const shmem_ctx_session_config_t *config, long mask),
                 symmem_ctx_session_start(c, options, config, mask))
SYMMEM_SHMEM_VFN(shmem_ctx_session_stop, (shmem_ctx_t c), symmem_ctx_session_stop(c))

/* ---- 9.7 atomics: extended (Table 7), standard (Table 6), bitwise (Table 8); nbi forms -------- */
#define SYMMEM_SHR_AMO_EXT1(T, N, P, CP, CA)                                                           \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_fetch, (CP() const T *s, int pe), symmem_##P##N##_atomic_fetch(CA() s, pe))  \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_set, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_set(CA() d, v, pe))     \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_swap, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_swap(CA() d, v, pe))  \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_fetch_nbi, (CP() T *f, const T *s, int pe), symmem_##P##N##_atomic_fetch_nbi(CA() f, s, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_swap_nbi, (CP() T *f, T *d, T v, int pe), symmem_##P##N##_atomic_swap_nbi(CA() f, d, v, pe))
#define SYMMEM_SHR_AMO_STD1(T, N, P, CP, CA)                                                           \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_compare_swap, (CP() T *d, T k, T v, int pe),                          \
                  symmem_##P##N##_atomic_compare_swap(CA() d, k, v, pe))                                     \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_fetch_inc, (CP() T *d, int pe), symmem_##P##N##_atomic_fetch_inc(CA() d, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_inc, (CP() T *d, int pe), symmem_##P##N##_atomic_inc(CA() d, pe))             \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_fetch_add, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_fetch_add(CA() d, v, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_add, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_add(CA() d, v, pe))     \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_compare_swap_nbi, (CP() T *f, T *d, T k, T v, int pe),                  \
                   symmem_##P##N##_atomic_compare_swap_nbi(CA() f, d, k, v, pe))                             \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_fetch_inc_nbi, (CP() T *f, T *d, int pe), symmem_##P##N##_atomic_fetch_inc_nbi(CA() f, d, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_fetch_add_nbi, (CP() T *f, T *d, T v, int pe),                          \
                   symmem_##P##N##_atomic_fetch_add_nbi(CA() f, d, v, pe))
#define SYMMEM_SHR_AMO_BIT2(T, N, P, CP, CA, OP)                                                       \
  SYMMEM_SHMEM_FN(T, shmem_##P##N##_atomic_fetch_##OP, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_fetch_##OP(CA() d, v, pe)) \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_##OP, (CP() T *d, T v, int pe), symmem_##P##N##_atomic_##OP(CA() d, v, pe))   \
  SYMMEM_SHMEM_VFN(shmem_##P##N##_atomic_fetch_##OP##_nbi, (CP() T *f, T *d, T v, int pe),                       \
                   symmem_##P##N##_atomic_fetch_##OP##_nbi(CA() f, d, v, pe))
#define SYMMEM_SHR_AMO_BIT1(T, N, P, CP, CA)                                                           \
  SYMMEM_SHR_AMO_BIT2(T, N, P, CP, CA, and) SYMMEM_SHR_AMO_BIT2(T, N, P, CP, CA, or)                   \
  SYMMEM_SHR_AMO_BIT2(T, N, P, CP, CA, xor)
#define SYMMEM_SHR_BOTH(F, T, N) \
  F(T, N, , SYMMEM_SHR_NOCTX, SYMMEM_SHR_NOCTX) F(T, N, ctx_, SYMMEM_SHR_CTXP, SYMMEM_SHR_CTXA)
#define SYMMEM_SHR_AMO_EXT(T, N) SYMMEM_SHR_BOTH(SYMMEM_SHR_AMO_EXT1, T, N)
#define SYMMEM_SHR_AMO_STD(T, N) SYMMEM_SHR_BOTH(SYMMEM_SHR_AMO_STD1, T, N)
#define SYMMEM_SHR_AMO_BIT(T, N) SYMMEM_SHR_BOTH(SYMMEM_SHR_AMO_BIT1, T, N)
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_SHR_AMO_EXT)
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_SHR_AMO_STD)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_SHR_AMO_BIT)
#undef SYMMEM_SHR_AMO_EXT
#undef SYMMEM_SHR_AMO_STD
#undef SYMMEM_SHR_AMO_BIT
#undef SYMMEM_SHR_BOTH
#undef SYMMEM_SHR_AMO_EXT1
#undef SYMMEM_SHR_AMO_STD1
#undef SYMMEM_SHR_AMO_BIT1
#undef SYMMEM_SHR_AMO_BIT2
#undef SYMMEM_SHR_NOCTX
#undef SYMMEM_SHR_CTXP
#undef SYMMEM_SHR_CTXA

/* ---- 9.9 collectives on teams ---------------------------------------------------------------- */
SYMMEM_SHMEM_VFN(shmem_barrier_all, (void), symmem_barrier_all())
SYMMEM_SHMEM_VFN(shmem_sync_all, (void), symmem_sync_all())
SYMMEM_SHMEM_FN(int, shmem_team_sync, (shmem_team_t team), symmem_team_sync(team))
SYMMEM_SHMEM_FN(int, shmem_broadcastmem, (shmem_team_t t, void *d, const void *s, size_t n, int root),
                symmem_broadcastmem(t, d, s, n, root))
SYMMEM_SHMEM_FN(int, shmem_collectmem, (shmem_team_t t, void *d, const void *s, size_t n), symmem_collectmem(t, d, s, n))
SYMMEM_SHMEM_FN(int, shmem_fcollectmem, (shmem_team_t t, void *d, const void *s, size_t n), symmem_fcollectmem(t, d, s, n))
SYMMEM_SHMEM_FN(int, shmem_alltoallmem, (shmem_team_t t, void *d, const void *s, size_t n), symmem_alltoallmem(t, d, s, n))
SYMMEM_SHMEM_FN(int, shmem_alltoallsmem, (shmem_team_t t, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n),
                symmem_alltoallsmem(t, d, s, dst, sst, n))
#define SYMMEM_SHR_COLL(T, N)                                                                          \
  SYMMEM_SHMEM_FN(int, shmem_##N##_broadcast, (shmem_team_t t, T *d, const T *s, size_t n, int root),  \
                  symmem_##N##_broadcast(t, d, s, n, root))                                            \
  SYMMEM_SHMEM_FN(int, shmem_##N##_collect, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_collect(t, d, s, n)) \
  SYMMEM_SHMEM_FN(int, shmem_##N##_fcollect, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_fcollect(t, d, s, n)) \
  SYMMEM_SHMEM_FN(int, shmem_##N##_alltoall, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_alltoall(t, d, s, n)) \
  SYMMEM_SHMEM_FN(int, shmem_##N##_alltoalls, (shmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n), \
                  symmem_##N##_alltoalls(t, d, s, dst, sst, n))
SYMMEM_RMA_TYPES(SYMMEM_SHR_COLL)
#undef SYMMEM_SHR_COLL

/* Reductions (Table 10). */
#define SYMMEM_SHR_RED(T, N, OP)                                                                       \
  SYMMEM_SHMEM_FN(int, shmem_##N##_##OP##_reduce, (shmem_team_t t, T *d, const T *s, size_t n),         \
                  symmem_##N##_##OP##_reduce(t, d, s, n))
#define SYMMEM_SHR_RED_BIT(T, N) SYMMEM_SHR_RED(T, N, and) SYMMEM_SHR_RED(T, N, or) SYMMEM_SHR_RED(T, N, xor)
#define SYMMEM_SHR_RED_MM(T, N) SYMMEM_SHR_RED(T, N, max) SYMMEM_SHR_RED(T, N, min)
#define SYMMEM_SHR_RED_AR(T, N) SYMMEM_SHR_RED(T, N, sum) SYMMEM_SHR_RED(T, N, prod)
SYMMEM_REDUCE_BITWISE_TYPES(SYMMEM_SHR_RED_BIT)
SYMMEM_REDUCE_MINMAX_TYPES(SYMMEM_SHR_RED_MM)
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_SHR_RED_AR)
#undef SYMMEM_SHR_RED_BIT
#undef SYMMEM_SHR_RED_MM
#undef SYMMEM_SHR_RED_AR
#undef SYMMEM_SHR_RED

/* ---- 9.10 point-to-point synchronization (Table 11) ------------------------------------------ */
#define SYMMEM_SHR_P2P(T, N)                                                                           \
  SYMMEM_SHMEM_VFN(shmem_##N##_wait_until, (T *iv, int cmp, T v), symmem_##N##_wait_until(iv, cmp, v)) \
  SYMMEM_SHMEM_FN(int, shmem_##N##_test, (T *iv, int cmp, T v), symmem_##N##_test(iv, cmp, v))          \
  SYMMEM_SHMEM_VFN(shmem_##N##_wait_until_all, (T *iv, size_t n, const int *st, int cmp, T v),          \
                   symmem_##N##_wait_until_all(iv, n, st, cmp, v))                                     \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_wait_until_any, (T *iv, size_t n, const int *st, int cmp, T v),   \
                  symmem_##N##_wait_until_any(iv, n, st, cmp, v))                                      \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_wait_until_some, (T *iv, size_t n, size_t *ix, const int *st, int cmp, T v), \
                  symmem_##N##_wait_until_some(iv, n, ix, st, cmp, v))                                 \
  SYMMEM_SHMEM_VFN(shmem_##N##_wait_until_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vs), \
                   symmem_##N##_wait_until_all_vector(iv, n, st, cmp, vs))                             \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_wait_until_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vs), \
                  symmem_##N##_wait_until_any_vector(iv, n, st, cmp, vs))                              \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_wait_until_some_vector,                                          \
                  (T *iv, size_t n, size_t *ix, const int *st, int cmp, T *vs),                        \
                  symmem_##N##_wait_until_some_vector(iv, n, ix, st, cmp, vs))                         \
  SYMMEM_SHMEM_FN(int, shmem_##N##_test_all, (T *iv, size_t n, const int *st, int cmp, T v),            \
                  symmem_##N##_test_all(iv, n, st, cmp, v))                                            \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_test_any, (T *iv, size_t n, const int *st, int cmp, T v),         \
                  symmem_##N##_test_any(iv, n, st, cmp, v))                                            \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_test_some, (T *iv, size_t n, size_t *ix, const int *st, int cmp, T v), \
                  symmem_##N##_test_some(iv, n, ix, st, cmp, v))                                       \
  SYMMEM_SHMEM_FN(int, shmem_##N##_test_all_vector, (T *iv, size_t n, const int *st, int cmp, T *vs),   \
                  symmem_##N##_test_all_vector(iv, n, st, cmp, vs))                                    \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_test_any_vector, (T *iv, size_t n, const int *st, int cmp, T *vs), \
                  symmem_##N##_test_any_vector(iv, n, st, cmp, vs))                                    \
  SYMMEM_SHMEM_FN(size_t, shmem_##N##_test_some_vector, (T *iv, size_t n, size_t *ix, const int *st, int cmp, T *vs), \
                  symmem_##N##_test_some_vector(iv, n, ix, st, cmp, vs))
SYMMEM_P2P_SYNC_TYPES(SYMMEM_SHR_P2P)
#undef SYMMEM_SHR_P2P

/* ---- 9.12 locks; 9.14 profiling -------------------------------------------------------------- */
SYMMEM_SHMEM_VFN(shmem_set_lock, (long *lock), symmem_set_lock(lock))
SYMMEM_SHMEM_VFN(shmem_clear_lock, (long *lock), symmem_clear_lock(lock))
SYMMEM_SHMEM_FN(int, shmem_test_lock, (long *lock), symmem_test_lock(lock))
SYMMEM_SHMEM_VFN(shmem_pcontrol, (const int level, ...), symmem_pcontrol(level))

#include "shmem/routines_deprecated.h"
