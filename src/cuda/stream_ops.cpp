// symmem: host entry points for collectives on a GPU heap (in stream order and blocking), p/g and
// put-with-signal in stream order, CUDA modules loaded by the program, and buffers the program
// allocated itself. Every argument is checked here, so the kernels (kernels.cu) trust theirs.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <vector>

#include <cuda_runtime_api.h>

#include "core/remote.h"
#include "core/state.h"
#include "cuda/coll_hosts.h"
#include "cuda/cu_api.h"
#include "cuda/device_runtime.h"
#include "cuda/gpu.h"
#include "cuda/kernels.h"
#include "symmem/cuda.h"

namespace symmem::cuda {
namespace {

const char *coll_name(int kind) {
  static const char *names[] = {"barrier", "team_sync", "broadcast", "fcollect", "alltoall", "reduce", "reducescatter"};
  return kind >= 0 && kind <= SYMMEM_COLL_REDUCESCATTER ? names[kind] : "collective";
}

size_t dtype_size(int dtype) {
  static const size_t sizes[] = {1, 1, 1, sizeof(short), sizeof(short), sizeof(int), sizeof(int), sizeof(long),
                                 sizeof(long), sizeof(long long), sizeof(long long), sizeof(float), sizeof(double), 2, 2,
                                 16};
  return dtype >= 0 && dtype < SYMMEM_DT_COUNT ? sizes[dtype] : 0;
}

bool op_fits(int dtype, int op) {
  const bool floating = dtype == SYMMEM_DT_FLOAT || dtype == SYMMEM_DT_DOUBLE || dtype == SYMMEM_DT_HALF ||
                        dtype == SYMMEM_DT_BFLOAT16;
  if (dtype == SYMMEM_DT_DOUBLE2) return op == SYMMEM_RED_MAXLOC || op == SYMMEM_RED_MINLOC;
  if (op >= SYMMEM_RED_SUM && op <= SYMMEM_RED_MAX) return true;
  return op >= SYMMEM_RED_AND && op <= SYMMEM_RED_XOR && !floating;
}

// Checks a collective's arguments (the job ends with a message naming the call when they are bad)
// and fills the kernel's arguments.
coll_args check_collective(int kind, int team, void *dest, const void *source, size_t nelems, int dtype, int op,
                           int root, symmem_device_team &geometry) {
  const char *call = coll_name(kind);
  gpu_heap(call);
  symmem_device_team t{};
  if (!team_geometry(team, t) || t.my_index < 0) {
    fatal(call, "team %d is not a team of this PE (never created, destroyed, or this PE is not a member); pass "
                "NVSHMEM_TEAM_WORLD or a team this PE got from a split", team);
  }
  coll_args a{kind, team, dest, source, nelems, dtype, op, root, t.size};
  geometry = t;
  if (kind == SYMMEM_COLL_BARRIER || kind == SYMMEM_COLL_SYNC) return a;  // across hosts too (the proxy ring)
  if (kind < SYMMEM_COLL_BROADCAST || kind > SYMMEM_COLL_REDUCESCATTER) fatal(call, "unknown collective kind %d", kind);
  const size_t es = dtype_size(dtype);
  if (es == 0) fatal(call, "element type %d is not a symmem_dtype", dtype);
  const bool reduction = kind == SYMMEM_COLL_REDUCE || kind == SYMMEM_COLL_REDUCESCATTER;
  if (reduction && !op_fits(dtype, op)) {
    fatal(call, "operator %d does not apply to element type %d (and/or/xor take integers, maxloc/minloc double2)", op,
          dtype);
  }
  if (kind == SYMMEM_COLL_BROADCAST && (root < 0 || root >= t.size)) {
    fatal(call, "root %d is not a PE of team %d (it has %d PEs)", root, team, t.size);
  }
  size_t bytes = 0, all = 0;  // one PE's block; the team's
  if (__builtin_mul_overflow(nelems, es, &bytes) || __builtin_mul_overflow(bytes, static_cast<size_t>(t.size), &all)) {
    fatal(call, "%zu elements of %zu bytes on %d PEs overflow the address space", nelems, es, t.size);
  }
  const bool gathers = kind == SYMMEM_COLL_FCOLLECT || kind == SYMMEM_COLL_ALLTOALL;
  const bool scatters = kind == SYMMEM_COLL_ALLTOALL || kind == SYMMEM_COLL_REDUCESCATTER;
  if (bytes != 0) {
    (void)core::translate_heap(dest, gathers ? all : bytes, core::g.my_pe, call);  // fatal unless symmetric
    (void)core::translate_heap(source, scatters ? all : bytes, core::g.my_pe, call);
  }
  return a;
}

// Whether the collective moves data across hosts, which the host carries out (coll_hosts.cpp);
// barriers and syncs cross hosts as kernels (the proxy ring).
bool from_host(int kind, const symmem_device_team &t) {
  return kind != SYMMEM_COLL_BARRIER && kind != SYMMEM_COLL_SYNC && proxy_ring_active() && spans_hosts(t);
}

}  // namespace
}  // namespace symmem::cuda

namespace sc = symmem::cuda;
using symmem::core::g;

extern "C" {

int symmem_collective_on_stream(int kind, int team, void *dest, const void *source, size_t nelems, int dtype, int op,
                                int root, cudaStream_t stream) {
  symmem_device_team t{};
  const sc::coll_args a = sc::check_collective(kind, team, dest, source, nelems, dtype, op, root, t);
  if (sc::from_host(kind, t)) {
    // Members on other hosts: carried out from the host once the stream's earlier work is done
    // (complete on return, so the stream's later work comes after it).
    CUresult e = sc::cu.cuStreamSynchronize(reinterpret_cast<CUstream>(stream));
    if (e != CUDA_SUCCESS) symmem::fatal(sc::coll_name(kind), "waiting for the stream failed: %s", sc::cu_text(e).c_str());
    sc::collective_across_hosts(a, t, sc::dtype_size(dtype));
    return 0;
  }
  sc::check_launch([&] { return sc::launch_collective(a, sc::wave_blocks(), reinterpret_cast<CUstream>(stream)); }, sc::coll_name(kind));
  return 0;
}

// From the host: earlier GPU work of this PE first (its kernels may have written the source), then
// the collective on the private stream, complete when this returns.
int symmem_collective_on_gpu_heap(int kind, int team, void *dest, const void *source, size_t nelems, int dtype, int op,
                                  int root) {
  symmem_device_team t{};
  const sc::coll_args a = sc::check_collective(kind, team, dest, source, nelems, dtype, op, root, t);
  CUresult e = sc::cu.cuCtxSynchronize();
  if (e != CUDA_SUCCESS) symmem::fatal(sc::coll_name(kind), "waiting for this PE's GPU work failed: %s", sc::cu_text(e).c_str());
  if (sc::from_host(kind, t)) {
    sc::collective_across_hosts(a, t, sc::dtype_size(dtype));  // members on other hosts (coll_hosts.cpp)
    return 0;
  }
  // On the waiting stream (gpu.h): the kernel waits for the team's other members.
  sc::check_launch([&] { return sc::launch_collective(a, sc::wave_blocks(), sc::gpu.wait_stream); }, sc::coll_name(kind));
  e = sc::cu.cuStreamSynchronize(sc::gpu.wait_stream);
  if (e != CUDA_SUCCESS) symmem::fatal(sc::coll_name(kind), "the collective failed on the GPU: %s", sc::cu_text(e).c_str());
  return 0;
}

void symmem_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal,
                                    int sig_op, int pe, cudaStream_t stream) {
  const char *call = "putmem_signal_on_stream";
  sc::gpu_heap(call);
  if (sig_op != SYMMEM_SIGNAL_SET && sig_op != SYMMEM_SIGNAL_ADD) {
    symmem::fatal(call, "operation %d is neither SYMMEM_SIGNAL_SET nor SYMMEM_SIGNAL_ADD", sig_op);
  }
  if (sc::proxy_ring_active() && symmem::core::is_remote(pe)) {
    if (nbytes != 0) sc::check_remote_range(dest, nbytes, pe, call);
    (void)sc::stream_remote({sc::remote_put_signal, pe, dest, source, nbytes, sig_addr, signal, sig_op}, sig_addr,
                            sizeof(uint64_t), stream, call);
    return;
  }
  void *d = nbytes != 0 ? symmem::core::translate_heap(dest, nbytes, pe, call) : dest;
  auto *s = reinterpret_cast<uint64_t *>(symmem::core::translate_heap(sig_addr, sizeof(uint64_t), pe, call));
  sc::check_launch(
      [&] {
        return sc::launch_put_signal(d, source, nbytes, s, signal, sig_op, sc::wave_blocks(), reinterpret_cast<CUstream>(stream));
      },
      call);
}

void symmem_wait_until_on_stream(void *ivars, size_t n, const int *status, int cmp, const void *values, uint64_t value,
                                 size_t size, int is_signed, cudaStream_t stream) {
  const char *call = "wait_until_on_stream";
  sc::gpu_heap(call);
  if (cmp < SYMMEM_CMP_EQ || cmp > SYMMEM_CMP_LE) symmem::fatal(call, "comparison %d is not one of SYMMEM_CMP_*", cmp);
  if (size != 2 && size != 4 && size != 8) symmem::fatal(call, "element size %zu is not 2, 4 or 8", size);
  size_t bytes = 0;
  if (__builtin_mul_overflow(n, size, &bytes)) symmem::fatal(call, "%zu elements overflow", n);
  void *iv = n != 0 ? symmem::core::translate_heap(ivars, bytes, g.my_pe, call) : ivars;
  sc::check_launch(
      [&] {
        return sc::launch_wait_until(iv, n, status, cmp, values, value, static_cast<unsigned>(size), is_signed,
                                     reinterpret_cast<CUstream>(stream));
      },
      call);
}

void symmem_p_on_stream(void *dest, const void *value, size_t size, int pe, cudaStream_t stream) {
  const char *call = "p_on_stream";
  sc::gpu_heap(call);
  if (size != 1 && size != 2 && size != 4 && size != 8) symmem::fatal(call, "element size %zu is not 1, 2, 4 or 8", size);
  uint64_t v = 0;
  std::memcpy(&v, value, size);
  if (sc::stream_remote({sc::remote_p, pe, dest, nullptr, size, nullptr, v, 0}, dest, size, stream, call)) return;
  void *d = symmem::core::translate_heap(dest, size, pe, call);
  sc::check_launch([&] { return sc::launch_p(d, v, static_cast<unsigned>(size), reinterpret_cast<CUstream>(stream)); }, call);
}

void symmem_g_on_stream(void *value, const void *source, size_t size, int pe, cudaStream_t stream) {
  const char *call = "g_on_stream";
  sc::gpu_heap(call);
  if (sc::proxy_ring_active() && symmem::core::is_remote(pe)) {  // after the stream's earlier work, from the host
    sc::check_remote_range(source, size, pe, call);
    CUresult e = sc::cu.cuStreamSynchronize(reinterpret_cast<CUstream>(stream));
    if (e != CUDA_SUCCESS) symmem::fatal(call, "waiting for the stream failed: %s", sc::cu_text(e).c_str());
    symmem_getmem(value, source, size, pe);
    return;
  }
  const void *s = symmem::core::translate_heap(source, size, pe, call);
  CUresult e = sc::cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(value), reinterpret_cast<CUdeviceptr>(s), size,
                                    reinterpret_cast<CUstream>(stream));
  if (e == CUDA_SUCCESS) e = sc::cu.cuStreamSynchronize(reinterpret_cast<CUstream>(stream));
  if (e != CUDA_SUCCESS) symmem::fatal(call, "reading %zu bytes from PE %d failed: %s", size, pe, sc::cu_text(e).c_str());
}

// cuModuleLoad'ed code has no static constructor that registered it: copy the state into the
// module's own symmem_state_ (the anonymous-namespace constant of device.cuh), when it has one.
int symmem_cumodule_init(void *cu_module) {
  symmem::core::require_init("cumodule_init");
  sc::make_current();
  CUdeviceptr at = 0;
  size_t bytes = 0;
  auto m = static_cast<CUmodule>(cu_module);
  if (sc::cu.cuModuleGetGlobal(&at, &bytes, m, "_ZN12_GLOBAL__N_113symmem_state_E") != CUDA_SUCCESS) return 0;
  if (bytes != sizeof(symmem_device_state)) {
    (void)symmem::fail(SYMMEM_ERR_MISMATCH, "cumodule_init", "the module was built with another symmem's headers "
                       "(device state of %zu bytes, this library's %zu); rebuild it", bytes, sizeof(symmem_device_state));
    return 1;
  }
  const symmem_device_state &st = sc::device_state();
  return sc::cu.cuMemcpyHtoD(at, &st, sizeof st) == CUDA_SUCCESS ? 0 : 1;
}

int symmem_culibrary_init(void *cu_library) {
  symmem::core::require_init("culibrary_init");
  sc::make_current();
  CUdeviceptr at = 0;
  size_t bytes = 0;
  auto l = static_cast<CUlibrary>(cu_library);
  if (sc::cu.cuLibraryGetGlobal(&at, &bytes, l, "_ZN12_GLOBAL__N_113symmem_state_E") != CUDA_SUCCESS) return 0;
  if (bytes != sizeof(symmem_device_state)) return 1;
  const symmem_device_state &st = sc::device_state();
  return sc::cu.cuMemcpyHtoD(at, &st, sizeof st) == CUDA_SUCCESS ? 0 : 1;
}

// NVSHMEM's queue pairs are channels of its GPU-initiated network transport (IBGDA); without it
// NVSHMEM's nvshmemx_qp_create gives NVSHMEMX_QP_DEFAULT for each, after a barrier, and so does
// this (include/symmem/detail/nvshmem_qp.h).
int symmem_qp_create(int num_qps, int **out) {
  const char *call = "qp_create";
  symmem::core::require_init(call);
  if (out == nullptr) {
    return symmem::fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "out_qp_array is NULL; pass the address of a "
                        "nvshmemx_qp_handle_t pointer").code();
  }
  if (num_qps < 1) {
    return symmem::fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "num_qps is %d; ask for at least one queue pair", num_qps)
        .code();
  }
  int *a = static_cast<int *>(std::calloc(static_cast<size_t>(num_qps), sizeof(int)));
  if (a == nullptr) {
    return symmem::fail(SYMMEM_ERR_OUT_OF_MEMORY, call, "no memory for %d queue pair handles", num_qps).code();
  }
  for (int i = 0; i < num_qps; ++i) a[i] = 1;  // NVSHMEMX_QP_DEFAULT
  *out = a;
  symmem_sync_all();  // collective, as NVSHMEM's
  return 0;
}

}  // extern "C"
