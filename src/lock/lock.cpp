// symmem: distributed locks (shmem_set_lock, shmem_test_lock, shmem_clear_lock).
//
// A ticket lock (Mellor-Crummey & Scott, "Algorithms for scalable synchronization on shared-memory
// multiprocessors", 1991, section 2.2) kept in the user's symmetric `long` on PE 0: the low 32 bits
// count tickets handed out, the high 32 bits the ticket now served. set_lock takes the next ticket
// with one atomic and waits until it is served; clear_lock serves the next one. Fairness: strictly
// first come, first served (FIFO by ticket), across PEs and across threads of one PE, so no PE can
// starve. A zeroed long (as OpenSHMEM requires before first use) is an unlocked lock. Waiters read
// one word on PE 0's heap; with every peer mapped that is a load from shared memory (MCS's queue
// would spare the cache line, but needs a node per waiter that this API has no room for). When PE
// 0 is on another host the same word is read and swapped with network atomics.
#include <sched.h>

#include <atomic>
#include <cstdint>

#include "core/remote.h"
#include "core/checks.h"
#include "core/state.h"
#include "core/sync.h"
#include "core/wait.h"
#include "net/net_plugin.h"

namespace symmem::lock {
namespace {

constexpr int home = 0;  // the PE whose copy of the lock variable is the lock

// The lock word on PE 0: the CPU's atomics when it is mapped here, the network's otherwise.
class lock_word {
 public:
  lock_word(long *lock, const char *call) : lock_(lock), call_(call) {
    static_assert(sizeof(long) == sizeof(uint64_t), "locks need a 64-bit long");
    if (SYMMEM_UNLIKELY(!core::cpu_memory(lock))) {
      core::require_init(call);
      fatal(call, "locks in a GPU heap are not supported from the host yet; use SYMMEM_HEAP=host");
    }
    core::require_aligned(lock, sizeof(uint64_t), call);  // else no atomic can hold it
    remote_ = core::g.remote && core::is_remote(home);
    if (!remote_) local_ = reinterpret_cast<uint64_t *>(core::translate(lock, sizeof(long), home, call));
  }
  uint64_t load(std::memory_order o) const {
    return remote_ ? core::remote_amo(lock_, home, SYMMEM_NET_AMO_OR, 8, 0, 0, true, call_)
                   : std::atomic_ref<uint64_t>(*local_).load(o);
  }
  // Takes the next ticket: the old word. Over the network a 32-bit fetch-add on the low half (the
  // ticket count), which never carries into the high half; a CAS loop there could starve behind the
  // node-local PEs' CPU atomics. (A 32-bit and a 64-bit locked operation on one word are atomic
  // with respect to each other on the CPUs symmem targets.)
  uint64_t take_ticket() const {
    if (remote_) {
      const uint32_t ticket = static_cast<uint32_t>(
          core::remote_amo(lock_, home, SYMMEM_NET_AMO_ADD, 4, 1, 0, true, call_));
      return ticket;  // only the low half (the ticket) is used
    }
    std::atomic_ref<uint64_t> w(*local_);
    uint64_t v = w.load(std::memory_order_relaxed);
    // next + 1, wrapping inside the low half (a CAS, so no carry into "serving").
    while (!w.compare_exchange_weak(v, (v & ~uint64_t{0xffffffff}) | static_cast<uint32_t>(v + 1),
                                    std::memory_order_acq_rel, std::memory_order_relaxed)) {
    }
    return v;
  }
  // Serves the next ticket: + 2^32, whose carry out of the word is dropped (serving wraps).
  void serve_next() const {
    if (remote_) {
      (void)core::remote_amo(lock_, home, SYMMEM_NET_AMO_ADD, 8, uint64_t{1} << 32, 0, true, call_);
      return;
    }
    std::atomic_ref<uint64_t>(*local_).fetch_add(uint64_t{1} << 32, std::memory_order_acq_rel);
  }
  bool compare_exchange_weak(uint64_t &expected, uint64_t desired, std::memory_order s, std::memory_order f) const {
    if (!remote_) return std::atomic_ref<uint64_t>(*local_).compare_exchange_weak(expected, desired, s, f);
    const uint64_t old = core::remote_amo(lock_, home, SYMMEM_NET_AMO_CSWAP, 8, desired, expected, true, call_);
    const bool swapped = old == expected;
    expected = old;
    return swapped;
  }

 private:
  long *lock_;
  const char *call_;
  bool remote_ = false;
  uint64_t *local_ = nullptr;
};

lock_word word(long *lock, const char *call) { return lock_word(lock, call); }

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
  lock_word w = word(lock, call);
  const uint32_t ticket = next_of(w.take_ticket());
  if (serving_of(w.load(std::memory_order_acquire)) == ticket) {
    return;
  }
  core::spin_wait sw(call, [lock, ticket] {
    return strfmt("the lock at %p (ticket %u) to be released by its holder", static_cast<void *>(lock), ticket);
  });
  sw.yield_every_turn(core::node_oversubscribed());  // the holder may need this core
  while (serving_of(w.load(std::memory_order_acquire)) != ticket) {
    sw.pause();
  }
}

int symmem_test_lock(long *lock) {
  lock_word w = word(lock, "test_lock");
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
  symmem_quiet();  // clear_lock implies quiet
  lock_word w = word(lock, call);
  uint64_t v = w.load(std::memory_order_relaxed);
  if (serving_of(v) == next_of(v)) {
    fatal(call, "the lock at %p is not held; call set_lock (or a successful test_lock) first", static_cast<void *>(lock));
  }
  w.serve_next();
}

}  // extern "C"
