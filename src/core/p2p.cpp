// symmem: ordering, barriers and point-to-point waits.
#include <atomic>

#include "core/checks.h"
#include "core/compare.h"
#include "core/remote.h"
#include "core/state.h"
#include "core/sync.h"
#include "core/wait.h"

namespace symmem::core {
namespace {

// The variable's current value: a CPU load, or a copy out of GPU memory when the heap is there
// (a host wait on a GPU heap polls through the copy engine: correct, some microseconds a poll).
template <typename T>
T load_ivar(T *ivar) {
  const auto a = reinterpret_cast<uintptr_t>(ivar);
  if (SYMMEM_UNLIKELY(!g.heap_on_cpu) && a - g.heap_base < g.heap_size) {
    T v;
    g.heap->copy(&v, ivar, sizeof v);
    return v;
  }
  return std::atomic_ref<T>(*ivar).load(std::memory_order_acquire);
}

template <typename T>
bool test_once(T *ivar, int cmp, T value, const char *call) {
  return holds(load_ivar(ivar), cmp, value, call);
}

const char *cmp_text(int cmp) {
  static const char *names[] = {"==", "!=", ">", ">=", "<", "<="};
  return (cmp >= 0 && cmp <= 5) ? names[cmp] : "?";
}

template <typename T>
void wait_until(T *ivar, int cmp, T value, const char *call) {
  require_init(call);
  (void)own_symmetric(ivar, 1, call);  // only a symmetric variable can change under another PE's put
  if (test_once(ivar, cmp, value, call)) {
    return;
  }
  spin_wait w(call, [ivar, cmp, value] {
    return strfmt("the variable at %p to become %s %s (it holds %s)", static_cast<void *>(ivar), cmp_text(cmp),
                  std::to_string(value).c_str(), std::to_string(load_ivar(ivar)).c_str());
  });
  while (!test_once(ivar, cmp, value, call)) {
    w.pause();
  }
}

void sync_or_die(call_id id, const char *call) {
  require_init(call);
  call_record rec{id, 1, 0, 0};
  if (!collective_sync(rec, call).ok()) {
    fatal(call, "the PEs are out of step in their collective calls (see above); ending the job");
  }
}

}  // namespace

}  // namespace symmem::core

using namespace symmem::core;

extern "C" {

// Node-local puts complete before they return (load/store transport), so for them fence and quiet
// only order memory: release orders earlier stores before later ones; quiet is a full fence. When
// the job spans hosts they also order (ucp_worker_fence) and complete (flush) the network's.
void symmem_fence(void) {
  std::atomic_thread_fence(std::memory_order_release);
  if (SYMMEM_UNLIKELY(g.remote)) remote_fence("fence");
}
void symmem_quiet(void) {
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (SYMMEM_UNLIKELY(g.remote)) remote_quiet("quiet");
}

void symmem_barrier_all(void) {
  symmem_quiet();
  if (g.heap) g.heap->quiesce();  // NVSHMEM's host barrier_all also completes the PE's GPU work
  sync_or_die(call_barrier_all, "barrier_all");
}

// sync_all and barrier_all synchronise the same set of PEs, so a PE in one matches a PE in the other.
void symmem_sync_all(void) { sync_or_die(call_barrier_all, "sync_all"); }

#define SYMMEM_DEF_P2P(T, N)                                                                         \
  void symmem_##N##_wait_until(T *ivar, int cmp, T cmp_value) {                                     \
    wait_until(ivar, cmp, cmp_value, #N "_wait_until");                                             \
  }                                                                                                  \
  int symmem_##N##_test(T *ivar, int cmp, T cmp_value) {                                            \
    require_init(#N "_test");                                                                        \
    (void)own_symmetric(ivar, 1, #N "_test");                                                        \
    return test_look([&] { return test_once(ivar, cmp, cmp_value, #N "_test"); },                   \
                     [](bool hit) { return hit; }) ? 1 : 0;                                          \
  }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_DEF_P2P)
#undef SYMMEM_DEF_P2P

}  // extern "C"
