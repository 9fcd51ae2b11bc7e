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

// Exchanges back to back, as a GPU heap's collective allocations make them: a PE that finished
// one connects for the next while slower peers are still in the first. Before exchanges were
// numbered, such a connection was taken for the current one and closed unanswered, and the fast
// PE failed with "sent a malformed heap-descriptor message" (4 PEs on one GPU, every run).
TEST(FdPass, BackToBackExchangesAmongFourProcesses) {
  constexpr int n = 4, rounds = 300;
  ::alarm(60);
  std::vector<uint64_t> nonce(n);
  for (int r = 0; r < n; ++r) nonce[static_cast<size_t>(r)] = 0x0123456789abcdefULL + static_cast<uint64_t>(r) * 7919;
  int up[2], down[n][2];
  ASSERT_EQ(::pipe(up), 0);
  for (auto &d : down) ASSERT_EQ(::pipe(d), 0);
  std::vector<pid_t> pid(n);
  pid[0] = ::getpid();
  auto run_pe = [&](int rank, fd_exchange &ex) {
    std::vector<fd_peer> peers;
    for (int r = 0; r < n; ++r) peers.push_back({r, pid[static_cast<size_t>(r)], nonce[static_cast<size_t>(r)]});
    int bad = 0;
    for (int round = 0; round < rounds && bad == 0; ++round) {
      std::vector<int> mine;
      for (int k = 0; k <= round % 3; ++k) mine.push_back(tagged_memfd(static_cast<char>(rank * 64 + (round + k) % 64)));
      std::vector<std::vector<int>> got;
      symmem::status st = ex.exchange(rank, peers, mine, got, 20, "malloc");
      for (int f : mine) ::close(f);
      if (!st.ok()) bad = 1000 + round;
      for (int r = 0; r < n && bad == 0; ++r) {
        const auto &v = got[static_cast<size_t>(r)];
        if (r == rank ? !v.empty() : v.size() != static_cast<size_t>(round % 3 + 1)) bad = 2000 + round;
        for (size_t k = 0; k < v.size() && bad == 0; ++k)
          if (tag_of(v[k]) != static_cast<char>(r * 64 + (round + static_cast<int>(k)) % 64)) bad = 3000 + round;
      }
      for (auto &v : got) for (int f : v) ::close(f);
    }
    return bad;
  };
  for (int rank = 1; rank < n; ++rank) {
    pid_t c = ::fork();
    if (c == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      fd_exchange ex;
      bool ok = ex.listen(nonce[static_cast<size_t>(rank)], "init").ok();
      char go = static_cast<char>(ok);
      (void)!::write(up[1], &go, 1);  // listening
      for (auto &p : pid) (void)!::read(down[rank][0], &p, sizeof p);
      ::_exit(ok && run_pe(rank, ex) == 0 ? 0 : 1);
    }
    pid[static_cast<size_t>(rank)] = c;
  }
  fd_exchange ex;
  ASSERT_TRUE(ex.listen(nonce[0], "init").ok());
  for (int k = 1; k < n; ++k) {
    char go = 0;
    ASSERT_EQ(::read(up[0], &go, 1), 1);
    ASSERT_EQ(go, 1);
  }
  for (int rank = 1; rank < n; ++rank)
    for (auto &p : pid) ASSERT_EQ(::write(down[rank][1], &p, sizeof p), static_cast<ssize_t>(sizeof p));
  const int bad = run_pe(0, ex);
  EXPECT_EQ(bad, 0) << "PE 0: the first failure's code (1000: exchange failed, 2000: count, 3000: tag) + round";
  for (int rank = 1; rank < n; ++rank) {
    int st = 0;
    ASSERT_EQ(::waitpid(pid[static_cast<size_t>(rank)], &st, 0), pid[static_cast<size_t>(rank)]);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "PE " << rank;
  }
  ::alarm(0);
}

TEST(FdPass, TruncatedHelloFromStrangerIsRefused) { run_with_strangers(1, 4); }
TEST(FdPass, SilentStrangerIsRefused) { run_with_strangers(1, 0); }
TEST(FdPass, ManyStrangersAreRefused) { run_with_strangers(200, 8); }

}  // namespace
