// symmem-run: the watchdog that outlives a SIGKILLed launcher.
//
// The PEs die with the launcher (PR_SET_PDEATHSIG), but what a PE started (a helper process, a
// shell's children) does not: PDEATHSIG is not inherited across fork, and the launcher, who
// would kill the PE's process group, is gone. So the launcher forks a small watchdog first, in a
// process group of its own (the terminal's signals do not reach it), and tells it each PE's
// group. The watchdog blocks on a pipe whose write end only the launcher holds: when the pipe
// reports EOF without the launcher's "done", the launcher died, and the watchdog SIGKILLs every
// PE group it was told, then exits. It costs one sleeping process and one small write per PE.
#pragma once

#include <sys/types.h>

namespace symmem::run {

class watchdog {
 public:
  watchdog() = default;
  watchdog(const watchdog &) = delete;
  watchdog &operator=(const watchdog &) = delete;
  ~watchdog() { done(); }

  // Forks the watchdog; false (and the job runs without it) when that fails.
  bool start();
  // The process group of a PE just started.
  void watch(pid_t pgid);
  // The job is over: the watchdog exits without killing anything. The launcher reaps it.
  void done();

 private:
  int fd_ = -1;
};

}  // namespace symmem::run
