/* symmem: NVSHMEM source compatibility, host and device names (<nvshmemx.h> adds the nvshmemx_
 * extensions). A program written to NVSHMEM compiles against symmem unchanged with symmem-nvcc:
 * each nvshmem_ name maps onto a symmem_ host routine (the exported ABI keeps the symmem_ prefix,
 * so a real NVSHMEM may live in the same process) or onto symmem::device in device code. Names
 * used from both sides are __host__ __device__ inline functions that pick the side with
 * __CUDA_ARCH__. A name symmem does not support fails to compile with a message saying so
 * (static_assert in a template stub), never at link time. docs/gpu.md has the whole table.
 */
#ifndef SYMMEM_NVSHMEM_H
#define SYMMEM_NVSHMEM_H

#define SYMMEM_NVSHMEM_COMPAT 1

#include "symmem/symmem.h"

#if defined(__CUDACC__)
#include "symmem/device.cuh"
#define SYMMEM_NV_HD __host__ __device__ inline
#define SYMMEM_NV_D __device__ inline
#define SYMMEM_NV_H inline
#elif defined(__cplusplus)
#define SYMMEM_NV_HD inline
#define SYMMEM_NV_H inline
#else
#define SYMMEM_NV_HD static inline
#define SYMMEM_NV_H static inline
#endif

/* Device paths exist only when nvcc compiles device code; host paths everywhere else. */
#if defined(__CUDA_ARCH__)
#define SYMMEM_NV_SIDE(dev, host) dev
#else
#define SYMMEM_NV_SIDE(dev, host) host
#endif
#define SYMMEM_NV_DEV ::symmem::device

/* ---- constants -------------------------------------------------------------------------------- */
#define NVSHMEM_MAJOR_VERSION 3
#define NVSHMEM_MINOR_VERSION 0
#define NVSHMEM_VENDOR_STRING "symmem (NVSHMEM source compatibility)"
#define NVSHMEM_CMP_EQ SYMMEM_CMP_EQ
#define NVSHMEM_CMP_NE SYMMEM_CMP_NE
#define NVSHMEM_CMP_GT SYMMEM_CMP_GT
#define NVSHMEM_CMP_GE SYMMEM_CMP_GE
#define NVSHMEM_CMP_LT SYMMEM_CMP_LT
#define NVSHMEM_CMP_LE SYMMEM_CMP_LE
#define NVSHMEM_SIGNAL_SET SYMMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD SYMMEM_SIGNAL_ADD
#define NVSHMEM_THREAD_SINGLE SYMMEM_THREAD_SINGLE
#define NVSHMEM_THREAD_FUNNELED SYMMEM_THREAD_FUNNELED
#define NVSHMEM_THREAD_SERIALIZED SYMMEM_THREAD_SERIALIZED
#define NVSHMEM_THREAD_MULTIPLE SYMMEM_THREAD_MULTIPLE

/* ---- teams (OpenSHMEM teams of <symmem/shmem15.h>) -------------------------------------------- */
typedef symmem_team_t nvshmem_team_t;
typedef symmem_team_config_t nvshmem_team_config_t;
#define NVSHMEM_TEAM_WORLD symmem_team_world
#define NVSHMEM_TEAM_SHARED symmem_team_shared
#define NVSHMEMX_TEAM_NODE symmem_team_shared
#define NVSHMEM_TEAM_INVALID SYMMEM_TEAM_INVALID
#define NVSHMEM_TEAM_NUM_CONTEXTS SYMMEM_TEAM_NUM_CONTEXTS
SYMMEM_NV_H int nvshmem_team_my_pe(nvshmem_team_t t) { return symmem_team_my_pe(t); }
SYMMEM_NV_H int nvshmem_team_n_pes(nvshmem_team_t t) { return symmem_team_n_pes(t); }
SYMMEM_NV_H int nvshmem_team_translate_pe(nvshmem_team_t a, int pe, nvshmem_team_t b) {
  return symmem_team_translate_pe(a, pe, b);
}
SYMMEM_NV_H int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size,
                                           const nvshmem_team_config_t *config, long mask, nvshmem_team_t *out) {
  return symmem_team_split_strided(parent, start, stride, size, config, mask, out);
}
SYMMEM_NV_H int nvshmem_team_split_2d(nvshmem_team_t parent, int xrange, const nvshmem_team_config_t *xc, long xm,
                                      nvshmem_team_t *xt, const nvshmem_team_config_t *yc, long ym, nvshmem_team_t *yt) {
  return symmem_team_split_2d(parent, xrange, xc, xm, xt, yc, ym, yt);
}
SYMMEM_NV_H void nvshmem_team_destroy(nvshmem_team_t t) { symmem_team_destroy(t); }
SYMMEM_NV_H int nvshmem_team_sync(nvshmem_team_t t) { return symmem_team_sync(t); }

/* ---- setup and queries ------------------------------------------------------------------------ */
SYMMEM_NV_H void nvshmem_init(void) {
  if (symmem_init() != SYMMEM_SUCCESS) symmem_global_exit(1); /* NVSHMEM's init has no return code */
}
SYMMEM_NV_H int nvshmem_init_thread(int requested, int *provided) { return symmem_init_thread(requested, provided); }
SYMMEM_NV_H void nvshmem_query_thread(int *provided) { symmem_query_thread(provided); }
SYMMEM_NV_H void nvshmem_finalize(void) { symmem_finalize(); }
SYMMEM_NV_H void nvshmem_global_exit(int status) { symmem_global_exit(status); }
SYMMEM_NV_H void nvshmem_info_get_version(int *major, int *minor) { symmem_info_get_version(major, minor); }
SYMMEM_NV_H void nvshmem_info_get_name(char *name) { symmem_info_get_name(name); }
SYMMEM_NV_HD int nvshmem_my_pe(void) { return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::my_pe(), symmem_my_pe()); }
SYMMEM_NV_HD int nvshmem_n_pes(void) { return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::n_pes(), symmem_n_pes()); }
SYMMEM_NV_HD void *nvshmem_ptr(const void *dest, int pe) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::ptr(dest, pe), symmem_ptr(dest, pe));
}

/* ---- memory ----------------------------------------------------------------------------------- */
SYMMEM_NV_H void *nvshmem_malloc(size_t size) { return symmem_malloc(size); }
SYMMEM_NV_H void *nvshmem_calloc(size_t count, size_t size) { return symmem_calloc(count, size); }
SYMMEM_NV_H void *nvshmem_align(size_t alignment, size_t size) { return symmem_align(alignment, size); }
SYMMEM_NV_H void *nvshmem_realloc(void *ptr, size_t size) { return symmem_realloc(ptr, size); }
SYMMEM_NV_H void nvshmem_free(void *ptr) { symmem_free(ptr); }

/* ---- ordering and barriers -------------------------------------------------------------------- */
SYMMEM_NV_HD void nvshmem_fence(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::fence(), symmem_fence()); }
SYMMEM_NV_HD void nvshmem_quiet(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::quiet(), symmem_quiet()); }
SYMMEM_NV_HD void nvshmem_barrier_all(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::barrier_all(), symmem_barrier_all()); }
SYMMEM_NV_HD void nvshmem_sync_all(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::sync_all(), symmem_sync_all()); }

/* ---- RMA -------------------------------------------------------------------------------------- */
SYMMEM_NV_HD void nvshmem_putmem(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem(d, s, n, pe), symmem_putmem(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_getmem(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::getmem(d, s, n, pe), symmem_getmem(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_putmem_nbi(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_nbi(d, s, n, pe), symmem_putmem_nbi(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_getmem_nbi(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::getmem_nbi(d, s, n, pe), symmem_getmem_nbi(d, s, n, pe));
}

/* NVSHMEM's standard RMA types (OpenSHMEM's, without long double). */
#define SYMMEM_NV_RMA_TYPES(X)                                                                         \
  X(float, float) X(double, double) X(char, char) X(signed char, schar) X(short, short) X(int, int)    \
  X(long, long) X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)               \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)       \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)          \
  X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

#define SYMMEM_NV_RMA(T, N)                                                                            \
  SYMMEM_NV_HD void nvshmem_##N##_p(T *d, T v, int pe) {                                              \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::p(d, v, pe), symmem_##N##_p(d, v, pe));                             \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_g(const T *s, int pe) {                                                \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::g(s, pe), symmem_##N##_g(s, pe));                            \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_put(T *d, const T *s, size_t n, int pe) {                           \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::put(d, s, n, pe), symmem_##N##_put(d, s, n, pe));                   \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_get(T *d, const T *s, size_t n, int pe) {                           \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::get(d, s, n, pe), symmem_##N##_get(d, s, n, pe));                   \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_put_nbi(T *d, const T *s, size_t n, int pe) {                       \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::put_nbi(d, s, n, pe), symmem_##N##_put_nbi(d, s, n, pe));           \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_get_nbi(T *d, const T *s, size_t n, int pe) {                       \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::get_nbi(d, s, n, pe), symmem_##N##_get_nbi(d, s, n, pe));           \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NV_RMA)
#undef SYMMEM_NV_RMA

/* ---- atomics ---------------------------------------------------------------------------------- */
#define SYMMEM_NV_AMO_EXT(T, N)                                                                        \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch(const T *s, int pe) {                                     \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch(s, pe), symmem_##N##_atomic_fetch(s, pe));      \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_set(T *d, T v, int pe) {                                     \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_set(d, v, pe), symmem_##N##_atomic_set(d, v, pe));           \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_swap(T *d, T v, int pe) {                                       \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_swap(d, v, pe), symmem_##N##_atomic_swap(d, v, pe));  \
  }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_NV_AMO_EXT)
#undef SYMMEM_NV_AMO_EXT

#define SYMMEM_NV_AMO_STD(T, N)                                                                        \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_compare_swap(T *d, T c, T v, int pe) {                          \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_compare_swap(d, c, v, pe),                            \
                          symmem_##N##_atomic_compare_swap(d, c, v, pe));                             \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_inc(T *d, int pe) {                                       \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_inc(d, pe), symmem_##N##_atomic_fetch_inc(d, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_inc(T *d, int pe) {                                          \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_inc(d, pe), symmem_##N##_atomic_inc(d, pe));                 \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_add(T *d, T v, int pe) {                                  \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_add(d, v, pe), symmem_##N##_atomic_fetch_add(d, v, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_add(T *d, T v, int pe) {                                     \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_add(d, v, pe), symmem_##N##_atomic_add(d, v, pe));           \
  }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_NV_AMO_STD)
#undef SYMMEM_NV_AMO_STD

#define SYMMEM_NV_AMO_BIT1(T, N, OP)                                                                   \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_##OP(T *d, T v, int pe) {                                 \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_##OP(d, v, pe), symmem_##N##_atomic_fetch_##OP(d, v, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_##OP(T *d, T v, int pe) {                                    \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_##OP(d, v, pe), symmem_##N##_atomic_##OP(d, v, pe));         \
  }
#define SYMMEM_NV_AMO_BIT(T, N) SYMMEM_NV_AMO_BIT1(T, N, and) SYMMEM_NV_AMO_BIT1(T, N, or) SYMMEM_NV_AMO_BIT1(T, N, xor)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_NV_AMO_BIT)
#undef SYMMEM_NV_AMO_BIT
#undef SYMMEM_NV_AMO_BIT1

/* ---- signals and point-to-point synchronization ----------------------------------------------- */
SYMMEM_NV_HD void nvshmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_signal(d, s, n, sig, v, op, pe), symmem_putmem_signal(d, s, n, sig, v, op, pe));
}
SYMMEM_NV_HD void nvshmem_putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_signal_nbi(d, s, n, sig, v, op, pe),
                 symmem_putmem_signal_nbi(d, s, n, sig, v, op, pe));
}
SYMMEM_NV_HD uint64_t nvshmem_signal_fetch(const uint64_t *sig) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::signal_fetch(sig), symmem_signal_fetch(sig));
}
SYMMEM_NV_HD uint64_t nvshmem_signal_wait_until(uint64_t *sig, int cmp, uint64_t v) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::signal_wait_until(sig, cmp, v), symmem_signal_wait_until(sig, cmp, v));
}
#define SYMMEM_NV_P2P(T, N)                                                                            \
  SYMMEM_NV_HD void nvshmem_##N##_wait_until(T *ivar, int cmp, T v) {                                 \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until(ivar, cmp, v), symmem_##N##_wait_until(ivar, cmp, v));   \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_test(T *ivar, int cmp, T v) {                                        \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test(ivar, cmp, v), symmem_##N##_test(ivar, cmp, v));        \
  }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_NV_P2P)
#undef SYMMEM_NV_P2P

/* ---- names symmem does not support: a compile-time message, not a link error ------------------ */
#if defined(__cplusplus)
#define SYMMEM_NV_UNSUPPORTED(name, why)                                                               \
  template <typename... A>                                                                             \
  SYMMEM_NV_HD int name(A...) {                                                                        \
    static_assert(sizeof...(A) == ~size_t(0), "symmem: " #name " is not supported: " why);           \
    return 0;                                                                                          \
  }
#define SYMMEM_NV_UNSUPPORTED_COLL(T, N)                                                               \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_sum_reduce, "collectives on a GPU heap are not implemented yet") \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_max_reduce, "collectives on a GPU heap are not implemented yet") \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_min_reduce, "collectives on a GPU heap are not implemented yet") \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_broadcast, "collectives on a GPU heap are not implemented yet")  \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_fcollect, "collectives on a GPU heap are not implemented yet")   \
  SYMMEM_NV_UNSUPPORTED(nvshmem_##N##_alltoall, "collectives on a GPU heap are not implemented yet")
SYMMEM_NV_RMA_TYPES(SYMMEM_NV_UNSUPPORTED_COLL)
#undef SYMMEM_NV_UNSUPPORTED_COLL
SYMMEM_NV_UNSUPPORTED(nvshmem_broadcastmem, "collectives on a GPU heap are not implemented yet")
SYMMEM_NV_UNSUPPORTED(nvshmem_fcollectmem, "collectives on a GPU heap are not implemented yet")
SYMMEM_NV_UNSUPPORTED(nvshmem_alltoallmem, "collectives on a GPU heap are not implemented yet")
SYMMEM_NV_UNSUPPORTED(nvshmem_barrier, "use nvshmem_barrier_all or nvshmem_team_sync")
SYMMEM_NV_UNSUPPORTED(nvshmem_ctx_create, "contexts are not supported on a GPU heap")
SYMMEM_NV_UNSUPPORTED(nvshmem_ctx_destroy, "contexts are not supported on a GPU heap")
#endif

#include "nvshmemx.h"

#endif /* SYMMEM_NVSHMEM_H */
