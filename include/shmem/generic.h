/* symmem: the type-generic OpenSHMEM routines (shmem_put, shmem_atomic_fetch_add, ...).
 * C11: _Generic selections. C++: overloads. Only distinct C types appear here: int32_t, size_t and
 * the other typedefs resolve to one of them, so every standard type is covered. */
#ifndef SYMMEM_SHMEM_GENERIC_H
#define SYMMEM_SHMEM_GENERIC_H

#include "symmem/detail/typelists.h"

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

/* Chosen only for a type the routine does not take: the call then fails to compile naming it. */
void shmem_generic_routine_unsupported_type(void);
#define SYMMEM_GEN_SEL(list, op, ptr)                                                                    \
  _Generic((ptr), list(SYMMEM_GEN_CASE_##op) default: shmem_generic_routine_unsupported_type)

#define SYMMEM_GEN_CASE_put(T, N) T *: shmem_##N##_put, const T *: shmem_##N##_put,
#define SYMMEM_GEN_CASE_get(T, N) T *: shmem_##N##_get, const T *: shmem_##N##_get,
#define SYMMEM_GEN_CASE_put_nbi(T, N) T *: shmem_##N##_put_nbi, const T *: shmem_##N##_put_nbi,
#define SYMMEM_GEN_CASE_get_nbi(T, N) T *: shmem_##N##_get_nbi, const T *: shmem_##N##_get_nbi,
#define SYMMEM_GEN_CASE_p(T, N) T *: shmem_##N##_p, const T *: shmem_##N##_p,
#define SYMMEM_GEN_CASE_g(T, N) T *: shmem_##N##_g, const T *: shmem_##N##_g,
#define SYMMEM_GEN_CASE_iput(T, N) T *: shmem_##N##_iput, const T *: shmem_##N##_iput,
#define SYMMEM_GEN_CASE_iget(T, N) T *: shmem_##N##_iget, const T *: shmem_##N##_iget,
#define SYMMEM_GEN_CASE_fetch(T, N) T *: shmem_##N##_atomic_fetch, const T *: shmem_##N##_atomic_fetch,
#define SYMMEM_GEN_CASE_set(T, N) T *: shmem_##N##_atomic_set,
#define SYMMEM_GEN_CASE_swap(T, N) T *: shmem_##N##_atomic_swap,
#define SYMMEM_GEN_CASE_cswap(T, N) T *: shmem_##N##_atomic_compare_swap,
#define SYMMEM_GEN_CASE_finc(T, N) T *: shmem_##N##_atomic_fetch_inc,
#define SYMMEM_GEN_CASE_inc(T, N) T *: shmem_##N##_atomic_inc,
#define SYMMEM_GEN_CASE_fadd(T, N) T *: shmem_##N##_atomic_fetch_add,
#define SYMMEM_GEN_CASE_add(T, N) T *: shmem_##N##_atomic_add,
#define SYMMEM_GEN_CASE_fand(T, N) T *: shmem_##N##_atomic_fetch_and,
#define SYMMEM_GEN_CASE_and(T, N) T *: shmem_##N##_atomic_and,
#define SYMMEM_GEN_CASE_for(T, N) T *: shmem_##N##_atomic_fetch_or,
#define SYMMEM_GEN_CASE_or(T, N) T *: shmem_##N##_atomic_or,
#define SYMMEM_GEN_CASE_fxor(T, N) T *: shmem_##N##_atomic_fetch_xor,
#define SYMMEM_GEN_CASE_xor(T, N) T *: shmem_##N##_atomic_xor,
#define SYMMEM_GEN_CASE_wait(T, N) T *: shmem_##N##_wait_until,
#define SYMMEM_GEN_CASE_test(T, N) T *: shmem_##N##_test,

#define shmem_put(d, s, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, put, d)(d, s, n, pe)
#define shmem_get(d, s, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, get, d)(d, s, n, pe)
#define shmem_put_nbi(d, s, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, put_nbi, d)(d, s, n, pe)
#define shmem_get_nbi(d, s, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, get_nbi, d)(d, s, n, pe)
#define shmem_p(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, p, d)(d, v, pe)
#define shmem_g(s, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, g, s)(s, pe)
#define shmem_iput(d, s, dst, sst, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, iput, d)(d, s, dst, sst, n, pe)
#define shmem_iget(d, s, dst, sst, n, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, iget, d)(d, s, dst, sst, n, pe)
#define shmem_atomic_fetch(s, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, fetch, s)(s, pe)
#define shmem_atomic_set(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, set, d)(d, v, pe)
#define shmem_atomic_swap(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_EXT_TYPES, swap, d)(d, v, pe)
#define shmem_atomic_compare_swap(d, c, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, cswap, d)(d, c, v, pe)
#define shmem_atomic_fetch_inc(d, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, finc, d)(d, pe)
#define shmem_atomic_inc(d, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, inc, d)(d, pe)
#define shmem_atomic_fetch_add(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, fadd, d)(d, v, pe)
#define shmem_atomic_add(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_STD_TYPES, add, d)(d, v, pe)
#define shmem_atomic_fetch_and(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fand, d)(d, v, pe)
#define shmem_atomic_and(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, and, d)(d, v, pe)
#define shmem_atomic_fetch_or(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, for, d)(d, v, pe)
#define shmem_atomic_or(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, or, d)(d, v, pe)
#define shmem_atomic_fetch_xor(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, fxor, d)(d, v, pe)
#define shmem_atomic_xor(d, v, pe) SYMMEM_GEN_SEL(SYMMEM_GEN_AMO_BIT_TYPES, xor, d)(d, v, pe)
#define shmem_wait_until(ivar, cmp, v) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, wait, ivar)(ivar, cmp, v)
#define shmem_test(ivar, cmp, v) SYMMEM_GEN_SEL(SYMMEM_GEN_P2P_TYPES, test, ivar)(ivar, cmp, v)

#elif defined(__cplusplus)

#define SYMMEM_GEN_CXX_RMA(T, N)                                                                         \
  inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); }           \
  inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); }           \
  inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_put_nbi(d, s, n, pe); }   \
  inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_get_nbi(d, s, n, pe); }   \
  inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); }                                   \
  inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); }                                  \
  inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {             \
    shmem_##N##_iput(d, s, dst, sst, n, pe);                                                             \
  }                                                                                                      \
  inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {             \
    shmem_##N##_iget(d, s, dst, sst, n, pe);                                                             \
  }
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_RMA)
#undef SYMMEM_GEN_CXX_RMA

#define SYMMEM_GEN_CXX_AMO_EXT(T, N)                                                                     \
  inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); }            \
  inline void shmem_atomic_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); }                 \
  inline T shmem_atomic_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); }
SYMMEM_GEN_AMO_EXT_TYPES(SYMMEM_GEN_CXX_AMO_EXT)
#undef SYMMEM_GEN_CXX_AMO_EXT

#define SYMMEM_GEN_CXX_AMO_STD(T, N)                                                                     \
  inline T shmem_atomic_compare_swap(T *d, T c, T v, int pe) { return shmem_##N##_atomic_compare_swap(d, c, v, pe); } \
  inline T shmem_atomic_fetch_inc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); }         \
  inline void shmem_atomic_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); }                         \
  inline T shmem_atomic_fetch_add(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  inline void shmem_atomic_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); }
SYMMEM_GEN_AMO_STD_TYPES(SYMMEM_GEN_CXX_AMO_STD)
#undef SYMMEM_GEN_CXX_AMO_STD

#define SYMMEM_GEN_CXX_AMO_BIT(T, N)                                                                     \
  inline T shmem_atomic_fetch_and(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_and(d, v, pe); } \
  inline void shmem_atomic_and(T *d, T v, int pe) { shmem_##N##_atomic_and(d, v, pe); }                 \
  inline T shmem_atomic_fetch_or(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_or(d, v, pe); }   \
  inline void shmem_atomic_or(T *d, T v, int pe) { shmem_##N##_atomic_or(d, v, pe); }                   \
  inline T shmem_atomic_fetch_xor(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_xor(d, v, pe); } \
  inline void shmem_atomic_xor(T *d, T v, int pe) { shmem_##N##_atomic_xor(d, v, pe); }
SYMMEM_GEN_AMO_BIT_TYPES(SYMMEM_GEN_CXX_AMO_BIT)
#undef SYMMEM_GEN_CXX_AMO_BIT

#define SYMMEM_GEN_CXX_P2P(T, N)                                                                         \
  inline void shmem_wait_until(T *ivar, int cmp, T v) { shmem_##N##_wait_until(ivar, cmp, v); }         \
  inline int shmem_test(T *ivar, int cmp, T v) { return shmem_##N##_test(ivar, cmp, v); }
SYMMEM_GEN_P2P_TYPES(SYMMEM_GEN_CXX_P2P)
#undef SYMMEM_GEN_CXX_P2P

#endif

#endif /* SYMMEM_SHMEM_GENERIC_H */
