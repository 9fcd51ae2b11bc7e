#include "heap/allocator.h"

#include <algorithm>

namespace symmem::heap {
namespace {
size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }
}  // namespace

void allocator::reset(size_t begin, size_t end, size_t granule, size_t retain, size_t min_align, release_fn release) {
  clear();
  begin_ = begin;
  end_ = end;
  granule_ = granule;
  retain_ = retain;
  min_align_ = min_align;
  release_cb_ = std::move(release);
  size_t n = (end + granule - 1) / granule;
  live_.assign(n, 0);
  dirty_.assign(n, 0);
  queued_.assign(n, 0);
  if (end > begin) {
    blocks_.emplace(begin, block{end - begin, true});
    free_index_.emplace(end - begin, begin);
  }
}

void allocator::clear() {
  blocks_.clear();
  free_index_.clear();
  live_.clear();
  dirty_.clear();
  queued_.clear();
  retained_.clear();
  retained_count_ = 0;
  used_ = 0;
  begin_ = end_ = 0;
}

void allocator::insert_free(size_t off, size_t size) {
  blocks_[off] = block{size, true};
  free_index_.emplace(size, off);
}

void allocator::erase_free(size_t off, size_t size) { free_index_.erase({size, off}); }

std::optional<size_t> allocator::allocate(size_t size, size_t align) {
  // Sizes and alignments near SIZE_MAX would wrap in align_up (SIZE_MAX became a 0-byte block
  // that aliased the next allocation): anything larger than the heap fails here, before rounding.
  if (size > end_ - begin_ || align > end_ - begin_) {
    return std::nullopt;
  }
  align = std::max(align, min_align_);
  size = align_up(std::max<size_t>(size, 1), min_align_);
  // Best fit: the smallest free block that holds size bytes after aligning its start. Alignment
  // is of the address (origin + offset), not only of the offset.
  for (auto it = free_index_.lower_bound({size, 0}); it != free_index_.end(); ++it) {
    auto [bsize, boff] = *it;
    size_t start = align_up(origin_ + boff, align) - origin_;
    if (start - boff > bsize || size > bsize - (start - boff)) {
      continue;
    }
    // Reuse the index node for the tail (node handles): no allocation for the common case.
    auto node = free_index_.extract(it);
    if (start > boff) {  // the alignment gap stays free
      insert_free(boff, start - boff);
    }
    size_t tail = boff + bsize - (start + size);
    blocks_[start] = block{size, false};
    if (tail > 0) {
      blocks_.emplace_hint(blocks_.end(), start + size, block{tail, true});
      node.value() = {tail, start + size};
      free_index_.insert(std::move(node));
    }
    used_ += size;
    granules_used(start, size);
    return start;
  }
  return std::nullopt;
}

bool allocator::release(size_t offset) {
  auto it = blocks_.find(offset);
  if (it == blocks_.end() || it->second.free) {
    return false;
  }
  size_t off = offset;
  size_t size = it->second.size;
  used_ -= size;
  granules_freed(off, size);
  // Coalesce with the free neighbours on both sides; a neighbour's index node is reused for the
  // merged block.
  decltype(free_index_)::node_type node;
  auto next = std::next(it);
  if (next != blocks_.end() && next->second.free) {
    node = free_index_.extract({next->second.size, next->first});
    size += next->second.size;
    blocks_.erase(next);
  }
  if (it != blocks_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.free) {
      auto pn = free_index_.extract({prev->second.size, prev->first});
      if (node.empty()) node = std::move(pn);
      off = prev->first;
      size += prev->second.size;
      blocks_.erase(it);
      it = prev;
    }
  }
  it->second = block{size, true};
  if (node.empty()) {
    free_index_.emplace(size, off);
  } else {
    node.value() = {size, off};
    free_index_.insert(std::move(node));
  }
  return true;
}

std::optional<size_t> allocator::block_size(size_t offset) const {
  auto it = blocks_.find(offset);
  if (it == blocks_.end() || it->second.free) {
    return std::nullopt;
  }
  return it->second.size;
}

bool allocator::resize_in_place(size_t offset, size_t new_size) {
  auto it = blocks_.find(offset);
  if (it == blocks_.end() || it->second.free) {
    return false;
  }
  if (new_size > end_ - begin_) {
    return false;
  }
  new_size = align_up(std::max<size_t>(new_size, 1), min_align_);
  size_t old = it->second.size;
  if (new_size == old) {
    return true;
  }
  auto next = std::next(it);
  size_t next_free = (next != blocks_.end() && next->second.free) ? next->second.size : 0;
  if (new_size > old + next_free) {
    return false;
  }
  // Merge the following free block (if any) and cut the new tail from it.
  size_t avail = old + next_free;
  if (next_free > 0) {
    erase_free(next->first, next_free);
    blocks_.erase(next);
  }
  // Count the new extent in before the old one out: a granule the block keeps never reaches zero
  // live blocks, so it is not handed back (with SYMMEM_HEAP_RETAIN=0 that lost the block's bytes).
  granules_used(offset, new_size);
  granules_freed(offset, old);
  it->second.size = new_size;
  used_ = used_ - old + new_size;
  if (avail > new_size) {
    insert_free(offset + new_size, avail - new_size);
  }
  return true;
}

size_t allocator::largest_free() const { return free_index_.empty() ? 0 : free_index_.rbegin()->first; }

size_t allocator::committed_granules() const {
  return static_cast<size_t>(std::count(dirty_.begin(), dirty_.end(), uint8_t{1}));
}

void allocator::granules_used(size_t off, size_t size) {
  for (size_t g = off / granule_; g <= (off + size - 1) / granule_; ++g) {
    if (live_[g]++ == 0 && queued_[g] != 0) {
      --retained_count_;  // a retained granule is in use again
    }
    dirty_[g] = 1;
  }
}

void allocator::granules_freed(size_t off, size_t size) {
  for (size_t g = off / granule_; g <= (off + size - 1) / granule_; ++g) {
    if (--live_[g] == 0) {
      ++retained_count_;
      if (queued_[g] == 0) {
        queued_[g] = 1;
        retained_.push_back(g);
      }
    }
  }
  trim_retained();
}

void allocator::trim_retained() {
  // Hand back the oldest emptied granules beyond the retain budget. Entries whose granule is in
  // use again are dropped from the queue (they were already taken off the count).
  while (!retained_.empty() && retained_count_ * granule_ > retain_) {
    size_t g = retained_.front();
    retained_.pop_front();
    queued_[g] = 0;
    if (live_[g] != 0) {
      continue;
    }
    --retained_count_;
    if (dirty_[g] != 0) {
      dirty_[g] = 0;
      if (release_cb_) {
        release_cb_(g * granule_, granule_);
      }
    }
  }
}

}  // namespace symmem::heap
