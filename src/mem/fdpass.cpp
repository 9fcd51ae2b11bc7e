#include "mem/fdpass.h"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace symmem::mem {
namespace {

constexpr size_t max_fds = 250;  // SCM_MAX_FD is 253

// A connecting PE's hello: its rank and the exchange it is in (`count`: the round). A reply: the
// sender's rank and how many descriptors ride with it.
struct fd_hello {
  int32_t rank;
  uint32_t count;
};

socklen_t make_addr(const std::string &name, sockaddr_un &addr) {
  addr = {};
  addr.sun_family = AF_UNIX;
  size_t n = std::min(name.size(), sizeof(addr.sun_path) - 1);
  std::memcpy(addr.sun_path + 1, name.data(), n);  // sun_path[0] = 0: abstract namespace
  return static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
}

using clock = std::chrono::steady_clock;

// The deadline of a wait of `timeout_s` seconds; 0 means no limit (as for every seconds setting).
clock::time_point deadline_after(double timeout_s) {
  if (timeout_s <= 0) return clock::time_point::max();
  return clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(timeout_s));
}

bool creds_of(int sock, ucred &cred) {
  socklen_t len = sizeof cred;
  return ::getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0;
}

bool peer_is(int sock, int32_t pid) {
  ucred cred{};
  return creds_of(sock, cred) && cred.pid == pid && cred.uid == ::getuid();
}

bool send_fds(int sock, int32_t rank, const std::vector<int> &fds) {
  fd_hello h{rank, static_cast<uint32_t>(fds.size())};
  iovec iov{&h, sizeof h};
  alignas(cmsghdr) char ctrl[CMSG_SPACE(sizeof(int) * max_fds)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  if (!fds.empty()) {
    msg.msg_control = ctrl;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  // The socket is non-blocking and empty: one small message always fits.
  return ::sendmsg(sock, &msg, MSG_NOSIGNAL | MSG_DONTWAIT) == static_cast<ssize_t>(sizeof h);
}

// One message with descriptors, already readable (poll said so): never blocks.
bool recv_fds(int sock, fd_hello &h, std::vector<int> &fds) {
  iovec iov{&h, sizeof h};
  alignas(cmsghdr) char ctrl[CMSG_SPACE(sizeof(int) * max_fds)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = ctrl;
  msg.msg_controllen = sizeof ctrl;
  ssize_t n = ::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC | MSG_DONTWAIT);
  for (cmsghdr *c = CMSG_FIRSTHDR(&msg); n > 0 && c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const int *p = reinterpret_cast<const int *>(CMSG_DATA(c));
      fds.assign(p, p + k);
    }
  }
  return n == static_cast<ssize_t>(sizeof h) && fds.size() == h.count;
}

// A non-blocking connect: -1 with errno EAGAIN while the peer's backlog is full (someone may be
// flooding it), so the caller retries until its deadline instead of blocking.
int connect_to(const fd_peer &p) {
  int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un addr{};
  socklen_t len = make_addr(fd_socket_name(p.pid, p.nonce), addr);
  if (s >= 0 && ::connect(s, reinterpret_cast<sockaddr *>(&addr), len) == 0) {
    return s;
  }
  int e = errno;
  if (s >= 0) {
    ::close(s);
  }
  errno = e;
  return -1;
}

void close_all(std::vector<int> &fds) {
  for (int &fd : fds) {
    if (fd >= 0) {
      ::close(fd);
    }
    fd = -1;
  }
}

// One exchange among the node-local PEs (fd_exchange::exchange): a single poll loop that connects
// to every peer and takes its descriptors, and accepts every peer's connection and hands ours
// over. A connection from anyone else (another user, or a process of ours that is not a PE of
// this job: SO_PEERCRED) is refused at accept, before anything is read from it, logged, and
// ignored; every wait is bounded by the deadline, so nothing a stranger does can stall init.
class exchange_round {
 public:
  exchange_round(int listen_fd, int my_rank, uint32_t round, std::vector<fd_early> &early,
                 const std::vector<fd_peer> &peers, const std::vector<int> &mine, std::vector<std::vector<int>> &out,
                 const char *call)
      : listen_fd_(listen_fd), me_(my_rank), round_(round), early_(early), peers_(peers), mine_(mine), out_(out),
        call_(call), outgoing_(peers.size(), -1), got_(peers.size(), 0), served_(peers.size(), 0) {
    for (size_t i = 0; i < peers.size(); ++i) {
      if (peers[i].rank == my_rank) got_[i] = served_[i] = 1;
    }
    std::vector<fd_early> kept;
    kept.swap(early_);
    for (const fd_early &e : kept) {  // connections the last exchange accepted for this one
      size_t who = peers.size();
      for (size_t i = 0; i < peers.size(); ++i)
        if (peers[i].pid == e.pid && peers[i].rank != me_) who = i;
      if (who == peers.size()) {
        ::close(e.fd);
      } else if (e.hello_read) {
        ready_.push_back(std::make_pair(e.fd, who));
      } else {
        incoming_.emplace_back(e.fd, who);
      }
    }
  }
  ~exchange_round() {
    close_all(outgoing_);
    for (auto &in : incoming_) keep_for_next(in.first, in.second, false);  // a peer already in the next one
    if (refused_ > max_logged) {
      warn("%s: refused %zu connections to the descriptor socket in all (%zu not logged)", call_, refused_,
           refused_ - max_logged);
    }
  }

  status run(clock::time_point deadline, double timeout_s) {
    for (auto [fd, i] : ready_) SYMMEM_TRY(hand_over(fd, i));
    ready_.clear();
    while (!done()) {
      if (clock::now() >= deadline) return timed_out(timeout_s);
      SYMMEM_TRY(connect_all());
      std::vector<pollfd> fds{{listen_fd_, POLLIN, 0}};
      for (auto &in : incoming_) fds.push_back({in.first, POLLIN, 0});
      for (int fd : outgoing_) fds.push_back({fd, static_cast<short>(fd >= 0 ? POLLIN : 0), 0});
      int r = ::poll(fds.data(), fds.size(), 10);  // the tick also retries connects to full backlogs
      if (r < 0 && errno != EINTR) {
        return fail(SYMMEM_ERR_SYSTEM, call_, "poll on the descriptor sockets failed: %s", std::strerror(errno));
      }
      if (r <= 0) continue;
      for (size_t i = 0; i < outgoing_.size(); ++i) {
        if (outgoing_[i] >= 0 && fds[1 + incoming_.size() + i].revents != 0) SYMMEM_TRY(take(i));
      }
      for (size_t k = incoming_.size(); k-- > 0;) {
        if (fds[1 + k].revents != 0) SYMMEM_TRY(serve(k));
      }
      if (fds[0].revents != 0) accept_all();
    }
    return ok_status;
  }

 private:
  static constexpr size_t max_logged = 8;

  bool done() const {
    for (size_t i = 0; i < peers_.size(); ++i) {
      if (!got_[i] || !served_[i]) return false;
    }
    return true;
  }

  status connect_all() {
    for (size_t i = 0; i < peers_.size(); ++i) {
      if (got_[i] || outgoing_[i] >= 0) continue;
      int s = connect_to(peers_[i]);
      if (s < 0) continue;  // backlog full or not there (yet): retried at the next tick
      fd_hello h{me_, round_};
      if (!peer_is(s, peers_[i].pid) || ::send(s, &h, sizeof h, MSG_NOSIGNAL | MSG_DONTWAIT) != sizeof h) {
        ::close(s);
        return fail(SYMMEM_ERR_BOOTSTRAP, call_,
                    "the descriptor socket of node-local PE %d (pid %d) is held by another process; the job cannot "
                    "share memory safely", peers_[i].rank, peers_[i].pid);
      }
      outgoing_[i] = s;
    }
    return ok_status;
  }

  status take(size_t i) {
    fd_hello h{};
    if (!recv_fds(outgoing_[i], h, out_[i]) || h.rank != peers_[i].rank) {
      return fail(SYMMEM_ERR_BOOTSTRAP, call_, "PE %d (pid %d) sent a malformed heap-descriptor message", peers_[i].rank,
                  peers_[i].pid);
    }
    got_[i] = 1;
    ::close(outgoing_[i]);
    outgoing_[i] = -1;
    return ok_status;
  }

  // A peer's connection is readable: its 8-byte hello (sent whole by a PE) names the rank it claims
  // and the exchange it is in: this one, or the next (it finished this one first).
  status serve(size_t k) {
    auto [fd, i] = incoming_[k];
    incoming_.erase(incoming_.begin() + static_cast<std::ptrdiff_t>(k));
    fd_hello h{};
    ssize_t n = ::recv(fd, &h, sizeof h, MSG_DONTWAIT);
    if (n != sizeof h || h.rank != peers_[i].rank) {
      refuse_quietly(fd, "sent no valid hello");
      return ok_status;
    }
    if (h.count == round_ + 1 && served_[i]) {
      keep_for_next(fd, i, true);
      return ok_status;
    }
    if (h.count != round_ || served_[i]) {
      refuse_quietly(fd, "named another exchange");
      return ok_status;
    }
    return hand_over(fd, i);
  }

  status hand_over(int fd, size_t i) {
    status st = ok_status;
    if (!send_fds(fd, me_, mine_)) {
      st = fail(SYMMEM_ERR_SYSTEM, call_, "cannot send the heap descriptor to PE %d: %s", peers_[i].rank,
                std::strerror(errno));
    }
    served_[i] = 1;
    ::close(fd);
    return st;
  }

  void keep_for_next(int fd, size_t i, bool hello_read) { early_.push_back({fd, peers_[i].pid, hello_read}); }

  void accept_all() {
    for (;;) {
      int s = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
      if (s < 0) return;
      ucred cred{};
      const bool known = creds_of(s, cred);
      size_t who = peers_.size();
      for (size_t i = 0; known && cred.uid == ::getuid() && i < peers_.size(); ++i) {
        if (peers_[i].pid == cred.pid && peers_[i].rank != me_) who = i;
      }
      if (who == peers_.size()) {
        if (++refused_ <= max_logged) {
          warn("%s: refused a connection to this PE's descriptor socket from pid %d (uid %d): it is not a PE of "
               "this job; ignored", call_, known ? cred.pid : -1, known ? static_cast<int>(cred.uid) : -1);
        }
        ::close(s);
        continue;
      }
      incoming_.emplace_back(s, who);
    }
  }

  void refuse_quietly(int fd, const char *why) {
    if (++refused_ <= max_logged) warn("%s: dropped a connection to the descriptor socket that %s", call_, why);
    ::close(fd);
  }

  status timed_out(double timeout_s) {
    std::string missing;
    for (size_t i = 0; i < peers_.size(); ++i) {
      if (!got_[i] || !served_[i]) missing += (missing.empty() ? "" : ", ") + std::to_string(peers_[i].rank);
    }
    return fail(SYMMEM_ERR_TIMEOUT, call_,
                "node-local PE(s) %s did not exchange heap descriptors within %.0f s; raise SYMMEM_BOOTSTRAP_TIMEOUT "
                "if they need longer", missing.c_str(), timeout_s);
  }

  int listen_fd_;
  int me_;
  uint32_t round_;
  std::vector<fd_early> &early_;
  const std::vector<fd_peer> &peers_;
  const std::vector<int> &mine_;
  std::vector<std::vector<int>> &out_;
  const char *call_;
  std::vector<int> outgoing_;                       // our connection to peer i, until its descriptors come
  std::vector<char> got_, served_;                  // peer i's descriptors taken; ours handed to peer i
  std::vector<std::pair<int, size_t>> incoming_;    // accepted from a PE, its hello not read yet
  std::vector<std::pair<int, size_t>> ready_;       // hello read in the last exchange: serve at once
  size_t refused_ = 0;
};

}  // namespace

std::string fd_socket_name(int32_t pid, uint64_t nonce) {
  return strfmt("symmem.%d.%016llx", pid, static_cast<unsigned long long>(nonce));
}

status fd_exchange::listen(uint64_t nonce, const char *call) {
  close();
  round_ = 0;
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  sockaddr_un addr{};
  socklen_t len = make_addr(fd_socket_name(::getpid(), nonce), addr);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr *>(&addr), len) != 0 ||
      ::listen(listen_fd_, SOMAXCONN) != 0) {
    int e = errno;
    close();
    return fail(SYMMEM_ERR_SYSTEM, call, "cannot open the descriptor socket for node-local peers: %s", std::strerror(e));
  }
  return ok_status;
}

void fd_exchange::close() {
  for (const fd_early &e : early_) ::close(e.fd);
  early_.clear();
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
  }
}

status fd_exchange::exchange(int my_rank, const std::vector<fd_peer> &peers, const std::vector<int> &mine,
                             std::vector<std::vector<int>> &out, double timeout_s, const char *call) {
  out.assign(peers.size(), {});
  ++round_;
  status st = exchange_round(listen_fd_, my_rank, round_, early_, peers, mine, out, call)
                  .run(deadline_after(timeout_s), timeout_s);
  if (!st.ok()) {
    for (auto &v : out) {
      close_all(v);
    }
  }
  return st;
}

}  // namespace symmem::mem
