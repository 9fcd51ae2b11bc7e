// symmem: the library's kernels: the on-stream barrier, signal wait and signal op, and host AMOs
// on a GPU heap. They use the state-free primitives of <symmem/device.cuh>.
#define SYMMEM_DEVICE_NO_STATE
#include <cstring>

#include "cuda/kernels.h"
#include "symmem/device.cuh"

namespace symmem::cuda {
namespace {

namespace dd = symmem::device::detail;

// The same dissemination barrier as device::barrier_all (device_state.h), one thread, in stream order.
__global__ void barrier_kernel(barrier_args a) {
  uint64_t *ep = &a.mine->barrier_epoch;
  const uint64_t epoch = dd::ld_relaxed(ep, true) + 1;
  for (int k = 0; k < a.rounds; ++k) {
    dd::st_release(&a.partner[k]->slot[k][0], epoch, a.gpu_scope != 0);
    dd::wait_u64(&a.mine->slot[k][0], SYMMEM_CMP_GE, epoch, a.gpu_scope != 0, a.limit_ns, a.me, "barrier_all_on_stream");
  }
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(ep), "l"(epoch) : "memory");
}

// Stream-ordered copies between device-accessible buffers: the whole grid copies (a kernel moves
// mid-sized buffers faster than the copy engine on this GPU).
__global__ void copy_kernel(char *dst, const char *src, size_t n) {
  dd::copy_bytes(dst, src, n, blockIdx.x * (size_t)blockDim.x + threadIdx.x, (size_t)gridDim.x * blockDim.x);
}

__global__ void signal_wait_kernel(const uint64_t *sig, int cmp, uint64_t value, int gpu_scope, uint64_t limit_ns, int me) {
  (void)dd::wait_u64(sig, cmp, value, gpu_scope != 0, limit_ns, me, "signal_wait_until_on_stream");
}

__global__ void signal_op_kernel(uint64_t *t, uint64_t value, int op, int gpu_scope) {
  dd::fence_scope(gpu_scope != 0);
  if (op == SYMMEM_SIGNAL_SET) {
    dd::st_release(t, value, gpu_scope != 0);
  } else {
    ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_system>(*t).fetch_add(value, ::cuda::memory_order_release);
  }
}

// Ops as numbered in core/amo.cpp: fetch, set, swap, cas, add, and, or, xor.
template <typename T>
__device__ uint64_t amo_on(int op, T *p, uint64_t a, uint64_t b) {
  ::cuda::atomic_ref<T, ::cuda::thread_scope_system> r(*p);
  T va, vb, old{};
  memcpy(&va, &a, sizeof(T));
  memcpy(&vb, &b, sizeof(T));
  switch (op) {
    case 0: old = r.load(::cuda::memory_order_seq_cst); break;
    case 1: r.store(va, ::cuda::memory_order_seq_cst); old = va; break;
    case 2: old = r.exchange(va, ::cuda::memory_order_seq_cst); break;
    case 3: old = va; r.compare_exchange_strong(old, vb, ::cuda::memory_order_seq_cst); break;
    case 4: old = r.fetch_add(va, ::cuda::memory_order_seq_cst); break;
    default:
      if constexpr (!std::is_floating_point<T>::value) {
        if (op == 5) old = r.fetch_and(va, ::cuda::memory_order_seq_cst);
        if (op == 6) old = r.fetch_or(va, ::cuda::memory_order_seq_cst);
        if (op == 7) old = r.fetch_xor(va, ::cuda::memory_order_seq_cst);
      }
  }
  uint64_t out = 0;
  memcpy(&out, &old, sizeof(T));
  return out;
}

__global__ void amo_kernel(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b, uint64_t *result) {
  uint64_t r = 0;
  if (size == 4) {
    r = is_float ? amo_on(op, static_cast<float *>(target), a, b) : amo_on(op, static_cast<uint32_t *>(target), a, b);
  } else {
    r = is_float ? amo_on(op, static_cast<double *>(target), a, b) : amo_on(op, static_cast<uint64_t *>(target), a, b);
  }
  *result = r;
  __threadfence_system();
}

int last() { return static_cast<int>(cudaGetLastError()); }

}  // namespace

int launch_barrier(const barrier_args &a, CUstream stream) {
  barrier_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(a);
  return last();
}

int launch_copy(void *dst, const void *src, size_t n, int max_blocks, CUstream stream) {
  const size_t per_block = 1024 * 64;  // one unrolled pass of 4 x 16 bytes per thread
  size_t blocks = (n + per_block - 1) / per_block;
  blocks = blocks < 1 ? 1 : (blocks > (size_t)max_blocks ? (size_t)max_blocks : blocks);
  copy_kernel<<<(unsigned)blocks, 1024, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      static_cast<char *>(dst), static_cast<const char *>(src), n);
  return last();
}

bool device_accessible(const void *p) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged ||
         (a.type == cudaMemoryTypeHost && a.devicePointer == p);
}

int launch_signal_wait(const uint64_t *sig, int cmp, uint64_t value, int gpu_scope, uint64_t limit_ns, int me,
                       CUstream stream) {
  signal_wait_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(sig, cmp, value, gpu_scope, limit_ns, me);
  return last();
}

int launch_signal_op(uint64_t *target, uint64_t value, int op, int gpu_scope, CUstream stream) {
  signal_op_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(target, value, op, gpu_scope);
  return last();
}

int launch_amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b, uint64_t *result,
               CUstream stream) {
  amo_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(op, target, size, is_float, a, b, result);
  return last();
}

const char *launch_error_text(int err) { return cudaGetErrorString(static_cast<cudaError_t>(err)); }

}  // namespace symmem::cuda
