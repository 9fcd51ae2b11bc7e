// symmem: collective allocation. Each call synchronises once on entry (that sync also checks the
// arguments of every PE); the allocation itself is local and deterministic (heap/allocator.h).
#include <cstring>
#include <optional>

#include "common/checked.h"
#include "core/remote.h"
#include "core/state.h"
#include "core/sync.h"

namespace symmem::core {
namespace {

bool is_pow2(size_t v) { return v != 0 && (v & (v - 1)) == 0; }

const char *size_var() {
  return g.cfg.heap_bytes_source == "default" ? "SYMMEM_SYMMETRIC_SIZE (or NVSHMEM_SYMMETRIC_SIZE)"
                                              : g.cfg.heap_bytes_source.c_str();
}

void *allocate(size_t size, size_t align, const char *call) {
  std::optional<size_t> off;
  {
    std::lock_guard<core::spinlock> lock(g.alloc_mutex);
    off = g.alloc.allocate(size, align);
  }
  if (!off) {
    (void)fail(SYMMEM_ERR_OUT_OF_MEMORY, call,
               "the symmetric heap is out of memory: %zu bytes asked, %zu bytes free of %zu (largest free block %zu); "
               "raise %s (now %zu bytes)",
               size, g.alloc.free_bytes(), g.heap_size, g.alloc.largest_free(), size_var(),
               g.user_bytes);
    return nullptr;
  }
  // The GPU heap backs new granules now, on every PE together (collective; the host heap: no-op);
  // the network transport registers the granules it has not registered yet.
  if (!g.heap->commit(*off, size).ok() || !remote_commit(*off, size, call).ok()) {
    std::lock_guard<core::spinlock> lock(g.alloc_mutex);
    g.alloc.release(*off);
    return nullptr;
  }
  log(log_level::trace, "%s: done", call);
  return reinterpret_cast<void *>(g.heap_base + *off);
}

// Where a pointer handed back by the user sits; false (with the error reported) when it is not
// the start of a live allocation.
bool find_block(const void *ptr, const char *call, size_t &offset, size_t &size) {
  auto a = reinterpret_cast<uintptr_t>(ptr);
  if (a < g.heap_base || a >= g.heap_base + g.heap_size) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
               "%p is not in the symmetric heap (%#lx..%#lx); pass a pointer returned by symmem_malloc. Nothing "
               "was freed",
               ptr, static_cast<unsigned long>(g.heap_base),
               static_cast<unsigned long>(g.heap_base + g.heap_size));
    return false;
  }
  offset = a - g.heap_base;
  std::lock_guard<core::spinlock> lock(g.alloc_mutex);
  std::optional<size_t> s = g.alloc.block_size(offset);
  if (!s) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
               "%p is not the start of a live allocation (already freed, or inside a block); nothing was freed", ptr);
    return false;
  }
  size = *s;
  return true;
}

void *checked_alloc(call_id id, size_t size, size_t align, const char *call) {
  require_init(call);
  call_record rec{id, 1, size, align};
  log(log_level::trace, "%s: %zu bytes: entered", call, size);
  if (!collective_sync(rec, call).ok()) {
    return nullptr;
  }
  log(log_level::trace, "%s: every PE has entered", call);
  if (!is_pow2(align)) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "alignment %zu is not a power of two", align);
    return nullptr;
  }
  if (align > g.heap_size) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
               "alignment %zu is larger than the symmetric heap (%zu bytes): no block in it can have that "
               "alignment; pass a power of two up to the heap size",
               align, g.heap_size);
    return nullptr;
  }
  if (size == 0) {
    return nullptr;  // OpenSHMEM: a zero-byte allocation returns NULL (and is still collective)
  }
  return allocate(size, align, call);
}

status exit_sync(const char *call) {
  call_record rec{call_barrier_all, 1, 0, 0};
  return collective_sync(rec, call);
}

}  // namespace
}  // namespace symmem::core

using namespace symmem;
using symmem::core::g;

extern "C" {

void *symmem_malloc(size_t size) { return core::checked_alloc(core::call_malloc, size, core::min_alignment, "malloc"); }

void *symmem_align(size_t alignment, size_t size) {
  return core::checked_alloc(core::call_align, size, alignment, "align");
}

void *symmem_calloc(size_t count, size_t size) {
  core::require_init("calloc");
  std::optional<size_t> bytes = mul_size(count, size);
  if (!bytes) {
    // Still collective (every PE computes the same, so every PE fails alike, after the check).
    core::call_record rec{core::call_calloc, 1, SIZE_MAX, core::min_alignment};
    if (core::collective_sync(rec, "calloc").ok()) {
      (void)fail(SYMMEM_ERR_OUT_OF_MEMORY, "calloc",
                 "the symmetric heap is out of memory: %zu elements of %zu bytes are more than size_t can count "
                 "(the product wraps); no heap holds them",
                 count, size);
    }
    return nullptr;
  }
  const size_t total = *bytes;
  void *p = core::checked_alloc(core::call_calloc, total, core::min_alignment, "calloc");
  if (p != nullptr) {
    g.heap->zero(p, total);
  }
  // Nobody may write into a peer's new block before that peer has zeroed it.
  if (total != 0 && !core::exit_sync("calloc").ok()) {
    return nullptr;
  }
  return p;
}

void *symmem_realloc(void *ptr, size_t size) {
  core::require_init("realloc");
  // As in free: a pointer outside the heap is recorded as such (1: no heap pointer is odd), not by
  // value, which differs across PEs.
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  const bool in_heap = ptr == nullptr || (a >= g.heap_base && a < g.heap_base + g.heap_size);
  core::call_record rec{core::call_realloc, 1, size, in_heap ? a : 1u};
  if (!core::collective_sync(rec, "realloc").ok()) {
    return nullptr;
  }
  if (ptr == nullptr) {
    return size == 0 ? nullptr : core::allocate(size, core::min_alignment, "realloc");
  }
  size_t off = 0;
  size_t old = 0;
  if (!core::find_block(ptr, "realloc", off, old)) {
    return nullptr;
  }
  void *out = nullptr;
  if (size == 0) {
    std::lock_guard<core::spinlock> lock(g.alloc_mutex);
    g.alloc.release(off);
  } else {
    bool in_place = false;
    {
      std::lock_guard<core::spinlock> lock(g.alloc_mutex);
      in_place = g.alloc.resize_in_place(off, size);
    }
    if (in_place && !g.heap->commit(off, size).ok()) {
      return nullptr;  // a grown block whose new granules could not be backed (every PE fails alike)
    }
    out = in_place ? ptr : core::allocate(size, core::min_alignment, "realloc");
    if (!in_place && out != nullptr) {
      g.heap->copy(out, ptr, std::min(old, size));
      std::lock_guard<core::spinlock> lock(g.alloc_mutex);
      g.alloc.release(off);
    }
  }
  // Peers may write into the new block only after this PE has moved its contents there.
  if (!core::exit_sync("realloc").ok()) {
    return nullptr;
  }
  return out;
}

void symmem_free(void *ptr) {
  core::require_init("free");
  // A pointer outside the heap is recorded as such, not by value: stack or malloc addresses differ
  // across PEs, and the useful report is "not in the heap", not "the PEs disagree".
  const auto a = reinterpret_cast<uintptr_t>(ptr);
  const bool in_heap = ptr == nullptr || (a >= g.heap_base && a < g.heap_base + g.heap_size);
  core::call_record rec{core::call_free, 1, in_heap ? a : 0, in_heap ? 0u : 1u};
  if (!core::collective_sync(rec, "free").ok() || ptr == nullptr) {
    return;
  }
  if (!in_heap) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, "free",
               "%p is not in the symmetric heap (%#lx..%#lx); pass a pointer returned by symmem_malloc. Nothing "
               "was freed",
               ptr, static_cast<unsigned long>(g.heap_base), static_cast<unsigned long>(g.heap_base + g.heap_size));
    return;
  }
  bool released = false;
  {
    std::lock_guard<core::spinlock> lock(g.alloc_mutex);
    released = g.alloc.release(a - g.heap_base);  // one lookup: validates and frees
  }
  if (!released) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, "free",
               "%p is not the start of a live allocation (already freed, or inside a block); nothing was freed", ptr);
  }
}

void symmem_heap_usage(size_t *used, size_t *free_bytes) {
  core::require_init("heap_usage");
  std::lock_guard<core::spinlock> lock(g.alloc_mutex);
  if (used) *used = g.alloc.used_bytes();
  if (free_bytes) *free_bytes = g.alloc.free_bytes();
}

// Whether PE pe's copy of symmetric address addr is mapped into this process (loads and stores).
static bool mapped_here(const void *addr, int pe) {
  const auto a = reinterpret_cast<uintptr_t>(addr);
  if (a - g.heap_base < g.heap_size) {
    return g.peer_base[pe] != nullptr;
  }
  return a - g.data_lo < g.data_len && g.data_peer[pe] != nullptr;  // a global or static variable
}

void *symmem_ptr(const void *dest, int pe) {
  core::require_init("ptr");
  if (pe == g.my_pe) {
    return const_cast<void *>(dest);
  }
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(g.n_pes) || !mapped_here(dest, pe)) {
    return nullptr;  // a PE on another host: reachable by RMA, not by loads and stores
  }
  return core::translate(dest, 1, pe, "ptr");
}

// OpenSHMEM: whether the PE (an address on it) can be reached by the data transfer routines, which
// includes PEs on other hosts when the job has a network transport.
int symmem_pe_accessible(int pe) {
  core::require_init("pe_accessible");
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(g.n_pes)) {
    return 0;
  }
  return (g.peer_base[pe] != nullptr || core::is_remote(pe)) ? 1 : 0;
}

int symmem_addr_accessible(const void *addr, int pe) {
  core::require_init("addr_accessible");
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(g.n_pes)) {
    return 0;
  }
  const auto a = reinterpret_cast<uintptr_t>(addr);
  const bool symmetric = a - g.heap_base < g.heap_size || a - g.data_lo < g.data_len;
  return symmetric && (mapped_here(addr, pe) || core::is_remote(pe)) ? 1 : 0;
}

}  // extern "C"
