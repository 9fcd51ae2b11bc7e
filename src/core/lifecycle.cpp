// symmem: the PE's process around init and finalize: an exit without finalize, the implicit
// finalize of start_pes, and fork.
//
// Exit without finalize. OpenSHMEM 1.5 (9.1.3) requires every shmem_init to be matched by
// shmem_finalize, yet many programs return from main without it (every program of the Cray
// suite's sma1 and sma2 does), and Sandia OpenSHMEM finalizes for them at exit. So does symmem,
// with a warning from PE 0, but it waits for the others at most exit_finalize_wait: PEs that all
// end main together finalize as if they had called it, and a PE that ends while the others go on
// (or wait for it) stops the job after that wait, naming what it waited for and the missing
// call. Before, this PE stopped the job at once, which also stopped the others' last operations
// on it: with PE 3 on another host, the Cray `shmem_type_g` failed when PE 3 left while PE 2's
// get from it was on the wire. A PE in another collective when this one arrives in finalize is
// named at once by the barrier's check of the calls. start_pes (OpenSHMEM 1.2) promised the
// implicit finalize outright: a job started that way waits for as long as a finalize would.
//
// Fork. A child forked from a PE shares the PE's heap mappings, control segment and bootstrap
// connection, but is not a PE: were it to call a barrier it would advance the PE's epochs behind
// the PE's back. In the child the runtime is marked forked: every symmem call (data path
// included: the heap range is emptied, so translate takes its slow path) ends the child with a
// message saying so, and nothing is said to the job (the parent goes on).
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "core/proxy_exec.h"
#include "core/state.h"

namespace symmem::core {
namespace {

pid_t g_pe_pid = 0;                      // the PE's process (set at init)
std::atomic<bool> g_implicit_finalize{false};   // start_pes: finalize at exit, no limit
std::atomic<bool> g_exit_finalizing{false};     // finalizing at exit for a program that did not call it
constexpr double exit_finalize_wait = 2.0;      // seconds, at most, for the others to reach theirs
std::atomic<bool> g_forked{false};       // this process is a child forked from the PE
// A bootstrap deliberately never closed (a failing exit, a forked child: closing it would say BYE,
// which makes the exit look like a finalize to the launcher). volatile: the stores must stay, so that leak
// checkers (LeakSanitizer at a forked child's exit) see it reachable, not leaked.
boot::bootstrap *volatile g_left_open = nullptr;

// Exiting without finalize: the threads that use the network (the proxy of a GPU heap across
// hosts) must be out of it before the static destructors close the transport; one that does not
// leave in time is inside a call that does not return, and the process ends here.
void leave_network(int exit_status) {
  if (!proxy_abandon()) {
    std::fflush(nullptr);
    ::_exit(exit_status != 0 ? exit_status : 1);
  }
}

void at_exit(int exit_status, void *) {
  if (g.phase.load() != 1 || ::getpid() != g_pe_pid) {
    return;  // finalized (or never initialized), or a forked child
  }
  if (exit_status != 0) {
    // A failing exit: its status says it all, and the launcher (or the bootstrap's own watch of
    // its ranks) stops the others; no BYE, which would make it look like a finalize.
    leave_network(exit_status);
    g_left_open = g.boot.release();
    return;
  }
  if (!g_implicit_finalize.load()) {
    if (g.my_pe == 0) {
      log(log_level::warn, "exit: the program returns from main without calling symmem_finalize (shmem_finalize); "
          "finalizing for it (OpenSHMEM 1.5, 9.1.3 requires the call on every PE)");
    }
    g_exit_finalizing.store(true);
    if (g.cfg.wait_timeout <= 0 || g.cfg.wait_timeout > exit_finalize_wait) g.cfg.wait_timeout = exit_finalize_wait;
  }
  symmem_finalize();
}

void in_forked_child() {
  if (g.phase.load() != 1) {
    return;
  }
  g_forked.store(true);
  g.heap_size = 0;  // every data-path call now takes the slow path, which names the fork
  g.n_pes = 0;
  set_world(-1, 0);
  g.phase.store(2);
  boot::set_current(nullptr);
  g_left_open = g.boot.release();  // the parent's connection: never closed (no BYE) from here
}

}  // namespace

void after_init() {
  static std::atomic<bool> registered{false};
  g_pe_pid = ::getpid();
  if (!registered.exchange(true)) {
    ::on_exit(at_exit, nullptr);  // glibc: the handler sees the exit status
    ::pthread_atfork(nullptr, nullptr, in_forked_child);
  }
}

bool forked_child() { return g_forked.load(std::memory_order_relaxed); }

bool exit_finalizing() { return g_exit_finalizing.load(std::memory_order_relaxed); }

[[noreturn]] void forked_call(const char *call) {
  fatal(call,
        "called in process %d, a child forked from PE %d (pid %d): a forked child is not a PE and shares its "
        "memory mappings; call symmem routines only in the PE itself (or exec a new program in the child)",
        static_cast<int>(::getpid()), g.my_pe, static_cast<int>(g_pe_pid));
}

}  // namespace symmem::core

extern "C" int symmem_start_pes(int npes) {
  (void)npes;  // OpenSHMEM 1.2: ignored (the job's size comes from the launcher)
  symmem::core::g_implicit_finalize.store(true);
  return symmem_init();
}
