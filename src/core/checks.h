// symmem: argument checks shared by atomics, waits, signals and locks: the object must be
// symmetric (another PE can reach it only there) and naturally aligned (an atomic access that
// straddles two cache lines is not atomic). The failure paths are out of line (checks.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/checked.h"
#include "core/state.h"

namespace symmem::core {

[[noreturn]] void misaligned(const void *addr, size_t align, const char *call);
[[noreturn]] void null_argument(const char *arg, const char *call);

// Fatal unless `addr` is a multiple of `align` (a power of two).
inline void require_aligned(const void *addr, size_t align, const char *call) {
  if (SYMMEM_UNLIKELY((reinterpret_cast<uintptr_t>(addr) & (align - 1)) != 0)) misaligned(addr, align, call);
}

// This PE's own symmetric object of `count` elements of T that a wait or test reads: fatal when
// it is not symmetric, runs past the heap, or is not aligned (count > 0). Returns where to read it.
template <typename T>
T *own_symmetric(T *addr, size_t count, const char *call) {
  T *p = reinterpret_cast<T *>(translate(addr, bytes_of(count, sizeof(T), call), g.my_pe, call));
  require_aligned(addr, alignof(T), call);
  return p;
}

}  // namespace symmem::core
