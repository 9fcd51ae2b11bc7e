/* symmem: OpenSHMEM 1.5 compatibility header.
 *
 * A program written to OpenSHMEM compiles against this header unchanged (build it with symmemcc or
 * symmemc++). Every shmem_ routine is a static inline wrapper over the symmem_ routine of the same
 * meaning, so the exported ABI keeps the symmem_ prefix and symmem can share a process with another
 * OpenSHMEM library. Generic (type-deduced) routines come as C11 _Generic macros in C and as
 * overloads in C++.
 */
#ifndef SYMMEM_SHMEM_H
#define SYMMEM_SHMEM_H

#include <stdio.h>
#include <stdlib.h>

#include "symmem/symmem.h"

#define SHMEM_MAJOR_VERSION 1
#define SHMEM_MINOR_VERSION 5
#define _SHMEM_MAJOR_VERSION SHMEM_MAJOR_VERSION
#define _SHMEM_MINOR_VERSION SHMEM_MINOR_VERSION
#define SHMEM_MAX_NAME_LEN 256
#define _SHMEM_MAX_NAME_LEN SHMEM_MAX_NAME_LEN
#define SHMEM_VENDOR_STRING "symmem " SYMMEM_VERSION_STRING
#define _SHMEM_VENDOR_STRING SHMEM_VENDOR_STRING

#define SHMEM_THREAD_SINGLE SYMMEM_THREAD_SINGLE
#define SHMEM_THREAD_FUNNELED SYMMEM_THREAD_FUNNELED
#define SHMEM_THREAD_SERIALIZED SYMMEM_THREAD_SERIALIZED
#define SHMEM_THREAD_MULTIPLE SYMMEM_THREAD_MULTIPLE

#define SHMEM_CMP_EQ SYMMEM_CMP_EQ
#define SHMEM_CMP_NE SYMMEM_CMP_NE
#define SHMEM_CMP_GT SYMMEM_CMP_GT
#define SHMEM_CMP_GE SYMMEM_CMP_GE
#define SHMEM_CMP_LT SYMMEM_CMP_LT
#define SHMEM_CMP_LE SYMMEM_CMP_LE
#define _SHMEM_CMP_EQ SHMEM_CMP_EQ
#define _SHMEM_CMP_NE SHMEM_CMP_NE
#define _SHMEM_CMP_GT SHMEM_CMP_GT
#define _SHMEM_CMP_GE SHMEM_CMP_GE
#define _SHMEM_CMP_LT SHMEM_CMP_LT
#define _SHMEM_CMP_LE SHMEM_CMP_LE

#ifdef __cplusplus
extern "C" {
#endif

/* ---- setup, exit, query ---------------------------------------------------------------------- */
/* shmem_init has no way to report failure: a failed init has printed why; the PE then exits.
 * A second shmem_init while initialized is reported and otherwise ignored. */
static inline void shmem_init(void) {
  int rc = symmem_init();
  if (rc != SYMMEM_SUCCESS && rc != SYMMEM_ERR_ALREADY_INITIALIZED) {
    fflush(stdout);
    exit(1);
  }
}
static inline int shmem_init_thread(int requested, int *provided) {
  int rc = symmem_init_thread(requested, provided);
  return rc == SYMMEM_SUCCESS ? 0 : 1;
}
static inline void shmem_query_thread(int *provided) { symmem_query_thread(provided); }
static inline void shmem_finalize(void) { symmem_finalize(); }
static inline void shmem_global_exit(int status) { symmem_global_exit(status); }
static inline int shmem_my_pe(void) { return symmem_my_pe(); }
static inline int shmem_n_pes(void) { return symmem_n_pes(); }
static inline void shmem_info_get_version(int *major, int *minor) { symmem_info_get_version(major, minor); }
static inline void shmem_info_get_name(char *name) { symmem_info_get_name(name); }
static inline int shmem_pe_accessible(int pe) { return symmem_pe_accessible(pe); }
static inline int shmem_addr_accessible(const void *addr, int pe) { return symmem_addr_accessible(addr, pe); }
static inline void *shmem_ptr(const void *dest, int pe) { return symmem_ptr(dest, pe); }

/* ---- memory management ----------------------------------------------------------------------- */
static inline void *shmem_malloc(size_t size) { return symmem_malloc(size); }
static inline void *shmem_calloc(size_t count, size_t size) { return symmem_calloc(count, size); }
static inline void *shmem_align(size_t alignment, size_t size) { return symmem_align(alignment, size); }
static inline void *shmem_realloc(void *ptr, size_t size) { return symmem_realloc(ptr, size); }
static inline void shmem_free(void *ptr) { symmem_free(ptr); }

/* ---- RMA ------------------------------------------------------------------------------------- */
static inline void shmem_putmem(void *d, const void *s, size_t n, int pe) { symmem_putmem(d, s, n, pe); }
static inline void shmem_getmem(void *d, const void *s, size_t n, int pe) { symmem_getmem(d, s, n, pe); }
static inline void shmem_putmem_nbi(void *d, const void *s, size_t n, int pe) { symmem_putmem_nbi(d, s, n, pe); }
static inline void shmem_getmem_nbi(void *d, const void *s, size_t n, int pe) { symmem_getmem_nbi(d, s, n, pe); }

#define SYMMEM_SHMEM_RMA(T, N)                                                                           \
  static inline void shmem_##N##_put(T *d, const T *s, size_t n, int pe) { symmem_##N##_put(d, s, n, pe); } \
  static inline void shmem_##N##_get(T *d, const T *s, size_t n, int pe) { symmem_##N##_get(d, s, n, pe); } \
  static inline void shmem_##N##_put_nbi(T *d, const T *s, size_t n, int pe) {                           \
    symmem_##N##_put_nbi(d, s, n, pe);                                                                   \
  }                                                                                                      \
  static inline void shmem_##N##_get_nbi(T *d, const T *s, size_t n, int pe) {                           \
    symmem_##N##_get_nbi(d, s, n, pe);                                                                   \
  }                                                                                                      \
  static inline void shmem_##N##_p(T *d, T v, int pe) { symmem_##N##_p(d, v, pe); }                      \
  static inline T shmem_##N##_g(const T *s, int pe) { return symmem_##N##_g(s, pe); }                     \
  static inline void shmem_##N##_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    symmem_##N##_iput(d, s, dst, sst, n, pe);                                                            \
  }                                                                                                      \
  static inline void shmem_##N##_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    symmem_##N##_iget(d, s, dst, sst, n, pe);                                                            \
  }
SYMMEM_RMA_TYPES(SYMMEM_SHMEM_RMA)
#undef SYMMEM_SHMEM_RMA

#define SYMMEM_SHMEM_RMA_SIZED(B)                                                                        \
  static inline void shmem_put##B(void *d, const void *s, size_t n, int pe) { symmem_put##B(d, s, n, pe); } \
  static inline void shmem_get##B(void *d, const void *s, size_t n, int pe) { symmem_get##B(d, s, n, pe); } \
  static inline void shmem_put##B##_nbi(void *d, const void *s, size_t n, int pe) {                      \
    symmem_put##B##_nbi(d, s, n, pe);                                                                    \
  }                                                                                                      \
  static inline void shmem_get##B##_nbi(void *d, const void *s, size_t n, int pe) {                      \
    symmem_get##B##_nbi(d, s, n, pe);                                                                    \
  }                                                                                                      \
  static inline void shmem_iput##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    symmem_iput##B(d, s, dst, sst, n, pe);                                                               \
  }                                                                                                      \
  static inline void shmem_iget##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    symmem_iget##B(d, s, dst, sst, n, pe);                                                               \
  }
SYMMEM_RMA_SIZES(SYMMEM_SHMEM_RMA_SIZED)
#undef SYMMEM_SHMEM_RMA_SIZED

/* ---- atomics --------------------------------------------------------------------------------- */
#define SYMMEM_SHMEM_AMO_EXT(T, N)                                                                       \
  static inline T shmem_##N##_atomic_fetch(const T *s, int pe) { return symmem_##N##_atomic_fetch(s, pe); } \
  static inline void shmem_##N##_atomic_set(T *d, T v, int pe) { symmem_##N##_atomic_set(d, v, pe); }     \
  static inline T shmem_##N##_atomic_swap(T *d, T v, int pe) { return symmem_##N##_atomic_swap(d, v, pe); }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_SHMEM_AMO_EXT)
#undef SYMMEM_SHMEM_AMO_EXT

#define SYMMEM_SHMEM_AMO_STD(T, N)                                                                       \
  static inline T shmem_##N##_atomic_compare_swap(T *d, T c, T v, int pe) {                              \
    return symmem_##N##_atomic_compare_swap(d, c, v, pe);                                                \
  }                                                                                                      \
  static inline T shmem_##N##_atomic_fetch_inc(T *d, int pe) { return symmem_##N##_atomic_fetch_inc(d, pe); } \
  static inline void shmem_##N##_atomic_inc(T *d, int pe) { symmem_##N##_atomic_inc(d, pe); }             \
  static inline T shmem_##N##_atomic_fetch_add(T *d, T v, int pe) {                                      \
    return symmem_##N##_atomic_fetch_add(d, v, pe);                                                      \
  }                                                                                                      \
  static inline void shmem_##N##_atomic_add(T *d, T v, int pe) { symmem_##N##_atomic_add(d, v, pe); }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_SHMEM_AMO_STD)
#undef SYMMEM_SHMEM_AMO_STD

#define SYMMEM_SHMEM_AMO_BIT(T, N)                                                                       \
  static inline T shmem_##N##_atomic_fetch_and(T *d, T v, int pe) { return symmem_##N##_atomic_fetch_and(d, v, pe); } \
  static inline void shmem_##N##_atomic_and(T *d, T v, int pe) { symmem_##N##_atomic_and(d, v, pe); }     \
  static inline T shmem_##N##_atomic_fetch_or(T *d, T v, int pe) { return symmem_##N##_atomic_fetch_or(d, v, pe); } \
  static inline void shmem_##N##_atomic_or(T *d, T v, int pe) { symmem_##N##_atomic_or(d, v, pe); }       \
  static inline T shmem_##N##_atomic_fetch_xor(T *d, T v, int pe) { return symmem_##N##_atomic_fetch_xor(d, v, pe); } \
  static inline void shmem_##N##_atomic_xor(T *d, T v, int pe) { symmem_##N##_atomic_xor(d, v, pe); }
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_SHMEM_AMO_BIT)
#undef SYMMEM_SHMEM_AMO_BIT

/* ---- ordering and synchronization ------------------------------------------------------------ */
static inline void shmem_fence(void) { symmem_fence(); }
static inline void shmem_quiet(void) { symmem_quiet(); }
static inline void shmem_barrier_all(void) { symmem_barrier_all(); }
static inline void shmem_sync_all(void) { symmem_sync_all(); }

#define SYMMEM_SHMEM_P2P(T, N)                                                                           \
  static inline void shmem_##N##_wait_until(T *ivar, int cmp, T v) { symmem_##N##_wait_until(ivar, cmp, v); } \
  static inline int shmem_##N##_test(T *ivar, int cmp, T v) { return symmem_##N##_test(ivar, cmp, v); }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_SHMEM_P2P)
#undef SYMMEM_SHMEM_P2P

#ifdef __cplusplus
} /* extern "C" */
#endif

#include "shmem/generic.h"
#include "shmem/shmem15.h"

#endif /* SYMMEM_SHMEM_H */
