/* symmem: <shmemx.h>, the OpenSHMEM extensions that public programs use (the list and why is in
 * <shmem/routines_x.h>): SHMEMX_TEAM_NODE, shmemx_lookup_remote_addr, and the
 * non-blocking puts and gets with request handles (shmemx_TYPE_put_nb, shmemx_wait_req, ...).
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

#endif /* SYMMEM_SHMEMX_H */
