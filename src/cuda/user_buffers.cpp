// symmem: buffers the program allocated itself (NVSHMEM's nvshmemx_buffer_register*).
//
// Local buffers need no registration here: kernels and the copy engine reach cudaMalloc,
// cuMemCreate and pinned host memory directly, so register only checks that this GPU can reach
// the range. A symmetric registration maps the program's cuMemCreate allocation into the symmetric
// heap: the allocator hands out a heap range (the same on every PE, as for malloc), the allocation
// is mapped there and exported to the node-local peers, which map it into their windows.
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "core/remote.h"
#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/device_runtime.h"
#include "cuda/gpu.h"
#include "symmem/cuda.h"

namespace symmem::cuda {
namespace {

std::mutex g_mutex;
std::map<uintptr_t, size_t> g_symmetric;  // heap address -> bytes, registered symmetric buffers

bool reachable(const void *addr, size_t length, const char *call) {
  make_current();
  CUdeviceptr base = 0;
  size_t size = 0;
  if (cu.cuMemGetAddressRange(&base, &size, reinterpret_cast<CUdeviceptr>(addr)) == CUDA_SUCCESS) {
    if (reinterpret_cast<uintptr_t>(addr) + length <= base + size) return true;
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "[%p, +%zu) runs past the end of its allocation (%zu bytes at %#llx)",
               addr, length, size, static_cast<unsigned long long>(base));
    return false;
  }
  unsigned type = 0;  // pinned or registered host memory is reachable too
  if (cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(addr)) ==
      CUDA_SUCCESS) {
    return true;
  }
  (void)fail(SYMMEM_ERR_NOT_ACCESSIBLE, call, "%p is not memory this GPU can reach; allocate it with cudaMalloc, "
             "cuMemCreate or cudaHostAlloc", addr);
  return false;
}

}  // namespace
}  // namespace symmem::cuda

namespace sc = symmem::cuda;
using symmem::core::g;

extern "C" {

int symmem_buffer_register(void *addr, size_t length) {
  symmem::core::require_init("buffer_register");
  if (g.heap_on_cpu || addr == nullptr || length == 0) return 0;
  return sc::reachable(addr, length, "buffer_register") ? 0 : 1;
}

int symmem_buffer_unregister(void *addr) {
  symmem::core::require_init("buffer_unregister");
  (void)addr;
  return 0;
}

void *symmem_buffer_register_symmetric(void *addr, size_t length, int flags) {
  const char *call = "buffer_register_symmetric";
  sc::gpu_heap(call);
  (void)flags;
  if (addr == nullptr || length == 0 || length % symmem::core::granule_bytes != 0) {
    (void)symmem::fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "the buffer must be a cuMemCreate allocation of a multiple "
                       "of %zu bytes (got %p, %zu bytes)", symmem::core::granule_bytes, addr, length);
    return nullptr;
  }
  sc::make_current();
  CUmemGenericAllocationHandle h = 0;
  CUresult e = sc::cu.cuMemRetainAllocationHandle(&h, addr);
  std::optional<size_t> off;
  if (e == CUDA_SUCCESS) {
    // Whole commit extents of its own: memory the heap committed for other allocations (the
    // runtime's own, at init, included) reaches past them to the end of their extent, and a
    // buffer sharing an extent with it could not be mapped there. A range that still meets
    // such memory (a retained run of several extents) is held and the next one tried; every PE
    // makes the same choices (the allocator and the commits are the same on every PE).
    const size_t ext = sc::user_buffer_extent();
    const size_t span = length <= SIZE_MAX - (ext - 1) ? (length + ext - 1) / ext * ext : 0;
    std::vector<size_t> held;
    std::lock_guard<symmem::core::spinlock> lock(g.alloc_mutex);
    for (int tries = 0; span != 0 && tries < 16; ++tries) {
      off = g.alloc.allocate(span, ext);  // same range on every PE: same sequence
      if (!off || sc::user_range_clean(*off, span)) break;
      held.push_back(*off);
      off.reset();
    }
    for (size_t h : held) g.alloc.release(h);
  }
  // Every PE takes part in the descriptor exchange, also one that failed, so none waits forever.
  symmem::status st = e != CUDA_SUCCESS
                          ? sc::cu_fail(e, call, "looking up the buffer's allocation", "allocate it with cuMemCreate")
                      : !off ? symmem::fail(SYMMEM_ERR_OUT_OF_MEMORY, call, "the heap has no %zu-byte range left", length)
                             : symmem::ok_status;
  if (st.ok()) st = sc::map_user_buffer(*off, length, h);
  if (st.ok()) {
    st = symmem::core::remote_commit(*off, length, call);  // PEs on other hosts reach it too
    if (!st.ok()) sc::unmap_user_buffer(*off, length);
  }
  if (h != 0) (void)sc::cu.cuMemRelease(h);  // the mappings and the program's handle keep the memory
  if (!st.ok()) {
    if (off) {
      std::lock_guard<symmem::core::spinlock> lock(g.alloc_mutex);
      g.alloc.release(*off);
    }
    return nullptr;
  }
  const uintptr_t at = g.heap_base + *off;
  std::lock_guard lock(sc::g_mutex);
  sc::g_symmetric[at] = length;
  return reinterpret_cast<void *>(at);
}

int symmem_buffer_unregister_symmetric(void *mapped, size_t length) {
  const char *call = "buffer_unregister_symmetric";
  sc::gpu_heap(call);
  const uintptr_t at = reinterpret_cast<uintptr_t>(mapped);
  {
    std::lock_guard lock(sc::g_mutex);
    auto it = sc::g_symmetric.find(at);
    if (it == sc::g_symmetric.end() || it->second != length) {
      (void)symmem::fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "%p (%zu bytes) is not a buffer registered with "
                         "buffer_register_symmetric", mapped, length);
      return 1;
    }
    sc::g_symmetric.erase(it);
  }
  symmem_barrier_all();  // no PE may still reach into it
  symmem::core::remote_release(at - g.heap_base, length);
  sc::unmap_user_buffer(at - g.heap_base, length);
  std::lock_guard<symmem::core::spinlock> lock(g.alloc_mutex);
  g.alloc.release(at - g.heap_base);
  return 0;
}

}  // extern "C"
