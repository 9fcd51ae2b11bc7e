// The host heap: one memfd per PE (no file on disk), mapped MAP_SHARED at the common address in
// its owner and in each node-local peer's window. Pages are committed by the kernel when first
// touched; emptied granules go back with MADV_REMOVE.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "mem/provider.h"

namespace symmem::mem {
namespace {

template <typename T>
uint64_t cpu_amo(int op, T *at, T a, T b) {
  std::atomic_ref<T> r(*at);
  switch (op) {
    case amo_fetch: return r.load();
    case amo_set: r.store(a); return a;
    case amo_swap: return r.exchange(a);
    case amo_cas: r.compare_exchange_strong(a, b); return a;
    case amo_add: return r.fetch_add(a);
    case amo_and: return r.fetch_and(a);
    case amo_or: return r.fetch_or(a);
    case amo_xor: return r.fetch_xor(a);
    default: fatal("atomic", "unknown heap atomic %d", op);
  }
}

class host_provider final : public provider {
 public:
  ~host_provider() override { destroy(); }
  [[nodiscard]] const char *kind() const override { return "host"; }
  [[nodiscard]] bool cpu_accessible() const override { return true; }
  reserver &address_space() override { return reserver_; }

  status create(uintptr_t base, size_t size) override {
    fd_ = ::memfd_create("symmem-heap", MFD_CLOEXEC);
    if (fd_ < 0 || ::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      return fail(SYMMEM_ERR_SYSTEM, "init", "cannot create the heap's memory (memfd of %zu bytes): %s", size,
                  std::strerror(errno));
    }
    if (::mmap(reinterpret_cast<void *>(base), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fd_, 0) ==
        MAP_FAILED) {
      return fail(SYMMEM_ERR_SYSTEM, "init", "cannot map the heap at %#lx: %s", static_cast<unsigned long>(base),
                  std::strerror(errno));
    }
    base_ = base;
    return ok_status;
  }

  [[nodiscard]] std::vector<int> export_fds() const override { return {fd_}; }

  status map_peer(int pe, uintptr_t at, size_t size, std::vector<int> fds) override {
    status st = ok_status;
    if (fds.size() != 1 ||
        ::mmap(reinterpret_cast<void *>(at), size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, fds[0], 0) ==
            MAP_FAILED) {
      st = fail(SYMMEM_ERR_SYSTEM, "init", "cannot map the heap of PE %d: %s", pe,
                fds.size() != 1 ? "wrong number of descriptors" : std::strerror(errno));
    }
    for (int fd : fds) {
      ::close(fd);  // the mapping keeps the memory alive
    }
    return st;
  }

  void copy(void *dst, const void *src, size_t n) override { std::memcpy(dst, src, n); }
  void zero(void *dst, size_t n) override { std::memset(dst, 0, n); }
  uint64_t amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b) override {
    (void)is_float;  // bits: the CPU's integer atomics serve floats of the same size (no float add here)
    return host_amo(op, target, size, a, b);
  }

  void release(size_t offset, size_t length) override {
    // Peers that map the same memory see zeros there; the range is free on every PE.
    ::madvise(reinterpret_cast<void *>(base_ + offset), length, MADV_REMOVE);
  }

  void destroy() override {
    if (fd_ >= 0) {
      ::close(fd_);
      fd_ = -1;
    }
    base_ = 0;
  }

 private:
  host_reserver reserver_;
  int fd_ = -1;
  uintptr_t base_ = 0;
};

}  // namespace

uint64_t host_amo(int op, void *target, unsigned size, uint64_t a, uint64_t b) {
  return size == 4 ? cpu_amo(op, static_cast<uint32_t *>(target), static_cast<uint32_t>(a), static_cast<uint32_t>(b))
                   : cpu_amo(op, static_cast<uint64_t *>(target), a, b);
}

std::unique_ptr<provider> make_host_provider() { return std::make_unique<host_provider>(); }

}  // namespace symmem::mem

