#include "run/util.h"

#include <poll.h>
#include <sched.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <cstring>

#include "bootstrap/launcher_proto.h"
#include "topo/topology.h"

namespace symmem::run {

std::string strf(const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  std::string s(n > 0 ? static_cast<size_t>(n) : 0, '\0');
  vsnprintf(s.data(), s.size() + 1, fmt, ap2);
  va_end(ap2);
  return s;
}

void write_all(int fd, std::string_view s) {
  while (!s.empty()) {
    ssize_t k = ::write(fd, s.data(), s.size());
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EAGAIN) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
      continue;
    }
    if (k <= 0) return;  // EPIPE or a closed terminal: nobody is reading, drop it
    s.remove_prefix(static_cast<size_t>(k));
  }
}

void say(const std::string &msg) { write_all(2, "symmem-run: " + msg + "\n"); }

void die(const std::string &msg, int code) {
  say(msg);
  std::exit(code);
}

std::string describe_exit(int st) {
  if (WIFEXITED(st)) return strf("exited with status %d", WEXITSTATUS(st));
  return strf("was killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
}

std::string rank_list(const std::vector<int> &r, const char *sep, bool ranges, size_t cap) {
  std::string s;
  size_t items = 0;
  for (size_t i = 0; i < r.size(); ++i) {
    size_t j = i;
    while (ranges && j + 1 < r.size() && r[j + 1] == r[j] + 1) ++j;
    if (items++ == cap) return s + strf("%s... (%zu in all)", sep, r.size());
    if (!s.empty()) s += sep;
    s += j >= i + 2 ? strf("%d-%d", r[i], r[j]) : std::to_string(r[i]);
    if (j >= i + 2) i = j;
  }
  return s;
}

steady::duration seconds(double s) {
  return std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(std::min(s, 1e9)));
}

std::string random_job_id() {
  unsigned char b[8];
  if (getrandom(b, sizeof b, 0) != static_cast<ssize_t>(sizeof b)) die(strf("getrandom: %s", strerror(errno)));
  std::string s;
  for (unsigned char c : b) s += strf("%02x", c);
  return s;
}

int listen_abstract(const std::string &name) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, name.data(), std::min(name.size(), sizeof a.sun_path - 1));
  auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&a), len) != 0 || ::listen(fd, SOMAXCONN) != 0)
    die(strf("cannot listen on @%s: %s", name.c_str(), strerror(errno)));
  return fd;
}

int block_signals(sigset_t &old) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGCHLD);
  ::signal(SIGCHLD, SIG_DFL);  // inherited SIG_IGN would make the kernel reap the PEs for us
  for (int s : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction sa {};
    ::sigaction(s, nullptr, &sa);
    // As in a shell, a signal ignored when we start (nohup, `prog &` in a script) stays ignored.
    if (sa.sa_handler != SIG_IGN) sigaddset(&set, s);
  }
  sigprocmask(SIG_BLOCK, &set, &old);
  int fd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
  if (fd < 0) die(strf("signalfd: %s", strerror(errno)));
  ::signal(SIGPIPE, SIG_IGN);  // a PE that vanished must not kill the launcher
  return fd;
}

void reset_child_signals(const sigset_t &old_mask) {
  ::signal(SIGPIPE, SIG_DFL);
  sigprocmask(SIG_SETMASK, &old_mask, nullptr);
}

rlimit raise_fd_limit() {
  rlimit old{};
  getrlimit(RLIMIT_NOFILE, &old);
  rlimit want{old.rlim_max, old.rlim_max};
  setrlimit(RLIMIT_NOFILE, &want);
  return old;
}

void bind_to_cpu(const std::string &mode, int index, int count) {
  if (count > 0) ::setenv(launcher::env_machine_pes, std::to_string(count).c_str(), 1);
  cpu_set_t allowed;
  if (mode == "none" || ::sched_getaffinity(0, sizeof allowed, &allowed) != 0) return;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &allowed)) cpus.push_back(c);
  if (cpus.empty() || count <= 0 || (mode == "auto" && count > static_cast<int>(cpus.size()))) return;
  // core: one CPU each. auto: the CPUs shared out evenly, a block of consecutive ones per PE, so
  // that a PE's own threads (the network's progress thread, a GPU PE's proxy thread, the CUDA
  // driver's) do not take turns with it on one core: a GPU PE bound to one CPU spins in its stream
  // synchronisations while its proxy thread waits for a time slice, and a kernel's requests to
  // another host then stall for milliseconds.
  const size_t per = mode == "core" ? 1 : cpus.size() / static_cast<size_t>(count);
  const size_t first = mode == "core" ? static_cast<size_t>(index) % cpus.size() : static_cast<size_t>(index % count) * per;
  cpu_set_t set;
  CPU_ZERO(&set);
  for (size_t i = first; i < first + per; ++i) CPU_SET(cpus[i], &set);
  if (::sched_setaffinity(0, sizeof set, &set) == 0) ::setenv(launcher::env_cpus, std::to_string(cpus.size()).c_str(), 1);
}

std::string machine_identity() {
  std::string id = topo::boot_id();
  if (id.empty()) {  // no boot id: nothing shows two hosts share a machine, so none do
    char host[256] = {};
    ::gethostname(host, sizeof host - 1);
    id = strf("host %s pid %d", host, static_cast<int>(::getpid()));
  }
  cpu_set_t allowed;
  id += " cpus";
  if (::sched_getaffinity(0, sizeof allowed, &allowed) == 0)
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &allowed)) id += strf(" %d", c);
  return id;
}

}  // namespace symmem::run
