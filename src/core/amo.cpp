// symmem: atomics on node-local peers through std::atomic_ref on the mapped heap. Lock-free for
// every OpenSHMEM AMO type on the platforms symmem targets (checked at compile time), so AMOs from
// different PEs, and from the target's own loads, are atomic with respect to each other.
#include <atomic>

#include "core/state.h"

namespace symmem::core {
namespace {

template <typename T>
inline std::atomic_ref<T> at(T *dest, int pe, const char *call) {
  static_assert(std::atomic_ref<T>::is_always_lock_free, "AMO type must be lock-free");
  return std::atomic_ref<T>(*reinterpret_cast<T *>(translate(dest, sizeof(T), pe, call)));
}

template <typename T>
inline T cas(T *dest, T cond, T value, int pe, const char *call) {
  T expected = cond;
  at(dest, pe, call).compare_exchange_strong(expected, value, std::memory_order_acq_rel, std::memory_order_acquire);
  return expected;  // the old value, whether or not it was swapped
}

}  // namespace
}  // namespace symmem::core

using namespace symmem::core;

extern "C" {

#define SYMMEM_DEF_AMO_EXT(T, N)                                                                     \
  T symmem_##N##_atomic_fetch(const T *source, int pe) {                                            \
    return at(const_cast<T *>(source), pe, #N "_atomic_fetch").load(std::memory_order_acquire);      \
  }                                                                                                  \
  void symmem_##N##_atomic_set(T *dest, T value, int pe) {                                          \
    at(dest, pe, #N "_atomic_set").store(value, std::memory_order_release);                          \
  }                                                                                                  \
  T symmem_##N##_atomic_swap(T *dest, T value, int pe) {                                            \
    return at(dest, pe, #N "_atomic_swap").exchange(value, std::memory_order_acq_rel);               \
  }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_DEF_AMO_EXT)
#undef SYMMEM_DEF_AMO_EXT

#define SYMMEM_DEF_AMO_STD(T, N)                                                                     \
  T symmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe) {                            \
    return cas(dest, cond, value, pe, #N "_atomic_compare_swap");                                    \
  }                                                                                                  \
  T symmem_##N##_atomic_fetch_inc(T *dest, int pe) {                                                \
    return at(dest, pe, #N "_atomic_fetch_inc").fetch_add(static_cast<T>(1), std::memory_order_acq_rel);         \
  }                                                                                                  \
  void symmem_##N##_atomic_inc(T *dest, int pe) {                                                   \
    at(dest, pe, #N "_atomic_inc").fetch_add(static_cast<T>(1), std::memory_order_acq_rel);                       \
  }                                                                                                  \
  T symmem_##N##_atomic_fetch_add(T *dest, T value, int pe) {                                       \
    return at(dest, pe, #N "_atomic_fetch_add").fetch_add(value, std::memory_order_acq_rel);         \
  }                                                                                                  \
  void symmem_##N##_atomic_add(T *dest, T value, int pe) {                                          \
    at(dest, pe, #N "_atomic_add").fetch_add(value, std::memory_order_acq_rel);                      \
  }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_DEF_AMO_STD)
#undef SYMMEM_DEF_AMO_STD

#define SYMMEM_DEF_AMO_BIT(T, N)                                                                     \
  T symmem_##N##_atomic_fetch_and(T *dest, T value, int pe) {                                       \
    return at(dest, pe, #N "_atomic_fetch_and").fetch_and(value, std::memory_order_acq_rel);         \
  }                                                                                                  \
  void symmem_##N##_atomic_and(T *dest, T value, int pe) {                                          \
    at(dest, pe, #N "_atomic_and").fetch_and(value, std::memory_order_acq_rel);                      \
  }                                                                                                  \
  T symmem_##N##_atomic_fetch_or(T *dest, T value, int pe) {                                        \
    return at(dest, pe, #N "_atomic_fetch_or").fetch_or(value, std::memory_order_acq_rel);           \
  }                                                                                                  \
  void symmem_##N##_atomic_or(T *dest, T value, int pe) {                                           \
    at(dest, pe, #N "_atomic_or").fetch_or(value, std::memory_order_acq_rel);                        \
  }                                                                                                  \
  T symmem_##N##_atomic_fetch_xor(T *dest, T value, int pe) {                                       \
    return at(dest, pe, #N "_atomic_fetch_xor").fetch_xor(value, std::memory_order_acq_rel);         \
  }                                                                                                  \
  void symmem_##N##_atomic_xor(T *dest, T value, int pe) {                                          \
    at(dest, pe, #N "_atomic_xor").fetch_xor(value, std::memory_order_acq_rel);                      \
  }
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_DEF_AMO_BIT)
#undef SYMMEM_DEF_AMO_BIT

}  // extern "C"
