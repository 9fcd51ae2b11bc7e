// symmem-run: starts the N PEs of a job on this host and serves their bootstrap.
//
//   symmem-run -n N [options] prog args...
//
// The launcher is the job's one point of truth. PEs connect to it over an abstract Unix socket
// (bootstrap/launcher_proto.h) and exchange their bootstrap blobs through it; it alone watches the
// processes (waitpid), so it can name the PE that failed, tell the others why the job stops, and
// make sure no PE outlives it. One thread, one poll() loop over the listening socket, every PE
// connection, the --tag-output pipes and a signalfd.

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bootstrap/launcher_proto.h"
#include "common/config.h"
#include "run/hosts.h"
#include "run/util.h"
#include "run/watchdog.h"

#ifndef SYMMEM_VERSION
#define SYMMEM_VERSION "0.1.0"
#endif

namespace {

namespace lp = symmem::launcher;
using namespace symmem::run;
using namespace std::chrono_literals;

constexpr int max_pes = 4096;
constexpr auto abort_grace = 250ms;     // a PE told by ABORT exits on its own within this
constexpr auto term_grace = 500ms;      // after SIGTERM, before SIGKILL
constexpr auto signal_grace = 1000ms;   // after forwarding the user's signal, before SIGKILL
constexpr size_t max_line = 64 * 1024;  // --tag-output breaks longer lines: memory stays bounded

// ---- options -----------------------------------------------------------------------------------

struct options {
  int np = 0;
  bool tag_output = false;
  double timeout_s = 0;            // 0: no job timeout
  std::string bootstrap_timeout;   // --bootstrap-timeout as given; empty: inherit
  env_list env;                    // -x
  bool mps = false;
  std::string bind = "auto";       // --bind-to: auto (core when the PEs fit), core, none
  std::vector<host_slots> hosts;   // --hosts / --hostfile: empty runs every PE here
  std::string launch_agent;        // --launch-agent; empty: ssh
  int per_host = 0;                // -ppn / --npernode / -N: PEs on each host; 0: the hosts' slots
  std::string wdir;                // --wdir; empty: this directory
  char **argv = nullptr;           // the program and its arguments
};

constexpr const char *usage_text =
      "usage: symmem-run -n N [options] prog [args...]\n"
      "Starts N PEs of prog on this host and serves their bootstrap.\n\n"
      "  -n, --np N               number of PEs (1..4096); required without --hosts\n"
      "  -t, --tag-output         prefix each output line of PE r with \"[PE r] \"\n"
      "      --timeout S          stop the job after S seconds (exit status 124); 0: never\n"
      "      --bootstrap-timeout S  SYMMEM_BOOTSTRAP_TIMEOUT for the PEs and the launcher\n"
      "                           (default: inherited, else 30 s; 0: no limit)\n"
      "  -x VAR=VALUE             set VAR in the PEs' environment (-x VAR: pass ours on)\n"
      "      --mps                run a private NVIDIA MPS control daemon for the job\n"
      "      --bind-to WHAT       core: pin PE r to the r-th CPU this launcher may use (with\n"
      "                           --hosts, counted over the hosts that are one machine); none;\n"
      "                           auto (default): when the PEs fit the CPUs, PE r gets the r-th\n"
      "                           of equal blocks of them (its helper threads run beside it),\n"
      "                           else none\n"
      "      --hosts A:2,B:2      run on these hosts, filling each host's slots in order (the\n"
      "                           default -n is the sum of the slots)\n"
      "      --hostfile F         the hosts from a file: \"A slots=2\" or \"A:2\" a line, # comments\n"
      "      --launch-agent CMD   how to start a command on a host: {host} is replaced by the host\n"
      "                           name, else the name is appended (default: ssh -o BatchMode=yes;\n"
      "                           e.g. 'ip netns exec {host}'). localhost runs without it\n"
      "      --wdir DIR           start the PEs in DIR (default: this directory)\n"
      "  -h, --help               show this help\n"
      "      --version            show the version\n\n"
      "The options of oshrun/mpirun (Open MPI) and of mpiexec/nvshmrun (Hydra) that say the same\n"
      "thing are taken too, so scripts written for them run unchanged: -np N, -c N; -H/--host/-host/\n"
      "-hosts LIST; --hostfile/--machinefile/-hostfile/-machinefile/-f FILE; -ppn/--npernode/-N K\n"
      "(K PEs on each host); -genv/-env VAR VALUE; --map-by slot|core|ppr:K:node; -wdir/-wd DIR.\n"
      "--oversubscribe and --allow-run-as-root are what symmem-run does anyway; --mca/-mca NAME VALUE\n"
      "(Open MPI's settings) are ignored with a note.\n\n"
      "Options end at the first argument that is not one (or after --). Exit status: the first\n"
      "non-zero status of a PE (128+signal when killed), 124 on --timeout, 0 when all succeed.\n";

[[noreturn]] void usage_error(const std::string &msg) { die(msg + " (see symmem-run --help)", 2); }

// Seconds as every SYMMEM_* seconds variable reads them (common/config.h): 0 means no limit.
double parse_seconds(const std::string &name, const std::string &v) {
  auto d = symmem::config::parse_seconds(v);
  if (!d) usage_error(name + " wants " + symmem::config::seconds_expected() + ", not '" + v + "'");
  return *d;
}

// A count of PEs, 1..max_pes: "NAME wants WHAT from 1 to max_pes, not 'V'" otherwise.
int parse_pes(const std::string &name, const std::string &v, const char *what) {
  char *end = nullptr;
  long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || n < 1 || n > max_pes)
    usage_error(strf("%s wants %s from 1 to %d, not '%s'", name.c_str(), what, max_pes, v.c_str()));
  return static_cast<int>(n);
}

int parse_np(const std::string &v) { return parse_pes("-n", v, "a number of PEs"); }

void add_export(options &o, const std::string &v) {
  auto eq = v.find('=');
  std::string name = v.substr(0, eq);
  if (name.empty()) usage_error("-x wants VAR=VALUE, not '" + v + "'");
  const char *ours = std::getenv(name.c_str());  // -x VAR passes ours on, as mpirun does
  if (eq == std::string::npos && ours == nullptr) usage_error("-x " + name + ": " + name + " is not set here");
  o.env.emplace_back(name, eq != std::string::npos ? v.substr(eq + 1) : std::string(ours));
}

// mpirun's and mpiexec's options spelled as one word after a single dash.
bool is_single_dash_word(const std::string &a) {
  for (const char *w : {"-np", "-host", "-hosts", "-hostfile", "-machinefile", "-ppn", "-npernode", "-genv", "-env",
                        "-map-by", "-wdir", "-wd", "-mca", "-gmca"})
    if (a == w) return true;
  return false;
}

int parse_per_host(const std::string &name, const std::string &v) {
  return parse_pes(name, v, "a number of PEs per host");
}

// --map-by: symmem-run fills each host's slots in order, which is mpirun's "slot" (and "core",
// one PE a core); ppr:K:node is K PEs on each host. Other placements are refused, not ignored.
void map_by(options &o, const std::string &v) {
  if (v == "slot" || v == "core") return;
  if (v.rfind("ppr:", 0) == 0 && v.size() > 9 && v.compare(v.size() - 5, 5, ":node") == 0) {
    o.per_host = parse_per_host("--map-by ppr", v.substr(4, v.size() - 9));
    return;
  }
  usage_error("--map-by " + v + ": symmem-run places PEs by slot (each host's slots filled in order: "
              "slot, core, or ppr:K:node for K on each host); order the hosts instead");
}

void add_hosts(options &o, const std::vector<host_slots> &h) {
  if (!o.hosts.empty()) usage_error("give the hosts once: --hosts or --hostfile");
  o.hosts = h;
}

// PEs fill the hosts' slots in the order listed; hosts left without a PE are not started.
void fit_hosts(options &o) {
  if (o.per_host > 0)
    for (host_slots &h : o.hosts) h.slots = o.per_host;
  int slots = 0;
  for (const host_slots &h : o.hosts) slots += h.slots;
  if (o.np == 0) o.np = std::min(slots, max_pes);
  if (o.np > slots) usage_error(strf("-n %d but the hosts have %d slots in all", o.np, slots));
  if (o.mps) usage_error("--mps starts a daemon on this host only; it does not combine with --hosts");
  int left = o.np;
  std::vector<host_slots> used;
  for (host_slots h : o.hosts) {
    if (left == 0) break;
    h.slots = std::min(h.slots, left);
    left -= h.slots;
    used.push_back(h);
  }
  o.hosts = used;
}

options parse_args(int argc, char **argv) {
  options o;
  int i = 1;
  for (; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {
      ++i;
      break;
    }
    if (a.size() < 2 || a[0] != '-') break;  // the program: what follows is its own
    // Also accept --opt=value and -nVALUE; the single-dash words of mpirun and mpiexec (-np,
    // -hosts, ...) are names, not -n with a value.
    bool word = is_single_dash_word(a);
    bool attached = !word && ((a[1] == '-') ? a.find('=') != std::string::npos : a.size() > 2);
    size_t cut = (a[1] == '-') ? a.find('=') : 2;
    std::string name = attached ? a.substr(0, cut) : a;
    std::string value = attached ? a.substr(cut + (a[1] == '-')) : "";
    auto arg = [&]() -> std::string {
      if (attached) return value;
      if (i + 1 >= argc) usage_error(name + " needs a value");
      return argv[++i];
    };
    auto flag = [&]() {
      if (attached) usage_error(name + " takes no value");
      return true;
    };
    if ((name == "-h" || name == "--help") && flag()) std::exit(std::fputs(usage_text, stdout) < 0);
    if (name == "--version" && flag()) std::exit(std::printf("symmem-run (symmem) %s\n", SYMMEM_VERSION) < 0);
    if (name == "-n" || name == "--np" || name == "-np" || name == "-c") o.np = parse_np(arg());
    else if (name == "-t" || name == "--tag-output") o.tag_output = flag();
    else if (name == "--timeout") o.timeout_s = parse_seconds(name, arg());
    else if (name == "--bootstrap-timeout") parse_seconds(name, o.bootstrap_timeout = arg());
    else if (name == "-x") add_export(o, arg());
    else if (name == "--mps") o.mps = flag();
    else if (name == "--hosts" || name == "-H" || name == "--host" || name == "-host" || name == "-hosts")
      add_hosts(o, parse_hosts(arg()));
    else if (name == "--hostfile" || name == "-hostfile" || name == "--machinefile" || name == "-machinefile" ||
             name == "-f")
      add_hosts(o, read_hostfile(arg()));
    else if (name == "--launch-agent") o.launch_agent = arg();
    else if (name == "-ppn" || name == "--npernode" || name == "-npernode" || name == "-N")
      o.per_host = parse_per_host(name, arg());
    else if (name == "-genv" || name == "-env") {
      std::string var = arg();
      if (var.find('=') != std::string::npos) usage_error(name + " wants VAR VALUE (two words), not '" + var + "'");
      add_export(o, var + "=" + arg());
    }
    else if (name == "--map-by" || name == "-map-by") map_by(o, arg());
    else if (name == "--wdir" || name == "-wdir" || name == "-wd") o.wdir = arg();
    else if ((name == "--oversubscribe" || name == "--allow-run-as-root") && flag()) {
      // symmem-run starts any number of PEs on a host, and as any user.
    }
    else if (name == "--mca" || name == "-mca" || name == "--gmca" || name == "-gmca") {
      std::string key = arg(), val = arg();
      say("note: " + name + " " + key + " " + val + " is an Open MPI setting; symmem ignores it");
    }
    else if (name == "--bind-to") {
      o.bind = arg();
      if (o.bind != "auto" && o.bind != "core" && o.bind != "none") usage_error("--bind-to wants auto, core or none");
    }
    else usage_error("unknown option " + a);
  }
  if (!o.wdir.empty() && ::chdir(o.wdir.c_str()) != 0)
    usage_error("--wdir " + o.wdir + ": " + std::strerror(errno));
  if (o.per_host > 0 && o.hosts.empty() && o.np == 0) o.np = o.per_host;  // no hosts: K PEs here
  if (!o.hosts.empty()) fit_hosts(o);
  if (o.np == 0) usage_error("-n N is required");
  if (i >= argc) usage_error("no program to run");
  o.argv = argv + i;
  return o;
}

// The launcher's own collective deadline: the option, else the PEs' setting, read and checked
// through the same configuration table as init reads it (an invalid value stops the job here
// with init's message, before any PE starts), else the table's default.
double bootstrap_timeout(const options &o) {
  if (!o.bootstrap_timeout.empty()) return *symmem::config::parse_seconds(o.bootstrap_timeout);
  const char *name = "SYMMEM_BOOTSTRAP_TIMEOUT";
  std::optional<std::string> v = symmem::config::value_of(name);
  if (!v) {
    for (const symmem::config::entry &e : symmem::config::table())
      if (std::strcmp(e.name, name) == 0) v = e.def;
  }
  if (auto d = symmem::config::parse_seconds(v.value_or("30"))) return *d;
  die(strf("%s=\"%s\" is not valid: expected %s; fix or unset %s", name, v->c_str(),
           symmem::config::seconds_expected().c_str(), name), 2);
}

// ---- MPS ---------------------------------------------------------------------------------------

constexpr const char *mps_tool = "nvidia-cuda-mps-control";

bool on_path(const char *prog) {
  const char *path = std::getenv("PATH");
  std::string p = path ? path : "/usr/bin:/bin";
  for (size_t start = 0; start <= p.size();) {
    size_t end = std::min(p.find(':', start), p.size());
    std::string dir = p.substr(start, end - start);
    if (::access(((dir.empty() ? "." : dir) + "/" + prog).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

// A private MPS control daemon: its own pipe and log directories, so jobs never share one.
struct mps_daemon {
  std::string pipe_dir, log_dir;
  sigset_t mask{};

  env_list env() const { return {{"CUDA_MPS_PIPE_DIRECTORY", pipe_dir}, {"CUDA_MPS_LOG_DIRECTORY", log_dir}}; }

  // Runs nvidia-cuda-mps-control [arg] with our directories, `input` on its stdin.
  bool control(const char *arg, const char *input) const {
    int in[2];
    if (::pipe2(in, O_CLOEXEC) != 0) return false;
    pid_t pid = ::fork();
    if (pid == 0) {
      reset_child_signals(mask);
      ::dup2(in[0], 0);
      for (auto &[k, v] : env()) ::setenv(k.c_str(), v.c_str(), 1);
      ::execlp(mps_tool, mps_tool, arg, static_cast<char *>(nullptr));
      ::_exit(127);
    }
    ::close(in[0]);
    if (input != nullptr) write_all(in[1], input);
    ::close(in[1]);
    int st = 0;
    while (pid > 0 && ::waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    return pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
  }

  bool remove_dirs() const {
    std::error_code ec;
    std::filesystem::remove_all(pipe_dir, ec);
    std::filesystem::remove_all(log_dir, ec);
    return !std::filesystem::exists(pipe_dir, ec) && !std::filesystem::exists(log_dir, ec);
  }

  void start() {
    if (!on_path(mps_tool))
      die(strf("--mps: %s is not on PATH (it comes with the NVIDIA driver); add its directory to "
               "PATH or run without --mps", mps_tool), 2);
    char p[] = "/tmp/symmem-mps-pipe.XXXXXX", l[] = "/tmp/symmem-mps-log.XXXXXX";
    if (!::mkdtemp(p) || !::mkdtemp(l)) die(strf("--mps: mkdtemp: %s", strerror(errno)), 2);
    pipe_dir = p;
    log_dir = l;
    if (control("-d", nullptr)) return;
    remove_dirs();
    die(strf("--mps: '%s -d' failed; does this GPU and driver support MPS?", mps_tool), 2);
  }

  void stop() const {
    if (!control(nullptr, "quit\n")) say("--mps: stopping the MPS daemon failed");
    // The daemon may still be closing its pipes and logs: retry briefly so nothing is left.
    for (int i = 0; i < 20 && !remove_dirs(); ++i) std::this_thread::sleep_for(100ms);
  }
};

// ---- the job's state ---------------------------------------------------------------------------

struct out_chunk {
  std::shared_ptr<const std::string> data;  // shared: one COLL_DONE payload goes to every PE
  size_t off = 0;
};

struct conn {
  int fd = -1, rank = -1;  // rank: -1 until HELLO
  bool bye = false;   // finalized: the PE may connect again for a new init
  bool dead = false;  // closed; the object goes at the end of the loop round
  int host = -1;      // >= 0: relayed by that host's agent (fd is -1), as connection `link`
  uint32_t link = 0;
  std::string in;     // received bytes not yet handled, from in_off on
  size_t in_off = 0;
  std::deque<out_chunk> out;
};

struct pipe_reader {
  int fd = -1, dest = 1;  // dest: our stdout or stderr
  std::string partial;  // the line being assembled
};

struct pe_state {
  pid_t pid = -1;  // on its host: never signal it from here when remote
  bool running = false;
  conn *c = nullptr;  // the connection after HELLO, if any
  pipe_reader out, err;
  bool remote = false;  // started by a host agent
  bool in_job = false;  // said HELLO and not yet BYE: between init and finalize
};

struct collective {
  bool pending = false;  // at least one PE contributed
  steady::time_point started;
  int have = 0;
  std::vector<char> joined;       // per rank
  std::vector<std::string> data;  // per rank
};

struct stop_plan {
  bool active = false;
  int term_sig = SIGTERM;
  steady::time_point term_at, kill_at;
  bool term_sent = false, kill_sent = false;
};

struct setup {
  env_list env;  // for every PE, besides its rank
  int listen_fd, sig_fd;
  sigset_t mask;  // the signal mask to give back to children
  rlimit fds;     // the descriptor limit to give back to children
  double boot_timeout_s;
};

class job final : public host_events {
 public:
  job(const options &o, setup s) : opt_(o), n_(o.np), s_(std::move(s)), pes_(static_cast<size_t>(o.np)) {
    coll_.joined.assign(pes_.size(), 0);
    coll_.data.resize(pes_.size());
    if (!o.hosts.empty()) hosts_ = std::make_unique<remote_hosts>(host_spec());
  }

  int run() {
    // Orphans of the PEs' children come to us rather than to init, so we can reap them too.
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    start_time_ = steady::now();
    if (!hosts_) watchdog_.start();  // remote PEs are their host agent's to clean up
    start_pes();
    while (running_ > 0) loop_once();
    watchdog_.done();
    if (hosts_) hosts_->finish(*this);
    reap_leftovers();
    for (int r = 0; r < n_; ++r) drain_pipes(r, true);  // what PEs (or their leftovers) wrote last
    for (auto &c : conns_) if (!c->dead) close_conn(*c);
    ::close(s_.listen_fd);
    ::close(s_.sig_fd);
    // A status that is a multiple of 256 (global_exit(256)) must not read as success.
    return (exit_status_ & 0xff) == 0 && exit_status_ != 0 ? 1 : exit_status_ & 0xff;
  }

 private:
  pe_state &pe(int r) { return pes_[static_cast<size_t>(r)]; }
  bool joined(int r) const { return coll_.joined[static_cast<size_t>(r)] != 0; }
  bool connected(int r) { return pe(r).c != nullptr && !pe(r).c->dead; }
  template <class F>
  std::vector<int> ranks_where(F f) {
    std::vector<int> v;
    for (int r = 0; r < n_; ++r)
      if (f(r)) v.push_back(r);
    return v;
  }

  // ---- starting the PEs ----

  // In the child, between fork and exec. The launcher is single-threaded, so libc calls are safe.
  [[noreturn]] void exec_pe(int r, int out_w, int err_w) {
    ::setpgid(0, 0);  // own group: the terminal's Ctrl-C reaches only the launcher, which forwards
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != self_) ::_exit(127);  // the launcher died before prctl took effect
    int report = ::fcntl(2, F_DUPFD_CLOEXEC, 3);  // exec errors go to the real stderr, untagged
    if (out_w >= 0) ::dup2(out_w, 1);
    if (err_w >= 0) ::dup2(err_w, 2);
    // Only PE 0 gets our stdin, and never a terminal: a background process group that reads the
    // terminal is stopped by SIGTTIN.
    int null = (r != 0 || ::isatty(0)) ? ::open("/dev/null", O_RDONLY | O_CLOEXEC) : -1;
    if (null >= 0) ::dup2(null, 0);
    for (auto &[k, v] : s_.env) ::setenv(k.c_str(), v.c_str(), 1);
    ::setenv(lp::env_rank, std::to_string(r).c_str(), 1);
    reset_child_signals(s_.mask);
    ::setrlimit(RLIMIT_NOFILE, &s_.fds);
    bind_to_cpu(opt_.bind, r, n_);
    ::execvp(opt_.argv[0], opt_.argv);
    int e = errno;
    dprintf(report, "symmem-run: cannot start PE %d: %s: %s\n", r, opt_.argv[0], strerror(e));
    ::_exit(127);
  }

  void start_pes() {
    if (hosts_) return start_remote();
    for (int r = 0; r < n_; ++r) {
      int op[2] = {-1, -1}, ep[2] = {-1, -1};
      if (opt_.tag_output && (::pipe2(op, O_CLOEXEC) != 0 || ::pipe2(ep, O_CLOEXEC) != 0))
        die(strf("pipe: %s", strerror(errno)));
      pid_t pid = ::fork();
      if (pid == 0) exec_pe(r, op[1], ep[1]);
      if (pid > 0) ::setpgid(pid, pid);  // also in the child: the group exists before any kill
      for (int fd : {op[1], ep[1]}) if (fd >= 0) ::close(fd);
      if (pid < 0) {
        for (int fd : {op[0], ep[0]}) if (fd >= 0) ::close(fd);
        say(strf("cannot start PE %d: fork: %s; stopping the job", r, strerror(errno)));
        fail(1);
        return begin_stop(0ms, term_grace, SIGTERM);
      }
      watchdog_.watch(pid);  // the PE's process group (setpgid above)
      pe(r) = {pid, true, nullptr, {op[0], 1, {}}, {ep[0], 2, {}}};
      for (int fd : {op[0], ep[0]}) if (fd >= 0) ::fcntl(fd, F_SETFL, O_NONBLOCK);
      ++running_;
      rank_of_[pid] = r;
    }
  }

  // ---- the event loop ----

  void loop_once() {
    std::vector<pollfd> fds{{s_.listen_fd, POLLIN, 0}};
    std::vector<conn *> cs;
    std::vector<std::pair<int, pipe_reader *>> ps;
    for (auto &c : conns_) {
      fds.push_back({c->fd, static_cast<short>(POLLIN | (c->out.empty() ? 0 : POLLOUT)), 0});
      cs.push_back(c.get());
    }
    for (int r = 0; r < n_; ++r)
      for (pipe_reader *p : {&pe(r).out, &pe(r).err})
        if (p->fd >= 0) fds.push_back({p->fd, POLLIN, 0}), ps.emplace_back(r, p);
    const size_t host_at = fds.size();
    if (hosts_) hosts_->add_poll(fds);
    fds.push_back({s_.sig_fd, POLLIN, 0});  // last: what a PE sent before dying is read first
    if (::poll(fds.data(), fds.size(), next_timeout_ms()) < 0 && errno != EINTR)
      die(strf("poll: %s", strerror(errno)));
    if (fds[0].revents) accept_all();
    for (size_t i = 0; i < cs.size(); ++i) {
      short ev = fds[1 + i].revents;
      if ((ev & POLLOUT) && !cs[i]->dead) flush(*cs[i]);
      if ((ev & (POLLIN | POLLHUP | POLLERR)) && !cs[i]->dead) read_conn(*cs[i]);
    }
    for (size_t i = 0; i < ps.size(); ++i)
      if (fds[1 + cs.size() + i].revents) pump_pipe(ps[i].first, *ps[i].second);
    if (hosts_) hosts_->handle(&fds[host_at], *this);
    if (fds.back().revents) on_signal();
    while (resume_held_) {  // a collective completed: messages held behind it may go on now
      resume_held_ = false;
      for (auto &c : conns_) if (!c->dead) process_input(*c);
    }
    tick();
    std::erase_if(conns_, [](const std::unique_ptr<conn> &c) { return c->dead; });
  }

  int next_timeout_ms() const {
    std::optional<steady::time_point> t;
    auto consider = [&](bool on, steady::time_point x) { if (on && (!t || x < *t)) t = x; };
    consider(opt_.timeout_s > 0 && !stop_.active, start_time_ + seconds(opt_.timeout_s));
    consider(coll_.pending && !stop_.active && s_.boot_timeout_s > 0, coll_.started + seconds(s_.boot_timeout_s));
    consider(stop_.active && !stop_.term_sent, stop_.term_at);
    consider(stop_.active && !stop_.kill_sent, stop_.kill_at);
    if (!t) return -1;
    auto ms = std::chrono::ceil<std::chrono::milliseconds>(*t - steady::now()).count();
    return static_cast<int>(std::clamp<long long>(ms, 0, 60'000));
  }

  // Timers: the job's --timeout, the collective deadline, and the steps of a stop.
  void tick() {
    auto now = steady::now();
    if (opt_.timeout_s > 0 && !stop_.active && now - start_time_ >= seconds(opt_.timeout_s)) {
      say(strf("job passed --timeout %g s; PEs still running: %s; stopping them", opt_.timeout_s,
               rank_list(ranks_where([&](int r) { return pe(r).running; }), " ", false, 64).c_str()));
      fail(124);
      begin_stop(0ms, term_grace, SIGTERM);
    }
    if (coll_.pending && !stop_.active && s_.boot_timeout_s > 0 && now - coll_.started >= seconds(s_.boot_timeout_s))
      collective_timed_out();
    if (stop_.active && !stop_.term_sent && now >= stop_.term_at) {
      stop_.term_sent = true;
      signal_all(stop_.term_sig);
    }
    if (stop_.active && !stop_.kill_sent && now >= stop_.kill_at) {
      stop_.kill_sent = true;
      signal_all(SIGKILL);
    }
  }

  // ---- signals and process exits ----

  void on_signal() {
    signalfd_siginfo si;
    bool child = false;
    while (::read(s_.sig_fd, &si, sizeof si) == static_cast<ssize_t>(sizeof si)) {
      if (si.ssi_signo == SIGCHLD) child = true;  // SIGCHLDs merge: reap() collects every exit
      else on_user_signal(static_cast<int>(si.ssi_signo));
    }
    if (child) reap();
  }

  void on_user_signal(int sig) {
    if (stop_.active) {  // a second signal while stopping means "now"
      signal_all(SIGKILL);
      stop_.kill_sent = true;
      return;
    }
    const char *name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    say(strf("got %s, stopping %d PEs", name, running_));
    fail(128 + sig);
    begin_stop(0ms, signal_grace, sig);  // tick() forwards the same signal to every PE's group
  }

  void reap() {
    std::vector<std::pair<pid_t, int>> done;
    int st = 0;
    for (pid_t pid; (pid = ::waitpid(-1, &st, WNOHANG | WUNTRACED)) > 0;) {
      if (WIFSTOPPED(st)) {
        on_pe_stopped(pid, WSTOPSIG(st));
        continue;
      }
      done.emplace_back(pid, st);
    }
    if (done.empty()) return;
    // A PE's last messages (global_exit's EXIT, a COLL) are in its socket before it exits: read
    // them first, so they count before the exit does.
    accept_all();
    for (auto &c : conns_) if (!c->dead) read_conn(*c);
    for (auto [pid, status] : done)
      if (auto it = rank_of_.find(pid); it != rank_of_.end()) on_pe_exit(it->second, status);
      else if (hosts_) hosts_->reaped(pid, status, *this);
  }

  // What the PEs left behind was SIGKILLed with their groups; it comes to us as subreaper. Wait a
  // little for it, not for daemons that left the group on purpose.
  void reap_leftovers() {
    for (auto until = steady::now() + 500ms; steady::now() < until;) {
      pid_t pid = ::waitpid(-1, nullptr, WNOHANG);
      if (pid < 0) return;  // ECHILD: nothing left
      if (pid == 0) std::this_thread::sleep_for(5ms);
    }
  }

  void on_pe_exit(int r, int st) {
    pe(r).running = false;
    --running_;
    // What the PE left running in its group goes with it. Safe right after waitpid: the group's
    // id cannot be reused while a member lives, and when none does the kill finds nothing.
    if (!pe(r).remote) ::kill(-pe(r).pid, SIGKILL);  // a remote PE's agent does this
    drain_pipes(r, false);  // its last output goes before our message
    if (stop_.active) return;  // the job is already ending: these exits are the teardown
    const bool clean = WIFEXITED(st) && WEXITSTATUS(st) == 0;
    // (A remote PE's BYE and its exit come from its host agent on separate paths, so only a local
    // PE's can be ordered: reap() reads every connection before it looks at the exits.)
    if (clean && pe(r).in_job && !pe(r).remote) return exited_in_job(r);
    if (clean) return check_coll_orphans();
    std::string what = describe_exit(st);
    say(strf("PE %d (pid %d%s) %s", r, pe(r).pid, where(r).c_str(), what.c_str()));
    fail(WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
    abort_job(strf("PE %d %s", r, what.c_str()), connected_except(r));
  }

  // A PE that returns from main (or calls exit) between init and finalize: the others wait in
  // symmem calls for a PE that is gone. OpenSHMEM 1.5 (9.1.3) requires finalize; stop the job, as
  // for any other exit, instead of letting them wait out SYMMEM_WAIT_TIMEOUT.
  void exited_in_job(int r) {
    say(strf("PE %d (pid %d%s) exited with status 0 without calling symmem_finalize (shmem_finalize); every PE "
             "must finalize before it exits", r, pe(r).pid, where(r).c_str()));
    fail(1);
    abort_job(strf("PE %d exited with status 0 without calling symmem_finalize", r), connected_except(r));
  }

  // A stopped PE (SIGSTOP, SIGTSTP) is alive: nothing ends, but the others will wait for it (up to
  // SYMMEM_WAIT_TIMEOUT, which then names it). Say so once, so the wait is understood.
  void on_pe_stopped(pid_t pid, int sig) {
    auto it = rank_of_.find(pid);
    if (it == rank_of_.end() || stop_.active) return;
    say(strf("PE %d (pid %d) was stopped by signal %d (%s); the other PEs wait for it (up to "
             "SYMMEM_WAIT_TIMEOUT in a symmem call); SIGCONT resumes it", it->second, pid, sig, strsignal(sig)));
  }

  // ---- connections ----

  void accept_all() {
    for (int fd; (fd = ::accept4(s_.listen_fd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0;) {
      // Abstract sockets ignore file permissions: talk only to our own user's processes.
      ucred cred{};
      socklen_t len = sizeof cred;
      if (::getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 || cred.uid != ::geteuid()) {
        if (++strangers_ <= 8)
          say(strf("refused a connection to the launcher socket from pid %d (uid %d): not this user's; ignored",
                   static_cast<int>(cred.pid), static_cast<int>(cred.uid)));
        ::close(fd);
        continue;
      }
      conns_.push_back(std::make_unique<conn>());
      conns_.back()->fd = fd;
    }
  }

  void read_conn(conn &c) {
    char buf[65536];
    ssize_t k;
    while ((k = ::recv(c.fd, buf, sizeof buf, 0)) > 0 || (k < 0 && errno == EINTR))
      if (k > 0) c.in.append(buf, static_cast<size_t>(k));
    bool eof = !(k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK));  // 0, ECONNRESET, ...
    process_input(c);
    if (eof && !c.dead) close_conn(c);  // without BYE it is only noted: waitpid tells what happened
  }

  void process_input(conn &c) {
    lp::header h{};
    while (!c.dead && c.in.size() - c.in_off >= sizeof h) {
      std::memcpy(&h, c.in.data() + c.in_off, sizeof h);
      if (h.len > lp::max_payload) return reject(c, strf("a message of %u bytes is too large", h.len));
      if (c.in.size() - c.in_off < sizeof h + h.len) break;
      // A PE has one collective in flight; one sent ahead waits until the current one completes.
      if (h.type == static_cast<uint32_t>(lp::msg::coll) && c.rank >= 0 && joined(c.rank)) break;
      std::string payload = c.in.substr(c.in_off + sizeof h, h.len);
      c.in_off += sizeof h + h.len;
      handle(c, h.type, payload);
    }
    if (c.in_off > 0 && (c.in_off == c.in.size() || c.in_off > (1u << 20))) {
      c.in.erase(0, c.in_off);
      c.in_off = 0;
    }
  }

  void handle(conn &c, uint32_t type, std::string_view payload) {
    auto t = static_cast<lp::msg>(type);
    if (t != lp::msg::hello && c.rank < 0) return reject(c, strf("message %u before HELLO", type));
    switch (t) {
      case lp::msg::hello: return on_hello(c, payload);
      case lp::msg::coll: return on_coll(c, payload);
      case lp::msg::exit: return on_global_exit(c, payload);
      case lp::msg::bye: c.bye = true; pe(c.rank).in_job = false; return;
      default: return reject(c, strf("PE %d sent unknown message type %u", c.rank, type));
    }
  }

  void on_hello(conn &c, std::string_view payload) {
    lp::hello_msg h{};
    if (c.rank >= 0 || payload.size() != sizeof h) return reject(c, "malformed or repeated HELLO");
    std::memcpy(&h, payload.data(), sizeof h);
    if (h.version != lp::protocol_version)
      return reject(c, strf("a PE speaks launcher protocol %u, this symmem-run speaks %u: they come "
                            "from different symmem versions", h.version, lp::protocol_version));
    if (h.rank < 0 || h.rank >= n_)
      return reject(c, strf("a PE (pid %d) claims rank %d in a job of %d", h.pid, h.rank, n_));
    conn *prev = pe(h.rank).c;
    // After BYE a PE may init again; its old connection may not have closed yet.
    if (prev != nullptr && !prev->dead && !prev->bye)
      return reject(c, strf("PE %d connected twice (pid %d); two processes with the same %s?", h.rank,
                            h.pid, lp::env_rank));
    c.rank = h.rank;
    pe(h.rank).c = &c;
    pe(h.rank).in_job = true;
    if (!abort_text_.empty()) send(c, lp::msg::abort, abort_text_);  // too late: the job is ending
  }

  void on_coll(conn &c, std::string_view payload) {
    const int r = c.rank;
    if (stop_.active) {  // this collective will never complete: say why, if we know
      if (!abort_text_.empty()) send(c, lp::msg::abort, abort_text_);
      return;
    }
    if (!coll_.pending) coll_.started = steady::now();
    coll_.pending = true;
    coll_.data[static_cast<size_t>(r)].assign(payload);
    coll_.joined[static_cast<size_t>(r)] = 1;
    if (++coll_.have == n_) return complete_coll();
    check_coll_orphans();  // a PE that already exited can never join
  }

  // COLL_DONE: n uint32 lengths, then every rank's bytes in rank order; built once for all PEs.
  void complete_coll() {
    size_t total = sizeof(uint32_t) * pes_.size();
    for (auto &d : coll_.data) total += d.size();
    if (total > lp::max_payload) {
      say(strf("a bootstrap collective of %zu bytes in all is larger than the protocol allows", total));
      fail(1);
      return abort_job("a bootstrap collective is too large", connected_except(-1));
    }
    auto out = std::make_shared<std::string>();
    out->reserve(total);
    for (auto &d : coll_.data) {
      auto len = static_cast<uint32_t>(d.size());
      out->append(reinterpret_cast<const char *>(&len), sizeof len);
    }
    for (auto &d : coll_.data) out->append(d);
    for (pe_state &p : pes_)
      if (p.c != nullptr && !p.c->dead) send(*p.c, lp::msg::coll_done, out);
    for (auto &d : coll_.data) std::string().swap(d);
    std::fill(coll_.joined.begin(), coll_.joined.end(), 0);
    coll_.have = 0;
    coll_.pending = false;
    resume_held_ = true;
  }

  // The PEs that contributed to the pending collective and wait for its end.
  std::vector<int> waiting_ranks() { return ranks_where([&](int r) { return joined(r) && connected(r); }); }

  // A PE that exited (with status 0: failures stop the job earlier) can never join the collective.
  void check_coll_orphans() {
    if (!coll_.pending || stop_.active) return;
    for (int r = 0; r < n_; ++r) {
      if (joined(r) || pe(r).running) continue;
      std::string text = strf("PE %d exited (status 0) without joining this collective; every PE must "
                              "call the same collective routines (did PE %d skip symmem_init or "
                              "finalize early?)", r, r);
      say(text);
      fail(1);
      return abort_job(text, waiting_ranks());
    }
  }

  void collective_timed_out() {
    std::vector<int> missing = ranks_where([&](int r) { return !joined(r); });
    std::string text = strf("%s %s did not reach this collective within %g s (never called "
                            "symmem_init? still computing?); raise SYMMEM_BOOTSTRAP_TIMEOUT if they "
                            "need longer", missing.size() == 1 ? "PE" : "PEs",
                            rank_list(missing, ",", true).c_str(), s_.boot_timeout_s);
    say(text);
    fail(1);
    abort_job(text, waiting_ranks());
  }

  void on_global_exit(conn &c, std::string_view payload) {
    if (payload.size() != sizeof(int32_t)) return reject(c, "malformed EXIT");
    if (stop_.active) return;
    int32_t status = 0;
    std::memcpy(&status, payload.data(), sizeof status);
    exit_status_ = status;  // the job's status, even 0: the PE chose it
    const std::string text = strf("PE %d called global_exit(%d)", c.rank, status);
    // Said here too: a PE still busy when the grace period ends is stopped before it can say it.
    say(text + "; stopping the job");
    abort_job(text, connected_except(c.rank));
  }

  // A connection that breaks the protocol gets ABORT with the reason and is dropped. A PE turned
  // away at HELLO exits by itself (waitpid tells the rest); one that breaks it later stops the job.
  void reject(conn &c, const std::string &why) {
    const bool known = c.rank >= 0;
    say(known ? why + "; stopping the job" : why);
    send(c, lp::msg::abort, why);
    close_conn(c);
    if (!known) return;
    fail(1);
    abort_job(why, connected_except(-1));
  }

  void close_conn(conn &c) {
    if (c.host >= 0 && !c.dead) hosts_->close_link(c.host, c.link);
    if (c.host >= 0) relays_.erase(relay_key(c.host, c.link));
    if (c.fd >= 0) ::close(c.fd);
    c.dead = true;
    c.out.clear();
    if (c.rank >= 0 && pe(c.rank).c == &c) pe(c.rank).c = nullptr;
  }

  // ---- sending ----

  void send(conn &c, lp::msg type, std::shared_ptr<const std::string> payload) {
    if (c.dead) return;
    lp::header h{static_cast<uint32_t>(type), static_cast<uint32_t>(payload->size())};
    c.out.push_back({std::make_shared<std::string>(reinterpret_cast<const char *>(&h), sizeof h), 0});
    if (!payload->empty()) c.out.push_back({std::move(payload), 0});
    flush(c);
  }
  void send(conn &c, lp::msg type, const std::string &text) {
    send(c, type, std::make_shared<const std::string>(text));
  }

  // Non-blocking: what the socket does not take now waits for POLLOUT.
  void flush(conn &c) {
    if (c.host >= 0) {  // relayed: the host's channel queues what its socket does not take
      for (out_chunk &o : c.out) hosts_->send_data(c.host, c.link, std::string_view(*o.data).substr(o.off));
      return c.out.clear();
    }
    while (!c.out.empty()) {
      out_chunk &o = c.out.front();
      ssize_t k = ::send(c.fd, o.data->data() + o.off, o.data->size() - o.off, MSG_NOSIGNAL | MSG_DONTWAIT);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (k < 0) return c.out.clear();  // the PE is gone; its exit or EOF tells the rest
      o.off += static_cast<size_t>(k);
      if (o.off == o.data->size()) c.out.pop_front();
    }
  }

  std::vector<int> connected_except(int skip) {
    return ranks_where([&](int r) { return r != skip && connected(r); });
  }

  // ---- --tag-output ----

  void pump_pipe(int r, pipe_reader &p) {
    char buf[65536];
    for (int rounds = 0; p.fd >= 0 && rounds < 16; ++rounds) {  // bounded: a chatty PE can't starve others
      ssize_t k = ::read(p.fd, buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
      if (k <= 0) return end_pipe(r, p);
      emit_lines(r, p, std::string_view(buf, static_cast<size_t>(k)));
    }
  }

  void drain_pipes(int r, bool close) {
    for (pipe_reader *p : {&pe(r).out, &pe(r).err}) {
      if (p->fd >= 0) pump_pipe(r, *p);
      if (close && p->fd >= 0) end_pipe(r, *p);
    }
  }

  void emit_lines(int r, pipe_reader &p, std::string_view data) {
    const std::string prefix = strf("[PE %d] ", r);
    std::string out;
    for (size_t nl; (nl = data.find('\n')) != std::string_view::npos; data.remove_prefix(nl + 1)) {
      out += prefix + p.partial;
      out.append(data.substr(0, nl + 1));
      p.partial.clear();
    }
    p.partial.append(data);
    if (p.partial.size() >= max_line) {
      out += prefix + p.partial + "\n";
      p.partial.clear();
    }
    write_all(p.dest, out);  // whole lines in one write: lines of different PEs never mix
  }

  void end_pipe(int r, pipe_reader &p) {
    if (!p.partial.empty()) write_all(p.dest, strf("[PE %d] ", r) + p.partial + "\n");
    p.partial.clear();
    ::close(p.fd);
    p.fd = -1;
  }

  // ---- stopping ----

  // The launcher's status is the first non-zero one in time order; teardown exits do not count.
  void fail(int code) {
    if (exit_status_ == 0 && !stop_.active) exit_status_ = code;
  }

  void begin_stop(steady::duration term_in, steady::duration kill_in, int sig) {
    if (stop_.active) return;
    auto now = steady::now();
    stop_ = {true, sig, now + term_in, now + kill_in, false, false};  // tick() carries it out
  }

  // Stops the job because of `text`: the PEs in `ranks` hear it now; any PE that reaches a
  // collective or connects later hears it then. They exit by themselves; stragglers get signals.
  void abort_job(const std::string &text, const std::vector<int> &ranks) {
    if (stop_.active) return;
    abort_text_ = text;
    auto msg = std::make_shared<const std::string>(text);
    for (int r : ranks) send(*pe(r).c, lp::msg::abort, msg);
    begin_stop(abort_grace, abort_grace + term_grace, SIGTERM);
  }

  // Whole process groups, so whatever a PE started goes too.
  void signal_all(int sig) {
    for (pe_state &p : pes_)
      if (p.running && !p.remote && ::kill(-p.pid, sig) != 0) ::kill(p.pid, sig);
    if (hosts_) hosts_->signal(sig);
  }

  // ---- PEs on other hosts (run/hosts.h): the agents relay their connections and exits ----

  remote_hosts::job_spec host_spec() const {
    remote_hosts::job_spec h{opt_.hosts, opt_.launch_agent, opt_.tag_output, opt_.bind, {}, opt_.argv, {}, n_, s_.mask};
    for (auto &[k, v] : s_.env)
      if (k != lp::env_sock && k != lp::env_size) h.env.emplace_back(k, v);
    for (auto &[k, v] : s_.env)
      if (k == lp::env_job) h.job_id = v;
    return h;
  }

  void start_remote() {
    for (int r = 0; r < n_; ++r) pe(r).running = pe(r).remote = true;
    running_ = n_;
    hosts_->start();
  }

  std::string where(int r) const {
    return pes_[static_cast<size_t>(r)].remote ? " on host " + hosts_->name(hosts_->host_of(r)) : "";
  }
  static uint64_t relay_key(int host, uint32_t link) { return (static_cast<uint64_t>(host) << 32) | link; }

  void relay_open(int host, uint32_t link) override {
    conns_.push_back(std::make_unique<conn>());
    conn &c = *conns_.back();
    c.host = host;
    c.link = link;
    relays_[relay_key(host, link)] = &c;
  }
  void relay_data(int host, uint32_t link, std::string_view bytes) override {
    auto it = relays_.find(relay_key(host, link));
    if (it == relays_.end() || it->second->dead) return;
    it->second->in.append(bytes);
    process_input(*it->second);
  }
  void relay_close(int host, uint32_t link) override {
    auto it = relays_.find(relay_key(host, link));
    if (it == relays_.end()) return;
    conn &c = *it->second;
    c.dead = true;  // the agent closed it: nothing to tell back
    close_conn(c);
  }
  void pe_started(int rank, pid_t pid) override { pe(rank).pid = pid; }
  void pe_exited(int rank, int status) override {
    if (pe(rank).running) on_pe_exit(rank, status);
  }
  void host_lost(int host, const std::vector<int> &ranks, const std::string &why) override {
    for (int r : ranks)
      if (pe(r).running) pe(r).running = false, --running_;
    for (auto &c : conns_)
      if (c->host == host && !c->dead) c->dead = true, close_conn(*c);
    if (stop_.active) return;
    std::string text = strf("host %s lost with %s %s: %s", hosts_->name(host).c_str(), ranks.size() == 1 ? "PE" : "PEs",
                            rank_list(ranks, ",", true).c_str(), why.c_str());
    say(text);
    fail(1);
    abort_job(text, connected_except(-1));
  }

  const options &opt_;
  int n_;
  setup s_;
  pid_t self_ = ::getpid();
  std::vector<pe_state> pes_;
  std::unordered_map<pid_t, int> rank_of_;
  std::vector<std::unique_ptr<conn>> conns_;
  collective coll_;
  stop_plan stop_;
  std::string abort_text_;  // why the job stops, for PEs that show up late
  int running_ = 0, exit_status_ = 0;
  size_t strangers_ = 0;  // refused connections (the first few are logged)
  watchdog watchdog_;     // kills what the PEs started should we be SIGKILLed
  bool resume_held_ = false;
  steady::time_point start_time_;
  std::unique_ptr<remote_hosts> hosts_;
  std::unordered_map<uint64_t, conn *> relays_;  // relayed connections by (host, link)
};

}  // namespace

// ssh starts a fresh environment on the other host: what configures symmem and UCX here goes
// along, as mpirun forwards its own variables (the launcher's own ones are set per host).
void forward_environment(env_list &env) {
  for (char **e = environ; *e != nullptr; ++e) {
    std::string_view kv = *e;
    size_t eq = kv.find('=');
    std::string_view k = kv.substr(0, eq);
    bool ours = k.starts_with("SYMMEM_") || k.starts_with("UCX_") || k == "CUDA_MODULE_LOADING";
    if (eq == std::string_view::npos || !ours || k.starts_with("SYMMEM_LAUNCHER_") || k == lp::env_job) continue;
    env.emplace_back(std::string(k), std::string(kv.substr(eq + 1)));
  }
}

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--host-agent") == 0) return host_agent_main();
  options opt = parse_args(argc, argv);
  setup s{};
  s.fds = raise_fd_limit();
  s.sig_fd = block_signals(s.mask);
  s.boot_timeout_s = bootstrap_timeout(opt);
  std::string job_id = random_job_id();
  std::string sock = strf("symmem-run.%d.%s", static_cast<int>(::getpid()), job_id.c_str());
  s.listen_fd = listen_abstract(sock);

  s.env = {{lp::env_sock, "@" + sock}, {lp::env_size, std::to_string(opt.np)}, {lp::env_job, job_id}};
  if (!opt.bootstrap_timeout.empty()) s.env.emplace_back("SYMMEM_BOOTSTRAP_TIMEOUT", opt.bootstrap_timeout);
  std::optional<mps_daemon> mps;
  if (opt.mps) {
    mps.emplace();
    mps->mask = s.mask;
    mps->start();
    for (auto &kv : mps->env()) s.env.push_back(kv);
  }
  if (!opt.hosts.empty()) {
    forward_environment(s.env);
    // A GPU heap across hosts deadlocks under CUDA's lazy loading (src/cuda/device_runtime.cpp,
    // warn_lazy_loading): load eagerly unless the user chose.
    if (std::getenv("CUDA_MODULE_LOADING") == nullptr) s.env.emplace_back("CUDA_MODULE_LOADING", "EAGER");
  }
  s.env.insert(s.env.end(), opt.env.begin(), opt.env.end());  // -x last: the user has the last word

  int status = job(opt, std::move(s)).run();
  if (mps) mps->stop();
  return status;
}
