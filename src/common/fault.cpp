#include "common/fault.h"

#include <signal.h>

#include <atomic>
#include <mutex>

namespace symmem {
namespace {

constexpr int max_hooks = 4;
std::atomic<fault_hook> g_hooks[max_hooks];
struct sigaction g_previous {};
std::mutex g_install_mutex;
bool g_installed = false;

void on_segv(int sig, siginfo_t *info, void *ctx) {
  const auto a = reinterpret_cast<uintptr_t>(info->si_addr);
  for (auto &h : g_hooks) {
    fault_hook f = h.load(std::memory_order_acquire);
    if (f != nullptr && f(a)) {
      return;
    }
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

}  // namespace

void add_fault_hook(fault_hook hook) {
  std::lock_guard<std::mutex> lock(g_install_mutex);
  for (auto &h : g_hooks) {
    fault_hook f = h.load(std::memory_order_relaxed);
    if (f == hook) break;
    if (f == nullptr) {
      h.store(hook, std::memory_order_release);
      break;
    }
  }
  if (g_installed) {
    return;
  }
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&sa.sa_mask);
  ::sigaction(SIGSEGV, &sa, &g_previous);
  g_installed = true;
}

}  // namespace symmem
