// The GPU heap: CUDA virtual memory management (driver API).
//
// The heap's range is reserved with cuMemAddressReserve at the address every PE agreed on
// (mem::agree_on_address with gpu_reserver), and each node-local peer's heap range in the window.
// Physical memory is committed at collective allocation time: every PE runs the same allocator,
// so every PE commits the same granules in the same call. Each run of new contiguous granules is
// one *chunk*: one cuMemCreate with a POSIX-fd handle, one mapping, one descriptor handed to the
// node-local peers over the descriptor sockets (mem::fd_exchange), which import it and map it into
// their window. A chunk is the unit of mapping (cuMemMap takes no offset into a handle and
// cuMemUnmap cannot split a mapping), so it is unmapped when its last granule is released; a
// 16 GiB malloc is then a handful of driver calls, not 8192 granules' worth. The handles are
// released right after mapping: the mappings keep the memory alive, and it is freed when the last
// PE unmaps it. Memory the program allocated itself (cuMemCreate) can be mapped into the heap the
// same way (symmem_buffer_register_symmetric).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/device_runtime.h"
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

// Where one commit's time goes, printed at SYMMEM_DEBUG=trace: the driver's calls on this PE's
// chunks, the descriptor exchange with the node-local peers, and mapping theirs.
struct commit_times {
  double create = 0, map = 0, exported = 0, exchange = 0, import = 0;  // milliseconds
};
using clock_type = std::chrono::steady_clock;
double ms_since(clock_type::time_point t) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - t).count();
}

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

  // Memory is committed as allocated, so address space costs nothing until used: NVSHMEM programs
  // expect the heap to grow past the symmetric size (its heap grows as the GPU allows), so reserve
  // up to 4x the size asked (at most the GPU's memory, never less than asked), plus three granules
  // for the runtime's own blocks (the sync area; in jobs across hosts the device reductions' 4 MiB
  // scratch), so the program gets every byte it asked for.
  // At least 256 MiB. Below 32 MiB or so the driver takes reservations from the process's own mmap
  // area, at a different address in every process (seen on an H200, CUDA 13: 8 to 22 MiB at
  // 0x7f..., 38 MiB and more at 0x302000000 in every process), so no address was free on every PE
  // and init failed for NVSHMEM's perftests that ask for a heap of 512 KiB. And a registered
  // buffer takes whole commit extents (64 MiB) the runtime's own blocks do not touch: four
  // extents leave room for some even on a small heap.
  [[nodiscard]] size_t address_bytes(size_t user_bytes) const override {
    constexpr size_t min_reserve = size_t{4} * extent_granules * core::granule_bytes;
    const size_t grow = user_bytes > SIZE_MAX / 4 ? user_bytes : 4 * user_bytes;
    return std::max({user_bytes, std::min(grow, gpu.total_bytes), min_reserve}) + 3 * core::granule_bytes;
  }
  status create(uintptr_t base, size_t size) override {
    base_ = base;
    size_ = size;
    chunk_of_.assign(size / core::granule_bytes, no_chunk);
    live_.assign(size / core::granule_bytes, 0);
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
  void copy_async(void *dst, const void *src, size_t n) override;
  void copy_wait() override;
  void *host_buffer(size_t n) override;
  void host_buffer_free(void *p) override;
  void zero(void *dst, size_t n) override;
  uint64_t amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b) override {
    return core::gpu_amo(op, target, size, is_float, a, b);
  }
  [[nodiscard]] bool cpu_reaches(const void *p, size_t n) const override;
  status started() override { return core::gpu_after_init(); }
  void quiesce() override { core::gpu_quiesce(); }
  void stopping() override { core::gpu_before_teardown(); }
  void destroy() override;
  // Maps the user's allocation handle at heap offset `offset` here and in every peer's window.
  status map_user(size_t offset, size_t length, CUmemGenericAllocationHandle h);
  void unmap_user(size_t offset, size_t length);
  // True when no mapped chunk reaches both into and out of [offset, offset+length).
  bool clean_range(size_t offset, size_t length) const;
  static constexpr size_t extent_granules = 32;  // 64 MiB: the unit of commit (new_chunks)

 private:
  struct chunk {
    size_t first, count;  // granules
  };
  static constexpr uint32_t no_chunk = UINT32_MAX;
  std::vector<chunk> new_chunks(size_t offset, size_t length);
  status map_range(uintptr_t at, size_t bytes, CUmemGenericAllocationHandle h, const char *whose);
  status create_chunk(const chunk &c, CUmemGenericAllocationHandle &h, int &fd, commit_times &t);
  status import_chunks(const std::vector<chunk> &chunks, std::vector<std::vector<int>> &got);
  status share(const std::vector<chunk> &chunks, std::vector<int> &fds, status st, commit_times *t = nullptr);
  status commit_batch(const std::vector<chunk> &chunks);
  void note_mapped(const chunk &c, size_t live_from, size_t live_to);
  void unmap_chunk(size_t first);
  size_t run_of(size_t first) const;  // granules of the chunk that starts at granule `first`

  gpu_reserver reserver_;
  CUmemAllocationProp prop_{};
  CUmemAccessDesc access_{};
  uintptr_t base_ = 0;
  size_t size_ = 0;
  std::vector<uint32_t> chunk_of_;  // per granule: first granule of the chunk mapping it, or no_chunk
  std::vector<uint8_t> live_;       // per granule: the allocator has it committed
  std::vector<uint32_t> chunk_live_;  // per chunk (indexed by first granule): live granules
  std::vector<peer_map> peers_;
  int keep_fd_ = -1;  // open_keeper: -1 none yet, -2 could not be made
  void open_keeper();
};

constexpr size_t max_chunks_per_exchange = 200;  // SCM_RIGHTS carries at most 253 descriptors

// Runs of unmapped granules to create for [offset, offset+length): each needed granule brings
// the unmapped rest of its extent (extent_granules, aligned in the heap), as NVSHMEM commits its
// heap in 512 MiB pieces: a program that reads a little past its allocation (NVSHMEM's shmem_g_bw
// reads four times past its buffer) finds memory there, and a run of small mallocs costs one
// driver round per extent. Granules already mapped (kept by a chunk) become live again.
std::vector<gpu_provider::chunk> gpu_provider::new_chunks(size_t offset, size_t length) {
  std::vector<chunk> out;
  const size_t g = core::granule_bytes, n = chunk_of_.size();
  const size_t end = std::min((offset + length + g - 1) / g, n);
  size_t covered = 0;  // granules below this are decided
  for (size_t i = offset / g; i < end; ++i) {
    if (chunk_of_[i] != no_chunk) {
      if (live_[i] == 0) ++chunk_live_[chunk_of_[i]];
      live_[i] = 1;
      continue;
    }
    const size_t from = std::max(covered, i / extent_granules * extent_granules);
    const size_t to = std::min(n, (i / extent_granules + 1) * extent_granules);
    for (size_t k = from; k < to; ++k) {
      if (chunk_of_[k] != no_chunk) continue;
      if (!out.empty() && out.back().first + out.back().count == k) ++out.back().count;
      else out.push_back(chunk{k, 1});
    }
    covered = std::max(covered, to);
  }
  return out;
}

status gpu_provider::map_range(uintptr_t at, size_t bytes, CUmemGenericAllocationHandle h, const char *whose) {
  CUdeviceptr p = static_cast<CUdeviceptr>(at);
  CUresult e = cu.cuMemMap(p, bytes, 0, h, 0);
  if (e == CUDA_SUCCESS) e = cu.cuMemSetAccess(p, bytes, &access_, 1);
  if (e != CUDA_SUCCESS) {
    (void)cu.cuMemUnmap(p, bytes);
    return cu_fail(e, "malloc", strfmt("mapping %zu bytes of %s heap at %#llx", bytes, whose, static_cast<unsigned long long>(p)).c_str(),
                   "check that the GPUs of this host can access each other (peer access)");
  }
  return ok_status;
}

status gpu_provider::create_chunk(const chunk &c, CUmemGenericAllocationHandle &h, int &fd, commit_times &t) {
  const size_t bytes = c.count * core::granule_bytes;
  clock_type::time_point t0 = clock_type::now();
  CUresult e = cu.cuMemCreate(&h, bytes, &prop_, 0);
  t.create += ms_since(t0);
  if (e != CUDA_SUCCESS) {
    h = 0;
    return cu_fail(e, "malloc", strfmt("committing %zu bytes of GPU memory for the heap", bytes).c_str(),
                   "free GPU memory, or put fewer PEs on this GPU");
  }
  t0 = clock_type::now();
  SYMMEM_TRY(map_range(base_ + c.first * core::granule_bytes, bytes, h, "this PE's"));
  t.map += ms_since(t0);
  fd = -1;
  // A PE without node-local peers has no one to hand the memory to.
  if (peers_.empty()) return ok_status;
  t0 = clock_type::now();
  if (keep_fd_ == -1) open_keeper();
  e = cu.cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  t.exported += ms_since(t0);
  if (e != CUDA_SUCCESS) {
    fd = -1;
    return cu_fail(e, "malloc", "exporting heap memory for node-local peers", "check the driver supports POSIX-fd handles");
  }
  return ok_status;
}

// An export while the process holds no other exported descriptor costs the driver 0.5-0.9 ms
// whatever the memory's size (H200, driver 580; closing the last one costs about as much), one
// while another is open 0.03 ms: measured five exports of 1-16 GiB in a row, each closed after
// (0.59-0.67 ms each) against each kept (0.88 ms, then 0.03). So the first commit that exports
// makes one granule of its own, exports it and keeps that descriptor open until the heap goes:
// 2 MiB of GPU memory for an export per malloc that costs a twentieth. Not having it is no error.
void gpu_provider::open_keeper() {
  keep_fd_ = -2;
  CUmemGenericAllocationHandle h = 0;
  if (cu.cuMemCreate(&h, core::granule_bytes, &prop_, 0) != CUDA_SUCCESS) return;
  int fd = -1;
  if (cu.cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) == CUDA_SUCCESS) keep_fd_ = fd;
  (void)cu.cuMemRelease(h);  // the descriptor keeps the granule until it is closed
  log(keep_fd_ >= 0 ? log_level::trace : log_level::info, "malloc: %s",
      keep_fd_ >= 0 ? "keeps one exported granule open, so exports are cheap"
                    : "could not keep an exported granule open; each export costs about 0.6 ms more");
}

// Maps every peer's new chunks (their descriptors in `got`, in chunk order) into the window.
status gpu_provider::import_chunks(const std::vector<chunk> &chunks, std::vector<std::vector<int>> &got) {
  status st = ok_status;
  for (size_t i = 0; i < got.size(); ++i) {
    const int pe = core::g.local_fd_peers[i].rank;
    std::vector<int> &fds = got[i];
    if (pe == core::g.my_pe) continue;
    if (st.ok() && fds.size() != chunks.size()) {
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
        st = e == CUDA_SUCCESS ? map_range(pm->at + chunks[k].first * core::granule_bytes,
                                           chunks[k].count * core::granule_bytes, h, strfmt("PE %d's", pe).c_str())
                               : cu_fail(e, "malloc", strfmt("importing heap memory of PE %d", pe).c_str(),
                                         "check that both PEs see the same GPUs");
        if (h != 0) (void)cu.cuMemRelease(h);
      }
      ::close(fds[k]);
    }
  }
  return st;
}

// Hands this PE's descriptors to the node-local peers and maps theirs (collective).
status gpu_provider::share(const std::vector<chunk> &chunks, std::vector<int> &fds, status st, commit_times *t) {
  if (!st.ok()) {
    for (int fd : fds) ::close(fd);
    fds.clear();  // peers see no descriptors from this PE and fail the allocation too
  }
  if (!peers_.empty()) {
    std::vector<std::vector<int>> got;
    clock_type::time_point t0 = clock_type::now();
    status ex = core::g.fds.exchange(core::g.my_pe, core::g.local_fd_peers, fds, got, core::g.cfg.bootstrap_timeout,
                                     "malloc");
    if (t != nullptr) t->exchange += ms_since(t0);
    t0 = clock_type::now();
    if (ex.ok()) ex = import_chunks(chunks, got);
    if (t != nullptr) t->import += ms_since(t0);
    if (st.ok()) st = ex;
  }
  for (int fd : fds) ::close(fd);
  return st;
}

status gpu_provider::commit_batch(const std::vector<chunk> &chunks) {
  std::vector<CUmemGenericAllocationHandle> handles;
  std::vector<int> fds;
  status st = ok_status;
  commit_times t;
  size_t granules = 0;
  for (const chunk &c : chunks) {
    CUmemGenericAllocationHandle h = 0;
    int fd = -1;
    if (st.ok()) st = create_chunk(c, h, fd, t);
    if (h != 0) handles.push_back(h);
    if (fd >= 0) fds.push_back(fd);
    granules += c.count;
  }
  st = share(chunks, fds, st, &t);
  log(log_level::trace, "malloc: committed %zu MiB in %zu chunk(s): create %.3f ms, map %.3f ms, export %.3f ms, "
      "descriptor exchange with %zu peer(s) %.3f ms, peers' import and map %.3f ms",
      granules * core::granule_bytes >> 20, chunks.size(), t.create, t.map, t.exported, peers_.size(), t.exchange,
      t.import);
  for (CUmemGenericAllocationHandle h : handles) (void)cu.cuMemRelease(h);  // the mappings keep the memory
  return st;
}

// Records chunk c as mapped; the granules of [live_from, live_to) are the ones the allocator asked for.
void gpu_provider::note_mapped(const chunk &c, size_t live_from, size_t live_to) {
  if (chunk_live_.size() < chunk_of_.size()) chunk_live_.assign(chunk_of_.size(), 0);
  uint32_t live = 0;
  for (size_t i = c.first; i < c.first + c.count; ++i) {
    chunk_of_[i] = static_cast<uint32_t>(c.first);
    live_[i] = i >= live_from && i < live_to ? 1 : 0;
    live += live_[i];
  }
  chunk_live_[c.first] = live;
}

status gpu_provider::commit(size_t offset, size_t length) {
  make_current();
  if (chunk_live_.size() < chunk_of_.size()) chunk_live_.assign(chunk_of_.size(), 0);
  std::vector<chunk> todo = new_chunks(offset, length);
  for (size_t at = 0; at < todo.size(); at += max_chunks_per_exchange) {
    std::vector<chunk> batch(todo.begin() + static_cast<long>(at),
                             todo.begin() + static_cast<long>(std::min(todo.size(), at + max_chunks_per_exchange)));
    status st = commit_batch(batch);
    const size_t g = core::granule_bytes;
    // unmap_chunk tolerates what did not get mapped
    for (const chunk &c : batch) note_mapped(c, offset / g, (offset + length + g - 1) / g);
    if (!st.ok()) {
      (void)cu.cuCtxSynchronize();
      for (const chunk &c : todo) {
        if (chunk_of_[c.first] != no_chunk) unmap_chunk(c.first);  // leave nothing half-committed behind
      }
      return st;
    }
  }
  return ok_status;
}

size_t gpu_provider::run_of(size_t first) const {
  size_t n = 0;
  while (first + n < chunk_of_.size() && chunk_of_[first + n] == first) ++n;
  return n;
}

void gpu_provider::unmap_chunk(size_t first) {
  const size_t g = core::granule_bytes;
  const size_t n = run_of(first);
  (void)cu.cuMemUnmap(static_cast<CUdeviceptr>(base_ + first * g), n * g);
  for (const peer_map &m : peers_) {
    (void)cu.cuMemUnmap(static_cast<CUdeviceptr>(m.at + first * g), n * g);
  }
  for (size_t i = first; i < first + n; ++i) {
    chunk_of_[i] = no_chunk;
    live_[i] = 0;
  }
  chunk_live_[first] = 0;
}

// Called by the allocator when granules empty (past the retain budget). Every PE frees the same
// block in the same collective call, so every PE unmaps the same chunks: a chunk goes when its
// last live granule does.
void gpu_provider::release(size_t offset, size_t length) {
  make_current();
  (void)cu.cuCtxSynchronize();  // no kernel of ours may still use the range
  const size_t g = core::granule_bytes;
  const size_t end = std::min((offset + length) / g, chunk_of_.size());
  for (size_t i = offset / g; i < end; ++i) {
    if (chunk_of_[i] == no_chunk || live_[i] == 0) continue;
    live_[i] = 0;
    const uint32_t c = chunk_of_[i];
    if (--chunk_live_[c] == 0) unmap_chunk(c);
  }
}

status gpu_provider::map_user(size_t offset, size_t length, CUmemGenericAllocationHandle h) {
  make_current();
  const chunk c{offset / core::granule_bytes, length / core::granule_bytes};
  if (chunk_live_.size() < chunk_of_.size()) chunk_live_.assign(chunk_of_.size(), 0);
  // The allocator may hand out granules it kept mapped for reuse (SYMMEM_HEAP_RETAIN): their
  // chunks go first; one reaching outside the range still backs other data.
  status st = ok_status;
  if (!clean_range(offset, length)) {
    st = fail(SYMMEM_ERR_OUT_OF_MEMORY, "buffer_register_symmetric",
              "the heap range for the buffer shares memory with live allocations; register buffers before "
              "allocating, or set SYMMEM_HEAP_RETAIN=0");
  } else {
    for (size_t i = c.first; i < c.first + c.count; ++i)
      if (chunk_of_[i] != no_chunk) unmap_chunk(chunk_of_[i]);  // each lies inside the range
  }
  std::vector<int> fds;
  if (st.ok()) st = map_range(base_ + offset, length, h, "this PE's");
  int fd = -1;
  if (st.ok()) {
    CUresult e = cu.cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    if (e != CUDA_SUCCESS) {
      st = cu_fail(e, "buffer_register_symmetric", "exporting the buffer for node-local peers",
                   "allocate it with cuMemCreate and requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR");
    } else {
      fds.push_back(fd);
    }
  }
  st = share({c}, fds, st);
  note_mapped(c, c.first, c.first + c.count);
  if (!st.ok()) unmap_chunk(c.first);
  return st;
}

bool gpu_provider::clean_range(size_t offset, size_t length) const {
  const size_t first = offset / core::granule_bytes, count = length / core::granule_bytes;
  for (size_t i = first; i < first + count && i < chunk_of_.size(); ++i) {
    const uint32_t k = chunk_of_[i];
    if (k != no_chunk && (k < first || k + run_of(k) > first + count)) return false;
  }
  return true;
}

void gpu_provider::unmap_user(size_t offset, size_t length) {
  make_current();
  (void)cu.cuCtxSynchronize();
  (void)length;
  if (chunk_of_[offset / core::granule_bytes] != no_chunk) unmap_chunk(offset / core::granule_bytes);
}

// Host <-> GPU heap copies through the copy engine on the private non-blocking stream, so a host
// put never waits behind a user kernel on the legacy default stream (which may be waiting for it).
void gpu_provider::copy(void *dst, const void *src, size_t n) {
  copy_async(dst, src, n);
  const CUresult e = cu.cuStreamSynchronize(gpu.stream);
  if (e != CUDA_SUCCESS) {
    fatal("putmem/getmem", "copying %zu bytes between %p and %p on the GPU failed: %s", n, src, dst, cu_text(e).c_str());
  }
}

void gpu_provider::copy_async(void *dst, const void *src, size_t n) {
  make_current();
  const CUresult e = cu.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), n, gpu.stream);
  if (e != CUDA_SUCCESS) {
    fatal("putmem/getmem", "copying %zu bytes between %p and %p on the GPU failed: %s", n, src, dst, cu_text(e).c_str());
  }
}

void gpu_provider::copy_wait() {
  make_current();
  const CUresult e = cu.cuStreamSynchronize(gpu.stream);
  if (e != CUDA_SUCCESS) fatal("putmem/getmem", "copies on the GPU failed: %s", cu_text(e).c_str());
}

void *gpu_provider::host_buffer(size_t n) {
  make_current();
  void *p = nullptr;
  return cu.cuMemHostAlloc(&p, n, CU_MEMHOSTALLOC_PORTABLE) == CUDA_SUCCESS ? p : nullptr;
}

void gpu_provider::host_buffer_free(void *p) {
  if (p == nullptr) return;
  make_current();
  (void)cu.cuMemFreeHost(p);
}

// The heap, and any pointer CUDA knows as device memory (the program's cudaMalloc buffers, which
// NVSHMEM lets host calls name as local buffers). Managed and host memory the CPU reaches.
bool gpu_provider::cpu_reaches(const void *p, size_t n) const {
  const auto a = reinterpret_cast<uintptr_t>(p);
  if (a - base_ < size_ || (a < base_ && a + n > base_)) return false;
  unsigned type = 0;
  if (cu.cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, reinterpret_cast<CUdeviceptr>(p)) !=
      CUDA_SUCCESS) {
    return true;  // not memory CUDA knows: the program's host memory
  }
  int managed = 0;
  (void)cu.cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, reinterpret_cast<CUdeviceptr>(p));
  return type != CU_MEMORYTYPE_DEVICE || managed != 0;
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
  for (size_t i = 0; i < chunk_of_.size(); ++i) {
    if (chunk_of_[i] == i) unmap_chunk(i);
  }
  reserver_.release(base_, size_);  // the runtime puts its host guard there next
  base_ = 0;
  peers_.clear();
  if (keep_fd_ >= 0) ::close(keep_fd_);
  keep_fd_ = -1;
}

}  // namespace

std::unique_ptr<mem::provider> make_gpu_heap() { return std::make_unique<gpu_provider>(); }

status map_user_buffer(size_t offset, size_t length, CUmemGenericAllocationHandle h) {
  auto *p = dynamic_cast<gpu_provider *>(core::g.heap.get());
  if (p == nullptr) return fail(SYMMEM_ERR_UNSUPPORTED, "buffer_register_symmetric", "the heap is not in GPU memory");
  return p->map_user(offset, length, h);
}

size_t user_buffer_extent() { return gpu_provider::extent_granules * core::granule_bytes; }

bool user_range_clean(size_t offset, size_t length) {
  auto *p = dynamic_cast<gpu_provider *>(core::g.heap.get());
  return p == nullptr || p->clean_range(offset, length);
}

void unmap_user_buffer(size_t offset, size_t length) {
  if (auto *p = dynamic_cast<gpu_provider *>(core::g.heap.get())) p->unmap_user(offset, length);
}

}  // namespace symmem::cuda
