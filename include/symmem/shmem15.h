/* symmem: the rest of OpenSHMEM 1.5 (teams, collectives, contexts, signals, locks): declarations
 * with the symmem_ prefix. Included by <symmem/symmem.h>.
 *
 * Return codes follow OpenSHMEM: team and collective routines return 0 on success and a non-zero
 * value (a negative SYMMEM_ERR_* code) on failure, with the message in symmem_last_error().
 */
#ifndef SYMMEM_SHMEM15_H
#define SYMMEM_SHMEM15_H

#include <stddef.h>
#include <stdint.h>

#include "symmem/detail/typelists.h"

#ifdef __cplusplus
#define SYMMEM_COMPLEXF __complex__ float
#define SYMMEM_COMPLEXD __complex__ double
extern "C" {
#else
#define SYMMEM_COMPLEXF float _Complex
#define SYMMEM_COMPLEXD double _Complex
#endif

/* ---- reduction type lists (OpenSHMEM 1.5 Table 10; 1.4 Table for the *_to_all forms) ---------- */
#define SYMMEM_REDUCE_BITWISE_TYPES(X)                                                                   \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)        \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) \
  X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size)
#define SYMMEM_REDUCE_MINMAX_TYPES(X)                                                                    \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)   \
  X(ptrdiff_t, ptrdiff) X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint)          \
  X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16)             \
  X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32)          \
  X(uint64_t, uint64) X(size_t, size) X(float, float) X(double, double) X(long double, longdouble)
#define SYMMEM_REDUCE_COMPLEX_TYPES(X) X(SYMMEM_COMPLEXD, complexd) X(SYMMEM_COMPLEXF, complexf)
#define SYMMEM_REDUCE_ARITH_TYPES(X) SYMMEM_REDUCE_MINMAX_TYPES(X) SYMMEM_REDUCE_COMPLEX_TYPES(X)

#define SYMMEM_TOALL_BITWISE_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define SYMMEM_TOALL_MINMAX_TYPES(X) \
  SYMMEM_TOALL_BITWISE_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)
#define SYMMEM_TOALL_ARITH_TYPES(X) SYMMEM_TOALL_MINMAX_TYPES(X) SYMMEM_REDUCE_COMPLEX_TYPES(X)

/* Distinct C types of the reduction lists, for _Generic and overloads (int8_t is signed char, ...). */
#define SYMMEM_GEN_REDUCE_BITWISE_TYPES(X)                                                               \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)        \
  X(unsigned long long, ulonglong) X(signed char, int8) X(short, int16) X(int, int32) X(long, int64)
#define SYMMEM_GEN_REDUCE_MINMAX_TYPES(X)                                                                \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)   \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)        \
  X(unsigned long long, ulonglong) X(float, float) X(double, double) X(long double, longdouble)
/* Its own spelling of the complex types, not SYMMEM_REDUCE_COMPLEX_TYPES: a generic call made inside
 * an expansion of SYMMEM_REDUCE_COMPLEX_TYPES (code generated over the reduction types) would
 * otherwise meet that macro while it is being expanded, and the preprocessor leaves it unexpanded. */
#define SYMMEM_GEN_REDUCE_COMPLEX_TYPES(X) X(SYMMEM_COMPLEXD, complexd) X(SYMMEM_COMPLEXF, complexf)
#define SYMMEM_GEN_REDUCE_ARITH_TYPES(X) SYMMEM_GEN_REDUCE_MINMAX_TYPES(X) SYMMEM_GEN_REDUCE_COMPLEX_TYPES(X)

/* ---- teams ----------------------------------------------------------------------------------- */
typedef struct symmem_team_s *symmem_team_t;
typedef struct {
  int num_contexts;
} symmem_team_config_t;
#define SYMMEM_TEAM_NUM_CONTEXTS (1L << 0)
#define SYMMEM_TEAM_INVALID ((symmem_team_t)0)
SYMMEM_API extern symmem_team_t const symmem_team_world;  /* every PE */
SYMMEM_API extern symmem_team_t const symmem_team_shared; /* the PEs of this host */

/* -1 for SYMMEM_TEAM_INVALID. */
SYMMEM_API int symmem_team_my_pe(symmem_team_t team);
SYMMEM_API int symmem_team_n_pes(symmem_team_t team);
SYMMEM_API int symmem_team_get_config(symmem_team_t team, long config_mask, symmem_team_config_t *config);
SYMMEM_API int symmem_team_translate_pe(symmem_team_t src_team, int src_pe, symmem_team_t dest_team);
/* Collective over the parent. PEs outside the new team get SYMMEM_TEAM_INVALID and return 0. */
SYMMEM_API int symmem_team_split_strided(symmem_team_t parent, int start, int stride, int size,
                                         const symmem_team_config_t *config, long config_mask,
                                         symmem_team_t *new_team);
SYMMEM_API int symmem_team_split_2d(symmem_team_t parent, int xrange, const symmem_team_config_t *xaxis_config,
                                    long xaxis_mask, symmem_team_t *xaxis_team,
                                    const symmem_team_config_t *yaxis_config, long yaxis_mask,
                                    symmem_team_t *yaxis_team);
/* A team without a parent, of any world PEs in any order (NVSHMEM's nvshmemx_team_init): one PE
 * gets a unique id, the program hands it to the members (a broadcast, MPI, a file), and each member
 * calls symmem_team_init with it, the team's size and its own index in the team (0..npes-1, each
 * once). Collective over the members only; PEs outside the team do not take part. A unique id
 * makes one team; get a new one for the next. */
SYMMEM_API int symmem_team_get_uniqueid(uint64_t *uniqueid);
SYMMEM_API int symmem_team_init(symmem_team_t *team, uint64_t uniqueid, int npes, int pe_idx_in_team,
                                const symmem_team_config_t *config, long config_mask);
SYMMEM_API void symmem_team_destroy(symmem_team_t team);
SYMMEM_API void *symmem_team_ptr(symmem_team_t team, const void *dest, int pe);
SYMMEM_API int symmem_team_sync(symmem_team_t team);

/* ---- contexts -------------------------------------------------------------------------------- */
typedef struct symmem_ctx_s *symmem_ctx_t;
#define SYMMEM_CTX_SERIALIZED (1L << 0)
#define SYMMEM_CTX_PRIVATE (1L << 1)
#define SYMMEM_CTX_NOSTORE (1L << 2)
#define SYMMEM_CTX_INVALID ((symmem_ctx_t)0)
SYMMEM_API extern symmem_ctx_t const symmem_ctx_default;

SYMMEM_API int symmem_ctx_create(long options, symmem_ctx_t *ctx);
SYMMEM_API int symmem_team_create_ctx(symmem_team_t team, long options, symmem_ctx_t *ctx);
SYMMEM_API void symmem_ctx_destroy(symmem_ctx_t ctx);
SYMMEM_API int symmem_ctx_get_team(symmem_ctx_t ctx, symmem_team_t *team);
/* The world PE number of PE `pe` of the context's team (fatal when out of range or ctx invalid). */
SYMMEM_API int symmem_ctx_pe(symmem_ctx_t ctx, int pe);
SYMMEM_API void symmem_ctx_fence(symmem_ctx_t ctx);
SYMMEM_API void symmem_ctx_quiet(symmem_ctx_t ctx);

/* ---- signals --------------------------------------------------------------------------------- */
#define SYMMEM_SIGNAL_SET 0
#define SYMMEM_SIGNAL_ADD 1
SYMMEM_API void symmem_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                                     uint64_t signal, int sig_op, int pe);
SYMMEM_API void symmem_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                                         uint64_t signal, int sig_op, int pe);
SYMMEM_API uint64_t symmem_signal_fetch(const uint64_t *sig_addr);
SYMMEM_API uint64_t symmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);

/* ---- point-to-point synchronization on sets of variables -------------------------------------- */
#define SYMMEM_DECL_P2P_SET(T, N)                                                                        \
  SYMMEM_API void symmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp, T v);  \
  SYMMEM_API size_t symmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp, T v); \
  SYMMEM_API size_t symmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices, const int *status, \
                                                 int cmp, T v);                                          \
  SYMMEM_API void symmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                                     const T *vs);                                        \
  SYMMEM_API size_t symmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp, \
                                                       const T *vs);                                      \
  SYMMEM_API size_t symmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,         \
                                                        const int *status, int cmp, const T *vs);         \
  SYMMEM_API int symmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T v);         \
  SYMMEM_API size_t symmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T v);      \
  SYMMEM_API size_t symmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,   \
                                           int cmp, T v);                                                 \
  SYMMEM_API int symmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,        \
                                              const T *vs);                                               \
  SYMMEM_API size_t symmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,     \
                                                 const T *vs);                                            \
  SYMMEM_API size_t symmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,               \
                                                  const int *status, int cmp, const T *vs);
SYMMEM_P2P_SYNC_TYPES(SYMMEM_DECL_P2P_SET)
#undef SYMMEM_DECL_P2P_SET

/* ---- locks (a FIFO ticket lock in the symmetric long on PE 0) --------------------------------- */
SYMMEM_API void symmem_set_lock(long *lock);
SYMMEM_API void symmem_clear_lock(long *lock);
SYMMEM_API int symmem_test_lock(long *lock);

/* ---- memory, profiling ----------------------------------------------------------------------- */
#define SYMMEM_MALLOC_ATOMICS_REMOTE (1L << 0)
#define SYMMEM_MALLOC_SIGNAL_REMOTE (1L << 1)
SYMMEM_API void *symmem_malloc_with_hints(size_t size, long hints);
SYMMEM_API void symmem_pcontrol(int level, ...);

/* ---- collectives on teams -------------------------------------------------------------------- */
SYMMEM_API int symmem_broadcastmem(symmem_team_t team, void *dest, const void *source, size_t nbytes, int root);
SYMMEM_API int symmem_collectmem(symmem_team_t team, void *dest, const void *source, size_t nbytes);
SYMMEM_API int symmem_fcollectmem(symmem_team_t team, void *dest, const void *source, size_t nbytes);
SYMMEM_API int symmem_alltoallmem(symmem_team_t team, void *dest, const void *source, size_t nbytes);
SYMMEM_API int symmem_alltoallsmem(symmem_team_t team, void *dest, const void *source, ptrdiff_t dst,
                                   ptrdiff_t sst, size_t nbytes);

#define SYMMEM_DECL_COLL(T, N)                                                                           \
  SYMMEM_API int symmem_##N##_broadcast(symmem_team_t team, T *dest, const T *source, size_t nelems, int root); \
  SYMMEM_API int symmem_##N##_collect(symmem_team_t team, T *dest, const T *source, size_t nelems);      \
  SYMMEM_API int symmem_##N##_fcollect(symmem_team_t team, T *dest, const T *source, size_t nelems);     \
  SYMMEM_API int symmem_##N##_alltoall(symmem_team_t team, T *dest, const T *source, size_t nelems);     \
  SYMMEM_API int symmem_##N##_alltoalls(symmem_team_t team, T *dest, const T *source, ptrdiff_t dst,     \
                                        ptrdiff_t sst, size_t nelems);
SYMMEM_RMA_TYPES(SYMMEM_DECL_COLL)
#undef SYMMEM_DECL_COLL

#define SYMMEM_DECL_REDUCE(T, N, OP) \
  SYMMEM_API int symmem_##N##_##OP##_reduce(symmem_team_t team, T *dest, const T *source, size_t nreduce);
#define SYMMEM_DECL_REDUCE_BIT(T, N) SYMMEM_DECL_REDUCE(T, N, and) SYMMEM_DECL_REDUCE(T, N, or) SYMMEM_DECL_REDUCE(T, N, xor)
#define SYMMEM_DECL_REDUCE_MM(T, N) SYMMEM_DECL_REDUCE(T, N, max) SYMMEM_DECL_REDUCE(T, N, min)
#define SYMMEM_DECL_REDUCE_AR(T, N) SYMMEM_DECL_REDUCE(T, N, sum) SYMMEM_DECL_REDUCE(T, N, prod)
SYMMEM_REDUCE_BITWISE_TYPES(SYMMEM_DECL_REDUCE_BIT)
SYMMEM_REDUCE_MINMAX_TYPES(SYMMEM_DECL_REDUCE_MM)
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_DECL_REDUCE_AR)
#undef SYMMEM_DECL_REDUCE_BIT
#undef SYMMEM_DECL_REDUCE_MM
#undef SYMMEM_DECL_REDUCE_AR
#undef SYMMEM_DECL_REDUCE

/* ---- collectives on active sets (deprecated in 1.5; pSync/pWrk as in OpenSHMEM 1.4) ------------ */
/* pSync needs SYMMEM_SYNC_SIZE longs, all SYMMEM_SYNC_VALUE before the first call; it is left so. */
#define SYMMEM_SYNC_VALUE 0L
#define SYMMEM_SYNC_SIZE 64
#define SYMMEM_REDUCE_MIN_WRKDATA_SIZE 1
SYMMEM_API void symmem_barrier(int start, int log_stride, int size, long *pSync);
SYMMEM_API void symmem_sync(int start, int log_stride, int size, long *pSync);
#define SYMMEM_DECL_ASET(B)                                                                              \
  SYMMEM_API void symmem_broadcast##B(void *dest, const void *source, size_t nelems, int root, int start,  \
                                      int log_stride, int size, long *pSync);                            \
  SYMMEM_API void symmem_collect##B(void *dest, const void *source, size_t nelems, int start,            \
                                    int log_stride, int size, long *pSync);                              \
  SYMMEM_API void symmem_fcollect##B(void *dest, const void *source, size_t nelems, int start,           \
                                     int log_stride, int size, long *pSync);                             \
  SYMMEM_API void symmem_alltoall##B(void *dest, const void *source, size_t nelems, int start,           \
                                     int log_stride, int size, long *pSync);                             \
  SYMMEM_API void symmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,      \
                                      size_t nelems, int start, int log_stride, int size, long *pSync);
SYMMEM_DECL_ASET(32)
SYMMEM_DECL_ASET(64)
#undef SYMMEM_DECL_ASET

#define SYMMEM_DECL_TOALL(T, N, OP)                                                                      \
  SYMMEM_API void symmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int start,            \
                                             int log_stride, int size, T *pWrk, long *pSync);
#define SYMMEM_DECL_TOALL_BIT(T, N) SYMMEM_DECL_TOALL(T, N, and) SYMMEM_DECL_TOALL(T, N, or) SYMMEM_DECL_TOALL(T, N, xor)
#define SYMMEM_DECL_TOALL_MM(T, N) SYMMEM_DECL_TOALL(T, N, max) SYMMEM_DECL_TOALL(T, N, min)
#define SYMMEM_DECL_TOALL_AR(T, N) SYMMEM_DECL_TOALL(T, N, sum) SYMMEM_DECL_TOALL(T, N, prod)
SYMMEM_TOALL_BITWISE_TYPES(SYMMEM_DECL_TOALL_BIT)
SYMMEM_TOALL_MINMAX_TYPES(SYMMEM_DECL_TOALL_MM)
SYMMEM_TOALL_ARITH_TYPES(SYMMEM_DECL_TOALL_AR)
#undef SYMMEM_DECL_TOALL_BIT
#undef SYMMEM_DECL_TOALL_MM
#undef SYMMEM_DECL_TOALL_AR
#undef SYMMEM_DECL_TOALL

#ifdef __cplusplus
}
#endif

/* ---- context forms of RMA, AMO and signals; nbi atomics -----------------------------------------
 * The context forms are library functions: to node-local PEs they are the default context's
 * operation on the PE of the context's team, to PEs on other hosts the context's own network
 * worker carries them (ctx_quiet completes them; docs/multihost.md, "Contexts"). The typed
 * signal forms and the non-blocking fetching atomics are inline over those: operations complete
 * before they return on the load/store transport, so a non-blocking fetching atomic stores its
 * result at once. */
#ifdef __cplusplus
#define SYMMEM_INLINE inline
#else
#define SYMMEM_INLINE static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif
SYMMEM_API void symmem_ctx_putmem(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);
SYMMEM_API void symmem_ctx_getmem(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);
SYMMEM_API void symmem_ctx_putmem_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);
SYMMEM_API void symmem_ctx_getmem_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);
SYMMEM_API void symmem_ctx_putmem_signal(symmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe);
SYMMEM_API void symmem_ctx_putmem_signal_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe);

#define SYMMEM_CTX_RMA(T, N)                                                                             \
  SYMMEM_API void symmem_ctx_##N##_put(symmem_ctx_t c, T *d, const T *s, size_t n, int pe);             \
  SYMMEM_API void symmem_ctx_##N##_get(symmem_ctx_t c, T *d, const T *s, size_t n, int pe);             \
  SYMMEM_API void symmem_ctx_##N##_put_nbi(symmem_ctx_t c, T *d, const T *s, size_t n, int pe);         \
  SYMMEM_API void symmem_ctx_##N##_get_nbi(symmem_ctx_t c, T *d, const T *s, size_t n, int pe);         \
  SYMMEM_API void symmem_ctx_##N##_p(symmem_ctx_t c, T *d, T v, int pe);                                \
  SYMMEM_API T symmem_ctx_##N##_g(symmem_ctx_t c, const T *s, int pe);                                  \
  SYMMEM_API void symmem_ctx_##N##_iput(symmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe); \
  SYMMEM_API void symmem_ctx_##N##_iget(symmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe);
SYMMEM_RMA_TYPES(SYMMEM_CTX_RMA)
#undef SYMMEM_CTX_RMA

#define SYMMEM_CTX_RMA_SIZED(B)                                                                          \
  SYMMEM_API void symmem_ctx_put##B(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);          \
  SYMMEM_API void symmem_ctx_get##B(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);          \
  SYMMEM_API void symmem_ctx_put##B##_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);    \
  SYMMEM_API void symmem_ctx_get##B##_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, int pe);    \
  SYMMEM_API void symmem_ctx_iput##B(symmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe); \
  SYMMEM_API void symmem_ctx_iget##B(symmem_ctx_t c, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe);
SYMMEM_RMA_SIZES(SYMMEM_CTX_RMA_SIZED)
#undef SYMMEM_CTX_RMA_SIZED

#define SYMMEM_CTX_AMO_EXT(T, N)                                                                         \
  SYMMEM_API T symmem_ctx_##N##_atomic_fetch(symmem_ctx_t c, const T *s, int pe);                       \
  SYMMEM_API void symmem_ctx_##N##_atomic_set(symmem_ctx_t c, T *d, T v, int pe);                       \
  SYMMEM_API T symmem_ctx_##N##_atomic_swap(symmem_ctx_t c, T *d, T v, int pe);
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_CTX_AMO_EXT)
#undef SYMMEM_CTX_AMO_EXT

#define SYMMEM_CTX_AMO_STD(T, N)                                                                         \
  SYMMEM_API T symmem_ctx_##N##_atomic_compare_swap(symmem_ctx_t c, T *d, T k, T v, int pe);            \
  SYMMEM_API T symmem_ctx_##N##_atomic_fetch_inc(symmem_ctx_t c, T *d, int pe);                         \
  SYMMEM_API void symmem_ctx_##N##_atomic_inc(symmem_ctx_t c, T *d, int pe);                            \
  SYMMEM_API T symmem_ctx_##N##_atomic_fetch_add(symmem_ctx_t c, T *d, T v, int pe);                    \
  SYMMEM_API void symmem_ctx_##N##_atomic_add(symmem_ctx_t c, T *d, T v, int pe);
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_CTX_AMO_STD)
#undef SYMMEM_CTX_AMO_STD

#define SYMMEM_CTX_AMO_BIT1(T, N, OP)                                                                    \
  SYMMEM_API T symmem_ctx_##N##_atomic_fetch_##OP(symmem_ctx_t c, T *d, T v, int pe);                   \
  SYMMEM_API void symmem_ctx_##N##_atomic_##OP(symmem_ctx_t c, T *d, T v, int pe);
#define SYMMEM_CTX_AMO_BIT(T, N) SYMMEM_CTX_AMO_BIT1(T, N, and) SYMMEM_CTX_AMO_BIT1(T, N, or) SYMMEM_CTX_AMO_BIT1(T, N, xor)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_CTX_AMO_BIT)
#undef SYMMEM_CTX_AMO_BIT
#undef SYMMEM_CTX_AMO_BIT1
#ifdef __cplusplus
}
#endif

/* The typed signal forms: putmem_signal of n elements. */
#define SYMMEM_CTX_SIG(T, N)                                                                             \
  SYMMEM_INLINE void symmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_putmem_signal(d, s, n * sizeof(T), sig, sv, op, pe);                                          \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_putmem_signal_nbi(d, s, n * sizeof(T), sig, sv, op, pe);                                      \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_ctx_##N##_put_signal(symmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_ctx_putmem_signal(c, d, s, n * sizeof(T), sig, sv, op, pe);                                   \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_ctx_##N##_put_signal_nbi(symmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_ctx_putmem_signal_nbi(c, d, s, n * sizeof(T), sig, sv, op, pe);                               \
  }
SYMMEM_RMA_TYPES(SYMMEM_CTX_SIG)
#undef SYMMEM_CTX_SIG

#define SYMMEM_CTX_SIG_SIZED(B)                                                                          \
  SYMMEM_INLINE void symmem_put##B##_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_putmem_signal(d, s, n * (B / 8), sig, sv, op, pe);                                            \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_put##B##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_putmem_signal_nbi(d, s, n * (B / 8), sig, sv, op, pe);                                        \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_ctx_put##B##_signal(symmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_ctx_putmem_signal(c, d, s, n * (B / 8), sig, sv, op, pe);                                     \
  }                                                                                                      \
  SYMMEM_INLINE void symmem_ctx_put##B##_signal_nbi(symmem_ctx_t c, void *d, const void *s, size_t n, uint64_t *sig, uint64_t sv, int op, int pe) { \
    symmem_ctx_putmem_signal_nbi(c, d, s, n * (B / 8), sig, sv, op, pe);                                 \
  }
SYMMEM_RMA_SIZES(SYMMEM_CTX_SIG_SIZED)
#undef SYMMEM_CTX_SIG_SIZED

/* Non-blocking fetching atomics, with and without a context. */
#define SYMMEM_CTX_AMO_EXT(T, N)                                                                         \
  SYMMEM_INLINE void symmem_##N##_atomic_fetch_nbi(T *f, const T *s, int pe) { *f = symmem_##N##_atomic_fetch(s, pe); } \
  SYMMEM_INLINE void symmem_##N##_atomic_swap_nbi(T *f, T *d, T v, int pe) { *f = symmem_##N##_atomic_swap(d, v, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_fetch_nbi(symmem_ctx_t c, T *f, const T *s, int pe) { *f = symmem_ctx_##N##_atomic_fetch(c, s, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_swap_nbi(symmem_ctx_t c, T *f, T *d, T v, int pe) { *f = symmem_ctx_##N##_atomic_swap(c, d, v, pe); }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_CTX_AMO_EXT)
#undef SYMMEM_CTX_AMO_EXT

#define SYMMEM_CTX_AMO_STD(T, N)                                                                         \
  SYMMEM_INLINE void symmem_##N##_atomic_compare_swap_nbi(T *f, T *d, T k, T v, int pe) { *f = symmem_##N##_atomic_compare_swap(d, k, v, pe); } \
  SYMMEM_INLINE void symmem_##N##_atomic_fetch_inc_nbi(T *f, T *d, int pe) { *f = symmem_##N##_atomic_fetch_inc(d, pe); } \
  SYMMEM_INLINE void symmem_##N##_atomic_fetch_add_nbi(T *f, T *d, T v, int pe) { *f = symmem_##N##_atomic_fetch_add(d, v, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_compare_swap_nbi(symmem_ctx_t c, T *f, T *d, T k, T v, int pe) { *f = symmem_ctx_##N##_atomic_compare_swap(c, d, k, v, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_fetch_inc_nbi(symmem_ctx_t c, T *f, T *d, int pe) { *f = symmem_ctx_##N##_atomic_fetch_inc(c, d, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_fetch_add_nbi(symmem_ctx_t c, T *f, T *d, T v, int pe) { *f = symmem_ctx_##N##_atomic_fetch_add(c, d, v, pe); }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_CTX_AMO_STD)
#undef SYMMEM_CTX_AMO_STD

#define SYMMEM_CTX_AMO_BIT1(T, N, OP)                                                                    \
  SYMMEM_INLINE void symmem_##N##_atomic_fetch_##OP##_nbi(T *f, T *d, T v, int pe) { *f = symmem_##N##_atomic_fetch_##OP(d, v, pe); } \
  SYMMEM_INLINE void symmem_ctx_##N##_atomic_fetch_##OP##_nbi(symmem_ctx_t c, T *f, T *d, T v, int pe) { *f = symmem_ctx_##N##_atomic_fetch_##OP(c, d, v, pe); }
#define SYMMEM_CTX_AMO_BIT(T, N) SYMMEM_CTX_AMO_BIT1(T, N, and) SYMMEM_CTX_AMO_BIT1(T, N, or) SYMMEM_CTX_AMO_BIT1(T, N, xor)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_CTX_AMO_BIT)
#undef SYMMEM_CTX_AMO_BIT
#undef SYMMEM_CTX_AMO_BIT1

/* ---- OpenSHMEM 1.6 additions --------------------------------------------------------------------
 * Block-strided RMA (shmem_ibput / shmem_ibget): nblocks blocks of bsize elements of esize bytes;
 * block i goes from source + i * sst to dest + i * tst (strides count elements and are at least
 * bsize). Blocking: on return the source may be reused (ibput) or the data has arrived (ibget).
 * Signal updates without data (shmem_signal_add / shmem_signal_set): the signal part of
 * putmem_signal, with its atomicity; completed by quiet like any put.
 * Prefix sums over a team (1.6 shmem_TYPE_sum_inscan / _exscan, Sandia's shmemx_ names): PE i of the team
 * gets the sum of the sources of PEs 0..i (inscan) or 0..i-1 (exscan; zeros on PE 0), element-wise;
 * dest may be source. */
#ifdef __cplusplus
extern "C" {
#endif
SYMMEM_API void symmem_ibput_sized(void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,
                                   size_t nblocks, size_t esize, int pe);
SYMMEM_API void symmem_ibget_sized(void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst, size_t bsize,
                                   size_t nblocks, size_t esize, int pe);
SYMMEM_API void symmem_ctx_ibput_sized(symmem_ctx_t c, void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst,
                                       size_t bsize, size_t nblocks, size_t esize, int pe);
SYMMEM_API void symmem_ctx_ibget_sized(symmem_ctx_t c, void *dest, const void *source, ptrdiff_t tst, ptrdiff_t sst,
                                       size_t bsize, size_t nblocks, size_t esize, int pe);
/* Quiet for a set of PEs (1.6 shmem_pe_quiet): the PE numbers are checked, then the context's
 * quiet, which completes what it sent to every PE (a flush is per network worker, not per peer). */
SYMMEM_API void symmem_pe_quiet(const int *target_pes, size_t npes);
SYMMEM_API void symmem_ctx_pe_quiet(symmem_ctx_t c, const int *target_pes, size_t npes);
/* Sessions (1.6 shmem_ctx_session_start / _stop): hints that a context is about to issue a batch of
 * operations. symmem posts every operation as it comes, so a session changes nothing it does; the
 * context is checked as every context routine checks it (SHMEM_CTX_INVALID: nothing). */
typedef struct {
  size_t total_ops; /* operations expected in the session (SYMMEM_CTX_SESSION_TOTAL_OPS) */
} symmem_ctx_session_config_t;
#define SYMMEM_CTX_SESSION_BATCH 1L
#define SYMMEM_CTX_SESSION_TOTAL_OPS 1L
SYMMEM_API void symmem_ctx_session_start(symmem_ctx_t c, long options, const symmem_ctx_session_config_t *config,
                                         long config_mask);
SYMMEM_API void symmem_ctx_session_stop(symmem_ctx_t c);
SYMMEM_API void symmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
SYMMEM_API void symmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);
SYMMEM_API void symmem_ctx_signal_add(symmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe);
SYMMEM_API void symmem_ctx_signal_set(symmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe);
#define SYMMEM_DECL_SCAN(T, N)                                                                           \
  SYMMEM_API int symmem_##N##_sum_inscan(symmem_team_t team, T *dest, const T *source, size_t nelems);   \
  SYMMEM_API int symmem_##N##_sum_exscan(symmem_team_t team, T *dest, const T *source, size_t nelems);
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_DECL_SCAN)
#undef SYMMEM_DECL_SCAN
#ifdef __cplusplus
}
#endif

#endif /* SYMMEM_SHMEM15_H */
