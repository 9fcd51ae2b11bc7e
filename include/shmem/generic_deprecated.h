/* symmem: the deprecated OpenSHMEM names (1.0 to 1.4) that old programs still use, over the current
 * routines. Included by <shmem/shmem15.h>. */
#ifndef SYMMEM_SHMEM_DEPRECATED_H
#define SYMMEM_SHMEM_DEPRECATED_H

#include "symmem/symmem.h"

#define _SHMEM_SYNC_VALUE SHMEM_SYNC_VALUE
#define _SHMEM_BCAST_SYNC_SIZE SHMEM_BCAST_SYNC_SIZE
#define _SHMEM_BARRIER_SYNC_SIZE SHMEM_BARRIER_SYNC_SIZE
#define _SHMEM_REDUCE_SYNC_SIZE SHMEM_REDUCE_SYNC_SIZE
#define _SHMEM_COLLECT_SYNC_SIZE SHMEM_COLLECT_SYNC_SIZE
#define _SHMEM_ALLTOALL_SYNC_SIZE SHMEM_ALLTOALL_SYNC_SIZE
#define _SHMEM_ALLTOALLS_SYNC_SIZE SHMEM_ALLTOALLS_SYNC_SIZE
#define _SHMEM_REDUCE_MIN_WRKDATA_SIZE SHMEM_REDUCE_MIN_WRKDATA_SIZE
#define _SHMEM_SYNC_SIZE SHMEM_SYNC_SIZE

/* ---- setup and memory (OpenSHMEM 1.0-1.2) ---------------------------------------------------- */
SYMMEM_SHI void start_pes(int npes) { (void)npes; shmem_init(); }
SYMMEM_SHI int _my_pe(void) { return symmem_my_pe(); }
SYMMEM_SHI int _num_pes(void) { return symmem_n_pes(); }
SYMMEM_SHI void *shmalloc(size_t size) { return symmem_malloc(size); }
SYMMEM_SHI void shfree(void *ptr) { symmem_free(ptr); }
SYMMEM_SHI void *shrealloc(void *ptr, size_t size) { return symmem_realloc(ptr, size); }
SYMMEM_SHI void *shmemalign(size_t alignment, size_t size) { return symmem_align(alignment, size); }

/* ---- cache management: nothing to do on coherent memory ------------------------------------- */
SYMMEM_SHI void shmem_clear_cache_inv(void) {}
SYMMEM_SHI void shmem_set_cache_inv(void) {}
SYMMEM_SHI void shmem_clear_cache_line_inv(void *dest) { (void)dest; }
SYMMEM_SHI void shmem_set_cache_line_inv(void *dest) { (void)dest; }
SYMMEM_SHI void shmem_udcflush(void) {}
SYMMEM_SHI void shmem_udcflush_line(void *dest) { (void)dest; }

/* ---- atomics under their 1.3 names ------------------------------------------------------------ */
#define SYMMEM_SH_OLD_AMO_EXT(T, N)                                                                      \
  SYMMEM_SHI T shmem_##N##_swap(T *d, T v, int pe) { return symmem_##N##_atomic_swap(d, v, pe); }         \
  SYMMEM_SHI T shmem_##N##_fetch(const T *s, int pe) { return symmem_##N##_atomic_fetch(s, pe); }         \
  SYMMEM_SHI void shmem_##N##_set(T *d, T v, int pe) { symmem_##N##_atomic_set(d, v, pe); }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_SH_OLD_AMO_EXT)
#undef SYMMEM_SH_OLD_AMO_EXT
#define SYMMEM_SH_OLD_AMO_STD(T, N)                                                                      \
  SYMMEM_SHI T shmem_##N##_cswap(T *d, T c, T v, int pe) { return symmem_##N##_atomic_compare_swap(d, c, v, pe); } \
  SYMMEM_SHI T shmem_##N##_fadd(T *d, T v, int pe) { return symmem_##N##_atomic_fetch_add(d, v, pe); }    \
  SYMMEM_SHI T shmem_##N##_finc(T *d, int pe) { return symmem_##N##_atomic_fetch_inc(d, pe); }            \
  SYMMEM_SHI void shmem_##N##_add(T *d, T v, int pe) { symmem_##N##_atomic_add(d, v, pe); }               \
  SYMMEM_SHI void shmem_##N##_inc(T *d, int pe) { symmem_##N##_atomic_inc(d, pe); }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_SH_OLD_AMO_STD)
#undef SYMMEM_SH_OLD_AMO_STD

/* The 1.3/1.4 generic atomics (shmem_swap, shmem_fadd, ...). */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SYMMEM_GEN_CASE_oswap(T, N) T *: shmem_##N##_swap,
#define SYMMEM_GEN_CASE_ofetch(T, N) T *: shmem_##N##_fetch, const T *: shmem_##N##_fetch,
#define SYMMEM_GEN_CASE_oset(T, N) T *: shmem_##N##_set,
#define SYMMEM_GEN_CASE_ocswap(T, N) T *: shmem_##N##_cswap,
#define SYMMEM_GEN_CASE_ofadd(T, N) T *: shmem_##N##_fadd,
#define SYMMEM_GEN_CASE_ofinc(T, N) T *: shmem_##N##_finc,
#define SYMMEM_GEN_CASE_oadd(T, N) T *: shmem_##N##_add,
#define SYMMEM_GEN_CASE_oinc(T, N) T *: shmem_##N##_inc,
#define shmem_swap(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, oswap, d)(d, v, pe)
#define shmem_fetch(s, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, ofetch, s)(s, pe)
#define shmem_set(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, oset, d)(d, v, pe)
#define shmem_cswap(d, c, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, ocswap, d)(d, c, v, pe)
#define shmem_fadd(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, ofadd, d)(d, v, pe)
#define shmem_finc(d, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, ofinc, d)(d, pe)
#define shmem_add(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, oadd, d)(d, v, pe)
#define shmem_inc(d, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, oinc, d)(d, pe)
#elif defined(__cplusplus)
#define SYMMEM_GEN_CXX_OLD_EXT(T, N)                                                                     \
  inline T shmem_swap(T *d, T v, int pe) { return shmem_##N##_swap(d, v, pe); }                         \
  inline T shmem_fetch(const T *s, int pe) { return shmem_##N##_fetch(s, pe); }                          \
  inline void shmem_set(T *d, T v, int pe) { shmem_##N##_set(d, v, pe); }
SYMMEM_GEN_AMO_EXT_TYPES(SYMMEM_GEN_CXX_OLD_EXT)
#undef SYMMEM_GEN_CXX_OLD_EXT
#define SYMMEM_GEN_CXX_OLD_STD(T, N)                                                                     \
  inline T shmem_cswap(T *d, T c, T v, int pe) { return shmem_##N##_cswap(d, c, v, pe); }                \
  inline T shmem_fadd(T *d, T v, int pe) { return shmem_##N##_fadd(d, v, pe); }                          \
  inline T shmem_finc(T *d, int pe) { return shmem_##N##_finc(d, pe); }                                  \
  inline void shmem_add(T *d, T v, int pe) { shmem_##N##_add(d, v, pe); }                                \
  inline void shmem_inc(T *d, int pe) { shmem_##N##_inc(d, pe); }
SYMMEM_GEN_AMO_STD_TYPES(SYMMEM_GEN_CXX_OLD_STD)
#undef SYMMEM_GEN_CXX_OLD_STD
#endif

/* ---- shmem_wait: wait while the variable still equals the value ------------------------------- */
#define SYMMEM_SH_OLD_WAIT(T, N)                                                                         \
  SYMMEM_SHI void shmem_##N##_wait(T *ivar, T v) { symmem_##N##_wait_until(ivar, SYMMEM_CMP_NE, v); }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_SH_OLD_WAIT)
#undef SYMMEM_SH_OLD_WAIT

/* ---- collectives on active sets --------------------------------------------------------------- */
SYMMEM_SHI void shmem_barrier(int start, int log_stride, int size, long *pSync) { symmem_barrier(start, log_stride, size, pSync); }
SYMMEM_SHI void shmem_sync(int start, int log_stride, int size, long *pSync) { symmem_sync(start, log_stride, size, pSync); }
#define SYMMEM_SH_ASET(B)                                                                                \
  SYMMEM_SHI void shmem_broadcast##B(void *d, const void *s, size_t n, int root, int start, int ls, int size, long *ps) { \
    symmem_broadcast##B(d, s, n, root, start, ls, size, ps);                                             \
  }                                                                                                      \
  SYMMEM_SHI void shmem_collect##B(void *d, const void *s, size_t n, int start, int ls, int size, long *ps) { \
    symmem_collect##B(d, s, n, start, ls, size, ps);                                                     \
  }                                                                                                      \
  SYMMEM_SHI void shmem_fcollect##B(void *d, const void *s, size_t n, int start, int ls, int size, long *ps) { \
    symmem_fcollect##B(d, s, n, start, ls, size, ps);                                                    \
  }                                                                                                      \
  SYMMEM_SHI void shmem_alltoall##B(void *d, const void *s, size_t n, int start, int ls, int size, long *ps) { \
    symmem_alltoall##B(d, s, n, start, ls, size, ps);                                                    \
  }                                                                                                      \
  SYMMEM_SHI void shmem_alltoalls##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int start, int ls, \
                                     int size, long *ps) {                                               \
    symmem_alltoalls##B(d, s, dst, sst, n, start, ls, size, ps);                                         \
  }
SYMMEM_SH_ASET(32)
SYMMEM_SH_ASET(64)
#undef SYMMEM_SH_ASET

#define SYMMEM_SH_TOALL(T, N, OP)                                                                        \
  SYMMEM_SHI void shmem_##N##_##OP##_to_all(T *d, const T *s, int n, int start, int ls, int size, T *pWrk, long *ps) { \
    symmem_##N##_##OP##_to_all(d, s, n, start, ls, size, pWrk, ps);                                      \
  }
#define SYMMEM_SH_TOALL_BIT(T, N) SYMMEM_SH_TOALL(T, N, and) SYMMEM_SH_TOALL(T, N, or) SYMMEM_SH_TOALL(T, N, xor)
#define SYMMEM_SH_TOALL_MM(T, N) SYMMEM_SH_TOALL(T, N, max) SYMMEM_SH_TOALL(T, N, min)
#define SYMMEM_SH_TOALL_AR(T, N) SYMMEM_SH_TOALL(T, N, sum) SYMMEM_SH_TOALL(T, N, prod)
SYMMEM_TOALL_BITWISE_TYPES(SYMMEM_SH_TOALL_BIT)
SYMMEM_TOALL_MINMAX_TYPES(SYMMEM_SH_TOALL_MM)
SYMMEM_TOALL_ARITH_TYPES(SYMMEM_SH_TOALL_AR)
#undef SYMMEM_SH_TOALL_BIT
#undef SYMMEM_SH_TOALL_MM
#undef SYMMEM_SH_TOALL_AR
#undef SYMMEM_SH_TOALL

#endif /* SYMMEM_SHMEM_DEPRECATED_H */
