/* symmem: NVSHMEM's nvshmemx_ extensions (init with attributes, on-stream routines, warp and block
 * variants, collective launch, buffer registration, CUDA modules) mapped onto symmem. Included by
 * <nvshmem.h>; see that file. Like NVSHMEM's, it brings <cuda.h>; the host routines are declared
 * for every compiler, the device ones under nvcc. */
#ifndef SYMMEM_NVSHMEMX_H
#define SYMMEM_NVSHMEMX_H

#include <cuda.h>

#include "nvshmem.h"
#include "symmem/init_attr.h"

/* ---- init with an MPI communicator, a unique id or a running OpenSHMEM job -------------------- */
typedef symmem_init_attr_t nvshmemx_init_attr_t;
typedef symmem_uniqueid_t nvshmemx_uniqueid_t;
#define NVSHMEMX_INIT_WITH_MPI_COMM SYMMEM_INIT_WITH_MPI_COMM
#define NVSHMEMX_INIT_WITH_UNIQUEID SYMMEM_INIT_WITH_UNIQUEID
/* symmem's OpenSHMEM (<shmem.h>) and NVSHMEM API share one runtime: initialising over the
 * OpenSHMEM job is joining it (or starting it, as shmem_init would). */
#define NVSHMEMX_INIT_WITH_SHMEM (1u << 2)
#define NVSHMEMX_UNIQUEID_INITIALIZER SYMMEM_UNIQUEID_INITIALIZER
#define NVSHMEMX_INIT_ATTR_INITIALIZER SYMMEM_INIT_ATTR_INITIALIZER
#define NVSHMEMX_INIT_SUCCESS SYMMEM_SUCCESS
enum {
  NVSHMEM_STATUS_NOT_INITIALIZED = 0,
  NVSHMEM_STATUS_IS_BOOTSTRAPPED,
  NVSHMEM_STATUS_IS_INITIALIZED,
  NVSHMEM_STATUS_LIMITED_MPG,
  NVSHMEM_STATUS_FULL_MPG,
  NVSHMEM_STATUS_INVALID = INT_MAX
};
SYMMEM_NV_H int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t *attr) {
  if (flags == NVSHMEMX_INIT_WITH_SHMEM) return symmem_initialized() ? 0 : symmem_init();
  return symmem_init_attr(flags, attr);
}
SYMMEM_NV_H int nvshmemx_hostlib_init_attr(unsigned int flags, nvshmemx_init_attr_t *attr) {
  return nvshmemx_init_attr(flags, attr);
}
SYMMEM_NV_H void nvshmemx_hostlib_finalize(void) { symmem_finalize(); }
SYMMEM_NV_H int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t *id) { return symmem_get_uniqueid(id); }
SYMMEM_NV_H int nvshmemx_set_attr_uniqueid_args(int rank, int nranks, const nvshmemx_uniqueid_t *id,
                                                nvshmemx_init_attr_t *attr) {
  return symmem_set_attr_uniqueid_args(rank, nranks, id, attr);
}
SYMMEM_NV_H int nvshmemx_set_attr_mpi_comm_args(void *mpi_comm, nvshmemx_init_attr_t *attr) {
  attr->mpi_comm = mpi_comm;
  return 0;
}
SYMMEM_NV_H int nvshmemx_init_status(void) {
  return symmem_initialized() ? NVSHMEM_STATUS_IS_INITIALIZED : NVSHMEM_STATUS_NOT_INITIALIZED;
}
SYMMEM_NV_H void nvshmemx_vendor_get_version_info(int *major, int *minor, int *patch) {
  *major = NVSHMEM_VENDOR_MAJOR_VERSION;
  *minor = NVSHMEM_VENDOR_MINOR_VERSION;
  *patch = NVSHMEM_VENDOR_PATCH_VERSION;
}

/* ---- host routines in stream order ------------------------------------------------------------ */
SYMMEM_NV_H void nvshmemx_putmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_putmem_on_stream(d, s, n, pe, st);
}
SYMMEM_NV_H void nvshmemx_getmem_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_getmem_on_stream(d, s, n, pe, st);
}
/* Stream order already makes the copy non-blocking for the host: the nbi forms are the same. */
SYMMEM_NV_H void nvshmemx_putmem_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_putmem_on_stream(d, s, n, pe, st);
}
SYMMEM_NV_H void nvshmemx_getmem_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  symmem_getmem_on_stream(d, s, n, pe, st);
}
SYMMEM_NV_H void nvshmemx_putmem_signal_on_stream(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                                  int op, int pe, cudaStream_t st) {
  symmem_putmem_signal_on_stream(d, s, n, sig, v, op, pe, st);
}
SYMMEM_NV_H void nvshmemx_putmem_signal_nbi_on_stream(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                                      int op, int pe, cudaStream_t st) {
  symmem_putmem_signal_on_stream(d, s, n, sig, v, op, pe, st);
}
SYMMEM_NV_H void nvshmemx_quiet_on_stream(cudaStream_t st) { symmem_quiet_on_stream(st); }
SYMMEM_NV_H void nvshmemx_barrier_all_on_stream(cudaStream_t st) { symmem_barrier_all_on_stream(st); }
SYMMEM_NV_H void nvshmemx_sync_all_on_stream(cudaStream_t st) { symmem_sync_all_on_stream(st); }
SYMMEM_NV_H int nvshmemx_barrier_on_stream(nvshmem_team_t team, cudaStream_t st) {
  return symmem_collective_on_stream(SYMMEM_COLL_BARRIER, team, NULL, NULL, 0, 0, 0, 0, st);
}
SYMMEM_NV_H int nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t st) {
  return symmem_collective_on_stream(SYMMEM_COLL_SYNC, team, NULL, NULL, 0, 0, 0, 0, st);
}
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
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_put_nbi_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) { \
    symmem_putmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_get_nbi_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) { \
    symmem_getmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_p_on_stream(T *d, T v, int pe, cudaStream_t st) {                   \
    symmem_p_on_stream(d, &v, sizeof(T), pe, st);                                                      \
  }                                                                                                    \
  SYMMEM_NV_H T nvshmemx_##N##_g_on_stream(const T *s, int pe, cudaStream_t st) {                     \
    T v;                                                                                               \
    symmem_g_on_stream(&v, s, sizeof(T), pe, st);                                                      \
    return v;                                                                                          \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_put_signal_on_stream(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, \
                                                       int op, int pe, cudaStream_t st) {              \
    symmem_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                           \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_put_signal_nbi_on_stream(T *d, const T *s, size_t n, uint64_t *sig,  \
                                                           uint64_t v, int op, int pe, cudaStream_t st) { \
    symmem_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                           \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NVX_STREAM)
#undef SYMMEM_NVX_STREAM
#define SYMMEM_NVX_SIZED_STREAM(B)                                                                     \
  SYMMEM_NV_H void nvshmemx_put##B##_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) { \
    symmem_putmem_on_stream(d, s, n * (B / 8), pe, st);                                                \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_get##B##_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) { \
    symmem_getmem_on_stream(d, s, n * (B / 8), pe, st);                                                \
  }
SYMMEM_NVX_SIZED_STREAM(8) SYMMEM_NVX_SIZED_STREAM(16) SYMMEM_NVX_SIZED_STREAM(32) SYMMEM_NVX_SIZED_STREAM(64)
SYMMEM_NVX_SIZED_STREAM(128)
#undef SYMMEM_NVX_SIZED_STREAM

/* ---- kernels that synchronise across PEs: cooperative launch ---------------------------------- */
SYMMEM_NV_H int nvshmemx_collective_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                           cudaStream_t st) {
  return symmem_collective_launch(func, grid, block, args, shmem, st) == cudaSuccess
             ? NVSHMEMX_SUCCESS
             : NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED;
}
SYMMEM_NV_H int nvshmemx_collective_launch_query_gridsize(const void *func, dim3 block, void **args, size_t shmem,
                                                          int *gridsize) {
  (void)args;
  return symmem_collective_launch_query_gridsize(func, block, shmem, gridsize) == cudaSuccess
             ? NVSHMEMX_SUCCESS
             : NVSHMEMX_ERROR_INTERNAL;
}

/* ---- memory the program allocated itself; CUDA modules ---------------------------------------- */
SYMMEM_NV_H int nvshmemx_buffer_register(void *addr, size_t length) { return symmem_buffer_register(addr, length); }
SYMMEM_NV_H int nvshmemx_buffer_unregister(void *addr) { return symmem_buffer_unregister(addr); }
SYMMEM_NV_H void nvshmemx_buffer_unregister_all(void) {}
SYMMEM_NV_H void *nvshmemx_buffer_register_symmetric(void *addr, size_t length, int flags) {
  return symmem_buffer_register_symmetric(addr, length, flags);
}
SYMMEM_NV_H int nvshmemx_buffer_unregister_symmetric(void *mapped, size_t length) {
  return symmem_buffer_unregister_symmetric(mapped, length);
}
/* A module loaded with cuModuleLoad whose code includes symmem's device API gets the job's state
 * copied into it; a module without it needs nothing. */
SYMMEM_NV_H int nvshmemx_cumodule_init(CUmodule module) { return symmem_cumodule_init((void *)module); }
SYMMEM_NV_H int nvshmemx_cumodule_finalize(CUmodule module) {
  (void)module;
  return 0;
}
SYMMEM_NV_H int nvshmemx_culibrary_init(CUlibrary library) { return symmem_culibrary_init((void *)library); }
SYMMEM_NV_H int nvshmemx_culibrary_finalize(CUlibrary library) {
  (void)library;
  return 0;
}

#if defined(__CUDACC__)
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
  SYMMEM_NV_D void nvshmemx_##N##_put_nbi_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_nbi_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_nbi_warp(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_nbi_warp(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_put_nbi_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::put_nbi_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmemx_##N##_get_nbi_block(T *d, const T *s, size_t n, int pe) { SYMMEM_NV_DEV::get_nbi_block(d, s, n, pe); } \
  SYMMEM_NV_D void nvshmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal(d, s, n, sig, v, op, pe);                                                \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal_nbi(d, s, n, sig, v, op, pe);                                            \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_put_signal_warp(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal_warp(d, s, n, sig, v, op, pe);                                           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_put_signal_block(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    SYMMEM_NV_DEV::put_signal_block(d, s, n, sig, v, op, pe);                                          \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_put_signal_nbi_warp(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                      int pe) {                                         \
    SYMMEM_NV_DEV::put_signal_nbi_warp(d, s, n, sig, v, op, pe);                                       \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_put_signal_nbi_block(T *d, const T *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                       int pe) {                                        \
    SYMMEM_NV_DEV::put_signal_nbi_block(d, s, n, sig, v, op, pe);                                      \
  }
SYMMEM_NV_RMA_TYPES(SYMMEM_NVX_RMA)
#undef SYMMEM_NVX_RMA
#define SYMMEM_NVX_SIZED(B, SC)                                                                        \
  SYMMEM_NV_D void nvshmemx_put##B##_##SC(void *d, const void *s, size_t n, int pe) { nvshmemx_putmem_##SC(d, s, n * (B / 8), pe); } \
  SYMMEM_NV_D void nvshmemx_get##B##_##SC(void *d, const void *s, size_t n, int pe) { nvshmemx_getmem_##SC(d, s, n * (B / 8), pe); } \
  SYMMEM_NV_D void nvshmemx_put##B##_nbi_##SC(void *d, const void *s, size_t n, int pe) {             \
    nvshmemx_putmem_nbi_##SC(d, s, n * (B / 8), pe);                                                   \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_get##B##_nbi_##SC(void *d, const void *s, size_t n, int pe) {             \
    nvshmemx_getmem_nbi_##SC(d, s, n * (B / 8), pe);                                                   \
  }
#define SYMMEM_NVX_SIZED2(B) SYMMEM_NVX_SIZED(B, warp) SYMMEM_NVX_SIZED(B, block)
SYMMEM_NVX_SIZED2(8) SYMMEM_NVX_SIZED2(16) SYMMEM_NVX_SIZED2(32) SYMMEM_NVX_SIZED2(64) SYMMEM_NVX_SIZED2(128)
#undef SYMMEM_NVX_SIZED2
#undef SYMMEM_NVX_SIZED

SYMMEM_NV_D void nvshmemx_barrier_all_block(void) { SYMMEM_NV_DEV::barrier_all_block(); }
SYMMEM_NV_D void nvshmemx_barrier_all_warp(void) { SYMMEM_NV_DEV::barrier_all_warp(); }
SYMMEM_NV_D void nvshmemx_sync_all_block(void) { SYMMEM_NV_DEV::sync_all_block(); }
SYMMEM_NV_D void nvshmemx_sync_all_warp(void) { SYMMEM_NV_DEV::sync_all_warp(); }
SYMMEM_NV_D int nvshmemx_barrier_block(nvshmem_team_t t) {
  SYMMEM_NV_DEV::team_sync_group<SYMMEM_NV_DEV::detail::group_block>(t);
  return 0;
}
SYMMEM_NV_D int nvshmemx_barrier_warp(nvshmem_team_t t) {
  SYMMEM_NV_DEV::team_sync_group<SYMMEM_NV_DEV::detail::group_warp>(t);
  return 0;
}
SYMMEM_NV_D int nvshmemx_team_sync_block(nvshmem_team_t t) {
  SYMMEM_NV_DEV::team_sync_group<SYMMEM_NV_DEV::detail::group_block>(t);
  return 0;
}
SYMMEM_NV_D int nvshmemx_team_sync_warp(nvshmem_team_t t) {
  SYMMEM_NV_DEV::team_sync_group<SYMMEM_NV_DEV::detail::group_warp>(t);
  return 0;
}
SYMMEM_NV_D int nvshmemx_sync_block(nvshmem_team_t t) { return nvshmemx_team_sync_block(t); }
SYMMEM_NV_D int nvshmemx_sync_warp(nvshmem_team_t t) { return nvshmemx_team_sync_warp(t); }
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
SYMMEM_NV_D int nvshmemx_barrier_warpgroup(nvshmem_team_t t) {
  SYMMEM_NV_DEV::team_sync_group<SYMMEM_NV_DEV::detail::group_warpgroup>(t);
  return 0;
}
#endif /* __CUDACC__ */

/* NVSHMEM's queue pairs (nvshmemx_qp_*). */
#include "symmem/detail/nvshmem_qp.h"

/* NVSHMEM's tile API (namespace nvshmemx), where C++17 is on. */
#include "symmem/detail/nvshmem_tile.h"

#endif /* SYMMEM_NVSHMEMX_H */
