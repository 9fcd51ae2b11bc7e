// symmem: distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock).
//
// A ticket lock (Mellor-Crummey & Scott, "Algorithms for scalable synchronization on shared-memory
// multiprocessors", 1991, section 2.2) kept in the user's symmetric `long` on PE 0: the low 32 bits
// count tickets handed out, the high 32 bits the ticket now served. set_lock takes the next ticket
// with one atomic and waits until it is served; clear_lock serves the next one. Fairness: strictly
// first come, first served (FIFO by ticket), across PEs and across threads of one PE, so no PE can
// starve. A zeroed long (as OpenSHMEM requires before first use) is an unlocked lock. Waiters read
// one word on PE 0's heap; with every peer mapped that is a load from shared memory (MCS's queue
// would spare the cache line, but needs a node per waiter that this API has no room for).
#include <sched.h>

#include <atomic>
#include <cstdint>

#include "core/state.h"
#include "core/sync.h"
#include "core/wait.h"

namespace symmem::lock {
namespace {

constexpr int home = 0;  // the PE whose copy of the lock variable is the lock

std::atomic_ref<uint64_t> word(long *lock, const char *call) {
  static_assert(sizeof(long) == sizeof(uint64_t), "locks need a 64-bit long");
  if (SYMMEM_UNLIKELY(!core::cpu_memory(lock))) {
    core::require_init(call);
    fatal(call, "locks in a GPU heap are not supported from the host yet; use SYMMEM_HEAP=host");
  }
  return std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t *>(core::translate(lock, sizeof(long), home, call)));
}

inline uint32_t next_of(uint64_t v) { return static_cast<uint32_t>(v); }
inline uint32_t serving_of(uint64_t v) { return static_cast<uint32_t>(v >> 32); }
inline uint64_t make(uint32_t serving, uint32_t next) { return (static_cast<uint64_t>(serving) << 32) | next; }

}  // namespace
}  // namespace symmem::lock

using namespace symmem;
using namespace symmem::lock;

extern "C" {

void symmem_set_lock(long *lock) {
  const char *call = "set_lock";
  std::atomic_ref<uint64_t> w = word(lock, call);
  uint64_t v = w.load(std::memory_order_relaxed);
  // Take a ticket: next + 1, wrapping inside the low half (a CAS, so no carry into "serving").
  while (!w.compare_exchange_weak(v, make(serving_of(v), next_of(v) + 1), std::memory_order_acq_rel,
                                  std::memory_order_relaxed)) {
  }
  const uint32_t ticket = next_of(v);
  if (serving_of(w.load(std::memory_order_acquire)) == ticket) {
    return;
  }
  core::spin_wait sw(call, [lock, ticket] {
    return strfmt("the lock at %p (ticket %u) to be released by its holder", static_cast<void *>(lock), ticket);
  });
  const bool yield_first = core::node_oversubscribed();  // the holder may need this core
  while (serving_of(w.load(std::memory_order_acquire)) != ticket) {
    if (yield_first) sched_yield();
    sw.pause();
  }
}

int symmem_test_lock(long *lock) {
  std::atomic_ref<uint64_t> w = word(lock, "test_lock");
  uint64_t v = w.load(std::memory_order_relaxed);
  while (serving_of(v) == next_of(v)) {  // free: take the ticket that is served now
    if (w.compare_exchange_weak(v, make(serving_of(v), next_of(v) + 1), std::memory_order_acq_rel,
                                std::memory_order_relaxed)) {
      return 0;
    }
  }
  return 1;
}

void symmem_clear_lock(long *lock) {
  const char *call = "clear_lock";
  std::atomic_thread_fence(std::memory_order_seq_cst);  // clear_lock implies quiet
  std::atomic_ref<uint64_t> w = word(lock, call);
  uint64_t v = w.load(std::memory_order_relaxed);
  if (serving_of(v) == next_of(v)) {
    fatal(call, "the lock at %p is not held; call set_lock (or a successful test_lock) first", static_cast<void *>(lock));
  }
  while (!w.compare_exchange_weak(v, make(serving_of(v) + 1, next_of(v)), std::memory_order_acq_rel,
                                  std::memory_order_relaxed)) {
  }
}

}  // extern "C"
