// The launcher bootstrap: the PE side of symmem-run's protocol (launcher_proto.h).
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "bootstrap/launcher_proto.h"

namespace symmem::boot {
namespace {

namespace lp = symmem::launcher;

int env_int(const char *name, int fallback) {
  const char *v = std::getenv(name);
  if (v == nullptr || *v == '\0') {
    return fallback;
  }
  char *end = nullptr;
  long x = std::strtol(v, &end, 10);
  return (*end == '\0') ? static_cast<int>(x) : fallback;
}

// Writes all of buf; the socket is blocking.
bool write_all(int fd, const void *buf, size_t len) {
  const char *p = static_cast<const char *>(buf);
  while (len > 0) {
    ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      return false;
    }
    p += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

// Reads exactly len bytes, waiting at most until deadline_ms (monotonic clock).
enum class rd { ok, eof, timeout, error };
rd read_all(int fd, void *buf, size_t len, std::chrono::steady_clock::time_point deadline) {
  char *p = static_cast<char *>(buf);
  while (len > 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return rd::timeout;
    }
    pollfd pfd{fd, POLLIN, 0};
    int r = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (r < 0 && errno != EINTR) {
      return rd::error;
    }
    if (r <= 0) {
      continue;
    }
    ssize_t n = ::recv(fd, p, len, 0);
    if (n == 0) {
      return rd::eof;
    }
    if (n < 0) {
      if (errno == EINTR || errno == EAGAIN) {
        continue;
      }
      return rd::error;
    }
    p += n;
    len -= static_cast<size_t>(n);
  }
  return rd::ok;
}

class launcher_boot final : public bootstrap {
 public:
  launcher_boot(int fd, int rank, int size, double timeout_s)
      : fd_(fd), rank_(rank), size_(size), timeout_s_(timeout_s) {}
  ~launcher_boot() override { close(); }

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }
  [[nodiscard]] const char *name() const override { return "launcher"; }

  status allgather(const void *in, void *out, size_t len, const char *call) override {
    if (!send_msg(lp::msg::coll, in, len)) {
      return fail(SYMMEM_ERR_BOOTSTRAP, call, "lost the connection to symmem-run (it died?); the job cannot continue");
    }
    std::vector<char> payload;
    SYMMEM_TRY(receive(lp::msg::coll_done, payload, call));
    const size_t head = sizeof(uint32_t) * static_cast<size_t>(size_);
    if (payload.size() != head + len * static_cast<size_t>(size_)) {
      return mismatch(payload, len, call);
    }
    std::memcpy(out, payload.data() + head, len * static_cast<size_t>(size_));
    return ok_status;
  }

  [[noreturn]] void abort_job(int exit_status, const std::string &) override {
    int32_t st = exit_status;
    send_msg(lp::msg::exit, &st, sizeof st);
    std::fflush(nullptr);
    ::_exit(exit_status);
  }

  status poll_peers(const char *call) override {
    if (fd_ < 0) {
      return ok_status;
    }
    pollfd pfd{fd_, POLLIN, 0};
    if (::poll(&pfd, 1, 0) <= 0) {
      return ok_status;
    }
    std::vector<char> payload;
    return receive(lp::msg::coll_done, payload, call);  // only ABORT or EOF can arrive here
  }

  void close() override {
    if (fd_ >= 0) {
      send_msg(lp::msg::bye, nullptr, 0);
      ::close(fd_);
      fd_ = -1;
    }
  }

 private:
  bool send_msg(lp::msg type, const void *data, size_t len) {
    lp::header h{static_cast<uint32_t>(type), static_cast<uint32_t>(len)};
    return fd_ >= 0 && write_all(fd_, &h, sizeof h) && (len == 0 || write_all(fd_, data, len));
  }

  // Waits for a message of type `want`; an ABORT, EOF or timeout becomes a reported failure.
  status receive(lp::msg want, std::vector<char> &payload, const char *call) {
    // The launcher reports missing PEs after SYMMEM_BOOTSTRAP_TIMEOUT; wait a little longer so
    // its message, which names them, arrives first.
    auto deadline = timeout_s_ > 0 ? std::chrono::steady_clock::now() +
                                         std::chrono::milliseconds(static_cast<long long>(timeout_s_ * 1000) + 5000)
                                   : std::chrono::steady_clock::time_point::max();  // 0: no limit
    lp::header h{};
    rd r = read_all(fd_, &h, sizeof h, deadline);
    if (r == rd::ok && h.len <= lp::max_payload) {
      payload.resize(h.len);
      r = read_all(fd_, payload.data(), h.len, deadline);
    }
    if (r == rd::timeout) {
      return fail(SYMMEM_ERR_TIMEOUT, call,
                  "no answer from symmem-run within %.0f s while waiting for the other PEs; raise "
                  "SYMMEM_BOOTSTRAP_TIMEOUT if they need longer",
                  timeout_s_ + 5);
    }
    if (r != rd::ok) {
      return fail(SYMMEM_ERR_BOOTSTRAP, call, "lost the connection to symmem-run (it died?); the job cannot continue");
    }
    if (h.type == static_cast<uint32_t>(lp::msg::abort)) {
      std::string text(payload.begin(), payload.end());
      return fail(SYMMEM_ERR_PEER_GONE, call, "the job is stopping: %s", text.c_str());
    }
    if (h.type != static_cast<uint32_t>(want)) {
      return fail(SYMMEM_ERR_BOOTSTRAP, call, "unexpected message %u from symmem-run (version mismatch?)", h.type);
    }
    return ok_status;
  }

  status mismatch(const std::vector<char> &payload, size_t len, const char *call) {
    // Different PEs contributed different lengths: a collective called with different arguments.
    std::string who;
    const auto *lens = reinterpret_cast<const uint32_t *>(payload.data());
    for (int r = 0; r < size_ && payload.size() >= sizeof(uint32_t) * static_cast<size_t>(size_); ++r) {
      if (lens[r] != len) {
        who += strfmt("%sPE %d sent %u bytes", who.empty() ? "" : ", ", r, lens[r]);
      }
    }
    return fail(SYMMEM_ERR_MISMATCH, call, "PEs disagree on a bootstrap exchange: this PE sent %zu bytes, %s",
                len, who.c_str());
  }

  int fd_;
  int rank_;
  int size_;
  double timeout_s_;
};

int connect_abstract(const std::string &name) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return -1;
  }
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  // '@' in the variable stands for the abstract namespace's leading NUL byte.
  std::string path = name;
  if (!path.empty() && path[0] == '@') {
    path[0] = '\0';
  }
  size_t n = std::min(path.size(), sizeof(addr.sun_path));
  std::memcpy(addr.sun_path, path.data(), n);
  auto alen = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + n);
  if (::connect(fd, reinterpret_cast<sockaddr *>(&addr), alen) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

bool launched_by_symmem_run() { return std::getenv(lp::env_sock) != nullptr; }

int launcher_size() { return launched_by_symmem_run() ? env_int(lp::env_size, -1) : -1; }

namespace {
// Under symmem-run the rank is known before init: name it in every message from the start (a bad
// variable, a call before init), not "PE ?".
[[gnu::constructor]] void name_pe_early() {
  const int rank = launched_by_symmem_run() ? env_int(lp::env_rank, -1) : -1;
  if (rank >= 0 && log_pe() < 0) set_log_pe(rank);
}
}  // namespace

status make_launcher(const config::settings &cfg, std::unique_ptr<bootstrap> &out) {
  const char *sock = std::getenv(lp::env_sock);
  int rank = env_int(lp::env_rank, -1);
  int size = env_int(lp::env_size, -1);
  if (sock == nullptr || rank < 0 || size <= 0 || rank >= size) {
    return fail(SYMMEM_ERR_BOOTSTRAP, "init",
                "SYMMEM_BOOTSTRAP=launcher but this process was not started by symmem-run "
                "(SYMMEM_LAUNCHER_* variables missing or invalid); start it with symmem-run -n N");
  }
  set_log_pe(rank);
  int fd = connect_abstract(sock);
  if (fd < 0) {
    return fail(SYMMEM_ERR_BOOTSTRAP, "init", "cannot reach symmem-run at %s: %s; was the launcher stopped?", sock,
                std::strerror(errno));
  }
  lp::hello_msg hello{lp::protocol_version, rank, static_cast<int32_t>(::getpid()), 0};
  lp::header h{static_cast<uint32_t>(lp::msg::hello), sizeof hello};
  if (!write_all(fd, &h, sizeof h) || !write_all(fd, &hello, sizeof hello)) {
    ::close(fd);
    return fail(SYMMEM_ERR_BOOTSTRAP, "init", "cannot talk to symmem-run at %s: %s", sock, std::strerror(errno));
  }
  out = std::make_unique<launcher_boot>(fd, rank, size, cfg.bootstrap_timeout);
  return ok_status;
}

}  // namespace symmem::boot
