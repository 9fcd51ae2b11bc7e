// symmem: where the symmetric heap's memory comes from, and what its kind of memory needs.
//
// A provider backs [base, base+size) of this PE with physical memory, exports descriptors for
// node-local peers, and maps a peer's heap from the descriptors it exported. The host provider
// uses one memfd; the GPU provider (src/cuda/) uses CUDA VMM allocations with POSIX-fd handles.
// A provider is also the table of operations of its memory kind (copy, zero, atomic, quiesce,
// start and stop), so core/ calls the table and knows nothing of CUDA. Used at init, collective
// allocation and finalize, and off the hot paths; the data path's inline hits keep one cached bit
// of it (state.h: heap_on_cpu), since a virtual call per put would double a node-local put's cost.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "common/error.h"
#include "mem/vaspace.h"

namespace symmem::mem {

// Atomic operations of provider::amo.
enum amo_op : int { amo_fetch, amo_set, amo_swap, amo_cas, amo_add, amo_and, amo_or, amo_xor };

class provider {
 public:
  virtual ~provider() = default;
  [[nodiscard]] virtual const char *kind() const = 0;  // "host" or "gpu"
  // True when the CPU can load and store heap memory directly (host heap).
  [[nodiscard]] virtual bool cpu_accessible() const = 0;
  // Bytes of address space a heap of `user_bytes` reserves (the GPU heap reserves more: it commits
  // memory as allocated, and NVSHMEM programs expect the heap to grow past the symmetric size).
  [[nodiscard]] virtual size_t address_bytes(size_t user_bytes) const { return user_bytes; }
  // Address-space reservation used to agree on one heap address across PEs.
  virtual reserver &address_space() = 0;
  // Backs [base, base+size), already reserved at the agreed address, with this PE's memory.
  virtual status create(uintptr_t base, size_t size) = 0;
  // Descriptors that let a node-local peer map this PE's heap (owned by the provider).
  [[nodiscard]] virtual std::vector<int> export_fds() const = 0;
  // Maps a peer's heap at `at` (size bytes, reserved by the caller) from its descriptors. Takes
  // ownership of the descriptors (closes them).
  virtual status map_peer(int pe, uintptr_t at, size_t size, std::vector<int> fds) = 0;
  // A collective allocation will use [offset, offset+length): back it with memory on every PE
  // (the GPU heap commits granules here and hands them to node-local peers; collective).
  virtual status commit(size_t offset, size_t length) {
    (void)offset;
    (void)length;
    return ok_status;
  }
  // The allocator emptied [offset, offset+length) of this PE's heap: give its memory back.
  virtual void release(size_t offset, size_t length) = 0;
  // Copies between any two addresses of this process, heap memory of this kind or host memory
  // (host heap: memcpy; GPU heap: the copy engine). Completes before it returns.
  virtual void copy(void *dst, const void *src, size_t n) = 0;
  // The same, but it may return before the copy is done: `src` must stay valid and `dst` unread
  // until copy_wait (GPU heap: queued on the private stream). The default does it at once.
  virtual void copy_async(void *dst, const void *src, size_t n) { copy(dst, src, n); }
  virtual void copy_wait() {}
  // Host memory that copy_async copies to and from without waiting (GPU heap: pinned; to pageable
  // memory the driver's copy returns only once it is done). nullptr when none can be had.
  virtual void *host_buffer(size_t n) { return std::malloc(n); }
  virtual void host_buffer_free(void *p) { std::free(p); }
  // Zeroes n bytes of heap memory at dst (calloc).
  virtual void zero(void *dst, size_t n) = 0;
  // An atomic on heap memory (op: amo_op above; cas: a expected, b desired; 4 or 8 bytes, integer
  // bits or, is_float, a float or double), atomic with respect to every other atomic on the object
  // (host heap: the CPU's; GPU heap: system-scope device atomics). Returns the old value's bits.
  virtual uint64_t amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b) = 0;
  // Whether the CPU of this process can load and store [p, p+n): false for memory of this kind
  // it cannot reach (a GPU heap, and the program's own GPU buffers). The network path stages such
  // memory through host buffers (core/remote.cpp).
  [[nodiscard]] virtual bool cpu_reaches(const void *p, size_t n) const {
    (void)p;
    (void)n;
    return true;
  }
  // End of init, once node-local peers are mapped and the network transport is open (collective):
  // the kind's own state (GPU heap: the device sync area, the device state, the proxy).
  virtual status started() { return ok_status; }
  // Waits until no work of this PE on heap memory is outstanding (GPU heap: every stream of its
  // context), so a peer may read what it wrote (barrier_all, finalize).
  virtual void quiesce() {}
  // Before teardown: withdraws what started() set up.
  virtual void stopping() {}
  // Unmaps every peer mapping and this PE's memory; leaves the address range to the caller.
  virtual void destroy() = 0;
};

std::unique_ptr<provider> make_host_provider();
// The host kind's atomic (provider::amo's arguments, integer bits) on any host memory, such as the
// symmetric static data: the CPU's atomic instructions.
uint64_t host_amo(int op, void *target, unsigned size, uint64_t a, uint64_t b);

}  // namespace symmem::mem
