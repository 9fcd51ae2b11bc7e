// symmem: the C++ API.
//
//   symmem::runtime rt;                         // init; finalize when it goes out of scope
//   symmem::sym_array<long> a(1024);            // collective allocation, freed collectively
//   symmem::put(a.data(), std::span(local), (rt.my_pe() + 1) % rt.n_pes());
//   long old = symmem::atomic_fetch_add(a.data(), 1L, 0);
//   rt.barrier_all();
//
// Templates instead of one function per type; failures throw symmem::error carrying the same
// message the C API prints.
#pragma once

#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "symmem/symmem.h"

namespace symmem {

class error : public std::runtime_error {
 public:
  error(int code, const std::string &what) : std::runtime_error(what), code_(code) {}
  [[nodiscard]] int code() const noexcept { return code_; }

 private:
  int code_;
};

namespace detail {
inline void check(int rc) {
  if (rc != SYMMEM_SUCCESS) {
    std::string msg = symmem_last_error();
    throw error(rc, msg.empty() ? symmem_error_string(rc) : msg);
  }
}
}  // namespace detail

enum class thread_level : int {
  single = SYMMEM_THREAD_SINGLE,
  funneled = SYMMEM_THREAD_FUNNELED,
  serialized = SYMMEM_THREAD_SERIALIZED,
  multiple = SYMMEM_THREAD_MULTIPLE
};

enum class cmp : int {
  eq = SYMMEM_CMP_EQ,
  ne = SYMMEM_CMP_NE,
  gt = SYMMEM_CMP_GT,
  ge = SYMMEM_CMP_GE,
  lt = SYMMEM_CMP_LT,
  le = SYMMEM_CMP_LE
};

// Owns one init..finalize of the library (collective).
class runtime {
 public:
  explicit runtime(thread_level level = thread_level::single) {
    int provided = 0;
    detail::check(symmem_init_thread(static_cast<int>(level), &provided));
    provided_ = static_cast<thread_level>(provided);
  }
  ~runtime() { symmem_finalize(); }
  runtime(const runtime &) = delete;
  runtime &operator=(const runtime &) = delete;

  [[nodiscard]] int my_pe() const { return symmem_my_pe(); }
  [[nodiscard]] int n_pes() const { return symmem_n_pes(); }
  [[nodiscard]] thread_level provided() const { return provided_; }
  void barrier_all() const { symmem_barrier_all(); }
  void sync_all() const { symmem_sync_all(); }
  void quiet() const { symmem_quiet(); }
  void fence() const { symmem_fence(); }

 private:
  thread_level provided_ = thread_level::single;
};

// A symmetric array of n elements on every PE (collective to create and to destroy).
template <typename T>
class sym_array {
  static_assert(std::is_trivially_copyable_v<T>, "symmetric memory holds trivially copyable types");

 public:
  explicit sym_array(size_t n) : n_(n) {
    data_ = static_cast<T *>(symmem_malloc(n * sizeof(T)));
    if (data_ == nullptr && n != 0) {
      detail::check(symmem_last_error_code() != SYMMEM_SUCCESS ? symmem_last_error_code() : SYMMEM_ERR_OUT_OF_MEMORY);
    }
  }
  ~sym_array() {
    if (data_ != nullptr) {
      symmem_free(data_);
    }
  }
  sym_array(const sym_array &) = delete;
  sym_array &operator=(const sym_array &) = delete;
  sym_array(sym_array &&o) noexcept : data_(std::exchange(o.data_, nullptr)), n_(std::exchange(o.n_, 0)) {}

  [[nodiscard]] T *data() const { return data_; }
  [[nodiscard]] size_t size() const { return n_; }
  [[nodiscard]] std::span<T> local() const { return {data_, n_}; }
  T &operator[](size_t i) const { return data_[i]; }

 private:
  T *data_ = nullptr;
  size_t n_ = 0;
};

// ---- RMA ------------------------------------------------------------------------------------------
template <typename T>
void put(T *dest, std::span<const T> src, int pe) {
  symmem_putmem(dest, src.data(), src.size_bytes(), pe);
}
template <typename T>
void get(std::span<T> dest, const T *src, int pe) {
  symmem_getmem(dest.data(), src, dest.size_bytes(), pe);
}
template <typename T>
void p(T *dest, T value, int pe) {
  symmem_putmem(dest, &value, sizeof(T), pe);
}
template <typename T>
T g(const T *src, int pe) {
  T v;
  symmem_getmem(&v, src, sizeof(T), pe);
  return v;
}

// ---- atomics and waits: one trait per type maps onto the typed C routines ------------------------
namespace detail {
template <typename T>
struct amo;
#define SYMMEM_CXX_AMO(T, N)                                                                          \
  template <>                                                                                         \
  struct amo<T> {                                                                                     \
    static T fetch(const T *s, int pe) { return symmem_##N##_atomic_fetch(s, pe); }                  \
    static void set(T *d, T v, int pe) { symmem_##N##_atomic_set(d, v, pe); }                       \
    static T swap(T *d, T v, int pe) { return symmem_##N##_atomic_swap(d, v, pe); }                  \
  };
SYMMEM_GEN_AMO_EXT_TYPES(SYMMEM_CXX_AMO)
#undef SYMMEM_CXX_AMO
template <typename T>
struct amo_std;
#define SYMMEM_CXX_AMO_STD(T, N)                                                                      \
  template <>                                                                                         \
  struct amo_std<T> {                                                                                 \
    static T cswap(T *d, T c, T v, int pe) { return symmem_##N##_atomic_compare_swap(d, c, v, pe); } \
    static T fadd(T *d, T v, int pe) { return symmem_##N##_atomic_fetch_add(d, v, pe); }             \
  };
SYMMEM_GEN_AMO_STD_TYPES(SYMMEM_CXX_AMO_STD)
#undef SYMMEM_CXX_AMO_STD
template <typename T>
struct wait;
#define SYMMEM_CXX_WAIT(T, N)                                                                         \
  template <>                                                                                         \
  struct wait<T> {                                                                                    \
    static void until(T *v, int c, T x) { symmem_##N##_wait_until(v, c, x); }                       \
    static int test(T *v, int c, T x) { return symmem_##N##_test(v, c, x); }                         \
  };
SYMMEM_GEN_P2P_TYPES(SYMMEM_CXX_WAIT)
#undef SYMMEM_CXX_WAIT
}  // namespace detail

template <typename T>
T atomic_fetch(const T *src, int pe) { return detail::amo<T>::fetch(src, pe); }
template <typename T>
void atomic_set(T *dest, T v, int pe) { detail::amo<T>::set(dest, v, pe); }
template <typename T>
T atomic_swap(T *dest, T v, int pe) { return detail::amo<T>::swap(dest, v, pe); }
template <typename T>
T atomic_compare_swap(T *dest, T cond, T v, int pe) { return detail::amo_std<T>::cswap(dest, cond, v, pe); }
template <typename T>
T atomic_fetch_add(T *dest, T v, int pe) { return detail::amo_std<T>::fadd(dest, v, pe); }
template <typename T>
void wait_until(T *ivar, cmp c, T v) { detail::wait<T>::until(ivar, static_cast<int>(c), v); }
template <typename T>
bool test(T *ivar, cmp c, T v) { return detail::wait<T>::test(ivar, static_cast<int>(c), v) != 0; }

// Address of `dest` on PE `pe` for direct loads and stores, or nullptr when not reachable so.
template <typename T>
T *ptr(T *dest, int pe) {
  return static_cast<T *>(symmem_ptr(dest, pe));
}

}  // namespace symmem
