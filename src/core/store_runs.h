// Stores held in a staged batch, sent as few copies as their addresses allow (core/remote.cpp).
//
// A batch from another host may carry hundreds of small stores whose pieces make up one row but
// arrive out of address order (a kernel's warps post them in the order they run). Copied one by
// one into a GPU heap, each is a driver call. Here the held stores are sorted by address, stores
// that touch are joined into runs, their bytes gathered into one buffer (pinned memory, so the
// copies need not wait), and each run is one copy. Reordering is only allowed when no two stores
// overlap: otherwise the later must win, and the caller sends them as they came.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace symmem::core {

struct held_store {
  uint64_t addr;
  const void *src;  // valid until the stores are sent
  size_t len;       // > 0
};

// Fills `order` with the stores' indices by address (stable); false when two stores overlap or
// one is larger than `cap` (the gather buffer), so that they must be sent as they came.
inline bool sort_disjoint(const std::vector<held_store> &st, std::vector<uint32_t> &order, size_t cap) {
  order.resize(st.size());
  for (uint32_t i = 0; i < st.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&st](uint32_t a, uint32_t b) { return st[a].addr < st[b].addr; });
  for (size_t i = 0; i < order.size(); ++i) {
    const held_store &b = st[order[i]];
    if (b.len > cap) return false;
    if (i > 0) {
      const held_store &a = st[order[i - 1]];
      if (a.len > b.addr - a.addr) return false;  // a.addr <= b.addr: a reaches into b
    }
  }
  return true;
}

// Gathers the stores, in `order` (from sort_disjoint), into buf[0, cap) and calls copy(addr,
// from, len) once per run of stores that touch; when buf is full, wait() (the copies issued so far
// have read it) and it starts over. Returns the number of copies.
template <typename Copy, typename Wait>
size_t gather_runs(const std::vector<held_store> &st, const std::vector<uint32_t> &order, char *buf, size_t cap,
                   Copy &&copy, Wait &&wait) {
  size_t at = 0, run_at = 0, copies = 0;
  uint64_t run_addr = 0, run_end = 0;
  bool open = false;
  auto close = [&] {
    if (open) copy(run_addr, buf + run_at, static_cast<size_t>(run_end - run_addr)), ++copies;
    open = false;
  };
  for (uint32_t i : order) {
    const held_store &h = st[i];
    if (at + h.len > cap) {  // full: send what it holds and wait until the copies have read it
      close();
      wait();
      at = 0;
    }
    if (!open || h.addr != run_end) {
      close();
      open = true;
      run_addr = run_end = h.addr;
      run_at = at;
    }
    std::memcpy(buf + at, h.src, h.len);
    at += h.len;
    run_end += h.len;
  }
  close();
  return copies;
}

}  // namespace symmem::core
