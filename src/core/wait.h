// symmem: bounded spin waiting.
//
// Every wait a user can reach spins briefly, then yields the core (PEs may outnumber cores; across
// hosts, when other programs hold the CPU, it sleeps until the network brings a message), and
// every millisecond checks two things: whether the job is being torn down because another
// PE exited (the bootstrap's poll_peers), and whether SYMMEM_WAIT_TIMEOUT has passed. Either ends
// this PE with a message naming what it waited for, instead of a silent hang. When the job spans
// hosts every turn also progresses the network transport, so a waiting PE serves remote operations.
#pragma once

#include <sched.h>

#include <chrono>
#include <functional>

#include "core/state.h"

namespace symmem::core {

void remote_progress();  // core/remote.h

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// After a test (shmem_test and its _all/_any/_some forms) found its condition false. Programs poll
// with tests in loops of their own, so a miss does what one turn of a wait does: progresses the
// network when the job spans hosts and the misses come less than 50 us apart (a put from a PE on
// another host then lands in the polling PE's own turn, not only when the progress thread gets
// the CPU; a test now and then between work leaves it to that thread), and, when the machine's PEs
// outnumber its CPUs, gives the core away every 256 misses in a row, every 16 when the job spans
// hosts (the PE it polls for may need this core to progress the network: 2 emulated hosts x 2 PEs
// on 2 CPUs, a p + test ping-pong took 720-860 us per round trip in one run of three, 50-125 us
// at worst with 16; 4 gained nothing). OSHMEM's tests do both through opal_progress. Returns true
// when it progressed the network: the caller then looks once more.
bool test_missed();
// After a test found its condition true.
void test_hit();
// One test: look() gives its result, found(result) whether the condition holds; a miss does what
// test_missed says and, when that progressed the network, looks once more.
template <class Look, class Found>
auto test_look(Look look, Found found) {
  auto r = look();
  if (!found(r) && test_missed()) r = look();
  if (found(r)) test_hit();
  return r;
}

class spin_wait {
 public:
  // `call` is the user routine; `describe` says what is awaited ("PE 3 to reach the barrier").
  spin_wait(const char *call, std::function<std::string()> describe)
      : call_(call), describe_(std::move(describe)) {}

  // Gives the core away on every turn from the first, not only past the spin: for waits whose PE
  // awaited may need this core (the machine's PEs outnumber its CPUs: node_oversubscribed).
  void yield_every_turn(bool on) { yield_every_ = on; }

  // One turn of the wait. A turn that yields may last a time slice when other programs hold the
  // CPUs, so each one looks at the clock: counted as spin turns, 256 of them took a second under
  // load, past the launcher's grace, and PEs waiting for one that had died were stopped by SIGTERM
  // without saying why (fatal.die_in_barrier.contended).
  void pause() {
    if (SYMMEM_UNLIKELY(yield_every_)) {
      sched_yield();
    }
    if (SYMMEM_UNLIKELY(g.remote)) {
      remote_progress();  // a PE that waits serves the network: remote puts and atomics land here
    }
    ++turns_;
    if (SYMMEM_LIKELY(turns_ < spin_limit_)) {
      if (SYMMEM_UNLIKELY(yield_every_)) {
        check();
      } else {
        cpu_relax();
      }
      return;
    }
    give_up_core();
    check();
  }

 private:
  static constexpr unsigned long spin_turns = 256;  // ~10 us of PAUSE before yielding the core
  // Across hosts, on a machine whose PEs fit its CPUs and that nothing else contends for, a wait
  // spins this long before its first yield: a network round trip (a get, a fetching atomic)
  // takes longer than spin_turns, and yielding in it cost 0.5 us of its 17 (give_up_core).
  static constexpr unsigned long remote_spin_turns = 4096;
  // Checks go by time, not by turns: when PEs outnumber cores a yield can last a time slice, and
  // 256 yields were then seconds, so a PE noticed a dead peer only after the launcher's SIGTERM.
  static constexpr std::chrono::milliseconds check_every{1};
  void check();  // a clock read; the peer poll and the limit at most every check_every
  // Past the spin: yields the core; or, when the job spans hosts and a recent yield found other
  // programs competing for the CPU, sleeps until the network brings a message (sync.cpp).
  void give_up_core();

  const char *call_;
  std::function<std::string()> describe_;
  unsigned long turns_ = 0;
  unsigned long spin_limit_ = spin_turns;
  bool yield_every_ = false;
  std::chrono::steady_clock::time_point start_{};
  std::chrono::steady_clock::time_point last_check_{};
};

}  // namespace symmem::core
