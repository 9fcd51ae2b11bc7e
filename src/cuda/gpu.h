// symmem: what the CUDA parts of the library share (the GPU heap provider, the device-state
// registry, the stream operations). Host C++ only: kernels live in kernels.cu behind kernels.h.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/error.h"

namespace symmem::cuda {

// The GPU this PE uses, chosen at init (make_gpu_provider) and valid until finalize.
struct gpu_info {
  CUdevice dev = 0;
  int ordinal = -1;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;  // private, non-blocking: host copies and AMOs never wait on user streams
  // Private too, for the kernels that wait on the proxy ring (a quiet through it). Never `stream`:
  // the proxy, and a remote PE's staged requests served here, need that one's copies and atomic
  // kernels to finish that wait, so a waiting kernel queued there would never end.
  CUstream wait_stream = nullptr;
  bool gpu_scope_ok = false;  // every peer's heap is on this GPU
  bool shared_gpu = false;    // another PE of this host uses the same GPU
  size_t total_bytes = 0;     // the GPU's memory
  std::vector<uint8_t> peer_same_gpu;  // per PE: 1 when its heap is on this GPU (GPU-scope accesses)
  char bus_id[32] = {};
};
extern gpu_info gpu;

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)"
std::string cu_text(CUresult r);
// fail() for a driver call: "<what>: <driver call> failed: <text>; <fix>".
status cu_fail(CUresult r, const char *call, const char *what, const char *fix);
// True when the program contains symmem device code (<symmem/device.cuh>, <nvshmem.h> under
// nvcc): each such translation unit registers for the device state at load time. SYMMEM_HEAP=auto
// puts the heap on the GPU only then, so a CPU program (<shmem.h>) keeps a host heap on a GPU node.
bool device_code_present();
// Maps / unmaps a program's own cuMemCreate allocation at heap offset `offset` here and in every
// node-local peer's window (collective; gpu_provider.cpp).
status map_user_buffer(size_t offset, size_t length, CUmemGenericAllocationHandle h);
void unmap_user_buffer(size_t offset, size_t length);
// The GPU heap commits in extents of this many bytes (aligned in the heap), so memory committed
// for one allocation reaches past it; a registered buffer takes whole extents of its own.
size_t user_buffer_extent();
// True when no committed memory of the heap reaches both into and out of the range.
bool user_range_clean(size_t offset, size_t length);
// Makes this PE's context current on the calling thread (host API calls may come from any thread).
void make_current();

}  // namespace symmem::cuda
