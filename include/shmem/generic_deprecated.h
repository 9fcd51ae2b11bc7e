/* symmem: the generic forms of the deprecated 1.3/1.4 atomics (shmem_swap, shmem_fadd, ...) over the
 * typed deprecated routines of <shmem/routines_deprecated.h>. Included by <shmem.h>. */
#ifndef SYMMEM_SHMEM_GENERIC_DEPRECATED_H
#define SYMMEM_SHMEM_GENERIC_DEPRECATED_H

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

#endif /* SYMMEM_SHMEM_GENERIC_DEPRECATED_H */
