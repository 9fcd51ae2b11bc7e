// symmem: the deterministic allocator over heap offsets.
//
// Every PE runs the same sequence of collective allocations, so a purely local allocator hands out
// the same offsets everywhere with no communication. Best fit over a size-ordered free index with
// coalescing (ties broken by lowest offset, so the choice never depends on anything but the
// sequence of calls). Metadata lives outside the heap: a user's stray write cannot corrupt it.
//
// Granules: the heap is committed on demand by the kernel as pages are touched. When every
// allocation in a granule is gone the granule is "empty"; up to `retain` bytes of empty granules
// stay committed for reuse (so malloc+free loops cost no system call), the rest are handed back
// through the release callback.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace symmem::heap {

class allocator {
 public:
  using release_fn = std::function<void(size_t offset, size_t length)>;

  // Manages [begin, end); granule is a power of two; min_align a power of two.
  void reset(size_t begin, size_t end, size_t granule, size_t retain, size_t min_align, release_fn release);
  void clear();
  // The address of offset 0: alignments are of addresses (the same on every PE: the heap has one
  // address everywhere). 0 by default.
  void set_origin(uintptr_t origin) { origin_ = origin; }

  // Returns the offset of a block of at least `size` bytes aligned to `align`, or nullopt.
  std::optional<size_t> allocate(size_t size, size_t align);
  // Frees the block starting at `offset`; false when no allocated block starts there.
  bool release(size_t offset);
  // Size of the allocated block at `offset`, or nullopt.
  [[nodiscard]] std::optional<size_t> block_size(size_t offset) const;
  // Grows or shrinks the block at `offset` in place when the following space allows.
  bool resize_in_place(size_t offset, size_t new_size);

  [[nodiscard]] size_t used_bytes() const { return used_; }
  [[nodiscard]] size_t free_bytes() const { return (end_ - begin_) - used_; }
  [[nodiscard]] size_t largest_free() const;
  [[nodiscard]] size_t committed_granules() const;  // granules that may hold committed pages

 private:
  struct block {
    size_t size;
    bool free;
  };
  void insert_free(size_t off, size_t size);
  void erase_free(size_t off, size_t size);
  void granules_used(size_t off, size_t size);
  void granules_freed(size_t off, size_t size);
  void trim_retained();

  size_t begin_ = 0;
  size_t end_ = 0;
  size_t granule_ = 0;
  size_t retain_ = 0;
  size_t min_align_ = 64;
  size_t used_ = 0;
  uintptr_t origin_ = 0;
  std::map<size_t, block> blocks_;                 // by offset: every block, free or not
  std::set<std::pair<size_t, size_t>> free_index_;  // (size, offset) of free blocks
  std::vector<uint32_t> live_;                      // allocations touching each granule
  std::vector<uint8_t> dirty_;                      // granule may hold committed pages
  std::vector<uint8_t> queued_;                     // granule is in retained_
  std::deque<size_t> retained_;                     // emptied dirty granules, oldest first
  size_t retained_count_ = 0;                       // queued granules that are empty now
  release_fn release_cb_;
};

}  // namespace symmem::heap
