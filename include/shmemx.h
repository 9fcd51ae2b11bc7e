/* symmem: <shmemx.h>, the OpenSHMEM extensions that public programs use (the list and why is in
 * <shmem/routines_x.h>): SHMEMX_TEAM_NODE, shmemx_lookup_remote_addr, the non-blocking puts and
 * gets with request handles (shmemx_TYPE_put_nb, shmemx_wait_req, ...), and Sandia OpenSHMEM's names
 * for block-strided RMA, signal updates and prefix sums (shmemx_TYPE_ibput, shmemx_signal_add,
 * shmemx_TYPE_sum_inscan, ...).
 * Real functions of libsymmem-shmem, like every shmem_ routine. */
#ifndef SYMMEM_SHMEMX_H
#define SYMMEM_SHMEMX_H

#include "shmem.h"

/* The team of the PEs on this host (Sandia OpenSHMEM's name for SHMEM_TEAM_SHARED here). */
#define SHMEMX_TEAM_NODE SHMEM_TEAM_SHARED

typedef void *shmemx_request_handle_t;

SYMMEM_SHI void symmem_shmemx_request(shmemx_request_handle_t *h) {
  if (h) *h = (shmemx_request_handle_t)h; /* any non-NULL value: the request is tracked by quiet */
}

#ifdef __cplusplus
extern "C" {
#endif
#include "shmem/declare.h"
#include "shmem/routines_x.h"
#undef SYMMEM_SHMEM_FN
#undef SYMMEM_SHMEM_VFN
#ifdef __cplusplus
}
#endif

/* Generic shmemx_put_nb / shmemx_get_nb, as shmem_put / shmem_get. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SYMMEM_GEN_CASE_xputnb(T, N) T *: shmemx_##N##_put_nb,
#define SYMMEM_GEN_CASE_xgetnb(T, N) T *: shmemx_##N##_get_nb,
#define shmemx_put_nb(d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, xputnb, d)(d, __VA_ARGS__)
#define shmemx_get_nb(d, ...) SYMMEM_GEN_SEL(SYMMEM_GEN_RMA_TYPES, xgetnb, d)(d, __VA_ARGS__)
#elif defined(__cplusplus)
#define SYMMEM_GEN_CXX_XNB(T, N)                                                                         \
  inline void shmemx_put_nb(T *d, const T *s, size_t n, int pe, shmemx_request_handle_t *h) {           \
    shmemx_##N##_put_nb(d, s, n, pe, h);                                                                 \
  }                                                                                                      \
  inline void shmemx_get_nb(T *d, const T *s, size_t n, int pe, shmemx_request_handle_t *h) {           \
    shmemx_##N##_get_nb(d, s, n, pe, h);                                                                 \
  }
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_XNB)
#undef SYMMEM_GEN_CXX_XNB
#endif

/* Generic shmemx_ibput / ibget (optional leading context), shmemx_signal_add / set (optional
 * context) and shmemx_sum_inscan / exscan, as Sandia OpenSHMEM's <shmemx.h> has them. */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define SYMMEM_GEN_CASE_xibput(T, N) T *: shmemx_##N##_ibput,
#define SYMMEM_GEN_CASE_xibget(T, N) T *: shmemx_##N##_ibget,
#define SYMMEM_GEN_CASE_ctx_xibput(T, N) T *: shmemx_ctx_##N##_ibput,
#define SYMMEM_GEN_CASE_ctx_xibget(T, N) T *: shmemx_ctx_##N##_ibget,
#define SYMMEM_GEN_CASE_xinscan(T, N) T *: shmemx_##N##_sum_inscan,
#define SYMMEM_GEN_CASE_xexscan(T, N) T *: shmemx_##N##_sum_exscan,
#define shmemx_ibput(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, xibput, __VA_ARGS__)
#define shmemx_ibget(...) SYMMEM_GEN_CTX_SEL(SYMMEM_GEN_RMA_TYPES, xibget, __VA_ARGS__)
#define shmemx_sum_inscan(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, xinscan, d)(t, d, s, n)
#define shmemx_sum_exscan(t, d, s, n) SYMMEM_GEN_SEL(SYMMEM_GEN_REDUCE_ARITH_TYPES, xexscan, d)(t, d, s, n)
#define shmemx_signal_add(...)                                                                           \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0), shmem_ctx_t: shmemx_ctx_signal_add, default: shmemx_signal_add)(__VA_ARGS__)
#define shmemx_signal_set(...)                                                                           \
  _Generic(SYMMEM_A0(__VA_ARGS__, 0), shmem_ctx_t: shmemx_ctx_signal_set, default: shmemx_signal_set)(__VA_ARGS__)
#elif defined(__cplusplus)
#define SYMMEM_GEN_CXX_XIB(T, N) SYMMEM_GEN_CXX_16_IB(shmemx_, T, N)
#define SYMMEM_GEN_CXX_XSCAN(T, N) SYMMEM_GEN_CXX_16_SCAN(shmemx_, T, N)
SYMMEM_GEN_RMA_TYPES(SYMMEM_GEN_CXX_XIB)
SYMMEM_GEN_REDUCE_ARITH_TYPES(SYMMEM_GEN_CXX_XSCAN)
SYMMEM_GEN_CXX_16_SIG(shmemx_)
#undef SYMMEM_GEN_CXX_XIB
#undef SYMMEM_GEN_CXX_XSCAN
#endif

#endif /* SYMMEM_SHMEMX_H */
