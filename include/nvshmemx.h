/* symmem: NVSHMEM's nvshmemx_ extensions (init with attributes, on-stream routines, warp and block
 * variants, collective launch) mapped onto symmem. Included by <nvshmem.h>; see that file. */
#ifndef SYMMEM_NVSHMEMX_H
#define SYMMEM_NVSHMEMX_H

#include "nvshmem.h"
#include "symmem/init_attr.h"

/* ---- init with an MPI communicator or a unique id --------------------------------------------- */
typedef symmem_init_attr_t nvshmemx_init_attr_t;
typedef symmem_uniqueid_t nvshmemx_uniqueid_t;
#define NVSHMEMX_INIT_WITH_MPI_COMM SYMMEM_INIT_WITH_MPI_COMM
#define NVSHMEMX_INIT_WITH_UNIQUEID SYMMEM_INIT_WITH_UNIQUEID
#define NVSHMEMX_UNIQUEID_INITIALIZER SYMMEM_UNIQUEID_INITIALIZER
#define NVSHMEMX_INIT_ATTR_INITIALIZER SYMMEM_INIT_ATTR_INITIALIZER
#define NVSHMEMX_INIT_SUCCESS SYMMEM_SUCCESS
SYMMEM_NV_H int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t *attr) {
  return symmem_init_attr(flags, attr);
}
SYMMEM_NV_H int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t *id) { return symmem_get_uniqueid(id); }
SYMMEM_NV_H int nvshmemx_set_attr_uniqueid_args(int rank, int nranks, const nvshmemx_uniqueid_t *id,
                                                nvshmemx_init_attr_t *attr) {
  return symmem_set_attr_uniqueid_args(rank, nranks, id, attr);
}
SYMMEM_NV_H int nvshmemx_init_status(void) { return symmem_initialized() ? 2 : 0; }

#if defined(__CUDACC__)
#include "symmem/cuda.h"

/* ---- host routines in stream order ------------------------------------------------------------ */
SYMMEM_NV_H void nvshmemx_putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_putmem_on_stream(d, s, n, pe, st);
}
SYMMEM_NV_H void nvshmemx_getmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_getmem_on_stream(d, s, n, pe, st);
}
SYMMEM_NV_H void nvshmemx_quiet_on_stream(cudaStream_t st) { symmem_quiet_on_stream(st); }
SYMMEM_NV_H void nvshmemx_barrier_all_on_stream(cudaStream_t st) { symmem_barrier_all_on_stream(st); }
SYMMEM_NV_H void nvshmemx_sync_all_on_stream(cudaStream_t st) { symmem_sync_all_on_stream(st); }
SYMMEM_NV_H void nvshmemx_signal_wait_until_on_stream(uint64_t *sig, int cmp, uint64_t v, cudaStream_t st) {
  symmem_signal_wait_until_on_stream(sig, cmp, v, st);
}
SYMMEM_NV_H void nvshmemx_signal_op_on_stream(uint64_t *sig, uint64_t v, int op, int pe, cudaStream_t st) {
  symmem_signal_op_on_stream(sig, v, op, pe, st);
}
#define SYMMEM_NVX_STREAM(T, N)                                                                        \
  SYMMEM_NV_H void nvshmemx_##N##_put_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) {  \
    symmem_putmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_get_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) {  \
    symmem_getmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NVX_STREAM)
#undef SYMMEM_NVX_STREAM

SYMMEM_NV_H int nvshmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                           cudaStream_t st) {
  return (int)symmem_collective_launch(func, grid, block, args, shmem, st);
}

/* ---- device: warp and block variants ---------------------------------------------------------- */
SYMMEM_NV_D void nvshmemx_putmem_warp(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::putmem_warp(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_getmem_warp(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::getmem_warp(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_putmem_block(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::putmem_block(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_getmem_block(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::getmem_block(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_putmem_nbi_warp(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::putmem_nbi_warp(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_getmem_nbi_warp(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::getmem_nbi_warp(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_putmem_nbi_block(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::putmem_nbi_block(d, s, n, pe); }
SYMMEM_NV_D void nvshmemx_getmem_nbi_block(void *d, const void *s, size_t n, int pe) { SYMMEM_NV_DEV::getmem_nbi_block(d, s, n, pe); }
#define SYMMEM_NVX_RMA(T, N)                                                                           \
  SYMMEM_NV_D void nvshmemx_##N##_put_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_put_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_put_nbi_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_nbi_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_put_nbi_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_nbi_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal(d, s, n, sig, v, op, pe);                                                \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal_nbi(d, s, n, sig, v, op, pe);                                            \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NVX_RMA)
#undef SYMMEM_NVX_RMA

SYMMEM_NV_D void nvshmemx_barrier_all_block(void) { SYMMEM_NV_DEV::barrier_all_block(); }
SYMMEM_NV_D void nvshmemx_barrier_all_warp(void) { SYMMEM_NV_DEV::barrier_all_warp(); }
SYMMEM_NV_D void nvshmemx_sync_all_block(void) { SYMMEM_NV_DEV::sync_all_block(); }
SYMMEM_NV_D void nvshmemx_sync_all_warp(void) { SYMMEM_NV_DEV::sync_all_warp(); }
SYMMEM_NV_D void nvshmemx_signal_op(uint64_t *sig, uint64_t v, int op, int pe) { SYMMEM_NV_DEV::signal_op(sig, v, op, pe); }
SYMMEM_NV_D void nvshmemx_putmem_signal_warp(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_DEV::putmem_signal_warp(d, s, n, sig, v, op, pe);
}
SYMMEM_NV_D void nvshmemx_putmem_signal_block(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_DEV::putmem_signal_block(d, s, n, sig, v, op, pe);
}
SYMMEM_NV_D void nvshmemx_putmem_signal_nbi_warp(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                 int pe) {
  SYMMEM_NV_DEV::putmem_signal_nbi_warp(d, s, n, sig, v, op, pe);
}
SYMMEM_NV_D void nvshmemx_putmem_signal_nbi_block(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                  int pe) {
  SYMMEM_NV_DEV::putmem_signal_nbi_block(d, s, n, sig, v, op, pe);
}

SYMMEM_NV_UNSUPPORTED(nvshmemx_buffer_register, "symmem maps only its symmetric heap; copy into nvshmem_malloc memory")
SYMMEM_NV_UNSUPPORTED(nvshmemx_buffer_unregister, "symmem maps only its symmetric heap")
SYMMEM_NV_UNSUPPORTED(nvshmemx_cumodule_init, "not needed: device.cuh publishes the state to every module itself")
#endif /* __CUDACC__ */

#endif /* SYMMEM_NVSHMEMX_H */
