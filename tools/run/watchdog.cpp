#include "run/watchdog.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <vector>

#include "run/util.h"

namespace symmem::run {
namespace {

constexpr int32_t done_word = 0;

// In the watchdog: reads PE groups until "done" (exit quietly) or EOF (the launcher died: kill them).
[[noreturn]] void watch_loop(int fd) {
  std::vector<pid_t> groups;
  for (;;) {
    int32_t word = 0;
    ssize_t k = ::read(fd, &word, sizeof word);
    if (k < 0 && errno == EINTR) continue;
    if (k == static_cast<ssize_t>(sizeof word) && word == done_word) ::_exit(0);
    if (k == static_cast<ssize_t>(sizeof word)) {
      groups.push_back(static_cast<pid_t>(word));
      continue;
    }
    break;  // EOF (or a torn word: the writer is gone either way)
  }
  if (!groups.empty()) {
    say(strf("the launcher is gone (killed?); stopping what its %zu PEs left running", groups.size()));
  }
  for (pid_t g : groups) ::kill(-g, SIGKILL);
  ::_exit(0);
}

}  // namespace

bool watchdog::start() {
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return false;
  pid_t pid = ::fork();
  if (pid < 0) {
    ::close(p[0]);
    ::close(p[1]);
    return false;
  }
  if (pid == 0) {
    ::setpgid(0, 0);  // Ctrl-C and a kill of the launcher's group do not take it
    ::close(p[1]);
    // Nothing of the launcher's but stderr (for its one message): no socket, no PE pipe, no stdout.
    ::dup2(p[0], 3);
    ::syscall(SYS_close_range, 4U, ~0U, 0U);
    int null = ::open("/dev/null", O_RDWR);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
      if (null > 3) ::close(null);
    }
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGKILL);
    ::sigprocmask(SIG_UNBLOCK, &all, nullptr);
    for (int s : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) ::signal(s, SIG_IGN);
    watch_loop(3);
  }
  ::setpgid(pid, pid);
  ::close(p[0]);
  fd_ = p[1];
  return true;
}

void watchdog::watch(pid_t pgid) {
  if (fd_ < 0 || pgid <= 0) return;
  const int32_t word = static_cast<int32_t>(pgid);
  (void)!::write(fd_, &word, sizeof word);  // 4 bytes: atomic on a pipe
}

void watchdog::done() {
  if (fd_ < 0) return;
  const int32_t word = done_word;
  (void)!::write(fd_, &word, sizeof word);
  ::close(fd_);
  fd_ = -1;
}

}  // namespace symmem::run
