#include "core/guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>

#include "common/error.h"
#include "mem/vaspace.h"

namespace symmem::core::guard {
namespace {

std::atomic<uintptr_t> g_base{0};
std::atomic<size_t> g_size{0};
struct sigaction g_previous {};
std::atomic<bool> g_installed{false};

// Async-signal-safe formatting: hex and decimal into a buffer.
size_t put_str(char *buf, size_t at, const char *s) {
  while (*s != '\0' && at < 255) buf[at++] = *s++;
  return at;
}
size_t put_hex(char *buf, size_t at, uintptr_t v) {
  char tmp[2 + 16];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v & 15];
    v >>= 4;
  } while (v != 0);
  at = put_str(buf, at, "0x");
  while (n > 0 && at < 255) buf[at++] = tmp[--n];
  return at;
}
size_t put_int(char *buf, size_t at, int v) {
  if (v < 0) return put_str(buf, at, "?");
  char tmp[12];
  int n = 0;
  do {
    tmp[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  while (n > 0 && at < 255) buf[at++] = tmp[--n];
  return at;
}

void on_segv(int sig, siginfo_t *info, void *ctx) {
  auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  uintptr_t base = g_base.load();
  if (base != 0 && a >= base && a < base + g_size.load()) {
    char buf[256];
    size_t n = put_str(buf, 0, "symmem: PE ");
    n = put_int(buf, n, log_pe());
    n = put_str(buf, n, ": access to symmetric address ");
    n = put_hex(buf, n, a);
    n = put_str(buf, n, " after symmem_finalize; the heap was released there (keep symmetric pointers only "
                        "between init and finalize)\n");
    ssize_t rc = ::write(STDERR_FILENO, buf, n);
    (void)rc;
    ::_exit(1);
  }
  // Not ours: hand the fault to whoever handled it before us.
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction != nullptr) {
      g_previous.sa_sigaction(sig, info, ctx);
      return;
    }
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != nullptr) {
    g_previous.sa_handler(sig);
    return;
  }
  ::signal(SIGSEGV, SIG_DFL);  // returning re-runs the faulting access under the default action
}

void install() {
  bool expected = false;
  if (!g_installed.compare_exchange_strong(expected, true)) {
    return;
  }
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, &g_previous);
}

}  // namespace

void arm(uintptr_t base, size_t size) {
  if (!mem::make_guard(base, size)) {
    mem::unmap(base, size);
    return;
  }
  install();
  g_size.store(size);
  g_base.store(base);
}

void disarm() {
  uintptr_t base = g_base.exchange(0);
  if (base != 0) {
    mem::unmap(base, g_size.load());
  }
}

}  // namespace symmem::core::guard
