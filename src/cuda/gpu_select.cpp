// Choosing each PE's GPU at init and checking, across the job, that every GPU can hold the heap.
//
// Rule (docs/gpu.md): a program that made a device current before init (cudaSetDevice creates the
// primary context at once since CUDA 12) keeps it; else SYMMEM_GPU; else node-local rank modulo
// the number of GPUs. The PEs then allgather (GPU, free memory) so that every PE can name the one
// whose GPU is too small, and so that PEs sharing a GPU are known (MPS advice, GPU-scope fences).
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/gpu.h"
#include "mem/provider.h"
#include "topo/topology.h"

namespace symmem::cuda {

gpu_info gpu;

std::string cu_text(CUresult r) {
  const char *name = nullptr;
  const char *text = nullptr;
  (void)cu.cuGetErrorName(r, &name);
  (void)cu.cuGetErrorString(r, &text);
  return strfmt("%s (%s)", name ? name : "CUDA error", text ? text : "no description");
}

status cu_fail(CUresult r, const char *call, const char *what, const char *fix) {
  return fail(r == CUDA_ERROR_OUT_OF_MEMORY ? SYMMEM_ERR_OUT_OF_MEMORY : SYMMEM_ERR_SYSTEM, call, "%s: %s; %s", what,
              cu_text(r).c_str(), fix);
}

void make_current() {
  CUcontext cur = nullptr;
  if (gpu.ctx != nullptr && (cu.cuCtxGetCurrent(&cur) != CUDA_SUCCESS || cur != gpu.ctx)) {
    (void)cu.cuCtxSetCurrent(gpu.ctx);
  }
}

std::unique_ptr<mem::provider> make_gpu_heap();

namespace {

// What each PE tells the others about its GPU.
struct gpu_report {
  uint64_t host;
  uint64_t free_bytes;
  uint64_t total_bytes;
  CUuuid uuid;
  int32_t ordinal;  // -1: no usable GPU
  int32_t error;    // this PE failed locally and said why
  char bus_id[32];
};

// The device this PE should use, or -1 with the reason in `why`.
int pick_device(const config::settings &cfg, int local_rank, int count, std::string &why) {
  CUcontext cur = nullptr;
  CUdevice dev = 0;
  if (cu.cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur != nullptr && cu.cuCtxGetDevice(&dev) == CUDA_SUCCESS) {
    return static_cast<int>(dev);  // the program chose (cudaSetDevice before init)
  }
  if (cfg.gpu.empty()) {
    return local_rank % count;
  }
  std::vector<int> list;
  for (const char *p = cfg.gpu.c_str(); *p != '\0';) {
    char *end = nullptr;
    long v = std::strtol(p, &end, 10);
    if (end == p || v < 0 || v >= count) {
      why = strfmt("SYMMEM_GPU=%s: '%s' is not a GPU of this host (0..%d)", cfg.gpu.c_str(), p, count - 1);
      return -1;
    }
    list.push_back(static_cast<int>(v));
    p = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') {
      why = strfmt("SYMMEM_GPU=%s: expected N or N0,N1,...", cfg.gpu.c_str());
      return -1;
    }
  }
  return list[static_cast<size_t>(local_rank) % list.size()];
}

// Retains the device's primary context (the one the CUDA runtime uses) and makes it current.
status open_device(int ordinal) {
  CUresult e = cu.cuDeviceGet(&gpu.dev, ordinal);
  if (e == CUDA_SUCCESS) e = cu.cuDevicePrimaryCtxRetain(&gpu.ctx, gpu.dev);
  if (e == CUDA_SUCCESS) e = cu.cuCtxSetCurrent(gpu.ctx);
  if (e == CUDA_SUCCESS && gpu.stream == nullptr) e = cu.cuStreamCreate(&gpu.stream, CU_STREAM_NON_BLOCKING);
  if (e == CUDA_SUCCESS && gpu.wait_stream == nullptr) e = cu.cuStreamCreate(&gpu.wait_stream, CU_STREAM_NON_BLOCKING);
  if (e != CUDA_SUCCESS) {
    return cu_fail(e, "init", strfmt("opening GPU %d", ordinal).c_str(), "check nvidia-smi and CUDA_VISIBLE_DEVICES");
  }
  gpu.ordinal = ordinal;
  (void)cu.cuDeviceGetPCIBusId(gpu.bus_id, sizeof gpu.bus_id, gpu.dev);
  size_t gran = 0;
  CUmemAllocationProp prop{};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = ordinal;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  e = cu.cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
  if (e != CUDA_SUCCESS || gran == 0 || core::granule_bytes % gran != 0) {
    return fail(SYMMEM_ERR_UNSUPPORTED, "init",
                "GPU %d cannot back the heap with POSIX-fd VMM allocations in %zu-byte granules (granularity %zu, %s); "
                "use SYMMEM_HEAP=host",
                ordinal, core::granule_bytes, gran, cu_text(e).c_str());
  }
  return ok_status;
}

// This PE's report; ordinal -1 when the machine has no GPU (not an error under SYMMEM_HEAP=auto).
gpu_report local_report(const config::settings &cfg, int local_rank) {
  gpu_report r{};
  r.host = topo::host_hash(cfg.hostname);
  r.ordinal = -1;
  int count = 0;
  const char *why_not = nullptr;
  if (!load_driver(&why_not)) {
    log(log_level::info, "no GPU heap: %s", why_not);
    return r;
  }
  if (cu.cuInit(0) != CUDA_SUCCESS || cu.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    return r;
  }
  std::string why;
  int ordinal = pick_device(cfg, local_rank, count, why);
  if (ordinal < 0) {
    (void)fail(SYMMEM_ERR_CONFIG, "init", "%s", why.c_str());
    r.error = 1;
    return r;
  }
  if (!open_device(ordinal).ok()) {
    r.error = 1;
    return r;
  }
  size_t free_b = 0, total_b = 0;
  (void)cu.cuMemGetInfo(&free_b, &total_b);
  (void)cu.cuDeviceGetUuid(&r.uuid, gpu.dev);
  r.ordinal = ordinal;
  r.free_bytes = free_b;
  r.total_bytes = total_b;
  gpu.total_bytes = total_b;
  std::memcpy(r.bus_id, gpu.bus_id, sizeof r.bus_id);
  return r;
}

bool same_gpu(const gpu_report &a, const gpu_report &b) {
  return a.host == b.host && std::memcmp(&a.uuid, &b.uuid, sizeof a.uuid) == 0;
}

// MPS is on when this process was pointed at a daemon's pipe (symmem-run --mps sets it) or the
// default system daemon's pipe exists: a stat, no driver call.
bool mps_detected() {
  const char *dir = std::getenv("CUDA_MPS_PIPE_DIRECTORY");
  std::string control = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp/nvidia-mps") + "/control";
  struct stat st {};
  return ::stat(control.c_str(), &st) == 0;
}

// Every PE checks every report, so all fail alike and each names the PE at fault.
status check_reports(const std::vector<gpu_report> &all, const config::settings &cfg, int me) {
  const bool want = all[static_cast<size_t>(me)].ordinal >= 0;
  for (size_t p = 0; p < all.size(); ++p) {
    const gpu_report &r = all[p];
    if (r.error != 0) {
      return fail(SYMMEM_ERR_SYSTEM, "init", "PE %zu could not open its GPU (its message says why)", p);
    }
    if ((r.ordinal >= 0) != want) {
      return fail(SYMMEM_ERR_UNSUPPORTED, "init",
                  "PE %zu %s a GPU but this PE %s: the heap must be on the GPU on every PE or on none; set "
                  "SYMMEM_HEAP=host, or give every PE a GPU",
                  p, r.ordinal >= 0 ? "has" : "has no", want ? "has" : "has not");
    }
    size_t sharing = 0;
    for (const gpu_report &o : all) sharing += same_gpu(o, r) ? 1 : 0;
    // Memory is committed as allocated (like NVSHMEM's growing heap), so heaps larger than the
    // GPU's free memory are legal until they fill up: say so once, on this PE, and go on.
    if (want && static_cast<int>(p) == me && sharing * cfg.heap_bytes > r.free_bytes) {
      warn("GPU %d (%s) has %llu bytes free, less than the %zu PEs on it x %zu bytes of symmetric heap: "
           "allocations fail once the GPU is full; lower SYMMEM_SYMMETRIC_SIZE (or NVSHMEM_SYMMETRIC_SIZE), or put "
           "fewer PEs on that GPU",
           r.ordinal, r.bus_id, static_cast<unsigned long long>(r.free_bytes), sharing, cfg.heap_bytes);
    }
  }
  return ok_status;
}

void note_sharing(const std::vector<gpu_report> &all, int me) {
  const gpu_report &mine = all[static_cast<size_t>(me)];
  gpu.gpu_scope_ok = true;
  gpu.peer_same_gpu.assign(all.size(), 0);
  int first_sharer = -1;
  for (size_t p = 0; p < all.size(); ++p) {
    const bool same = same_gpu(all[p], mine);
    gpu.peer_same_gpu[p] = same ? 1 : 0;
    gpu.gpu_scope_ok = gpu.gpu_scope_ok && same;
    if (same && static_cast<int>(p) != me) gpu.shared_gpu = true;
    if (same && first_sharer < 0) first_sharer = static_cast<int>(p);
  }
  if (gpu.shared_gpu && first_sharer == me && !mps_detected()) {
    warn("several PEs share GPU %d (%s) without MPS: their kernels take turns in time slices and device "
         "barriers can take milliseconds; run the job with 'symmem-run --mps' (or start "
         "nvidia-cuda-mps-control -d)",
         mine.ordinal, mine.bus_id);
  }
}

}  // namespace
}  // namespace symmem::cuda

namespace symmem::core {

// Strong definition of the runtime's weak hook (runtime.cpp): the GPU heap when a GPU is usable.
status make_gpu_provider(const config::settings &cfg, std::unique_ptr<mem::provider> &out) {
  if (cfg.heap_kind == "auto" && !cuda::device_code_present()) {
    // A CPU program: the host heap (every PE runs the same code, so all agree).
    log(log_level::info, "host heap: the program has no symmem device code (SYMMEM_HEAP=gpu puts the heap on a GPU)");
    return ok_status;
  }
  boot::bootstrap &b = *g.boot;
  const int me = b.rank();
  const auto n = static_cast<size_t>(b.size());
  std::vector<uint64_t> hosts(n);
  const uint64_t my_host = topo::host_hash(cfg.hostname);
  SYMMEM_TRY(b.allgather(&my_host, hosts.data(), sizeof my_host, "init"));
  int local_rank = 0;
  for (int p = 0; p < me; ++p) local_rank += hosts[static_cast<size_t>(p)] == my_host ? 1 : 0;
  cuda::gpu_report mine = cuda::local_report(cfg, local_rank);
  std::vector<cuda::gpu_report> all(n);
  SYMMEM_TRY(b.allgather(&mine, all.data(), sizeof mine, "init"));
  SYMMEM_TRY(cuda::check_reports(all, cfg, me));
  if (mine.ordinal < 0) {
    return ok_status;  // no GPU anywhere: the runtime takes the host heap (or fails for SYMMEM_HEAP=gpu)
  }
  cuda::note_sharing(all, me);
  log(log_level::info, "GPU heap on GPU %d (%s)%s", mine.ordinal, mine.bus_id,
      cuda::gpu.gpu_scope_ok ? ", every PE on this GPU" : "");
  out = cuda::make_gpu_heap();
  return ok_status;
}

}  // namespace symmem::core
