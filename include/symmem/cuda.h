/* symmem: the host API for a symmetric heap in GPU memory. Include it from CUDA programs (it needs
 * the CUDA runtime's headers); <symmem/device.cuh> includes it.
 *
 * With a GPU heap (docs/gpu.md) the plain host routines of <symmem/symmem.h> still work on it:
 * putmem/getmem/p/g go through the copy engine and complete before they return; atomics run as a
 * one-thread kernel with system-scope atomics (atomic with respect to device atomics); and
 * symmem_barrier_all also waits for the PE's outstanding GPU work. The *_on_stream routines
 * enqueue the operation on a CUDA stream instead and return at once.
 */
#ifndef SYMMEM_CUDA_H
#define SYMMEM_CUDA_H

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "symmem/symmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1 when the symmetric heap is in GPU memory (pointers from symmem_malloc are device pointers). */
SYMMEM_API int symmem_heap_on_gpu(void);
/* The CUDA device ordinal this PE uses (-1 with a host heap). */
SYMMEM_API int symmem_gpu_device(void);

/* Stream-ordered RMA: the copy runs on `stream` after the work before it; nothing waits here. */
SYMMEM_API void symmem_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream);
SYMMEM_API void symmem_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream);
/* Completes, in stream order, the puts enqueued or issued by kernels before it on `stream`. */
SYMMEM_API void symmem_quiet_on_stream(cudaStream_t stream);
/* Collective, in stream order: a device-side dissemination barrier kernel (bounded spins). */
SYMMEM_API void symmem_barrier_all_on_stream(cudaStream_t stream);
SYMMEM_API void symmem_sync_all_on_stream(cudaStream_t stream);
/* In stream order: later work on `stream` starts once *sig_addr (this PE's) compares true. */
SYMMEM_API void symmem_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value, cudaStream_t stream);
/* In stream order: signal_op from the GPU (SYMMEM_SIGNAL_SET or SYMMEM_SIGNAL_ADD). */
SYMMEM_API void symmem_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

/* Cooperative launch for kernels that synchronise across blocks (device barriers called by several
 * blocks, grid-wide waits): every block is resident at once, or the launch fails with a message.
 * Inline on purpose: `func` is registered with the CUDA runtime linked into the program, which may
 * be a different copy from the library's. */
static inline cudaError_t symmem_collective_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                                   cudaStream_t stream) {
  int dev = 0, sms = 0, per_sm = 0, coop = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  if (e == cudaSuccess) {
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)(block.x * block.y * block.z), shmem);
  }
  if (e != cudaSuccess) return e;
  const unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  if (!coop || blocks > (unsigned long long)per_sm * (unsigned long long)sms) {
    fprintf(stderr,
            "symmem: collective_launch: %llu blocks cannot all be resident on GPU %d (%d per SM x %d SMs%s); "
            "launch fewer blocks or fewer threads per block\n",
            blocks, dev, per_sm, sms, coop ? "" : ", and it has no cooperative launch");
    return cudaErrorCooperativeLaunchTooLarge;
  }
  return cudaLaunchCooperativeKernel(func, grid, block, args, shmem, stream);
}

#endif /* SYMMEM_CUDA_H */
