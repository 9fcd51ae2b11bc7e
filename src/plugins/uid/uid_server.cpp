// symmem uid plugin: the rendezvous (uid_server.h).
#include "plugins/uid/uid_server.h"

#include <arpa/inet.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace symmem::uid {
namespace {

constexpr double send_limit_s = 10;  // a rank that does not read its answer for this long is gone

void close_fd(int &fd) {
  if (fd >= 0) ::close(fd);
  fd = -1;
}

// Closes a rank's connection so that what was sent last (an ABORT) reaches it: closing with
// unread input would reset the connection, and a reset can discard data the rank has not read.
void close_gently(int &fd) {
  if (fd < 0) return;
  ::shutdown(fd, SHUT_WR);
  char sink[4096];
  while (::recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0) {
  }
  close_fd(fd);
}

}  // namespace

int rendezvous::start(const plugin::reporter &rep, std::unique_ptr<rendezvous> &out, id_blob &id) {
  std::unique_ptr<rendezvous> r(new rendezvous(rep));
  sockaddr_in at{};
  std::string ifname;
  int rc = choose_address(rep, at, ifname);
  if (rc == SYMMEM_SUCCESS) rc = open_listener(rep, at, r->listen_fd_, r->addr_);
  if (rc != SYMMEM_SUCCESS) return rc;
  r->wake_fd_ = ::eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
  if (!random_bytes(r->secret_, secret_bytes) || r->wake_fd_ < 0) {
    return rep.fail(SYMMEM_ERR_SYSTEM, "get_uniqueid", "cannot draw the job's secret or make an eventfd: %s",
                    std::strerror(errno));
  }
  id = id_blob{};
  std::memcpy(id.magic, "SYMU", 4);
  id.version = protocol_version;
  id.family = 4;
  id.port = r->addr_.sin_port;
  std::memcpy(id.addr, &r->addr_.sin_addr, 4);
  std::memcpy(id.secret, r->secret_, secret_bytes);
  id.root_pid = htonl(static_cast<uint32_t>(::getpid()));
  r->thread_ = std::thread([p = r.get()] { p->run(); });
  rep.log(SYMMEM_BOOT_LOG_INFO, "get_uniqueid", "bootstrap root listening on %s (interface %s)",
          addr_text(r->addr_).c_str(), ifname.c_str());
  out = std::move(r);
  return SYMMEM_SUCCESS;
}

rendezvous::~rendezvous() {
  finish(0);
  close_fd(wake_fd_);
  close_fd(listen_fd_);  // when the thread never started
}

std::string rendezvous::outcome() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return outcome_;
}

bool rendezvous::used() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return any_admitted_;
}

void rendezvous::finish(double limit_s) {
  {
    std::unique_lock<std::mutex> lock(mutex_);
    if (limit_s > 0) {
      ended_cv_.wait_for(lock, std::chrono::duration<double>(limit_s), [this] { return ended_; });
    }
    stop_ = true;
  }
  uint64_t one = 1;
  if (wake_fd_ >= 0 && ::write(wake_fd_, &one, sizeof one) < 0) {
    // the thread still sees stop_ at its next tick
  }
  if (thread_.joinable()) thread_.join();
}

void rendezvous::run() {
  std::vector<pollfd> fds;
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stop_ || over_) break;
    }
    fds.assign({{wake_fd_, POLLIN, 0}, {listen_fd_, POLLIN, 0}});
    for (auto &c : conns_) fds.push_back({c->fd, POLLIN, 0});
    ::poll(fds.data(), fds.size(), 100);  // the tick that checks deadlines
    if (fds[0].revents != 0) {
      uint64_t v;
      (void)!::read(wake_fd_, &v, sizeof v);
    }
    const size_t polled = fds.size() - 2;
    for (size_t i = 0; i < polled && !over_; ++i) {
      if (fds[i + 2].revents != 0 && conns_[i]->fd >= 0) read_from(*conns_[i]);
    }
    if (!over_ && (fds[1].revents & POLLIN) != 0) accept_all();
    if (!over_) check_deadlines();
    std::erase_if(conns_, [](const std::unique_ptr<conn> &c) { return c->fd < 0; });
  }
  for (auto &c : conns_) close_gently(c->fd);
  conns_.clear();
  close_fd(listen_fd_);  // a rank that comes now is refused at once, not left waiting
  std::lock_guard<std::mutex> lock(mutex_);
  ended_ = true;
  ended_cv_.notify_all();
}

void rendezvous::accept_all() {
  for (;;) {
    sockaddr_in from{};
    socklen_t len = sizeof from;
    int fd = ::accept4(listen_fd_, reinterpret_cast<sockaddr *>(&from), &len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      return;  // EAGAIN: none left; other errors (EMFILE) leave the peer in the backlog until its timeout
    }
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    auto c = std::make_unique<conn>();
    c->fd = fd;
    c->peer = addr_text(from);
    c->opened = clock::now();
    conns_.push_back(std::move(c));
  }
}

void rendezvous::read_from(conn &c) {
  char tmp[65536];
  bool eof = false;
  for (;;) {
    // Before the secret is verified a connection may hold only its greeting: a header and a
    // hello. A stranger that streams data costs the root those 56 bytes, not what it sends.
    constexpr size_t greeting = sizeof(header) + sizeof(hello_msg);
    const size_t room = c.member ? sizeof tmp : greeting - std::min(c.buf.size(), greeting);
    if (room == 0) break;
    ssize_t n = ::recv(c.fd, tmp, std::min(room, sizeof tmp), MSG_DONTWAIT);
    if (n > 0) {
      c.buf.insert(c.buf.end(), tmp, tmp + n);
      if (!c.member) parse(c);  // admits or refuses as soon as the greeting is whole
      if (c.fd < 0) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    eof = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
    break;
  }
  parse(c);  // what arrived before a close still counts (BYE then close)
  if (eof && c.fd >= 0 && !over_) dropped(c);
}

void rendezvous::parse(conn &c) {
  size_t at = 0;
  while (c.fd >= 0 && !over_ && c.buf.size() - at >= sizeof(header)) {
    header h;
    std::memcpy(&h, c.buf.data() + at, sizeof h);
    const auto type = static_cast<msg>(ntohl(h.type));
    const uint32_t len = ntohl(h.len);
    if (!c.member && (type != msg::hello || len != sizeof(hello_msg))) {
      refuse(c, "it did not open with this job's greeting");
      return;
    }
    if (len > max_payload) {
      abort_all(abort_kind::error, 1, describe(c) + " sent an oversized bootstrap message (protocol error)");
      return;
    }
    if (c.buf.size() - at - sizeof h < len) break;
    handle(c, type, c.buf.data() + at + sizeof h, len);
    at += sizeof h + len;
  }
  if (c.fd >= 0) c.buf.erase(c.buf.begin(), c.buf.begin() + static_cast<std::ptrdiff_t>(at));
}

void rendezvous::handle(conn &c, msg type, const char *payload, size_t len) {
  if (!c.member) {
    hello_msg h;
    std::memcpy(&h, payload, sizeof h);
    if (std::memcmp(h.magic, "SYMH", 4) != 0 || ntohl(h.version) != protocol_version ||
        !same_secret(h.secret, secret_)) {
      refuse(c, "wrong secret");
      return;
    }
    admit(c, h);
    return;
  }
  switch (type) {
    case msg::coll:
      collect(c, payload, len);
      return;
    case msg::bye:
      c.bye = true;
      if (++byes_ == nranks_) end_job();
      return;
    case msg::exit: {
      uint32_t st = 0;
      if (len >= 4) std::memcpy(&st, payload, 4);
      std::string text = len > 4 ? std::string(payload + 4, len - 4) : describe(c) + " ended the job";
      abort_all(abort_kind::exit, static_cast<int>(ntohl(st)), text);
      return;
    }
    default:
      abort_all(abort_kind::error, 1, describe(c) + " sent an unexpected bootstrap message (version mismatch?)");
  }
}

void rendezvous::admit(conn &c, const hello_msg &h) {
  const int rank = static_cast<int>(ntohl(h.rank));
  const int n = static_cast<int>(ntohl(h.nranks));
  c.pid = ntohl(h.pid);
  if (nranks_ == 0 && n > 0 && n < (1 << 24)) {
    nranks_ = n;
    by_rank_.assign(static_cast<size_t>(n), nullptr);
    pending_.assign(static_cast<size_t>(n), std::nullopt);
  }
  std::string who = plugin::format("the process at %s (pid %u)", c.peer.c_str(), c.pid);
  if (n != nranks_) {
    abort_all(
        abort_kind::error, 1,
        plugin::format("the ranks disagree on the job size: %s says %d ranks, the first to arrive said %d; pass the "
                       "same nranks everywhere",
                       who.c_str(), n, nranks_),
        &c);
  } else if (rank < 0 || rank >= n) {
    abort_all(abort_kind::error, 1, plugin::format("%s asks for rank %d of %d", who.c_str(), rank, n), &c);
  } else if (by_rank_[static_cast<size_t>(rank)] != nullptr) {
    abort_all(abort_kind::error, 1,
              plugin::format("two processes claim PE %d: %s and %s; give each process its own rank", rank,
                             describe(*by_rank_[static_cast<size_t>(rank)]).c_str(), who.c_str()),
              &c);
  } else {
    c.member = true;
    c.rank = rank;
    by_rank_[static_cast<size_t>(rank)] = &c;
    ++admitted_;
    std::lock_guard<std::mutex> lock(mutex_);
    any_admitted_ = true;
  }
}

void rendezvous::refuse(conn &c, const char *why) {
  rep_.log(SYMMEM_BOOT_LOG_WARN, phase(),
           "refused a bootstrap connection from %s that did not present this job's secret (%s)", c.peer.c_str(), why);
  close_fd(c.fd);
  c.buf.clear();
}

void rendezvous::collect(conn &c, const char *payload, size_t len) {
  auto &slot = pending_[static_cast<size_t>(c.rank)];
  if (len < 4 || slot.has_value()) {
    abort_all(abort_kind::error, 1,
              describe(c) +
                  " started a bootstrap exchange before the last one ended "
                  "(protocol error)");
    return;
  }
  uint32_t tmo;
  std::memcpy(&tmo, payload, 4);
  slot.emplace(payload + 4, payload + len);
  if (arrived_++ == 0) {
    round_timeout_s_ = ntohl(tmo) / 1000.0;
    round_deadline_ = deadline_in(round_timeout_s_);
  }
  if (arrived_ == nranks_) complete_round();
}

void rendezvous::complete_round() {
  std::vector<char> body(sizeof(uint32_t) * static_cast<size_t>(nranks_));
  for (int r = 0; r < nranks_; ++r) {
    const std::vector<char> &d = *pending_[static_cast<size_t>(r)];
    uint32_t len = htonl(static_cast<uint32_t>(d.size()));
    std::memcpy(body.data() + sizeof(uint32_t) * static_cast<size_t>(r), &len, sizeof len);
    body.insert(body.end(), d.begin(), d.end());
  }
  pending_.assign(static_cast<size_t>(nranks_), std::nullopt);
  arrived_ = 0;
  round_deadline_ = deadline::max();
  for (int r = 0; r < nranks_; ++r) {
    conn &c = *by_rank_[static_cast<size_t>(r)];
    if (send_msg(c.fd, msg::coll_done, body.data(), body.size(), nullptr, 0, deadline_in(send_limit_s)) != io::ok) {
      close_fd(c.fd);
      by_rank_[static_cast<size_t>(r)] = nullptr;
      abort_all(abort_kind::peer_gone, 1,
                describe(c) +
                    " stopped reading from the bootstrap root: it exited, died "
                    "or hangs");
      return;
    }
  }
}

void rendezvous::check_deadlines() {
  const auto now = clock::now();
  for (auto &c : conns_) {
    if (c->fd >= 0 && !c->member && now - c->opened > std::chrono::duration<double>(auth_window_s)) {
      refuse(*c, "it sent nothing within the greeting window");
    }
  }
  if (arrived_ == 0 || now < round_deadline_) return;
  std::vector<int> never, late;
  for (int r = 0; r < nranks_; ++r) {
    if (!pending_[static_cast<size_t>(r)]) (by_rank_[static_cast<size_t>(r)] ? late : never).push_back(r);
  }
  std::string text;
  if (!never.empty()) {
    text = plugin::format(
        "%s did not arrive within %.0f s: never connected to the bootstrap root at %s (not started, "
        "given another id, or cannot reach that address)",
        plugin::ranks_text(never).c_str(), round_timeout_s_, addr_text(addr_).c_str());
  }
  if (!late.empty()) {
    text += plugin::format("%s%s connected but did not reach the same bootstrap step within %.0f s",
                           text.empty() ? "" : "; ", plugin::ranks_text(late).c_str(), round_timeout_s_);
  }
  abort_all(abort_kind::timeout, 1,
            text +
                "; raise SYMMEM_BOOTSTRAP_TIMEOUT (in init) or SYMMEM_WAIT_TIMEOUT (after init) if they need "
                "longer");
}

void rendezvous::dropped(conn &c) {
  close_fd(c.fd);
  if (!c.member) {
    rep_.log(SYMMEM_BOOT_LOG_WARN, phase(),
             "refused a bootstrap connection from %s that did not present this job's secret (it closed without a "
             "greeting)",
             c.peer.c_str());
    return;
  }
  by_rank_[static_cast<size_t>(c.rank)] = nullptr;
  if (!c.bye) {
    abort_all(abort_kind::peer_gone, 1,
              describe(c) + " closed its connection to the bootstrap root before finalize: it exited or died");
  }
}

void rendezvous::abort_all(abort_kind kind, int status, const std::string &text, conn *extra) {
  std::vector<char> payload(8);
  uint32_t k = htonl(static_cast<uint32_t>(kind));
  uint32_t st = htonl(static_cast<uint32_t>(status));
  std::memcpy(payload.data(), &k, 4);
  std::memcpy(payload.data() + 4, &st, 4);
  payload.insert(payload.end(), text.begin(), text.end());
  for (auto &c : conns_) {
    if (c->fd >= 0 && ((c->member && !c->bye) || c.get() == extra)) {
      send_msg(c->fd, msg::abort, payload.data(), payload.size(), nullptr, 0, deadline_in(2));
    }
  }
  std::lock_guard<std::mutex> lock(mutex_);
  outcome_ = text;
  end_job();
}

void rendezvous::end_job() { over_ = true; }

const char *rendezvous::phase() const { return (nranks_ == 0 || admitted_ < nranks_) ? "init" : "bootstrap"; }

std::string rendezvous::describe(const conn &c) const {
  return plugin::format("PE %d (pid %u, from %s)", c.rank, c.pid, c.peer.c_str());
}

}  // namespace symmem::uid
