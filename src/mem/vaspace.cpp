#include "mem/vaspace.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace symmem::mem {
namespace {
constexpr int reserve_flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
}  // namespace

uintptr_t reserve_anywhere(size_t size, size_t align) {
  size_t span = size + align;
  void *p = ::mmap(nullptr, span, PROT_NONE, reserve_flags, -1, 0);
  if (p == MAP_FAILED) {
    return 0;
  }
  auto start = reinterpret_cast<uintptr_t>(p);
  uintptr_t aligned = (start + align - 1) & ~(static_cast<uintptr_t>(align) - 1);
  // Trim the unaligned head and the tail so exactly [aligned, aligned+size) stays reserved.
  if (aligned > start) {
    ::munmap(p, aligned - start);
  }
  uintptr_t end = aligned + size;
  if (start + span > end) {
    ::munmap(reinterpret_cast<void *>(end), start + span - end);
  }
  return aligned;
}

uintptr_t host_reserver::propose(size_t size, size_t align) { return reserve_anywhere(size, align); }

bool host_reserver::try_at(uintptr_t addr, size_t size) {
  void *want = reinterpret_cast<void *>(addr);
  void *p = ::mmap(want, size, PROT_NONE, reserve_flags | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED) {
    return false;
  }
  if (p != want) {  // a kernel without MAP_FIXED_NOREPLACE treats it as a hint
    ::munmap(p, size);
    return false;
  }
  return true;
}

void host_reserver::release(uintptr_t addr, size_t size) { unmap(addr, size); }

void unmap(uintptr_t addr, size_t size) {
  if (addr != 0 && size != 0) {
    ::munmap(reinterpret_cast<void *>(addr), size);
  }
}

void populate(const void *addr, size_t size) {
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14
#endif
  const uintptr_t at = reinterpret_cast<uintptr_t>(addr);
  const uintptr_t page = at & ~(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
  (void)::madvise(reinterpret_cast<void *>(page), size + (at - page), MADV_POPULATE_WRITE);
}

bool make_guard(uintptr_t addr, size_t size) {
  void *p = ::mmap(reinterpret_cast<void *>(addr), size, PROT_NONE, reserve_flags | MAP_FIXED, -1, 0);
  return p != MAP_FAILED;
}

namespace {

uint64_t mix64(uint64_t x) {  // splitmix64: spreads the shared seed over the address range
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Candidate `round`: first the PEs' own proposals, then addresses drawn from a seed every PE
// computes alike (a hash of all proposals) in the shared-candidate window (vaspace.h).
// Two PEs whose mmap areas start within a heap's size of each other take each other's proposals,
// which is why the proposals alone are not enough (seen in about one init in a few hundred).
uintptr_t candidate(const std::vector<uintptr_t> &proposals, size_t round, size_t align) {
  const size_t first = std::min<size_t>(proposals.size(), 4);
  if (round < first) {
    return proposals[round];
  }
  uint64_t seed = 0;
  for (uintptr_t p : proposals) {
    seed = mix64(seed ^ p);
  }
  const address_window win = shared_candidate_window();
  const uint64_t slots = (win.hi - win.lo) / align;
  return static_cast<uintptr_t>(win.lo + (mix64(seed + round) % slots) * align);
}

constexpr size_t max_candidates = 24;

}  // namespace

address_window shared_candidate_window() {
#if defined(__SANITIZE_THREAD__)
  return {uintptr_t{0x550000000000}, uintptr_t{0x568000000000}};  // 85 .. 86.5 TiB
#else
  return {uintptr_t{16} << 40, uintptr_t{80} << 40};
#endif
}

status agree_on_address(boot::bootstrap &b, reserver &r, size_t size, size_t align, uintptr_t &out) {
  const auto n = static_cast<size_t>(b.size());
  uintptr_t mine = r.propose(size, align);
  std::vector<uintptr_t> proposals(n);
  SYMMEM_TRY(b.allgather(&mine, proposals.data(), sizeof mine, "init"));
  std::vector<uint8_t> oks(n);
  for (size_t round = 0; round < max_candidates; ++round) {
    const uintptr_t cand = candidate(proposals, round, align);
    bool ok = cand != 0 && (cand == mine || r.try_at(cand, size));
    log(log_level::trace, "%s: candidate %zu at %#lx (%zu bytes): %s here", r.what(), round,
        static_cast<unsigned long>(cand), size, ok ? "free" : "taken");
    uint8_t flag = ok ? 1 : 0;
    SYMMEM_TRY(b.allgather(&flag, oks.data(), 1, "init"));
    bool all = true;
    for (uint8_t f : oks) {
      all = all && f != 0;
    }
    if (all) {
      if (mine != 0 && mine != cand) {
        r.release(mine, size);
      }
      out = cand;
      log(log_level::info, "%s at %#lx (%zu bytes), candidate %zu", r.what(), static_cast<unsigned long>(cand),
          size, round);
      return ok_status;
    }
    if (ok && cand != mine) {
      r.release(cand, size);
    }
  }
  if (mine != 0) {
    r.release(mine, size);
  }
  return fail(SYMMEM_ERR_OUT_OF_MEMORY, "init",
              "no virtual address range of %zu bytes is free on every PE for the %s after %zu tries; "
              "lower SYMMEM_SYMMETRIC_SIZE",
              size, r.what(), max_candidates);
}

}  // namespace symmem::mem
