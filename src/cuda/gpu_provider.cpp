// The GPU heap: CUDA virtual memory management (driver API).
//
// The heap's range is reserved with cuMemAddressReserve at the address every PE agreed on
// (mem::agree_on_address with gpu_reserver), and each node-local peer's heap range in the window.
// Physical memory is committed granule by granule at collective allocation time: every PE runs the
// same allocator, so every PE commits the same granules in the same call. Each new granule is one
// cuMemCreate with a POSIX-fd handle (cuMemMap takes no offset into a handle and cuMemUnmap cannot
// split a mapping, so a granule is the unit of both), exported and handed to the node-local peers
// over the descriptor sockets (mem::fd_exchange), which import it and map it into their window.
// The allocator can then hand any one granule back (release). The handles are released right after
// mapping: the mappings keep the memory alive, and it is freed when the last PE unmaps it.
#include <unistd.h>

#include <algorithm>
#include <vector>

#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/gpu.h"
#include "mem/provider.h"

namespace symmem::cuda {
namespace {

class gpu_reserver final : public mem::reserver {
 public:
  uintptr_t propose(size_t size, size_t align) override {
    make_current();
    CUdeviceptr p = 0;
    return cu.cuMemAddressReserve(&p, size, align, 0, 0) == CUDA_SUCCESS ? static_cast<uintptr_t>(p) : 0;
  }
  // The hint is only a hint: take the range only when the driver gave exactly that address.
  bool try_at(uintptr_t addr, size_t size) override {
    make_current();
    CUdeviceptr p = 0;
    if (cu.cuMemAddressReserve(&p, size, 0, static_cast<CUdeviceptr>(addr), 0) != CUDA_SUCCESS) {
      return false;
    }
    if (p != addr) {
      (void)cu.cuMemAddressFree(p, size);
      return false;
    }
    return true;
  }
  void release(uintptr_t addr, size_t size) override {
    if (addr != 0 && size != 0) {
      (void)cu.cuMemAddressFree(static_cast<CUdeviceptr>(addr), size);
    }
  }
  [[nodiscard]] const char *what() const override { return "GPU heap"; }
};

struct peer_map {
  int pe;
  uintptr_t at;  // where its heap starts in this PE's window
};

class gpu_provider final : public mem::provider {
 public:
  gpu_provider() {
    prop_.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop_.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop_.location.id = gpu.ordinal;
    prop_.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    access_.location = prop_.location;
    access_.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  }
  ~gpu_provider() override { destroy(); }
  [[nodiscard]] const char *kind() const override { return "gpu"; }
  [[nodiscard]] bool cpu_accessible() const override { return false; }
  mem::reserver &address_space() override { return reserver_; }

  status create(uintptr_t base, size_t size) override {
    base_ = base;
    size_ = size;
    mapped_.assign(size / core::granule_bytes, 0);
    return ok_status;  // memory comes at allocation time (commit)
  }
  // Nothing is committed at init, so nothing to hand over yet: granules travel in commit().
  [[nodiscard]] std::vector<int> export_fds() const override { return {}; }
  status map_peer(int pe, uintptr_t at, size_t size, std::vector<int> fds) override {
    for (int fd : fds) ::close(fd);
    peers_.push_back(peer_map{pe, at});
    return ok_status;
  }
  status commit(size_t offset, size_t length) override;
  void release(size_t offset, size_t length) override;
  void copy(void *dst, const void *src, size_t n) override;
  void zero(void *dst, size_t n) override;
  void destroy() override;

 private:
  std::vector<size_t> missing(size_t offset, size_t length) const;
  status create_granule(size_t i, CUmemGenericAllocationHandle &h, int &fd);
  status map_granule(uintptr_t at, size_t i, CUmemGenericAllocationHandle h, const char *whose);
  status import_granules(const std::vector<size_t> &granules, std::vector<std::vector<int>> &got);
  status commit_batch(const std::vector<size_t> &granules);
  void unmap_granule(size_t i);

  gpu_reserver reserver_;
  CUmemAllocationProp prop_{};
  CUmemAccessDesc access_{};
  uintptr_t base_ = 0;
  size_t size_ = 0;
  std::vector<uint8_t> mapped_;  // per granule: committed and mapped here and in every peer's window
  std::vector<peer_map> peers_;
};

constexpr size_t max_granules_per_exchange = 200;  // SCM_RIGHTS carries at most 253 descriptors

std::vector<size_t> gpu_provider::missing(size_t offset, size_t length) const {
  std::vector<size_t> out;
  const size_t g = core::granule_bytes;
  const size_t end = std::min((offset + length + g - 1) / g, mapped_.size());
  for (size_t i = offset / g; i < end; ++i) {
    if (mapped_[i] == 0) out.push_back(i);
  }
  return out;
}

status gpu_provider::map_granule(uintptr_t at, size_t i, CUmemGenericAllocationHandle h, const char *whose) {
  const size_t g = core::granule_bytes;
  CUdeviceptr p = static_cast<CUdeviceptr>(at + i * g);
  CUresult e = cu.cuMemMap(p, g, 0, h, 0);
  if (e == CUDA_SUCCESS) e = cu.cuMemSetAccess(p, g, &access_, 1);
  if (e != CUDA_SUCCESS) {
    if (p != 0) (void)cu.cuMemUnmap(p, g);
    return cu_fail(e, "malloc", strfmt("mapping a granule of %s heap at %#llx", whose, static_cast<unsigned long long>(p)).c_str(),
                   "check that the GPUs of this host can access each other (peer access)");
  }
  return ok_status;
}

status gpu_provider::create_granule(size_t i, CUmemGenericAllocationHandle &h, int &fd) {
  CUresult e = cu.cuMemCreate(&h, core::granule_bytes, &prop_, 0);
  if (e != CUDA_SUCCESS) {
    h = 0;
    return cu_fail(e, "malloc", strfmt("committing %zu bytes of GPU memory for the heap", core::granule_bytes).c_str(),
                   "free GPU memory, or put fewer PEs on this GPU");
  }
  SYMMEM_TRY(map_granule(base_, i, h, "this PE's"));
  e = cu.cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  if (e != CUDA_SUCCESS) {
    fd = -1;
    return cu_fail(e, "malloc", "exporting a heap granule for node-local peers", "check the driver supports POSIX-fd handles");
  }
  return ok_status;
}

// Maps every peer's new granules (their descriptors in `got`, in granule order) into the window.
status gpu_provider::import_granules(const std::vector<size_t> &granules, std::vector<std::vector<int>> &got) {
  status st = ok_status;
  for (size_t i = 0; i < got.size(); ++i) {
    const int pe = core::g.local_fd_peers[i].rank;
    std::vector<int> &fds = got[i];
    if (pe == core::g.my_pe) continue;
    if (st.ok() && fds.size() != granules.size()) {
      st = fail(SYMMEM_ERR_OUT_OF_MEMORY, "malloc",
                "PE %d could not commit its part of this allocation (see its message); every PE fails it", pe);
    }
    const peer_map *pm = nullptr;
    for (const peer_map &m : peers_) pm = m.pe == pe ? &m : pm;
    for (size_t k = 0; k < fds.size(); ++k) {
      CUmemGenericAllocationHandle h = 0;
      if (st.ok() && pm != nullptr) {
        CUresult e = cu.cuMemImportFromShareableHandle(&h, reinterpret_cast<void *>(static_cast<uintptr_t>(fds[k])),
                                                       CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        st = e == CUDA_SUCCESS ? map_granule(pm->at, granules[k], h, strfmt("PE %d's", pe).c_str())
                               : cu_fail(e, "malloc", strfmt("importing a heap granule of PE %d", pe).c_str(),
                                         "check that both PEs see the same GPUs");
        if (h != 0) (void)cu.cuMemRelease(h);
      }
      ::close(fds[k]);
    }
  }
  return st;
}

status gpu_provider::commit_batch(const std::vector<size_t> &granules) {
  std::vector<CUmemGenericAllocationHandle> handles;
  std::vector<int> fds;
  status st = ok_status;
  for (size_t i : granules) {
    CUmemGenericAllocationHandle h = 0;
    int fd = -1;
    if (st.ok()) st = create_granule(i, h, fd);
    if (h != 0) handles.push_back(h);
    if (fd >= 0) fds.push_back(fd);
  }
  if (!st.ok()) {
    for (int fd : fds) ::close(fd);
    fds.clear();  // peers see no descriptors from this PE and fail the allocation too
  }
  if (!peers_.empty()) {
    std::vector<std::vector<int>> got;
    status ex = core::g.fds.exchange(core::g.my_pe, core::g.local_fd_peers, fds, got, core::g.cfg.bootstrap_timeout,
                                     "malloc");
    if (ex.ok()) ex = import_granules(granules, got);
    if (st.ok()) st = ex;
  }
  for (int fd : fds) ::close(fd);
  for (CUmemGenericAllocationHandle h : handles) (void)cu.cuMemRelease(h);  // the mappings keep the memory
  return st;
}

status gpu_provider::commit(size_t offset, size_t length) {
  make_current();
  std::vector<size_t> todo = missing(offset, length);
  for (size_t at = 0; at < todo.size(); at += max_granules_per_exchange) {
    std::vector<size_t> batch(todo.begin() + static_cast<long>(at),
                              todo.begin() + static_cast<long>(std::min(todo.size(), at + max_granules_per_exchange)));
    status st = commit_batch(batch);
    for (size_t i : batch) mapped_[i] = 1;  // unmap_granule tolerates what did not get mapped
    if (!st.ok()) {
      (void)cu.cuCtxSynchronize();
      for (size_t i : todo) {
        if (mapped_[i] != 0) unmap_granule(i);  // leave nothing half-committed behind
      }
      return st;
    }
  }
  return ok_status;
}

void gpu_provider::unmap_granule(size_t i) {
  const size_t g = core::granule_bytes;
  (void)cu.cuMemUnmap(static_cast<CUdeviceptr>(base_ + i * g), g);
  for (const peer_map &m : peers_) {
    (void)cu.cuMemUnmap(static_cast<CUdeviceptr>(m.at + i * g), g);
  }
  mapped_[i] = 0;
}

// Called by the allocator when granules empty (past the retain budget). Every PE frees the same
// block in the same collective call, so every PE unmaps the same granules.
void gpu_provider::release(size_t offset, size_t length) {
  make_current();
  (void)cu.cuCtxSynchronize();  // no kernel of ours may still use the range
  const size_t g = core::granule_bytes;
  const size_t end = std::min((offset + length) / g, mapped_.size());
  for (size_t i = offset / g; i < end; ++i) {
    if (mapped_[i] != 0) unmap_granule(i);
  }
}

// Host <-> GPU heap copies through the copy engine on the private non-blocking stream, so a host
// put never waits behind a user kernel on the legacy default stream (which may be waiting for it).
void gpu_provider::copy(void *dst, const void *src, size_t n) {
  make_current();
  CUresult e = cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), n, gpu.stream);
  if (e == CUDA_SUCCESS) e = cu.cuStreamSynchronize(gpu.stream);
  if (e != CUDA_SUCCESS) {
    fatal("putmem/getmem", "copying %zu bytes between %p and %p on the GPU failed: %s", n, src, dst, cu_text(e).c_str());
  }
}

void gpu_provider::zero(void *dst, size_t n) {
  make_current();
  CUresult e = cu.cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(dst), 0, n, gpu.stream);
  if (e == CUDA_SUCCESS) e = cu.cuStreamSynchronize(gpu.stream);
  if (e != CUDA_SUCCESS) {
    fatal("calloc", "zeroing %zu bytes at %p on the GPU failed: %s", n, dst, cu_text(e).c_str());
  }
}

void gpu_provider::destroy() {
  if (base_ == 0) return;
  make_current();
  (void)cu.cuCtxSynchronize();
  for (size_t i = 0; i < mapped_.size(); ++i) {
    if (mapped_[i] != 0) unmap_granule(i);
  }
  reserver_.release(base_, size_);  // the runtime puts its host guard there next
  base_ = 0;
  peers_.clear();
}

}  // namespace

std::unique_ptr<mem::provider> make_gpu_heap() { return std::make_unique<gpu_provider>(); }

}  // namespace symmem::cuda
