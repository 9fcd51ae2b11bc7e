// symmem: the PE's process around init and finalize: an exit without finalize, the implicit
// finalize of start_pes, and fork.
//
// Exit without finalize. OpenSHMEM 1.5 (9.1.3) requires every shmem_init to be matched by
// shmem_finalize; a PE that returns from main without it leaves the others waiting in symmem
// calls for a PE that is gone. This PE says so at exit, and the job stops at once: under
// symmem-run the launcher sees a PE that said HELLO exit without BYE and stops the others (so the
// bootstrap is left unclosed here: closing it would say BYE); under the other bootstraps this
// PE ends the job through the bootstrap. start_pes (OpenSHMEM 1.2) promised an implicit
// finalize at the end of main, which old programs rely on: a job started that way finalizes at
// exit (as Sandia OpenSHMEM does).
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
#include <cstring>

#include "core/proxy_exec.h"
#include "core/state.h"

namespace symmem::core {
namespace {

pid_t g_pe_pid = 0;                      // the PE's process (set at init)
std::atomic<bool> g_implicit_finalize{false};
std::atomic<bool> g_forked{false};       // this process is a child forked from the PE
// A bootstrap deliberately never closed (see above). volatile: the stores must stay, so that leak
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
  if (!g_implicit_finalize.load() || exit_status != 0) leave_network(exit_status);
  if (exit_status != 0) {
    // A failing exit: its status says it all, and the launcher (or the bootstrap's own watch of
    // its ranks) stops the others; no BYE, which would make it look like a finalize.
    g_left_open = g.boot.release();
    return;
  }
  if (g_implicit_finalize.load()) {
    symmem_finalize();
    return;
  }
  std::string text = strfmt("PE %d exited without calling symmem_finalize (shmem_finalize)", g.my_pe);
  (void)fail(SYMMEM_ERR_PEER_GONE, "exit",
             "the program exits without calling symmem_finalize (shmem_finalize); the other PEs are stopped. "
             "Call it on every PE before returning from main (OpenSHMEM 1.5, 9.1.3)");
  std::fflush(nullptr);
  boot::bootstrap *b = g.boot.get();
  if (b != nullptr && std::strcmp(b->name(), "launcher") != 0 && std::strcmp(b->name(), "singleton") != 0) {
    b->abort_job(1, text);  // MPI, PMIx, uid: tell the others through the bootstrap
  }
  g_left_open = g.boot.release();  // symmem-run: no BYE, so the launcher sees this exit for what it is
}

void in_forked_child() {
  if (g.phase.load() != 1) {
    return;
  }
  g_forked.store(true);
  g.heap_size = 0;  // every data-path call now takes the slow path, which names the fork
  g.n_pes = 0;
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
