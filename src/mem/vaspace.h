// symmem: one virtual address for the heap on every PE.
//
// Each PE proposes an address (a reservation the kernel chose for it), the proposals are
// allgathered, and the PEs try them in rank order until one is free on every PE. A pointer stored
// inside the heap is then valid on every PE. The host heap uses mmap reservations; the GPU heap
// plugs cuMemAddressReserve in through the same reserver interface.
#pragma once

#include <cstddef>
#include <cstdint>

#include "bootstrap/bootstrap.h"

namespace symmem::mem {

class reserver {
 public:
  virtual ~reserver() = default;
  // Reserves size bytes aligned to align anywhere; returns 0 on failure.
  virtual uintptr_t propose(size_t size, size_t align) = 0;
  // Reserves exactly [addr, addr+size); false when any part is taken.
  virtual bool try_at(uintptr_t addr, size_t size) = 0;
  virtual void release(uintptr_t addr, size_t size) = 0;
  [[nodiscard]] virtual const char *what() const = 0;  // "host heap", "GPU heap"
};

// Where the PEs look together when none of their own proposals is free on every PE: a window far
// from where Linux puts the program (~85 TiB up) and the mmap area (~127 TiB down), so almost
// surely free on every PE: [16 TiB, 80 TiB). Under ThreadSanitizer only a few windows of the
// address space may hold the program's mappings (its shadow takes the rest; its mmap interceptor
// turns an address outside them into 0, which MAP_FIXED_NOREPLACE then maps for root, and TSan
// ends the process): there it is the window of position-independent programs, 85 .. 86.5 TiB,
// which holds only the program's own few megabytes.
struct address_window {
  uintptr_t lo, hi;
};
address_window shared_candidate_window();

// Collective over the bootstrap: on success every PE holds a reservation at the same `out`.
status agree_on_address(boot::bootstrap &b, reserver &r, size_t size, size_t align, uintptr_t &out);

// Host reservations: PROT_NONE, MAP_NORESERVE (address space only).
class host_reserver final : public reserver {
 public:
  uintptr_t propose(size_t size, size_t align) override;
  bool try_at(uintptr_t addr, size_t size) override;
  void release(uintptr_t addr, size_t size) override;
  [[nodiscard]] const char *what() const override { return "host heap"; }
};

// Reserves a private range anywhere (the window that holds peers' heaps); 0 on failure.
uintptr_t reserve_anywhere(size_t size, size_t align);
// Replaces [addr, addr+size) with an inaccessible reservation (the guard left after finalize).
bool make_guard(uintptr_t addr, size_t size);
void unmap(uintptr_t addr, size_t size);
// Makes the pages of [addr, addr+size) now, as writes would, without changing what they hold (one
// MADV_POPULATE_WRITE instead of a page fault at each page's first write; nothing on kernels
// before Linux 5.14). addr need not be page-aligned.
void populate(const void *addr, size_t size);

}  // namespace symmem::mem
