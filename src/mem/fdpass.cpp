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

bool wait_fd(int fd, short events, std::chrono::steady_clock::time_point deadline) {
  for (;;) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return false;
    }
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, static_cast<int>(left.count()));
    if (r > 0) {
      return true;
    }
    if (r < 0 && errno != EINTR) {
      return false;
    }
  }
}

bool peer_is(int sock, int32_t pid) {
  ucred cred{};
  socklen_t len = sizeof cred;
  if (::getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) {
    return false;
  }
  return cred.pid == pid && cred.uid == ::getuid();
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
  return ::sendmsg(sock, &msg, MSG_NOSIGNAL) == static_cast<ssize_t>(sizeof h);
}

bool recv_fds(int sock, fd_hello &h, std::vector<int> &fds, std::chrono::steady_clock::time_point deadline) {
  if (!wait_fd(sock, POLLIN, deadline)) {
    return false;
  }
  iovec iov{&h, sizeof h};
  alignas(cmsghdr) char ctrl[CMSG_SPACE(sizeof(int) * max_fds)] = {};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  msg.msg_control = ctrl;
  msg.msg_controllen = sizeof ctrl;
  if (::recvmsg(sock, &msg, MSG_CMSG_CLOEXEC) != static_cast<ssize_t>(sizeof h)) {
    return false;
  }
  for (cmsghdr *c = CMSG_FIRSTHDR(&msg); c != nullptr; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS) {
      size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
      const int *p = reinterpret_cast<const int *>(CMSG_DATA(c));
      fds.assign(p, p + n);
    }
  }
  return fds.size() == h.count;
}

int connect_to(const fd_peer &p) {
  int s = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  socklen_t len = make_addr(fd_socket_name(p.pid, p.nonce), addr);
  if (s >= 0 && ::connect(s, reinterpret_cast<sockaddr *>(&addr), len) == 0) {
    return s;
  }
  if (s >= 0) {
    ::close(s);
  }
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

}  // namespace

std::string fd_socket_name(int32_t pid, uint64_t nonce) {
  return strfmt("symmem.%d.%016llx", pid, static_cast<unsigned long long>(nonce));
}

status fd_exchange::listen(uint64_t nonce, const char *call) {
  close();
  listen_fd_ = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
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
  if (listen_fd_ >= 0) {
    ::close(listen_fd_);
    listen_fd_ = -1;
  }
}

status fd_exchange::exchange(int my_rank, const std::vector<fd_peer> &peers, const std::vector<int> &mine,
                             std::vector<std::vector<int>> &out, double timeout_s, const char *call) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  out.assign(peers.size(), {});
  std::vector<int> conns(peers.size(), -1);
  status st = ok_status;
  // 1. Connect to every peer and say who we are (the listener's backlog completes the connect).
  for (size_t i = 0; i < peers.size() && st.ok(); ++i) {
    if (peers[i].rank == my_rank) {
      continue;
    }
    conns[i] = connect_to(peers[i]);
    fd_hello h{my_rank, 0};
    if (conns[i] < 0 || !peer_is(conns[i], peers[i].pid) || ::send(conns[i], &h, sizeof h, MSG_NOSIGNAL) != sizeof h) {
      st = fail(SYMMEM_ERR_SYSTEM, call, "cannot reach the descriptor socket of node-local PE %d (pid %d): %s",
                peers[i].rank, peers[i].pid, std::strerror(errno));
    }
  }
  // 2. Accept one connection from every peer, check who it is, and send our descriptors.
  for (size_t k = 0; k + 1 < peers.size() && st.ok(); ++k) {
    if (!wait_fd(listen_fd_, POLLIN, deadline)) {
      st = fail(SYMMEM_ERR_TIMEOUT, call, "node-local peers did not connect within %.0f s to take this PE's heap", timeout_s);
      break;
    }
    int s = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    fd_hello h{};
    bool got = s >= 0 && wait_fd(s, POLLIN, deadline) && ::recv(s, &h, sizeof h, MSG_WAITALL) == sizeof h;
    const fd_peer *who = nullptr;
    for (const fd_peer &p : peers) {
      who = (got && p.rank == h.rank) ? &p : who;
    }
    if (who == nullptr || !peer_is(s, who->pid)) {
      st = fail(SYMMEM_ERR_BOOTSTRAP, call,
                "refused a connection to the heap-descriptor socket: the caller is not a PE of this job");
    } else if (!send_fds(s, my_rank, mine)) {
      st = fail(SYMMEM_ERR_SYSTEM, call, "cannot send the heap descriptor to PE %d: %s", who->rank, std::strerror(errno));
    }
    if (s >= 0) {
      ::close(s);
    }
  }
  // 3. Receive every peer's descriptors on the connections we opened.
  for (size_t i = 0; i < peers.size() && st.ok(); ++i) {
    if (conns[i] < 0) {
      continue;
    }
    fd_hello h{};
    if (!recv_fds(conns[i], h, out[i], deadline) || h.rank != peers[i].rank) {
      st = fail(SYMMEM_ERR_BOOTSTRAP, call, "did not receive the heap descriptor of PE %d within %.0f s", peers[i].rank,
                timeout_s);
    }
  }
  close_all(conns);
  if (!st.ok()) {
    for (auto &v : out) {
      close_all(v);
    }
  }
  return st;
}

}  // namespace symmem::mem
