// symmem-run --host-agent: starts one host's PEs for a head launcher elsewhere (host_proto.h).
//
// The agent is the head's hands on this host: it forks the PEs (own process groups, killed with
// the agent), serves their launcher connections on an abstract socket of this host's network
// namespace and relays them byte for byte, tags their output, and reports their exits. It owns
// no decision: the head tells it when to signal. When the head goes (end of our stdin), every PE
// goes too. One thread, one poll() loop, like the head.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <thread>

#include "bootstrap/launcher_proto.h"
#include "run/host_proto.h"
#include "run/hosts.h"

namespace symmem::run {
namespace {

namespace lp = symmem::launcher;
using namespace std::chrono_literals;

constexpr size_t max_line = 64 * 1024;  // as the head: longer lines are broken, memory stays bounded

// Frames to the head: blocking writes to stdout (the head never blocks on us, so no deadlock).
void send_frame(hp::type t, uint32_t id, std::string_view payload) { write_all(1, hp::frame_bytes(t, id, payload)); }
void send_int(hp::type t, uint32_t id, int32_t v) {
  send_frame(t, id, std::string_view(reinterpret_cast<const char *>(&v), sizeof v));
}

struct pipe_in {
  int fd = -1;
  char stream = 1;
  std::string partial;
};

struct pe_proc {
  int rank = -1;
  pid_t pid = -1;
  bool running = false;
  pipe_in out, err;
};

struct link {
  int fd = -1;
  std::string tx;  // bytes from the head not yet written to the PE
};

class agent {
 public:
  agent(agent_setup s, std::string early) : s_(std::move(s)), in_(std::move(early)) {}

  int run() {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);  // what the PEs leave behind comes back to us
    fds_ = raise_fd_limit();
    sig_fd_ = block_signals(mask_);
    sock_ = strf("symmem-agent.%d.%s", static_cast<int>(::getpid()), s_.job_id.c_str());
    listen_fd_ = listen_abstract(sock_);
    if (!s_.cwd.empty() && ::chdir(s_.cwd.c_str()) != 0)
      note(strf("cannot enter %s (%s); the PEs start in %s", s_.cwd.c_str(), std::strerror(errno), "the agent's directory"));
    if (!await_place()) return head_gone_ || stopped_before_start_ != 0 ? 0 : 1;
    start_pes();
    if (!in_.empty()) read_head(false);
    // After the last exit, output still in the pipes is read; a daemon that left its PE's group
    // and holds a pipe open does not keep us (or the head) waiting long.
    std::optional<steady::time_point> last_exit;
    for (;;) {
      if (running_ == 0 && !last_exit) last_exit = steady::now();
      if (running_ == 0 && (open_pipes() == 0 || steady::now() >= *last_exit + 1s)) break;
      loop_once();
    }
    reap_leftovers();
    return 0;
  }

 private:
  void note(const std::string &msg) { say("host " + s_.host + ": " + msg); }

  [[noreturn]] void exec_pe(pe_proc &p, int out_w, int err_w) {
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != self_) ::_exit(127);
    int report = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
    ::dup2(out_w, 1);
    ::dup2(err_w, 2);
    int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null >= 0) ::dup2(null, 0);
    for (auto &[k, v] : s_.env) ::setenv(k.c_str(), v.c_str(), 1);
    ::setenv(lp::env_sock, ("@" + sock_).c_str(), 1);
    ::setenv(lp::env_rank, std::to_string(p.rank).c_str(), 1);
    ::setenv(lp::env_size, std::to_string(s_.n_total).c_str(), 1);
    ::setenv(lp::env_job, s_.job_id.c_str(), 1);
    ::setenv(lp::env_host, s_.host.c_str(), 1);
    reset_child_signals(mask_);
    ::setrlimit(RLIMIT_NOFILE, &fds_);
    bind_to_cpu(s_.bind, place_offset_ + (p.rank - s_.first_rank), place_total_);
    std::vector<char *> argv;
    for (std::string &a : s_.argv) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    dprintf(report, "symmem-run: host %s: cannot start PE %d: %s: %s\n", s_.host.c_str(), p.rank, argv[0],
            std::strerror(errno));
    ::_exit(127);
  }

  void start_pes() {
    pes_.resize(static_cast<size_t>(s_.count));
    for (int i = 0; i < s_.count; ++i) {
      pe_proc &p = pes_[static_cast<size_t>(i)];
      p.rank = s_.first_rank + i;
      int op[2], ep[2];
      if (::pipe2(op, O_CLOEXEC) != 0 || ::pipe2(ep, O_CLOEXEC) != 0) die(strf("pipe: %s", std::strerror(errno)));
      pid_t pid = ::fork();
      if (pid == 0) exec_pe(p, op[1], ep[1]);
      ::close(op[1]);
      ::close(ep[1]);
      if (pid < 0) {
        note(strf("cannot start PE %d: fork: %s", p.rank, std::strerror(errno)));
        send_int(hp::type::exited, static_cast<uint32_t>(p.rank), 127 << 8);
        ::close(op[0]);
        ::close(ep[0]);
        continue;
      }
      ::setpgid(pid, pid);
      p.pid = pid;
      p.running = true;
      p.out = {op[0], 1, {}};
      p.err = {ep[0], 2, {}};
      for (int fd : {op[0], ep[0]}) ::fcntl(fd, F_SETFL, O_NONBLOCK);
      ++running_;
      send_int(hp::type::started, static_cast<uint32_t>(p.rank), pid);
    }
  }

  // Says which machine this host is and waits for the head's answer: where on the machine's
  // CPUs this host's PEs go (host_proto.h, MACHINE and PLACE). Bounded, like the wait for SETUP.
  bool await_place() {
    send_frame(hp::type::machine, 0, machine_identity());
    read_head(false);  // PLACE may have come with SETUP
    for (auto until = steady::now() + 60s; !placed_ && !head_gone_ && stopped_before_start_ == 0;) {
      if (steady::now() >= until) {
        note("the head never said where this host's PEs go on the machine's CPUs (no PLACE frame in 60 s)");
        return false;
      }
      pollfd p{0, POLLIN, 0};
      if (::poll(&p, 1, 1000) > 0) read_head();
    }
    if (stopped_before_start_ != 0 && !head_gone_) {  // none of our PEs runs: each ends with the signal
      for (int i = 0; i < s_.count; ++i) send_int(hp::type::exited, static_cast<uint32_t>(s_.first_rank + i), stopped_before_start_);
    }
    return placed_ && stopped_before_start_ == 0;
  }

  int open_pipes() const {
    int n = 0;
    for (const pe_proc &p : pes_) n += (p.out.fd >= 0) + (p.err.fd >= 0);
    return n;
  }

  void loop_once() {
    std::vector<pollfd> fds{{head_gone_ ? -1 : 0, POLLIN, 0}, {listen_fd_, POLLIN, 0}, {sig_fd_, POLLIN, 0}};
    std::vector<uint32_t> ids;
    for (auto &[id, l] : links_) {
      fds.push_back({l.fd, static_cast<short>(POLLIN | (l.tx.empty() ? 0 : POLLOUT)), 0});
      ids.push_back(id);
    }
    std::vector<pipe_in *> ps;
    for (pe_proc &p : pes_)
      for (pipe_in *q : {&p.out, &p.err})
        if (q->fd >= 0) fds.push_back({q->fd, POLLIN, 0}), ps.push_back(q);
    if (::poll(fds.data(), fds.size(), running_ > 0 ? 1000 : 100) < 0 && errno != EINTR) die(strf("poll: %s", std::strerror(errno)));
    if (fds[0].revents) read_head();
    if (fds[1].revents) accept_all();
    for (size_t i = 0; i < ids.size(); ++i) {
      auto it = links_.find(ids[i]);
      if (it == links_.end()) continue;
      if (fds[3 + i].revents & POLLOUT) flush_link(it->first, it->second);
      if (fds[3 + i].revents & (POLLIN | POLLHUP | POLLERR)) read_link(ids[i]);
    }
    for (size_t i = 0; i < ps.size(); ++i)
      if (fds[3 + ids.size() + i].revents) pump(*ps[i], rank_of_pipe(ps[i]));
    if (fds[2].revents) on_signal();
  }

  int rank_of_pipe(const pipe_in *q) const {
    for (const pe_proc &p : pes_)
      if (&p.out == q || &p.err == q) return p.rank;
    return -1;
  }

  // ---- the head ----

  void read_head(bool more = true) {
    char buf[65536];
    ssize_t k = 0;
    while (more && (k = ::read(0, buf, sizeof buf)) < 0 && errno == EINTR) {}
    if (more && k <= 0) return head_lost();
    if (more) in_.append(buf, static_cast<size_t>(k));
    size_t off = 0;
    hp::frame f{};
    while (in_.size() - off >= sizeof f) {
      std::memcpy(&f, in_.data() + off, sizeof f);
      if (f.len > hp::max_frame) return head_lost();
      if (in_.size() - off < sizeof f + f.len) break;
      on_frame(f, std::string_view(in_).substr(off + sizeof f, f.len));
      off += sizeof f + f.len;
    }
    in_.erase(0, off);
  }

  void on_frame(const hp::frame &f, std::string_view payload) {
    auto it = links_.find(f.id);
    switch (static_cast<hp::type>(f.type)) {
      case hp::type::data:
        if (it != links_.end()) it->second.tx.append(payload), flush_link(f.id, it->second);
        return;
      case hp::type::close:
        if (it != links_.end()) drop_link(f.id, false);
        return;
      case hp::type::place: {
        uint32_t offset = 0, total = 0;
        if (hp::get_u32(payload, offset) && hp::get_u32(payload, total) && offset + static_cast<uint32_t>(s_.count) <= total &&
            total <= static_cast<uint32_t>(s_.n_total)) {
          place_offset_ = static_cast<int>(offset);
          place_total_ = static_cast<int>(total);
        } else {
          note("the head sent a malformed PLACE frame; the PEs are placed as if alone on the machine");
        }
        placed_ = true;
        return;
      }
      case hp::type::signal: {
        int32_t sig = 0;
        if (payload.size() != sizeof sig) return;
        std::memcpy(&sig, payload.data(), sizeof sig);
        if (pes_.empty()) stopped_before_start_ = sig;  // the job stops before it started here
        else signal_all(sig);
        return;
      }
      default:
        note(strf("unexpected frame %u from the head; ignored", f.type));
    }
  }

  // Without the head nobody can serve the PEs or hear from them: they go, now.
  void head_lost() {
    if (head_gone_) return;
    head_gone_ = true;
    signal_all(SIGKILL);
  }

  // ---- the PEs' connections ----

  void accept_all() {
    for (int fd; (fd = ::accept4(listen_fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;) {
      ucred cred{};  // abstract sockets ignore file permissions: talk only to our own user
      socklen_t len = sizeof cred;
      if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
        ::close(fd);
        continue;
      }
      const uint32_t id = next_link_++;
      links_[id].fd = fd;
      if (!head_gone_) send_frame(hp::type::open, id, {});
    }
  }

  void read_link(uint32_t id) {
    link &l = links_[id];
    char buf[65536];
    ssize_t k;
    while ((k = ::recv(l.fd, buf, sizeof buf, 0)) > 0 || (k < 0 && errno == EINTR))
      if (k > 0 && !head_gone_) send_frame(hp::type::data, id, std::string_view(buf, static_cast<size_t>(k)));
    if (!(k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) drop_link(id, true);
  }

  void flush_link(uint32_t id, link &l) {
    while (!l.tx.empty()) {
      ssize_t k = ::send(l.fd, l.tx.data(), l.tx.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (k < 0) return drop_link(id, true);
      l.tx.erase(0, static_cast<size_t>(k));
    }
  }

  void drop_link(uint32_t id, bool tell_head) {
    auto it = links_.find(id);
    if (it == links_.end()) return;
    ::close(it->second.fd);
    links_.erase(it);
    if (tell_head && !head_gone_) send_frame(hp::type::close, id, {});
  }

  // ---- output ----

  void pump(pipe_in &q, int rank) {
    char buf[65536];
    for (int rounds = 0; q.fd >= 0 && rounds < 16; ++rounds) {
      ssize_t k = ::read(q.fd, buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (k <= 0) return end_pipe(q, rank);
      emit(q, rank, std::string_view(buf, static_cast<size_t>(k)));
    }
  }

  void emit(pipe_in &q, int rank, std::string_view data) {
    std::string out(1, q.stream);
    if (!s_.tag_output) {
      out.append(data);
    } else {
      const std::string prefix = strf("[PE %d] ", rank);
      for (size_t nl; (nl = data.find('\n')) != std::string_view::npos; data.remove_prefix(nl + 1)) {
        out += prefix + q.partial;
        out.append(data.substr(0, nl + 1));
        q.partial.clear();
      }
      q.partial.append(data);
      if (q.partial.size() >= max_line) out += prefix + q.partial + "\n", q.partial.clear();
    }
    if (out.size() > 1 && !head_gone_) send_frame(hp::type::out, static_cast<uint32_t>(rank), out);
  }

  void end_pipe(pipe_in &q, int rank) {
    if (!q.partial.empty() && !head_gone_)
      send_frame(hp::type::out, static_cast<uint32_t>(rank), std::string(1, q.stream) + strf("[PE %d] ", rank) + q.partial + "\n");
    q.partial.clear();
    ::close(q.fd);
    q.fd = -1;
  }

  // ---- signals and exits ----

  void on_signal() {
    signalfd_siginfo si;
    bool child = false;
    while (::read(sig_fd_, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
      if (si.ssi_signo == SIGCHLD) child = true;
      else signal_all(static_cast<int>(si.ssi_signo));  // our session ends (ssh hung up): pass it on
    }
    if (child) reap();
  }

  void signal_all(int sig) {
    for (pe_proc &p : pes_)
      if (p.running && ::kill(-p.pid, sig) != 0) ::kill(p.pid, sig);
  }

  void reap() {
    std::vector<std::pair<pid_t, int>> done;
    int st = 0;
    for (pid_t pid; (pid = ::waitpid(-1, &st, WNOHANG)) > 0;) done.emplace_back(pid, st);
    if (done.empty()) return;
    // What a PE sent before it exited must reach the head before its exit does.
    accept_all();
    std::vector<uint32_t> ids;
    for (auto &[id, l] : links_) ids.push_back(id);
    for (uint32_t id : ids)
      if (links_.count(id) != 0) read_link(id);
    for (auto [pid, status] : done)
      for (pe_proc &p : pes_)
        if (p.pid == pid && p.running) on_exit(p, status);
  }

  void on_exit(pe_proc &p, int status) {
    p.running = false;
    --running_;
    ::kill(-p.pid, SIGKILL);  // what the PE left in its group goes with it
    for (pipe_in *q : {&p.out, &p.err}) pump(*q, p.rank);
    if (!head_gone_) send_int(hp::type::exited, static_cast<uint32_t>(p.rank), status);
  }

  void reap_leftovers() {
    for (auto until = steady::now() + 500ms; steady::now() < until;) {
      pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
      if (pid < 0) return;
      if (pid == 0) std::this_thread::sleep_for(5ms);
    }
  }

  agent_setup s_;
  pid_t self_ = ::getpid();
  rlimit fds_{};
  sigset_t mask_{};
  int sig_fd_ = -1, listen_fd_ = -1;
  std::string sock_, in_;
  std::vector<pe_proc> pes_;
  std::map<uint32_t, link> links_;
  uint32_t next_link_ = 1;
  int running_ = 0;
  bool head_gone_ = false;
  bool placed_ = false;
  int stopped_before_start_ = 0;  // a signal from the head before PLACE: the job is ending
  int place_offset_ = 0, place_total_ = s_.count;  // this host's PEs among the machine's (PLACE)
};

// The SETUP frame, first on stdin; a bounded wait, so a stray agent does not linger.
bool read_setup(agent_setup &s, std::string &rest) {
  std::string buf;
  hp::frame f{};
  auto until = steady::now() + 60s;
  while (steady::now() < until) {
    if (buf.size() >= sizeof f) {
      std::memcpy(&f, buf.data(), sizeof f);
      if (f.type != static_cast<uint32_t>(hp::type::setup) || f.len > hp::max_frame) return false;
      if (buf.size() >= sizeof f + f.len) {
        rest = buf.substr(sizeof f + f.len);
        return unpack_setup(std::string_view(buf).substr(sizeof f, f.len), s);
      }
    }
    pollfd p{0, POLLIN, 0};
    if (::poll(&p, 1, 1000) <= 0) continue;
    char chunk[65536];
    ssize_t k = ::read(0, chunk, sizeof chunk);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    buf.append(chunk, static_cast<size_t>(k));
  }
  return false;
}

}  // namespace

int host_agent_main() {
  agent_setup s;
  std::string rest;
  if (!read_setup(s, rest)) {
    say("--host-agent: no valid job description on stdin (this mode is started by symmem-run --hosts, not by hand)");
    return 2;
  }
  ::signal(SIGPIPE, SIG_IGN);
  return agent(std::move(s), std::move(rest)).run();
}

}  // namespace symmem::run
