/* symmem: NVSHMEM's queue-pair API (nvshmemx_qp_*, NVSHMEM 3.4). Included by <nvshmemx.h>.
 *
 * A queue pair is a channel of NVSHMEM's GPU-initiated network transport (IBGDA). Where that
 * transport is not in use (peers reached over NVLink or PCIe, or through the proxy), NVSHMEM's
 * nvshmemx_qp_create hands back NVSHMEMX_QP_DEFAULT for every pair asked for, and each qp
 * operation is the operation itself. symmem does the same: nvshmemx_qp_create (collective, as
 * NVSHMEM's) returns an array of NVSHMEMX_QP_DEFAULT the program frees with free(); the device
 * forms go to the plain ones (a peer on this node by loads and stores, one on another host through
 * the proxy); qp_quiet and qp_fence quiet (fence) all of this PE's operations, which includes the
 * pairs named. */
#ifndef SYMMEM_DETAIL_NVSHMEM_QP_H
#define SYMMEM_DETAIL_NVSHMEM_QP_H

typedef int nvshmemx_qp_handle_t;
typedef enum {
  NVSHMEMX_QP_HOST = 0,
  NVSHMEMX_QP_DEFAULT = 1,
  NVSHMEMX_QP_ANY = INT_MAX,
  NVSHMEMX_QP_ALL = INT_MAX
} nvshmemx_qp_handle_index_t;

SYMMEM_NV_H int nvshmemx_qp_create(int num_qps, nvshmemx_qp_handle_t **out_qp_array) {
  return symmem_qp_create(num_qps, out_qp_array);
}

#if defined(__CUDACC__)
#define SYMMEM_NVQ_RMA(T, N)                                                                           \
  SYMMEM_NV_D void nvshmemx_qp_##N##_p(T *d, const T v, int pe, nvshmemx_qp_handle_t) { nvshmem_##N##_p(d, v, pe); } \
  SYMMEM_NV_D T nvshmemx_qp_##N##_g(const T *s, int pe, nvshmemx_qp_handle_t) { return nvshmem_##N##_g(s, pe); } \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) {  \
    nvshmem_##N##_put(d, s, n, pe);                                                                    \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_get(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) {  \
    nvshmem_##N##_get(d, s, n, pe);                                                                    \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_nbi(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmem_##N##_put_nbi(d, s, n, pe);                                                                \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_get_nbi(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmem_##N##_get_nbi(d, s, n, pe);                                                                \
  }                                                                                                    \
  SYMMEM_NVQ_GROUP(T, N, warp) SYMMEM_NVQ_GROUP(T, N, block)                                          \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe, \
                                                nvshmemx_qp_handle_t) {                                \
    nvshmem_##N##_put_signal(d, s, n, sig, v, op, pe);                                                 \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                    int pe, nvshmemx_qp_handle_t) {                    \
    nvshmem_##N##_put_signal_nbi(d, s, n, sig, v, op, pe);                                             \
  }
#define SYMMEM_NVQ_GROUP(T, N, SC)                                                                     \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_##SC(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmemx_##N##_put_##SC(d, s, n, pe);                                                              \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_get_##SC(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmemx_##N##_get_##SC(d, s, n, pe);                                                              \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_nbi_##SC(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmemx_##N##_put_nbi_##SC(d, s, n, pe);                                                          \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_get_nbi_##SC(T *d, const T *s, size_t n, int pe, nvshmemx_qp_handle_t) { \
    nvshmemx_##N##_get_nbi_##SC(d, s, n, pe);                                                          \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_signal_##SC(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                     int pe, nvshmemx_qp_handle_t) {                   \
    nvshmemx_##N##_put_signal_##SC(d, s, n, sig, v, op, pe);                                           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_qp_##N##_put_signal_nbi_##SC(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, \
                                                         int op, int pe, nvshmemx_qp_handle_t) {       \
    nvshmemx_##N##_put_signal_nbi_##SC(d, s, n, sig, v, op, pe);                                       \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NVQ_RMA)
#undef SYMMEM_NVQ_GROUP
#undef SYMMEM_NVQ_RMA

SYMMEM_NV_D void nvshmemx_qp_signal_op(uint64_t *sig, uint64_t v, int op, int pe, nvshmemx_qp_handle_t) {
  nvshmemx_signal_op(sig, v, op, pe);
}
/* The group forms: the group's threads meet, one of them quiets (fences) for all, as
 * nvshmemx_barrier_all_block does with its barrier; the meeting orders the others' operations
 * before it. */
SYMMEM_NV_D void nvshmemx_qp_quiet(int, nvshmemx_qp_handle_t *, int) { nvshmem_quiet(); }
SYMMEM_NV_D void nvshmemx_qp_fence(int, nvshmemx_qp_handle_t *, int) { nvshmem_fence(); }
SYMMEM_NV_D void nvshmemx_qp_quiet_warp(int, nvshmemx_qp_handle_t *, int) {
  __syncwarp();
  if (SYMMEM_NV_DEV::detail::lane_id() == 0) nvshmem_quiet();
  __syncwarp();
}
SYMMEM_NV_D void nvshmemx_qp_fence_warp(int, nvshmemx_qp_handle_t *, int) {
  __syncwarp();
  if (SYMMEM_NV_DEV::detail::lane_id() == 0) nvshmem_fence();
  __syncwarp();
}
SYMMEM_NV_D void nvshmemx_qp_quiet_block(int, nvshmemx_qp_handle_t *, int) {
  __syncthreads();
  if (SYMMEM_NV_DEV::detail::block_tid() == 0) nvshmem_quiet();
  __syncthreads();
}
SYMMEM_NV_D void nvshmemx_qp_fence_block(int, nvshmemx_qp_handle_t *, int) {
  __syncthreads();
  if (SYMMEM_NV_DEV::detail::block_tid() == 0) nvshmem_fence();
  __syncthreads();
}
#endif /* __CUDACC__ */

#endif /* SYMMEM_DETAIL_NVSHMEM_QP_H */
