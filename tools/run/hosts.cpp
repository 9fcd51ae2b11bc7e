// symmem-run across hosts: the host list and the head's side of the host agents (hosts.h).
#include "run/hosts.h"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "run/host_proto.h"

namespace symmem::run {
namespace {

using namespace std::chrono_literals;

[[noreturn]] void bad_hosts(const std::string &msg) { die(msg + " (see symmem-run --help)", 2); }

int parse_slots(const std::string &v, const std::string &where) {
  char *end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 1 || n > 4096) bad_hosts(where + ": '" + v + "' is not a slot count (1..4096)");
  return static_cast<int>(n);
}

// Host names as a shell and ssh accept them; refusing the rest keeps {host} substitution safe.
void check_name(const std::string &name, const std::string &where) {
  bool ok = !name.empty() && name.size() < 256 && name[0] != '-';
  for (char c : name) ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || std::strchr("._-@[]:", c));
  if (!ok) bad_hosts(where + ": '" + name + "' is not a host name");
}

// Lists the same host once: "A:2,A:1" is A with 3 slots, as mpirun's host lists are.
void add_host(std::vector<host_slots> &out, const std::string &name, int slots) {
  for (host_slots &h : out)
    if (h.name == name) return void(h.slots += slots);
  out.push_back({name, slots});
}

std::string shell_quote(const std::string &s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::vector<std::string> split_words(const std::string &s) {
  std::istringstream in(s);
  std::vector<std::string> w;
  for (std::string x; in >> x;) w.push_back(x);
  return w;
}

bool is_local_name(const std::string &name) {
  char self[256] = {};
  ::gethostname(self, sizeof self - 1);
  return name == "localhost" || name == self;
}

void set_nonblock(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

}  // namespace

std::vector<host_slots> parse_hosts(const std::string &spec) {
  std::vector<host_slots> out;
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ',');) {
    size_t colon = item.rfind(':');
    // A trailing ":N" is a count; an IPv6 literal in brackets keeps its colons.
    bool counted = colon != std::string::npos && item.find(']', colon) == std::string::npos;
    std::string name = counted ? item.substr(0, colon) : item;
    check_name(name, "--hosts");
    add_host(out, name, counted ? parse_slots(item.substr(colon + 1), "--hosts " + item) : 1);
  }
  if (out.empty()) bad_hosts("--hosts wants a list like A:2,B:2");
  return out;
}

std::vector<host_slots> read_hostfile(const std::string &path) {
  std::ifstream f(path);
  if (!f) bad_hosts("--hostfile: cannot read '" + path + "': " + std::strerror(errno));
  std::vector<host_slots> out;
  int line_no = 0;
  for (std::string line; std::getline(f, line);) {
    ++line_no;
    line = line.substr(0, line.find('#'));
    std::vector<std::string> w = split_words(line);
    if (w.empty()) continue;
    const std::string where = strf("%s:%d", path.c_str(), line_no);
    int slots = 1;
    std::string name = w[0];
    if (size_t colon = name.rfind(':'); colon != std::string::npos && name.find(']', colon) == std::string::npos) {
      slots = parse_slots(name.substr(colon + 1), where);
      name.resize(colon);
    }
    for (size_t i = 1; i < w.size(); ++i) {
      if (w[i].rfind("slots=", 0) == 0) slots = parse_slots(w[i].substr(6), where);
      else if (w[i].rfind("max_slots=", 0) != 0) bad_hosts(where + ": unknown word '" + w[i] + "'");
    }
    check_name(name, where);
    add_host(out, name, slots);
  }
  if (out.empty()) bad_hosts("--hostfile " + path + " lists no host");
  return out;
}

// ---- the SETUP frame ------------------------------------------------------------------------------

std::string pack_setup(const agent_setup &s) {
  std::string b;
  hp::put_u32(b, hp::version);
  hp::put_str(b, s.host);
  for (int v : {s.first_rank, s.count, s.n_total}) hp::put_u32(b, static_cast<uint32_t>(v));
  hp::put_str(b, s.job_id);
  hp::put_u32(b, s.tag_output ? 1 : 0);
  hp::put_str(b, s.bind);
  hp::put_u32(b, static_cast<uint32_t>(s.env.size()));
  for (auto &[k, v] : s.env) hp::put_str(b, k), hp::put_str(b, v);
  hp::put_u32(b, static_cast<uint32_t>(s.argv.size()));
  for (auto &a : s.argv) hp::put_str(b, a);
  hp::put_str(b, s.cwd);
  return b;
}

bool unpack_setup(std::string_view in, agent_setup &s) {
  uint32_t version = 0, first = 0, count = 0, n = 0, tag = 0, nenv = 0, nargv = 0;
  if (!hp::get_u32(in, version) || version != hp::version) return false;
  bool ok = hp::get_str(in, s.host) && hp::get_u32(in, first) && hp::get_u32(in, count) && hp::get_u32(in, n) &&
            hp::get_str(in, s.job_id) && hp::get_u32(in, tag) && hp::get_str(in, s.bind) && hp::get_u32(in, nenv);
  for (uint32_t i = 0; ok && i < nenv; ++i) {
    std::string k, v;
    ok = hp::get_str(in, k) && hp::get_str(in, v);
    s.env.emplace_back(k, v);
  }
  ok = ok && hp::get_u32(in, nargv);
  for (uint32_t i = 0; ok && i < nargv; ++i) ok = hp::get_str(in, s.argv.emplace_back());
  ok = ok && hp::get_str(in, s.cwd) && in.empty();
  s.first_rank = static_cast<int>(first);
  s.count = static_cast<int>(count);
  s.n_total = static_cast<int>(n);
  s.tag_output = tag != 0;
  return ok && count >= 1 && first + count <= n && !s.argv.empty();
}

// ---- the head's side ------------------------------------------------------------------------------

remote_hosts::remote_hosts(job_spec spec) : spec_(std::move(spec)) {
  int first = 0;
  for (const host_slots &hs : spec_.hosts) {
    host h;
    h.name = hs.name;
    h.first = first;
    h.count = hs.slots;
    h.exited.assign(static_cast<size_t>(hs.slots), 0);
    first += hs.slots;
    hosts_.push_back(std::move(h));
  }
  char buf[PATH_MAX] = {};
  ssize_t k = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  self_exe_ = k > 0 ? std::string(buf, static_cast<size_t>(k)) : "symmem-run";
}

int remote_hosts::host_of(int rank) const {
  for (size_t i = 0; i < hosts_.size(); ++i)
    if (rank >= hosts_[i].first && rank < hosts_[i].first + hosts_[i].count) return static_cast<int>(i);
  return -1;
}

// The launch agent's words with {host} replaced (or the host appended), then our own path. ssh
// and rsh hand the rest to a remote shell, which splits it again: quote it for that shell.
std::vector<std::string> remote_hosts::agent_argv(const host &h) const {
  if (spec_.agent.empty() && is_local_name(h.name)) return {self_exe_, "--host-agent"};
  std::vector<std::string> w = split_words(spec_.agent.empty() ? "ssh -o BatchMode=yes" : spec_.agent);
  bool substituted = false;
  for (std::string &x : w)
    for (size_t at; (at = x.find("{host}")) != std::string::npos; substituted = true) x.replace(at, 6, h.name);
  if (!substituted) w.push_back(h.name);
  const std::string prog = w[0].substr(w[0].rfind('/') + 1);
  const bool remote_shell = prog == "ssh" || prog == "rsh";
  w.push_back(remote_shell ? shell_quote(self_exe_) : self_exe_);
  w.push_back("--host-agent");
  return w;
}

void remote_hosts::spawn(host &h) {
  int in[2], out[2], err[2];
  if (::pipe2(in, O_CLOEXEC) != 0 || ::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0)
    die(strf("pipe: %s", std::strerror(errno)));
  std::vector<std::string> words = agent_argv(h);
  std::vector<char *> argv;
  for (std::string &w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid == 0) {
    ::setpgid(0, 0);  // the terminal's Ctrl-C reaches only the head, which forwards it
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(in[0], 0);
    ::dup2(out[1], 1);
    ::dup2(err[1], 2);
    reset_child_signals(spec_.mask);
    ::execvp(argv[0], argv.data());
    dprintf(2, "symmem-run: host %s: cannot start the launch agent %s: %s\n", h.name.c_str(), argv[0],
            std::strerror(errno));
    ::_exit(127);
  }
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  if (pid < 0) die(strf("fork: %s", std::strerror(errno)));
  ::setpgid(pid, pid);
  h.pid = pid;
  h.in = in[1];
  h.out = out[0];
  h.err = err[0];
  for (int fd : {h.in, h.out, h.err}) set_nonblock(fd);
}

void remote_hosts::start() {
  char cwd[PATH_MAX] = {};
  std::string dir = ::getcwd(cwd, sizeof cwd) != nullptr ? cwd : "";
  for (host &h : hosts_) {
    agent_setup s{h.name, h.first, h.count, spec_.n_total, spec_.job_id, spec_.tag_output, spec_.bind, spec_.env, {}, dir};
    for (char **a = spec_.argv; *a != nullptr; ++a) s.argv.emplace_back(*a);
    spawn(h);
    queue(h, hp::frame_bytes(hp::type::setup, 0, pack_setup(s)));
  }
}

void remote_hosts::queue(host &h, std::string frame) {
  if (h.in < 0) return;  // the agent is gone: nothing reaches it any more
  h.tx.push_back(std::move(frame));
  flush(h);
}

void remote_hosts::flush(host &h) {
  while (h.in >= 0 && !h.tx.empty()) {
    const std::string &f = h.tx.front();
    ssize_t k = ::write(h.in, f.data() + h.tx_off, f.size() - h.tx_off);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EAGAIN) return;
    if (k < 0) {  // EPIPE: the agent exited; reaped() says so
      h.tx.clear();
      ::close(h.in);
      h.in = -1;
      return;
    }
    h.tx_off += static_cast<size_t>(k);
    if (h.tx_off == f.size()) h.tx.pop_front(), h.tx_off = 0;
  }
}

void remote_hosts::add_poll(std::vector<pollfd> &fds) {
  for (host &h : hosts_) {
    fds.push_back({h.in, static_cast<short>(h.tx.empty() ? 0 : POLLOUT), 0});
    fds.push_back({h.out, POLLIN, 0});
    fds.push_back({h.err, POLLIN, 0});
  }
}

void remote_hosts::handle(const pollfd *fds, host_events &ev) {
  for (size_t i = 0; i < hosts_.size(); ++i) {
    host &h = hosts_[i];
    if (fds[3 * i].revents != 0) flush(h);
    if (fds[3 * i + 1].revents != 0) read_frames(static_cast<int>(i), ev);
    if (fds[3 * i + 2].revents != 0) read_stderr(h, false);
  }
}

void remote_hosts::read_frames(int index, host_events &ev) {
  host &h = hosts_[static_cast<size_t>(index)];
  char buf[65536];
  for (int rounds = 0; h.out >= 0 && rounds < 64; ++rounds) {  // bounded: one busy host can't starve others
    ssize_t k = ::read(h.out, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EAGAIN) break;
    if (k <= 0) {
      ::close(h.out);
      h.out = -1;
      h.eof = true;
      break;
    }
    h.rx.append(buf, static_cast<size_t>(k));
    size_t off = 0;
    hp::frame f{};
    while (h.rx.size() - off >= sizeof f) {
      std::memcpy(&f, h.rx.data() + off, sizeof f);
      if (f.len > hp::max_frame) {
        say(strf("host %s: its agent sent a malformed frame (%u bytes); dropping it", h.name.c_str(), f.len));
        ::kill(-h.pid, SIGKILL);
        h.rx.clear();
        return;
      }
      if (h.rx.size() - off < sizeof f + f.len) break;
      on_frame(index, f.type, f.id, std::string_view(h.rx).substr(off + sizeof f, f.len), ev);
      off += sizeof f + f.len;
    }
    h.rx.erase(0, off);
  }
  check_done(index, ev);
}

void remote_hosts::on_frame(int index, uint32_t type, uint32_t id, std::string_view payload, host_events &ev) {
  host &h = hosts_[static_cast<size_t>(index)];
  int32_t v = 0;
  if (payload.size() >= sizeof v) std::memcpy(&v, payload.data(), sizeof v);
  const bool ours = id >= static_cast<uint32_t>(h.first) && id < static_cast<uint32_t>(h.first + h.count);
  switch (static_cast<hp::type>(type)) {
    case hp::type::open: return ev.relay_open(index, id);
    case hp::type::data: return ev.relay_data(index, id, payload);
    case hp::type::close: return ev.relay_close(index, id);
    case hp::type::started:
      if (ours) ev.pe_started(static_cast<int>(id), v);
      return;
    case hp::type::out:
      if (!payload.empty()) write_all(payload[0] == 2 ? 2 : 1, payload.substr(1));
      return;
    case hp::type::machine:
      if (!h.machine) h.machine = std::string(payload), place_if_all_known();
      return;
    case hp::type::exited:
      if (!ours || h.exited[id - static_cast<uint32_t>(h.first)]) return;
      h.exited[id - static_cast<uint32_t>(h.first)] = 1;
      return ev.pe_exited(static_cast<int>(id), v);
    default:
      say(strf("host %s: its agent sent an unknown frame %u (another symmem version?)", h.name.c_str(), type));
  }
}

// Hosts that are one machine (the same kernel boot id and CPU set: network namespaces, containers
// without CPU limits) share its CPUs: each such host's PEs get the next CPU places, so that binding
// gives every PE of the machine its own core, as on one host with all of them.
void remote_hosts::place_if_all_known() {
  std::map<std::string, uint32_t> total, next;  // per machine: its PEs, and the next free place
  for (const host &h : hosts_) {
    if (!h.machine) return;
    total[*h.machine] += static_cast<uint32_t>(h.count);
  }
  for (host &h : hosts_) {
    uint32_t &offset = next[*h.machine];
    std::string b;
    hp::put_u32(b, offset);
    hp::put_u32(b, total[*h.machine]);
    queue(h, hp::frame_bytes(hp::type::place, 0, b));
    offset += static_cast<uint32_t>(h.count);
  }
}

// The agent's own messages, a line at a time so they never split tagged PE lines.
void remote_hosts::read_stderr(host &h, bool all) {
  char buf[16384];
  while (h.err >= 0) {
    ssize_t k = ::read(h.err, buf, sizeof buf);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0 && errno == EAGAIN && !all) break;
    if (k < 0 && errno == EAGAIN) {
      pollfd p{h.err, POLLIN, 0};
      if (::poll(&p, 1, 100) <= 0) break;
      continue;
    }
    if (k <= 0) {
      if (!h.err_line.empty()) write_all(2, h.err_line + "\n");
      h.err_line.clear();
      ::close(h.err);
      h.err = -1;
      break;
    }
    h.err_line.append(buf, static_cast<size_t>(k));
    size_t nl = h.err_line.rfind('\n');
    if (nl != std::string::npos) {
      write_all(2, h.err_line.substr(0, nl + 1));
      h.err_line.erase(0, nl + 1);
    }
  }
}

bool remote_hosts::reaped(pid_t pid, int wait_status, host_events &ev) {
  for (size_t i = 0; i < hosts_.size(); ++i) {
    host &h = hosts_[i];
    if (h.pid != pid || h.reaped) continue;
    h.reaped = true;
    h.wait_status = wait_status;
    ::kill(-pid, SIGKILL);  // what the launch agent left in its group goes with it
    if (h.out >= 0) {  // what it wrote before exiting counts before its exit
      set_nonblock(h.out);
      read_frames(static_cast<int>(i), ev);
    }
    read_stderr(h, true);
    check_done(static_cast<int>(i), ev);
    return true;
  }
  return false;
}

// A host is done when its agent is reaped. PEs it never reported as exited are lost with it.
void remote_hosts::check_done(int index, host_events &ev) {
  host &h = hosts_[static_cast<size_t>(index)];
  if (h.done || !h.reaped) return;
  h.done = true;
  close_fds(h);
  std::vector<int> lost;
  for (int r = 0; r < h.count; ++r)
    if (!h.exited[static_cast<size_t>(r)]) lost.push_back(h.first + r);
  if (lost.empty()) return;
  std::string cmd;
  for (const std::string &w : agent_argv(h)) cmd += (cmd.empty() ? "" : " ") + w;
  ev.host_lost(index, lost, strf("its agent (%s) %s", cmd.c_str(), describe_exit(h.wait_status).c_str()));
}

void remote_hosts::close_fds(host &h) {
  for (int *fd : {&h.in, &h.out, &h.err})
    if (*fd >= 0) ::close(*fd), *fd = -1;
  h.tx.clear();
}

void remote_hosts::send_data(int host_index, uint32_t link, std::string_view bytes) {
  queue(hosts_[static_cast<size_t>(host_index)], hp::frame_bytes(hp::type::data, link, bytes));
}

void remote_hosts::close_link(int host_index, uint32_t link) {
  queue(hosts_[static_cast<size_t>(host_index)], hp::frame_bytes(hp::type::close, link, {}));
}

void remote_hosts::signal(int sig) {
  int32_t s = sig;
  for (host &h : hosts_) queue(h, hp::frame_bytes(hp::type::signal, 0, std::string_view(reinterpret_cast<const char *>(&s), sizeof s)));
}

void remote_hosts::finish(host_events &ev) {
  for (host &h : hosts_) {  // end of input: an agent whose PEs are done exits at once
    flush(h);
    if (h.in >= 0) ::close(h.in), h.in = -1;
  }
  auto until = steady::now() + 2s;
  for (bool waiting = true; waiting;) {
    waiting = false;
    for (size_t i = 0; i < hosts_.size(); ++i) {
      host &h = hosts_[i];
      if (h.reaped) continue;
      int st = 0;
      pid_t p = ::waitpid(h.pid, &st, WNOHANG);
      if (p == h.pid) {
        reaped(p, st, ev);
        continue;
      }
      if (steady::now() >= until) {
        say(strf("host %s: its agent did not end after the job; stopping it", h.name.c_str()));
        ::kill(-h.pid, SIGKILL);
      }
      waiting = true;
    }
    if (waiting) std::this_thread::sleep_for(5ms);
  }
}

}  // namespace symmem::run
