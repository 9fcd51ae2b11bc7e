// symmem: the library's kernels: on-stream barriers and collectives, copies, signal wait and
// signal op, and host AMOs on a GPU heap. They use <symmem/device.cuh> with the library's own copy
// of the device state, which the runtime fills directly (publish_library_state), not through the
// registry: the registry tells whether the *program* has device code.
#define SYMMEM_DEVICE_LIBRARY
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuda/kernels.h"
#include "symmem/device.cuh"

namespace symmem::cuda {
namespace {

namespace sd = symmem::device;
namespace dd = symmem::device::detail;

// The device barrier of a team (world: 0), one thread, in stream order: device and on-stream
// barriers share the epochs, so they may be mixed.
__global__ void barrier_kernel(int team) { sd::team_barrier(team); }

// Stream-ordered copies between device-accessible buffers: the whole grid copies (a kernel moves
// mid-sized buffers faster than the copy engine on this GPU).
__global__ void copy_kernel(char *dst, const char *src, size_t n) {
  dd::copy_bytes(dst, src, n, blockIdx.x * (size_t)blockDim.x + threadIdx.x, (size_t)gridDim.x * blockDim.x);
}

__global__ void signal_wait_kernel(const uint64_t *sig, int cmp, uint64_t value, int gpu_scope, uint64_t limit_ns, int me) {
  (void)dd::wait_u64(sig, cmp, value, gpu_scope != 0, limit_ns, me, "signal_wait_until_on_stream");
}

// A release store / release add: cumulative, so it orders this stream's earlier work (kernels
// and copies completed before this kernel started) before the signal without another fence.
__global__ void signal_op_kernel(uint64_t *t, uint64_t value, int op, int gpu_scope) {
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

// ---- stream collectives -------------------------------------------------------------------------
// Small collectives: one block does barrier, data and barrier (the device block forms). Large ones:
// barrier kernel, a grid-wide data kernel (stream order joins the blocks), barrier kernel.
constexpr size_t fused_limit_bytes = size_t(256) << 10;

template <typename T>
__global__ void __launch_bounds__(1024) move_block_kernel(coll_args a) {
  using G = dd::group_block;
  T *d = static_cast<T *>(a.dest);
  const T *s = static_cast<const T *>(a.source);
  if (a.kind == SYMMEM_COLL_BROADCAST) sd::broadcast<T, G>(a.team, d, s, a.nelems, a.root);
  else if (a.kind == SYMMEM_COLL_FCOLLECT) sd::fcollect<T, G>(a.team, d, s, a.nelems);
  else sd::alltoall<T, G>(a.team, d, s, a.nelems);
}

template <typename T>
__global__ void __launch_bounds__(1024) move_grid_kernel(coll_args a) {
  const symmem_device_team t = dd::team_of(a.team, "collective");
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, nth = (size_t)gridDim.x * blockDim.x;
  T *d = static_cast<T *>(a.dest);
  const T *s = static_cast<const T *>(a.source);
  if (a.kind == SYMMEM_COLL_BROADCAST) dd::broadcast_data(t, d, s, a.nelems, a.root, tid, nth);
  else if (a.kind == SYMMEM_COLL_FCOLLECT) dd::fcollect_data(t, d, s, a.nelems, tid, nth);
  else dd::alltoall_data(t, d, s, a.nelems, tid, nth);
}

template <int OP, typename T>
__global__ void __launch_bounds__(1024) reduce_block_kernel(coll_args a) {
  using G = dd::group_block;
  if (a.kind == SYMMEM_COLL_REDUCE) sd::reduce<OP, T, G>(a.team, (T *)a.dest, (const T *)a.source, a.nelems);
  else sd::reducescatter<OP, T, G>(a.team, (T *)a.dest, (const T *)a.source, a.nelems);
}

template <int OP, typename T>
__global__ void __launch_bounds__(1024) reduce_grid_kernel(coll_args a) {
  const symmem_device_team t = dd::team_of(a.team, "reduce");
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x, nth = (size_t)gridDim.x * blockDim.x;
  const size_t first = a.kind == SYMMEM_COLL_REDUCE ? 0 : (size_t)t.my_index * a.nelems;
  dd::reduce_data<OP>(t, (T *)a.dest, (const T *)a.source, first, a.nelems, tid, nth);
}

// ivars[i] as a 64-bit value of its signedness, so one comparison serves every element type.
__device__ int64_t load_as(const void *p, unsigned size, int is_signed) {
  const bool sc = dd::gpu_scope();
  if (size == 2) {
    const uint16_t v = dd::ld_strong((const uint16_t *)p, sc);
    return is_signed ? (int64_t)(int16_t)v : (int64_t)v;
  }
  if (size == 4) {
    const uint32_t v = dd::ld_strong((const uint32_t *)p, sc);
    return is_signed ? (int64_t)(int32_t)v : (int64_t)v;
  }
  return (int64_t)dd::ld_strong((const uint64_t *)p, sc);
}

__device__ bool holds(int64_t v, int cmp, int64_t want, int is_signed) {
  return is_signed ? dd::compare_t<int64_t>(v, cmp, want) : dd::compare_t<uint64_t>((uint64_t)v, cmp, (uint64_t)want);
}

__global__ void wait_until_kernel(char *ivars, size_t n, const int *status, int cmp, const char *values, uint64_t value,
                                  unsigned size, int is_signed) {
  const uint64_t limit = dd::st().spin_limit_ns;
  for (size_t i = 0; i < n; ++i) {
    if (status != nullptr && status[i] != 0) continue;
    const int64_t want = values == nullptr ? (int64_t)value : load_as(values + i * size, size, is_signed);
    const uint64_t start = dd::globaltimer();
    uint32_t turns = 0;
    int64_t v;
    while (!holds(v = load_as(ivars + i * size, size, is_signed), cmp, want, is_signed)) {
      if (dd::spin_expired(start, limit, turns)) {
        dd::wait_u64_timeout((const uint64_t *)(ivars + i * size), cmp, (uint64_t)want, (uint64_t)v, dd::st().my_pe,
                             "wait_until_on_stream");
      }
    }
  }
  dd::fence_scope(dd::gpu_scope());
}

int last() { return static_cast<int>(cudaGetLastError()); }

unsigned grid_for(size_t bytes, int max_blocks) {
  size_t blocks = (bytes + (size_t(64) << 10) - 1) / (size_t(64) << 10);  // 64 KiB per 1024-thread block
  return (unsigned)(blocks < 1 ? 1 : blocks > (size_t)max_blocks ? (size_t)max_blocks : blocks);
}

template <typename T>
int launch_move(const coll_args &a, bool fused, int max_blocks, cudaStream_t st) {
  if (fused) {
    move_block_kernel<T><<<1, 1024, 0, st>>>(a);
    return last();
  }
  barrier_kernel<<<1, 1, 0, st>>>(a.team);
  move_grid_kernel<T><<<grid_for(a.nelems * sizeof(T), max_blocks), 1024, 0, st>>>(a);
  barrier_kernel<<<1, 1, 0, st>>>(a.team);
  return last();
}

template <int OP, typename T>
int launch_reduce_op(const coll_args &a, bool fused, int max_blocks, cudaStream_t st) {
  if (fused) {
    reduce_block_kernel<OP, T><<<1, 1024, 0, st>>>(a);
    return last();
  }
  barrier_kernel<<<1, 1, 0, st>>>(a.team);
  reduce_grid_kernel<OP, T><<<grid_for(a.nelems * sizeof(T), max_blocks), 1024, 0, st>>>(a);
  barrier_kernel<<<1, 1, 0, st>>>(a.team);
  return last();
}

/* One kernel per machine type, not per C type: the module holds every kernel instance, and the
 * driver loads the whole module at init (preload_kernels), at a cost that grows with its code:
 * one kernel per C type made 232 kernels and 17.4 MB (11-13 ms to load on an H200), this 144 and
 * 10.6 MB (8 ms), most of it the block reductions. Moves depend only on the element's size; long and long
 * long are one type to the GPU, as are their unsigned forms; and, or and xor see bits, not signs.
 * Sums and products keep their signedness (an unsigned short product promotes to int and can
 * overflow it; a short one cannot). */
template <size_t N>
struct bits_of;
template <> struct bits_of<1> { using type = uint8_t; };
template <> struct bits_of<2> { using type = uint16_t; };
template <> struct bits_of<4> { using type = uint32_t; };
template <> struct bits_of<8> { using type = uint64_t; };
template <> struct bits_of<16> { using type = double2; };

template <typename T>
struct fixed_int {  // the fixed-width integer of T's size and signedness
  using type = std::conditional_t<std::is_signed<T>::value, std::make_signed_t<typename bits_of<sizeof(T)>::type>,
                                  typename bits_of<sizeof(T)>::type>;
};

template <typename T>
int launch_reduce(const coll_args &a, bool fused, int max_blocks, cudaStream_t st) {
  if constexpr (std::is_same<T, double2>::value) {
    if (a.op == SYMMEM_RED_MAXLOC) return launch_reduce_op<SYMMEM_RED_MAXLOC, T>(a, fused, max_blocks, st);
    if (a.op == SYMMEM_RED_MINLOC) return launch_reduce_op<SYMMEM_RED_MINLOC, T>(a, fused, max_blocks, st);
  } else {
    // with_dtype hands integers over as fixed-width types already, of their own signedness.
    switch (a.op) {
      case SYMMEM_RED_SUM: return launch_reduce_op<SYMMEM_RED_SUM, T>(a, fused, max_blocks, st);
      case SYMMEM_RED_PROD: return launch_reduce_op<SYMMEM_RED_PROD, T>(a, fused, max_blocks, st);
      case SYMMEM_RED_MIN: return launch_reduce_op<SYMMEM_RED_MIN, T>(a, fused, max_blocks, st);
      case SYMMEM_RED_MAX: return launch_reduce_op<SYMMEM_RED_MAX, T>(a, fused, max_blocks, st);
      default:
        if constexpr (std::is_integral<T>::value) {
          using U = typename bits_of<sizeof(T)>::type;
          if (a.op == SYMMEM_RED_AND) return launch_reduce_op<SYMMEM_RED_AND, U>(a, fused, max_blocks, st);
          if (a.op == SYMMEM_RED_OR) return launch_reduce_op<SYMMEM_RED_OR, U>(a, fused, max_blocks, st);
          if (a.op == SYMMEM_RED_XOR) return launch_reduce_op<SYMMEM_RED_XOR, U>(a, fused, max_blocks, st);
        }
    }
  }
  return (int)cudaErrorInvalidValue;  // the host entry checked the pair; never reached
}

template <typename F>
int with_dtype(int dtype, F f) {
  switch (dtype) {
    case SYMMEM_DT_CHAR: return f((typename fixed_int<char>::type *)nullptr);
    case SYMMEM_DT_SCHAR: return f((int8_t *)nullptr);
    case SYMMEM_DT_UCHAR: return f((uint8_t *)nullptr);
    case SYMMEM_DT_SHORT: return f((int16_t *)nullptr);
    case SYMMEM_DT_USHORT: return f((uint16_t *)nullptr);
    case SYMMEM_DT_INT: return f((int32_t *)nullptr);
    case SYMMEM_DT_UINT: return f((uint32_t *)nullptr);
    case SYMMEM_DT_LONG: return f((typename fixed_int<long>::type *)nullptr);  // LP64: the long long one
    case SYMMEM_DT_LONGLONG: return f((typename fixed_int<long long>::type *)nullptr);
    case SYMMEM_DT_ULONG: return f((typename bits_of<sizeof(unsigned long)>::type *)nullptr);
    case SYMMEM_DT_ULONGLONG: return f((typename bits_of<sizeof(unsigned long long)>::type *)nullptr);
    case SYMMEM_DT_FLOAT: return f((float *)nullptr);
    case SYMMEM_DT_DOUBLE: return f((double *)nullptr);
    case SYMMEM_DT_HALF: return f((__half *)nullptr);
    case SYMMEM_DT_BFLOAT16: return f((__nv_bfloat16 *)nullptr);
    case SYMMEM_DT_DOUBLE2: return f((double2 *)nullptr);
    default: return (int)cudaErrorInvalidValue;
  }
}

// The team-index agreement (teams.cpp): between two barriers of the parent, OR every member's mask.
__global__ void team_agree_kernel(int parent, uint64_t *out) {
  const symmem_device_team t = dd::team_of(parent, "team_split");
  sd::team_barrier(parent);
  uint64_t m = 0;
  // g, not a load: a member on another host is read through the proxy ring.
  const symmem_device_sync *sync = (const symmem_device_sync *)(dd::st().heap_base + dd::st().sync_offset);
  for (int i = 0; i < t.size; ++i) m |= sd::g(&sync->team_masks[0][0], dd::team_member(t, i));
  sd::team_barrier(parent);
  *(volatile uint64_t *)out = m;
  __threadfence_system();
}

__global__ void p_kernel(void *dest, uint64_t v, unsigned size) {
  if (size == 1) dd::st_strong((uint8_t *)dest, (uint8_t)v, false);
  else if (size == 2) dd::st_strong((uint16_t *)dest, (uint16_t)v, false);
  else if (size == 4) dd::st_strong((uint32_t *)dest, (uint32_t)v, false);
  else dd::st_strong((uint64_t *)dest, v, false);
}

// The signal after a stream-ordered copy: the copy kernel ended, so its stores are performed; the
// release (cumulative over what this thread observes in stream order) publishes them.
__global__ void signal_after_kernel(uint64_t *sig, uint64_t v, int op) {
  if (op == SYMMEM_SIGNAL_SET) dd::st_release(sig, v, dd::gpu_scope());
  else if (dd::gpu_scope()) ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_device>(*sig).fetch_add(v, ::cuda::memory_order_release);
  else ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_system>(*sig).fetch_add(v, ::cuda::memory_order_release);
}


// The device API's own forms: to a PE that is not mapped they go through the proxy ring. The
// blocking put and put-with-signal complete (quiet) before the kernel ends, so the stream's later
// work may reuse the source.
__global__ void remote_kernel(remote_args a) {
  switch (a.kind) {
    case remote_put: sd::putmem(a.dest, a.src, a.n, a.pe); break;
    case remote_get: sd::getmem(a.dest, a.src, a.n, a.pe); break;
    case remote_p:
      if (a.n == 1) sd::p((uint8_t *)a.dest, (uint8_t)a.value, a.pe);
      else if (a.n == 2) sd::p((uint16_t *)a.dest, (uint16_t)a.value, a.pe);
      else if (a.n == 4) sd::p((uint32_t *)a.dest, (uint32_t)a.value, a.pe);
      else sd::p((uint64_t *)a.dest, a.value, a.pe);
      break;
    case remote_signal: sd::signal_op(a.sig, a.value, a.op, a.pe); break;
    case remote_put_signal: sd::putmem_signal(a.dest, a.src, a.n, a.sig, a.value, a.op, a.pe); break;
    default: sd::quiet(); break;
  }
}

}  // namespace

int take_pending_error() { return last(); }

// Under CUDA's lazy loading (the default), a kernel's first launch loads it, and loading may wait
// for the kernels already running: a running kernel that waits for one of these (a host atomic or
// a staged request's atomic, a stream operation, the ring quiet) would wait for ever (CUDA's
// "Lazy Loading" guide, concurrent execution). So init loads them.
int preload_kernels() {
  cudaFuncAttributes fa;
  const void *const kernels[] = {
      reinterpret_cast<const void *>(amo_kernel),         reinterpret_cast<const void *>(remote_kernel),
      reinterpret_cast<const void *>(barrier_kernel),     reinterpret_cast<const void *>(copy_kernel),
      reinterpret_cast<const void *>(signal_wait_kernel), reinterpret_cast<const void *>(signal_op_kernel),
      reinterpret_cast<const void *>(wait_until_kernel),  reinterpret_cast<const void *>(team_agree_kernel),
      reinterpret_cast<const void *>(p_kernel),           reinterpret_cast<const void *>(signal_after_kernel)};
  for (const void *k : kernels) {
    if (cudaFuncGetAttributes(&fa, k) != cudaSuccess) return last();
  }
  return 0;
}

int launch_remote(const remote_args &a, CUstream stream) {
  remote_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(a);
  return last();
}

int launch_barrier(int team, CUstream stream) {
  barrier_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(team);
  return last();
}

void publish_library_state(const symmem_device_state *s) {
  cudaError_t e = cudaMemcpyToSymbol(symmem::device::symmem_state_, s, sizeof *s);
  if (e != cudaSuccess) {
    fprintf(stderr, "symmem: PE %d: init: cannot publish the device state to the library's kernels: %s\n", s->my_pe,
            cudaGetErrorString(e));
  }
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

int launch_collective(const coll_args &a, int max_blocks, CUstream stream) {
  cudaStream_t st = reinterpret_cast<cudaStream_t>(stream);
  if (a.kind == SYMMEM_COLL_BARRIER || a.kind == SYMMEM_COLL_SYNC) return launch_barrier(a.team, stream);
  return with_dtype(a.dtype, [&](auto *type) {
    using T = std::remove_pointer_t<decltype(type)>;
    const size_t bytes = a.nelems * sizeof(T);
    if (a.kind == SYMMEM_COLL_REDUCE || a.kind == SYMMEM_COLL_REDUCESCATTER) {
      const size_t src_bytes = a.kind == SYMMEM_COLL_REDUCE ? bytes : bytes * (size_t)a.team_size;
      const bool in_place = dd::overlaps(a.dest, bytes, a.source, src_bytes);
      return launch_reduce<T>(a, in_place || bytes <= fused_limit_bytes, max_blocks, st);
    }
    return launch_move<typename bits_of<sizeof(T)>::type>(a, bytes <= fused_limit_bytes, max_blocks, st);
  });
}

int launch_wait_until(void *ivars, size_t n, const int *status, int cmp, const void *values, uint64_t value,
                      unsigned size, int is_signed, CUstream stream) {
  wait_until_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(
      static_cast<char *>(ivars), n, status, cmp, static_cast<const char *>(values), value, size, is_signed);
  return last();
}

int launch_team_agree(int parent, uint64_t *out, CUstream stream) {
  team_agree_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(parent, out);
  return last();
}

int launch_p(void *dest, uint64_t value, unsigned size, CUstream stream) {
  p_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(dest, value, size);
  return last();
}

int launch_put_signal(void *dest, const void *src, size_t n, uint64_t *sig, uint64_t value, int op, int max_blocks,
                      CUstream stream) {
  if (n != 0) {
    const int e = launch_copy(dest, src, n, max_blocks, stream);
    if (e != 0) return e;
  }
  signal_after_kernel<<<1, 1, 0, reinterpret_cast<cudaStream_t>(stream)>>>(sig, value, op);
  return last();
}

const char *launch_error_text(int err) { return cudaGetErrorString(static_cast<cudaError_t>(err)); }

}  // namespace symmem::cuda
