// symmem-run: helpers shared by the launcher's parts (the job, the hosts, the host agent).
#pragma once

#include <signal.h>
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace symmem::run {

using steady = std::chrono::steady_clock;
using env_list = std::vector<std::pair<std::string, std::string>>;

std::string strf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
// Blocking write of everything; our stdout/stderr may have been left non-blocking by someone.
void write_all(int fd, std::string_view s);
// One write per message, so launcher lines never interleave mid-line with tagged PE output.
void say(const std::string &msg);
[[noreturn]] void die(const std::string &msg, int code = 1);
// "exited with status 3", "was killed by signal 9 (Killed)".
std::string describe_exit(int wait_status);
// Rank lists stay readable at 4096 PEs: with `ranges` "2,3" or "0-5,9" (runs of three or more
// become ranges), else "0 1 2"; either way cut short after `cap` items.
std::string rank_list(const std::vector<int> &r, const char *sep, bool ranges, size_t cap = 32);
// Seconds as a clock duration, capped at ~30 years: larger would overflow the clock.
steady::duration seconds(double s);


// ---- process-wide setup ----
std::string random_job_id();
// A listening socket in the abstract namespace: no file on disk, nothing to clean up even if we
// are SIGKILLed.
int listen_abstract(const std::string &name);
// Blocks SIGCHLD, SIGINT, SIGTERM and SIGHUP (those not ignored at start) and returns a signalfd
// for them; `old` receives the mask to give back to children.
int block_signals(sigset_t &old);
// What a child of the launcher undoes before exec: the signal mask and SIG_IGN are inherited.
void reset_child_signals(const sigset_t &old_mask);
// Raises the descriptor limit to its hard maximum (a job of 4096 PEs needs up to 3 per PE);
// returns the old one, for the children.
rlimit raise_fd_limit();
// In a PE's child before exec: pins the `index`-th of `count` PEs to CPUs of the allowed set that
// no other PE gets (as oshrun/mpirun bind by default): a PE that spins in a barrier then never
// shares a core with the PE it waits for, and keeps its cache. "core": one CPU each; "auto": when
// the PEs fit, an equal block of consecutive CPUs each (all of them for one PE), so the PE's own
// helper threads have CPUs beside it. Oversubscribed jobs stay unbound, so the scheduler can move
// them.
void bind_to_cpu(const std::string &mode, int index, int count);
// What tells two hosts of a job that they are one machine and share its CPUs: the kernel's boot
// id (one per running kernel: the same in every network namespace and container of it) and the
// CPUs this process may use (containers given distinct CPUs are placed apart already).
std::string machine_identity();

}  // namespace symmem::run
