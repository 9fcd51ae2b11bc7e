// symmem uid plugin: sockets with deadlines, interface choice, framing (uid_net.h).
#include "plugins/uid/uid_net.h"

#include <arpa/inet.h>
#include <cstddef>
#include <fcntl.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

namespace symmem::uid {
namespace {

// Milliseconds left before `until`, capped so that a wait wakes up now and then; -1: none left.
int ms_left(deadline until) {
  if (until == deadline::max()) return 1000;
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - clock::now()).count();
  return left <= 0 ? -1 : static_cast<int>(std::min<long long>(left, 1000));
}

// NCCL's syntax: "^a,b" excludes names starting with a or b, "=a,b" wants exact names, "a,b" wants
// names starting with a or b.
bool name_matches(const std::string &spec, const std::string &name) {
  bool exclude = !spec.empty() && spec[0] == '^';
  std::string list = exclude ? spec.substr(1) : spec;
  bool exact = !list.empty() && list[0] == '=';
  if (exact) list = list.substr(1);
  bool hit = false;
  for (size_t at = 0; at <= list.size() && !hit;) {
    size_t end = list.find(',', at);
    end = end == std::string::npos ? list.size() : end;
    std::string item = list.substr(at, end - at);
    hit = !item.empty() && (exact ? name == item : name.rfind(item, 0) == 0);
    at = end + 1;
  }
  return exclude ? !hit : hit;
}

struct candidate {
  std::string name;
  sockaddr_in addr;
  bool loopback;
};

std::vector<candidate> ipv4_interfaces() {
  std::vector<candidate> out;
  ifaddrs *list = nullptr;
  if (::getifaddrs(&list) != 0) return out;
  for (ifaddrs *i = list; i != nullptr; i = i->ifa_next) {
    if (i->ifa_addr == nullptr || i->ifa_addr->sa_family != AF_INET || (i->ifa_flags & IFF_UP) == 0) continue;
    out.push_back({i->ifa_name, *reinterpret_cast<sockaddr_in *>(i->ifa_addr), (i->ifa_flags & IFF_LOOPBACK) != 0});
  }
  ::freeifaddrs(list);
  return out;
}

}  // namespace

deadline deadline_in(double seconds) {
  if (seconds <= 0) return deadline::max();
  return clock::now() + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
}

std::string addr_text(const sockaddr_in &a) {
  char ip[INET_ADDRSTRLEN] = "?";
  ::inet_ntop(AF_INET, &a.sin_addr, ip, sizeof ip);
  return std::string(ip) + ":" + std::to_string(ntohs(a.sin_port));
}

int choose_address(const plugin::reporter &rep, sockaddr_in &out, std::string &ifname) {
  const bool has = rep.host.struct_size >= offsetof(symmem_boot_host, uid_ifname) + sizeof(const char *);
  const char *spec = has ? rep.host.uid_ifname : nullptr;  // the library's table read the variable
  std::vector<candidate> all = ipv4_interfaces();
  std::string seen;
  for (int pass = 0; pass < 2; ++pass) {  // pass 0: non-loopback (when no spec), pass 1: loopback
    for (const candidate &c : all) {
      bool fits = (spec != nullptr && *spec != '\0') ? name_matches(spec, c.name)
                                                     : (c.loopback == (pass == 1) && c.name.rfind("docker", 0) != 0);
      if (fits) {
        out = c.addr;
        ifname = c.name;
        return SYMMEM_SUCCESS;
      }
    }
  }
  for (const candidate &c : all) {
    std::string a = addr_text(c.addr);
    seen += (seen.empty() ? "" : ", ") + c.name + " " + a.substr(0, a.rfind(':'));
  }
  if (spec != nullptr && *spec != '\0') {
    return rep.fail(SYMMEM_ERR_CONFIG, "get_uniqueid",
                    "SYMMEM_BOOTSTRAP_UID_SOCK_IFNAME=%s matches no IPv4 interface that is up (found: %s)", spec,
                    seen.empty() ? "none" : seen.c_str());
  }
  return rep.fail(SYMMEM_ERR_SYSTEM, "get_uniqueid", "no IPv4 interface is up, not even loopback");
}

int open_listener(const plugin::reporter &rep, const sockaddr_in &at, int &fd, sockaddr_in &bound) {
  fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in want = at;
  want.sin_port = 0;
  socklen_t len = sizeof bound;
  if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&want), sizeof want) != 0 || ::listen(fd, SOMAXCONN) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr *>(&bound), &len) != 0 || !set_nonblocking(fd)) {
    int err = errno;
    if (fd >= 0) ::close(fd);
    fd = -1;
    return rep.fail(SYMMEM_ERR_SYSTEM, "get_uniqueid", "cannot listen on %s: %s", addr_text(want).c_str(),
                    std::strerror(err));
  }
  return SYMMEM_SUCCESS;
}

int connect_to(const sockaddr_in &to, deadline until) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return -1;
  int rc = ::connect(fd, reinterpret_cast<const sockaddr *>(&to), sizeof to);
  if (rc != 0 && errno == EINPROGRESS) {
    pollfd p{fd, POLLOUT, 0};
    int ms;
    while ((ms = ms_left(until)) >= 0 && (rc = ::poll(&p, 1, ms)) == 0) {
    }
    int err = ETIMEDOUT;
    socklen_t len = sizeof err;
    if (rc > 0) ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
    rc = err == 0 ? 0 : -1;
    errno = err;
  }
  if (rc != 0) {
    int err = errno;
    ::close(fd);
    errno = err;
    return -1;
  }
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return fd;
}

bool set_nonblocking(int fd) {
  int fl = ::fcntl(fd, F_GETFL);
  return fl >= 0 && ::fcntl(fd, F_SETFL, fl | O_NONBLOCK) == 0;
}

bool random_bytes(void *buf, size_t len) {
  auto *p = static_cast<char *>(buf);
  while (len > 0) {
    ssize_t n = ::getrandom(p, len, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    len -= static_cast<size_t>(n);
  }
  return true;
}

bool same_secret(const uint8_t *a, const uint8_t *b) {
  uint8_t diff = 0;
  for (size_t i = 0; i < secret_bytes; ++i) diff |= static_cast<uint8_t>(a[i] ^ b[i]);
  return diff == 0;
}

io send_all(int fd, const void *buf, size_t len, deadline until) {
  const char *p = static_cast<const char *>(buf);
  while (len > 0) {
    ssize_t n = ::send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n > 0) {
      p += n;
      len -= static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK)
      return errno == EPIPE || errno == ECONNRESET ? io::eof : io::error;
    pollfd pfd{fd, POLLOUT, 0};
    int ms = ms_left(until);
    if (ms < 0) return io::timeout;
    ::poll(&pfd, 1, ms);
  }
  return io::ok;
}

io recv_all(int fd, void *buf, size_t len, deadline until) {
  char *p = static_cast<char *>(buf);
  while (len > 0) {
    ssize_t n = ::recv(fd, p, len, MSG_DONTWAIT);
    if (n > 0) {
      p += n;
      len -= static_cast<size_t>(n);
      continue;
    }
    if (n == 0) return io::eof;
    if (errno == EINTR) continue;
    if (errno != EAGAIN && errno != EWOULDBLOCK) return errno == ECONNRESET ? io::eof : io::error;
    pollfd pfd{fd, POLLIN, 0};
    int ms = ms_left(until);
    if (ms < 0) return io::timeout;
    ::poll(&pfd, 1, ms);
  }
  return io::ok;
}

io send_msg(int fd, msg type, const void *head, size_t head_len, const void *body, size_t body_len, deadline until) {
  header h{htonl(static_cast<uint32_t>(type)), htonl(static_cast<uint32_t>(head_len + body_len))};
  io r = send_all(fd, &h, sizeof h, until);
  if (r == io::ok && head_len > 0) r = send_all(fd, head, head_len, until);
  if (r == io::ok && body_len > 0) r = send_all(fd, body, body_len, until);
  return r;
}

io recv_msg(int fd, msg &type, std::vector<char> &payload, deadline until) {
  header h{};
  io r = recv_all(fd, &h, sizeof h, until);
  if (r != io::ok) return r;
  uint32_t len = ntohl(h.len);
  if (len > max_payload) return io::error;
  type = static_cast<msg>(ntohl(h.type));
  payload.resize(len);
  return len == 0 ? io::ok : recv_all(fd, payload.data(), len, until);
}

}  // namespace symmem::uid
