#include "mem/vaspace.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <vector>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

namespace symmem::mem {
namespace {
constexpr int reserve_flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE;
constexpr int max_rounds = 8;
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

bool make_guard(uintptr_t addr, size_t size) {
  void *p = ::mmap(reinterpret_cast<void *>(addr), size, PROT_NONE, reserve_flags | MAP_FIXED, -1, 0);
  return p != MAP_FAILED;
}

status agree_on_address(boot::bootstrap &b, reserver &r, size_t size, size_t align, uintptr_t &out) {
  const auto n = static_cast<size_t>(b.size());
  uintptr_t mine = r.propose(size, align);
  std::vector<uintptr_t> proposals(n);
  SYMMEM_TRY(b.allgather(&mine, proposals.data(), sizeof mine, "init"));
  std::vector<uint8_t> oks(n);
  for (size_t round = 0; round < n && round < static_cast<size_t>(max_rounds); ++round) {
    uintptr_t cand = proposals[round];
    bool ok = cand != 0 && (cand == mine || r.try_at(cand, size));
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
      log(log_level::info, "%s at %#lx (%zu bytes), the proposal of PE %zu", r.what(),
          static_cast<unsigned long>(cand), size, round);
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
              "no virtual address range of %zu bytes is free on every PE for the %s after %d tries; "
              "lower SYMMEM_SYMMETRIC_SIZE",
              size, r.what(), max_rounds);
}

}  // namespace symmem::mem
