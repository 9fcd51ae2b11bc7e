// symmem: point-to-point waits on sets of variables (OpenSHMEM 1.5, 9.10: wait_until_all, _any,
// _some, their _vector forms, and the test_ forms). An element whose status entry is non-zero is
// left out; every wait is bounded (spin_wait) and names the variables it waited for.
#include <sched.h>

#include <atomic>
#include <cstdint>

#include "core/checks.h"
#include "core/compare.h"
#include "core/state.h"
#include "core/sync.h"
#include "core/wait.h"

namespace symmem::sig {
using core::holds;
namespace {

// Element i's comparison value: one for all, or the i-th of a vector.
template <typename T>
struct target {
  T one;
  const T *vec;
  T at(size_t i) const { return vec != nullptr ? vec[i] : one; }
};

template <typename T>
target<T> mk(T v, const char *) { return target<T>{v, nullptr}; }
template <typename T>
target<T> mk(const T *v, const char *call) {
  if (v == nullptr) core::null_argument("cmp_values", call);
  return target<T>{T(), v};
}

// The checks every form makes before it reads: the variables are this PE's symmetric objects
// (n of them; nothing to check when n is 0), and `indices` (the _some forms) is a real array.
template <typename T>
void check_set(T *ivars, size_t n, const void *indices, bool wants_indices, const char *call) {
  core::require_init(call);
  if (n == 0) return;
  (void)core::own_symmetric(ivars, n, call);
  if (wants_indices && indices == nullptr) core::null_argument("indices", call);
}

template <typename T>
bool ok_at(T *ivars, size_t i, int cmp, const target<T> &v, const char *call) {
  return holds(std::atomic_ref<T>(ivars[i]).load(std::memory_order_acquire), cmp, v.at(i), call);
}

inline bool active(const int *status, size_t i) { return status == nullptr || status[i] == 0; }

template <typename T>
int test_all(T *ivars, size_t n, const int *status, int cmp, const target<T> &v, const char *call) {
  for (size_t i = 0; i < n; ++i) {
    if (active(status, i) && !ok_at(ivars, i, cmp, v, call)) return 0;
  }
  return 1;
}

// Where this thread's next _any scan starts: just after the index it returned last. A program that
// calls test_any in a loop without excluding what it found (the spec's own example does, to check
// fairness) then sees every satisfied index within n calls, instead of the first one forever.
thread_local size_t any_next = 0;

template <typename T>
size_t test_any(T *ivars, size_t n, const int *status, int cmp, const target<T> &v, const char *call) {
  const size_t first = n != 0 ? any_next % n : 0;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = first + k < n ? first + k : first + k - n;
    if (active(status, i) && ok_at(ivars, i, cmp, v, call)) {
      any_next = i + 1;
      return i;
    }
  }
  return SIZE_MAX;
}

template <typename T>
size_t test_some(T *ivars, size_t n, size_t *indices, const int *status, int cmp, const target<T> &v,
                 const char *call) {
  size_t found = 0;
  for (size_t i = 0; i < n; ++i) {
    if (active(status, i) && ok_at(ivars, i, cmp, v, call)) indices[found++] = i;
  }
  return found;
}

bool any_active(size_t n, const int *status) {
  for (size_t i = 0; i < n; ++i) {
    if (active(status, i)) return true;
  }
  return false;
}

// Spins until `done()` holds, bounded like every wait.
template <typename F>
void wait_for(const void *ivars, size_t n, const char *call, F &&done) {
  if (done()) return;
  core::spin_wait w(call, [ivars, n] {
    return strfmt("the %zu variables at %p to meet the comparison", n, ivars);
  });
  w.yield_every_turn(core::node_oversubscribed());  // the writers may need this core
  while (!done()) {
    w.pause();
  }
}

}  // namespace
}  // namespace symmem::sig

using namespace symmem;
using namespace symmem::sig;

extern "C" {

#define SYMMEM_DEF_P2P_SET_FORMS(T, N, SUFFIX, VT)                                                 \
  void symmem_##N##_wait_until_all##SUFFIX(T *ivars, size_t n, const int *status, int cmp, VT v) {       \
    const char *call = #N "_wait_until_all" #SUFFIX;                                                    \
    check_set(ivars, n, nullptr, false, call);                                                           \
    if (n == 0) return;                                                                                  \
    const target<T> t = mk<T>(v, call);                                                                  \
    wait_for(ivars, n, call, [&] { return test_all(ivars, n, status, cmp, t, call) != 0; });             \
  }                                                                                                      \
  size_t symmem_##N##_wait_until_any##SUFFIX(T *ivars, size_t n, const int *status, int cmp, VT v) {     \
    const char *call = #N "_wait_until_any" #SUFFIX;                                                    \
    check_set(ivars, n, nullptr, false, call);                                                           \
    if (!any_active(n, status)) return SIZE_MAX;                                                         \
    const target<T> t = mk<T>(v, call);                                                                  \
    size_t at = SIZE_MAX;                                                                                \
    wait_for(ivars, n, call, [&] { return (at = test_any(ivars, n, status, cmp, t, call)) != SIZE_MAX; }); \
    return at;                                                                                           \
  }                                                                                                      \
  size_t symmem_##N##_wait_until_some##SUFFIX(T *ivars, size_t n, size_t *indices, const int *status, int cmp, \
                                              VT v) {                                                    \
    const char *call = #N "_wait_until_some" #SUFFIX;                                                   \
    check_set(ivars, n, indices, true, call);                                                            \
    if (!any_active(n, status)) return 0;                                                                \
    const target<T> t = mk<T>(v, call);                                                                  \
    size_t found = 0;                                                                                    \
    wait_for(ivars, n, call, [&] { return (found = test_some(ivars, n, indices, status, cmp, t, call)) != 0; }); \
    return found;                                                                                        \
  }                                                                                                      \
  int symmem_##N##_test_all##SUFFIX(T *ivars, size_t n, const int *status, int cmp, VT v) {              \
    const char *call = #N "_test_all" #SUFFIX;                                                          \
    check_set(ivars, n, nullptr, false, call);                                                          \
    if (n == 0) return 1;                                                                               \
    const target<T> t = mk<T>(v, call);                                                                 \
    return core::test_look([&] { return test_all(ivars, n, status, cmp, t, call); },                    \
                           [](int r) { return r != 0; });                                               \
  }                                                                                                      \
  size_t symmem_##N##_test_any##SUFFIX(T *ivars, size_t n, const int *status, int cmp, VT v) {           \
    const char *call = #N "_test_any" #SUFFIX;                                                          \
    check_set(ivars, n, nullptr, false, call);                                                          \
    if (n == 0) return SIZE_MAX;                                                                        \
    const target<T> t = mk<T>(v, call);                                                                 \
    return core::test_look([&] { return test_any(ivars, n, status, cmp, t, call); },                    \
                           [](size_t r) { return r != SIZE_MAX; });                                     \
  }                                                                                                      \
  size_t symmem_##N##_test_some##SUFFIX(T *ivars, size_t n, size_t *indices, const int *status, int cmp, VT v) { \
    const char *call = #N "_test_some" #SUFFIX;                                                         \
    check_set(ivars, n, indices, true, call);                                                           \
    if (n == 0) return 0;                                                                               \
    const target<T> t = mk<T>(v, call);                                                                 \
    return core::test_look([&] { return test_some(ivars, n, indices, status, cmp, t, call); },          \
                           [](size_t r) { return r != 0; });                                            \
  }

#define SYMMEM_DEF_P2P_SET(T, N)                                                                         \
  SYMMEM_DEF_P2P_SET_FORMS(T, N, , T)                                                                    \
  SYMMEM_DEF_P2P_SET_FORMS(T, N, _vector, const T *)
SYMMEM_P2P_SYNC_TYPES(SYMMEM_DEF_P2P_SET)
#undef SYMMEM_DEF_P2P_SET
#undef SYMMEM_DEF_P2P_SET_FORMS

}  // extern "C"
