// The fault suite's runner and driver (probe.hpp).
//   probe CASE                                run one case (inside a job started by the driver)
//   probe --run PREFIX --launcher SYMMEM_RUN  run every case whose name starts with PREFIX (several
//                                             prefixes: comma-separated)
//   probe --list                              list the cases with their expected outcomes
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "probe.hpp"

namespace probe {

int me = -1, npes = 0;
long *lbuf = nullptr;
char *cbuf = nullptr;
long *lsrc = nullptr;
size_t heap_bytes = 0;

double now_s() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + ts.tv_nsec / 1e9;
}

void event() {
  std::printf("probe-event %.6f\n", now_s());
  std::fflush(stdout);
}

unsigned char pat(size_t i) { return static_cast<unsigned char>((i * 131 + 7) ^ (i >> 8)); }

void expect_true(bool cond, const char *what) {
  if (cond) return;
  std::fprintf(stderr, "probe check failed on PE %d: %s\n", me, what);
  std::fflush(stderr);
  shmem_global_exit(3);
}

namespace {

std::vector<test_case> all_cases() {
  std::vector<test_case> v;
  add_rma(v);
  add_amo(v);
  add_alloc(v);
  add_coll(v);
  add_sync(v);
  add_misc(v);
  add_config(v);
  add_faults(v);
  return v;
}

int run_case(const test_case &c) {
  if (c.no_init) {
    c.run();
    return 0;
  }
  shmem_init();
  me = shmem_my_pe();
  npes = shmem_n_pes();
  heap_bytes = symmem_heap_size();
  lbuf = static_cast<long *>(shmem_calloc(buf_bytes, 1));
  cbuf = reinterpret_cast<char *>(lbuf);
  lsrc = static_cast<long *>(std::malloc(buf_bytes));
  for (size_t i = 0; i < buf_bytes; ++i) reinterpret_cast<unsigned char *>(lsrc)[i] = pat(i);
  shmem_barrier_all();
  c.run();
  shmem_barrier_all();
  std::printf("probe: PE %d survived\n", me);
  std::fflush(stdout);
  shmem_free(lbuf);
  std::free(lsrc);
  shmem_finalize();
  return 0;
}

const char *outcome_text(const test_case &c) {
  static char buf[32];
  switch (c.expect) {
    case outcome::ok: return "ok";
    case outcome::fatal: return "fatal";
    case outcome::status: std::snprintf(buf, sizeof buf, "exit %d", c.status); return buf;
  }
  return "?";
}

bool matches(const std::string &text, const std::string &re) {
  regex_t r;
  if (regcomp(&r, re.c_str(), REG_EXTENDED | REG_NEWLINE | REG_NOSUB) != 0) {
    std::fprintf(stderr, "probe: bad pattern %s\n", re.c_str());
    return false;
  }
  bool m = regexec(&r, text.c_str(), 0, nullptr, 0) == 0;
  regfree(&r);
  return m;
}

struct result {
  int status = -1;  // the launcher's exit status (128+signal when killed)
  std::string out;
  double wall = 0, after_event = -1;
};

[[noreturn]] void exec_job(const test_case &c, const char *launcher, const char *self, int out_fd) {
  ::dup2(out_fd, 1);
  ::dup2(out_fd, 2);
  ::setenv("SYMMEM_SYMMETRIC_SIZE", "64m", 0);
  std::string env = c.env;
  for (size_t at = 0; at < env.size();) {
    size_t end = env.find(';', at);
    if (end == std::string::npos) end = env.size();
    std::string kv = env.substr(at, end - at);
    size_t eq = kv.find('=');
    if (eq != std::string::npos) ::setenv(kv.substr(0, eq).c_str(), kv.substr(eq + 1).c_str(), 1);
    at = end + 1;
  }
  std::vector<std::string> args{launcher, "-n", std::to_string(c.np), "--timeout", "60"};
  args.insert(args.end(), c.launcher_args.begin(), c.launcher_args.end());
  args.insert(args.end(), {self, c.name});
  std::vector<char *> argv;
  for (auto &a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  ::execv(launcher, argv.data());
  std::perror("probe: exec");
  ::_exit(127);
}

result run_job(const test_case &c, const char *launcher, const char *self) {
  result r;
  int p[2];
  if (::pipe2(p, O_CLOEXEC) != 0) return r;
  const double t0 = now_s();
  pid_t pid = ::fork();
  if (pid == 0) exec_job(c, launcher, self, p[1]);
  ::close(p[1]);
  char buf[4096];
  for (ssize_t k; (k = ::read(p[0], buf, sizeof buf)) != 0;) {
    if (k > 0) r.out.append(buf, static_cast<size_t>(k));
  }
  const double t_end = now_s();
  ::close(p[0]);
  int st = 0;
  while (::waitpid(pid, &st, 0) < 0) {
  }
  r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  r.wall = t_end - t0;
  if (size_t at = r.out.find("probe-event "); at != std::string::npos) {
    r.after_event = t_end - std::strtod(r.out.c_str() + at + 12, nullptr);
  }
  return r;
}

// What no outcome may contain: a sanitizer report, a crash, a hung job.
const char *forbidden = "Sanitizer|runtime error:|signal 11|Segmentation fault|probe check failed|passed --timeout";

std::string judge(const test_case &c, const result &r) {
  const int want = c.expect == outcome::ok ? 0 : c.expect == outcome::fatal ? 1 : c.status;
  std::string why;
  if (r.status != want) why += "exit " + std::to_string(r.status) + ", expected " + std::to_string(want) + "; ";
  if (!c.pattern.empty() && !matches(r.out, c.pattern)) why += "output does not match: " + c.pattern + "; ";
  if (matches(r.out, forbidden)) why += "output shows a crash, sanitizer report or hang; ";
  const double t = r.after_event >= 0 ? r.after_event : r.wall;
  if (t > c.max_s) why += "took " + std::to_string(t) + " s, limit " + std::to_string(c.max_s) + " s; ";
  return why;
}

int drive(const char *prefix, const char *launcher, const char *self) {
  int run = 0, failed = 0;
  for (const test_case &c : all_cases()) {
    bool wanted = false;
    for (const char *p = prefix; !wanted && *p;) {
      const char *end = std::strchr(p, ',');
      const std::size_t n = end ? static_cast<std::size_t>(end - p) : std::strlen(p);
      wanted = n != 0 && c.name.compare(0, n, p, n) == 0;
      p += n + (end ? 1 : 0);
    }
    if (!wanted) continue;
    ++run;
    result r = run_job(c, launcher, self);
    std::string why = judge(c, r);
    if (r.after_event >= 0) {
      std::printf("%s  %-52s %-7s %6.2f s after the fault\n", why.empty() ? "PASS" : "FAIL", c.name.c_str(),
                  outcome_text(c), r.after_event);
    } else {
      std::printf("%s  %-52s %-7s %6.2f s\n", why.empty() ? "PASS" : "FAIL", c.name.c_str(), outcome_text(c), r.wall);
    }
    if (!why.empty()) {
      ++failed;
      std::printf("      %s\n----- output -----\n%s------------------\n", why.c_str(), r.out.c_str());
    }
    std::fflush(stdout);
  }
  std::printf("%d cases, %d failed\n", run, failed);
  return run == 0 || failed != 0 ? 1 : 0;
}

}  // namespace
}  // namespace probe

int main(int argc, char **argv) {
  using namespace probe;
  if (argc >= 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const test_case &c : all_cases()) std::printf("%-52s np %d  %-7s %s\n", c.name.c_str(), c.np, outcome_text(c), c.pattern.c_str());
    return 0;
  }
  if (argc >= 5 && std::strcmp(argv[1], "--run") == 0 && std::strcmp(argv[3], "--launcher") == 0) {
    ::signal(SIGPIPE, SIG_DFL);
    char self[4096] = {};
    if (::readlink("/proc/self/exe", self, sizeof self - 1) <= 0) return 2;
    return drive(argv[2], argv[4], self);
  }
  if (argc == 2) {
    for (const test_case &c : all_cases()) {
      if (c.name == argv[1]) return run_case(c);
    }
  }
  std::fprintf(stderr, "usage: probe CASE | probe --run PREFIX --launcher SYMMEM_RUN | probe --list\n");
  return 2;
}
