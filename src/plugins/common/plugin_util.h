// symmem plugins: what every plugin needs on top of the interface (bootstrap/plugin.h).
// Header-only on purpose: a plugin links nothing of libsymmem, it reports through the callbacks.
#pragma once

#include <sched.h>
#include <time.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bootstrap/plugin.h"
#include "symmem/symmem.h"

#define SYMMEM_PLUGIN_EXPORT extern "C" __attribute__((visibility("default")))

namespace symmem::plugin {

inline std::string vformat(const char *fmt, va_list ap) {
  char small[512];
  va_list copy;
  va_copy(copy, ap);
  int n = std::vsnprintf(small, sizeof small, fmt, copy);
  va_end(copy);
  if (n < 0) return {};
  if (static_cast<size_t>(n) < sizeof small) return std::string(small, static_cast<size_t>(n));
  std::string big(static_cast<size_t>(n), '\0');
  std::vsnprintf(big.data(), big.size() + 1, fmt, ap);
  return big;
}

inline std::string format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
inline std::string format(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::string s = vformat(fmt, ap);
  va_end(ap);
  return s;
}

// The library's callbacks, copied from the host table (they stay valid: libsymmem outlives us).
struct reporter {
  symmem_boot_host host{};

  int fail(int code, const char *call, const char *fmt, ...) const __attribute__((format(printf, 4, 5))) {
    va_list ap;
    va_start(ap, fmt);
    std::string text = vformat(fmt, ap);
    va_end(ap);
    return host.fail != nullptr ? host.fail(code, call, text.c_str()) : code;
  }
  void log(int level, const char *call, const char *fmt, ...) const __attribute__((format(printf, 4, 5))) {
    va_list ap;
    va_start(ap, fmt);
    std::string text = vformat(fmt, ap);
    va_end(ap);
    if (host.log != nullptr) host.log(level, call, text.c_str());
  }
  void set_pe(int pe) const {
    if (host.set_pe != nullptr) host.set_pe(pe);
  }
  // The bound of a wait: SYMMEM_BOOTSTRAP_TIMEOUT inside init, SYMMEM_WAIT_TIMEOUT after (0: none).
  [[nodiscard]] double timeout_for(const char *call) const {
    return (call != nullptr && std::strcmp(call, "init") == 0) ? host.bootstrap_timeout_s : host.wait_timeout_s;
  }
};

// Spins politely while waiting for another process: yields first (PEs often share cores), then
// sleeps in growing steps up to 1 ms so that a long wait costs little CPU.
class backoff {
 public:
  void pause() {
    ++n_;
    if (n_ < 200) {
      sched_yield();
      return;
    }
    long ns = n_ < 2000 ? 20'000 : n_ < 4000 ? 200'000 : 1'000'000;
    timespec ts{0, ns};
    nanosleep(&ts, nullptr);
  }

 private:
  unsigned n_ = 0;
};

// A duration in seconds from the environment (the library checked its form, config_table.h), or
// `fallback` when it is unset or empty.
inline double env_seconds(const char *name, double fallback) {
  const char *v = std::getenv(name);
  return v == nullptr || *v == '\0' ? fallback : std::strtod(v, nullptr);
}

// "PE 3", "PEs 1-2,5": a list of ranks as the library's own messages print them.
inline std::string ranks_text(const std::vector<int> &ranks) {
  std::string s = ranks.size() == 1 ? "PE " : "PEs ";
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    s += (i != 0 ? "," : "") + std::to_string(ranks[i]);
    if (j > i) s += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return s;
}

class stopwatch {
 public:
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }
  // True when `limit` seconds (>0) have passed; a limit of 0 never expires.
  [[nodiscard]] bool expired(double limit) const { return limit > 0 && seconds() > limit; }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace symmem::plugin
