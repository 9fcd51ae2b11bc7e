// symmem: checked size arithmetic for every size computed from user input.
//
// A count times an element size, a strided span, a team size times a block: any of them can wrap
// past SIZE_MAX when a caller passes a huge or negative count, and a wrapped size is small enough
// to pass a range check and then move the wrong bytes (or write into another PE's heap). Every
// such computation goes through these helpers instead of a bare `*` or `+`.
//
// Cost: one multiply with an overflow flag (`mul` + `jo` on x86-64), and for a constant element
// size one compare; the failure path is out of line.
#pragma once

#include <cstddef>
#include <optional>

#include "common/error.h"

namespace symmem {

// a * b, or nothing when it does not fit in size_t.
[[nodiscard]] inline std::optional<size_t> mul_size(size_t a, size_t b) {
  size_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// a + b, or nothing when it does not fit in size_t.
[[nodiscard]] inline std::optional<size_t> add_size(size_t a, size_t b) {
  size_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// Reports "<call>: <what> (a x b) does not fit in size_t ..." and ends the job.
[[noreturn]] void size_overflow(const char *call, size_t a, size_t b, const char *what);

// count * size for a data-path call: fatal (naming the call) when it wraps.
inline size_t bytes_of(size_t count, size_t size, const char *call,
                       const char *what = "the element count times the element size") {
  size_t r = 0;
  if (SYMMEM_UNLIKELY(__builtin_mul_overflow(count, size, &r))) size_overflow(call, count, size, what);
  return r;
}

// Bytes covered by n elements of `esize` bytes placed `stride` elements apart: the last element
// starts at (n - 1) * stride elements. n == 0 covers nothing. Fatal when it wraps.
inline size_t strided_span(size_t n, size_t stride, size_t esize, const char *call) {
  if (n == 0) return 0;
  size_t last = 0;
  size_t elems = 0;
  if (SYMMEM_UNLIKELY(__builtin_mul_overflow(n - 1, stride, &last) || __builtin_add_overflow(last, 1, &elems))) {
    size_overflow(call, n - 1, stride, "the strided span (elements - 1) times the stride");
  }
  return bytes_of(elems, esize, call, "the strided span times the element size");
}

}  // namespace symmem
