// The descriptor exchange between node-local PEs, with strangers at the door: two real processes
// (this one and a forked child) exchange memfds while other processes connect to the listener
// first. A stranger must be refused and logged, never fail or stall the exchange.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>

#include "mem/fdpass.h"

namespace {

using symmem::mem::fd_exchange;
using symmem::mem::fd_peer;

int connect_abstract(const std::string &name) {
  int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path + 1, name.data(), name.size());
  auto len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + name.size());
  if (::connect(s, reinterpret_cast<sockaddr *>(&a), len) != 0) {
    ::close(s);
    return -1;
  }
  return s;
}

// A process that connects `count` times to `name`; on the first connection it sends `bytes`
// bytes (a truncated hello) and then holds every connection open until killed.
pid_t stranger(const std::string &name, int count, size_t bytes, int ready_fd) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // never outlives the test, even one killed by its alarm
  for (int i = 0; i < count; ++i) {
    int s = connect_abstract(name);
    if (s >= 0 && i == 0 && bytes > 0) {
      const char junk[8] = {1, 0, 0, 0, 1, 0, 0, 0};
      (void)!::send(s, junk, bytes, MSG_NOSIGNAL);
    }
  }
  char c = 1;
  (void)!::write(ready_fd, &c, 1);
  ::pause();
  ::_exit(0);
}

// A memfd holding one byte, `tag`.
int tagged_memfd(char tag) {
  int fd = ::memfd_create("fdpass-test", MFD_CLOEXEC);
  (void)!::ftruncate(fd, 4096);
  (void)!::pwrite(fd, &tag, 1, 0);
  return fd;
}

char tag_of(int fd) {
  char c = 0;
  return ::pread(fd, &c, 1, 0) == 1 ? c : 0;
}

// Runs the exchange for `rank` with the given peers: true when the peer's descriptor came.
bool exchange_as(fd_exchange &ex, int rank, const std::vector<fd_peer> &peers, char mine, char want) {
  std::vector<std::vector<int>> got;
  int fd = tagged_memfd(mine);
  symmem::status st = ex.exchange(rank, peers, {fd}, got, 10, "init");
  ::close(fd);
  const size_t other = rank == 0 ? 1 : 0;
  bool ok = st.ok() && got[other].size() == 1 && tag_of(got[other][0]) == want;
  for (auto &v : got) for (int f : v) ::close(f);
  return ok;
}

void run_with_strangers(int count, size_t bytes) {
  ::alarm(30);  // before the fix a stranger's 4 bytes blocked the exchange for ever
  const uint64_t n0 = 0x1111222233334444ULL, n1 = 0x5555666677778888ULL;
  int ready[2];
  ASSERT_EQ(::pipe(ready), 0);
  fd_exchange ex;
  ASSERT_TRUE(ex.listen(n0, "init").ok());
  pid_t bad = stranger(symmem::mem::fd_socket_name(::getpid(), n0), count, bytes, ready[1]);
  char c;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);  // the strangers are in the backlog before any PE
  const pid_t parent = ::getpid();
  pid_t child = ::fork();
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    fd_exchange mine;
    bool ok = mine.listen(n1, "init").ok();
    (void)!::write(ready[1], &c, 1);  // listening, as a PE is before the allgather that names it
    std::vector<fd_peer> peers{{0, parent, n0}, {1, ::getpid(), n1}};
    ok = ok && exchange_as(mine, 1, peers, 'c', 'p');
    ::_exit(ok ? 0 : 1);
  }
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::vector<fd_peer> peers{{0, parent, n0}, {1, child, n1}};
  auto t0 = std::chrono::steady_clock::now();
  testing::internal::CaptureStderr();
  bool ok = exchange_as(ex, 0, peers, 'p', 'c');
  std::string log = testing::internal::GetCapturedStderr();
  double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  int st = 0;
  ASSERT_EQ(::waitpid(child, &st, 0), child);
  ::kill(bad, SIGKILL);
  ::waitpid(bad, nullptr, 0);
  ::alarm(0);
  EXPECT_TRUE(ok);
  EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  EXPECT_LT(took, 5.0);
  EXPECT_NE(log.find("refused a connection to this PE's descriptor socket from pid " + std::to_string(bad)),
            std::string::npos)
      << log;
}

TEST(FdPass, TruncatedHelloFromStrangerIsRefused) { run_with_strangers(1, 4); }
TEST(FdPass, SilentStrangerIsRefused) { run_with_strangers(1, 0); }
TEST(FdPass, ManyStrangersAreRefused) { run_with_strangers(200, 8); }

}  // namespace
