// symmem: the library's own kernels (kernels.cu), behind plain launch functions so that the host
// C++ files need no CUDA compiler.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "symmem/detail/device_state.h"

namespace symmem::cuda {

struct barrier_args {
  symmem_device_sync *mine;                                // this PE's sync area
  symmem_device_sync *partner[SYMMEM_DEVICE_SYNC_ROUNDS];  // round k's partner's area, as mapped here
  int rounds;
  int me;
  int gpu_scope;
  uint64_t limit_ns;
};

// Copies n bytes with a grid of at most max_blocks blocks, in stream order.
int launch_copy(void *dst, const void *src, size_t n, int max_blocks, CUstream stream);
// True when kernels of this GPU can read and write p (device, managed or mapped pinned memory).
bool device_accessible(const void *p);
// Each returns the launch's error (cudaError_t as int, 0 on success).
int launch_barrier(const barrier_args &a, CUstream stream);
int launch_signal_wait(const uint64_t *sig, int cmp, uint64_t value, int gpu_scope, uint64_t limit_ns, int me,
                       CUstream stream);
int launch_signal_op(uint64_t *target, uint64_t value, int op, int gpu_scope, CUstream stream);
// One host AMO (op: core::gpu_amo_op) on `target`; the old value lands in *result (host-mapped).
int launch_amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b, uint64_t *result,
               CUstream stream);
const char *launch_error_text(int err);

}  // namespace symmem::cuda
