#include "common/error.h"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "common/checked.h"

namespace symmem {
namespace {

std::atomic<int> g_log_pe{-1};
std::atomic<int> g_log_level{static_cast<int>(log_level::warn)};
std::atomic<fatal_hook> g_fatal_hook{nullptr};

// Last error per thread: a PE in THREAD_MULTIPLE mode reads the error of the failing thread.
thread_local std::string t_last_error;
thread_local int t_last_code = SYMMEM_SUCCESS;

std::string prefix() {
  int pe = g_log_pe.load(std::memory_order_relaxed);
  if (pe < 0) {
    return "symmem: PE ?: ";
  }
  return strfmt("symmem: PE %d: ", pe);
}

void emit(const std::string &line) {
  // One write(2) per message so lines of several PEs do not interleave mid-line.
  std::string out = line;
  if (out.empty() || out.back() != '\n') {
    out.push_back('\n');
  }
  std::fflush(stdout);
  ssize_t rc = ::write(STDERR_FILENO, out.data(), out.size());
  (void)rc;
}

std::string compose(const char *call, const char *fmt, va_list ap) {
  std::string msg = prefix();
  if (call != nullptr && *call != '\0') {
    msg += call;
    msg += ": ";
  }
  msg += vstrfmt(fmt, ap);
  return msg;
}

}  // namespace

std::string vstrfmt(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(nullptr, 0, fmt, copy);
  va_end(copy);
  if (n <= 0) {
    return {};
  }
  std::string s(static_cast<size_t>(n), '\0');
  std::vsnprintf(s.data(), s.size() + 1, fmt, ap);
  return s;
}

std::string strfmt(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = vstrfmt(fmt, ap);
  va_end(ap);
  return s;
}

void set_log_pe(int pe) { g_log_pe.store(pe, std::memory_order_relaxed); }
int log_pe() { return g_log_pe.load(std::memory_order_relaxed); }

status vfail(int code, const char *call, const char *fmt, va_list ap) {
  t_last_error = compose(call, fmt, ap);
  t_last_code = code;
  emit(t_last_error);
  return status(code);
}

status fail(int code, const char *call, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  status s = vfail(code, call, fmt, ap);
  va_end(ap);
  return s;
}

status fail_quiet(int code, const char *call, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  t_last_error = compose(call, fmt, ap);
  t_last_code = code;
  va_end(ap);
  return status(code);
}

void vfatal(const char *call, const char *fmt, va_list ap) {
  std::string msg = compose(call, fmt, ap);
  t_last_error = msg;
  emit(msg);
  if (fatal_hook hook = g_fatal_hook.load()) {
    hook(1, msg);
  }
  std::fflush(nullptr);
  ::_exit(1);
}

void fatal(const char *call, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vfatal(call, fmt, ap);
}

void size_overflow(const char *call, size_t a, size_t b, const char *what) {
  fatal(call, "%s (%zu x %zu) does not fit in size_t: the size wraps around; pass a count that fits the symmetric heap",
        what, a, b);
}

const std::string &last_error() { return t_last_error; }
int last_error_code() { return t_last_code; }
void clear_last_error() {
  t_last_error.clear();
  t_last_code = SYMMEM_SUCCESS;
}

void set_log_level(log_level level) { g_log_level.store(static_cast<int>(level)); }
log_level current_log_level() { return static_cast<log_level>(g_log_level.load()); }

void log(log_level level, const char *fmt, ...) {
  if (static_cast<int>(level) > g_log_level.load(std::memory_order_relaxed)) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  std::string msg = prefix();
  if (level == log_level::trace) {
    // Trace lines carry the monotonic clock, the same on every PE of a host, so the steps of one
    // operation on its way through several PEs and threads can be timed from the log.
    timespec ts{};
    ::clock_gettime(CLOCK_MONOTONIC, &ts);
    msg += strfmt("[%lld.%06ld] ", static_cast<long long>(ts.tv_sec), ts.tv_nsec / 1000);
  }
  msg += vstrfmt(fmt, ap);
  va_end(ap);
  emit(msg);
}

void warn(const char *fmt, ...) {
  if (g_log_level.load(std::memory_order_relaxed) < static_cast<int>(log_level::warn)) {
    return;
  }
  va_list ap;
  va_start(ap, fmt);
  std::string msg = prefix() + "warning: " + vstrfmt(fmt, ap);
  va_end(ap);
  emit(msg);
}

void set_fatal_hook(fatal_hook hook) { g_fatal_hook.store(hook); }

}  // namespace symmem

extern "C" {

const char *symmem_error_string(int code) {
  switch (code) {
    case SYMMEM_SUCCESS: return "success";
    case SYMMEM_ERR_NOT_INITIALIZED: return "symmem is not initialized (call symmem_init first, and not after symmem_finalize)";
    case SYMMEM_ERR_ALREADY_INITIALIZED: return "symmem is already initialized";
    case SYMMEM_ERR_INVALID_ARGUMENT: return "invalid argument";
    case SYMMEM_ERR_CONFIG: return "invalid configuration (an environment variable)";
    case SYMMEM_ERR_BOOTSTRAP: return "the job could not be formed (bootstrap failure)";
    case SYMMEM_ERR_OUT_OF_MEMORY: return "out of memory";
    case SYMMEM_ERR_MISMATCH: return "PEs called a collective routine with different arguments";
    case SYMMEM_ERR_PEER_GONE: return "another PE exited or died";
    case SYMMEM_ERR_TIMEOUT: return "a wait passed its time limit";
    case SYMMEM_ERR_SYSTEM: return "a system call failed";
    case SYMMEM_ERR_UNSUPPORTED: return "not supported by this build or machine";
    case SYMMEM_ERR_NOT_ACCESSIBLE: return "the target PE is not accessible";
    default: return "unknown symmem status code";
  }
}

const char *symmem_last_error(void) { return symmem::last_error().c_str(); }
int symmem_last_error_code(void) { return symmem::last_error_code(); }

}  // extern "C"
