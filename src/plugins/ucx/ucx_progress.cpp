// The UCX transport plugin: the progress thread.
//
// Over transports without remote memory access in hardware (TCP, and UCX's software emulation of
// atomics that keeps them atomic with respect to CPU atomics) the *target* CPU performs every
// remote put, get and atomic when its worker is progressed. symmem's waits progress it; this
// thread covers the time the PE's own thread spends elsewhere (computing, blocked in the
// bootstrap at init and finalize), so operations on a PE complete without its participation, as
// OpenSHMEM's one-sided model expects.
//
// It stays out of the way of a PE that is waiting inside symmem: when the library progressed the
// worker since the thread last looked, it only naps (a backstop); when the library has been away,
// it sleeps on the worker's event descriptor and wakes for the next incoming message.
#include <poll.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "common/helper_thread.h"
#include "plugins/common/plugin_util.h"
#include "plugins/ucx/ucx_net.h"

namespace symmem::ucx {
namespace {

using namespace std::chrono_literals;

// While the PE's own thread progresses the worker, or posts operations on it, this thread only
// checks now and then: each of its wake-ups takes the PE's core (a PE is bound to one) and the
// worker's lock from the thread doing the work. The naps double from min_nap to max_nap while the
// PE keeps at it; the first look that finds it away arms the worker's event descriptor instead.
// Posting counts (ucx_ops.cpp, endpoint): a PE putting 1000 messages in a row, each answered, had
// this thread woken by every answer and fighting for the lock and the core: 12-18 us per put
// posted, 8.7-10.2 once posting counted (OSHMEM 10.0-10.4). A request of another PE that arrives
// meanwhile then waits for the next look, max_nap at most. A max_nap of 500 us instead of 2 ms
// made OSU's small broadcasts slower (4 B-4 KiB, mean of four runs each: 10.6 against 9.9 us).
// SYMMEM_NET_PROGRESS_NAP replaces max_nap (config_table.h); the naps then start at the smaller of
// the two.
constexpr std::chrono::microseconds min_nap = 200us;
constexpr std::chrono::microseconds max_nap = 2ms;

std::chrono::microseconds longest_nap() {
  const double s = symmem::plugin::env_seconds("SYMMEM_NET_PROGRESS_NAP", std::chrono::duration<double>(max_nap).count());
  return std::chrono::microseconds(static_cast<int64_t>(std::clamp(s, 0.0, 1.0) * 1e6));
}

// Progresses until idle; the lock is taken per step so the PE's own thread never waits long.
// A batch of staged puts that the PE's thread left goes out first.
void drain(worker &wk, plugin::progress_counts &c) {
  for (;;) {
    worker_guard guard(wk);
    send_batch_if_any(wk, "progress");
    const auto t = std::chrono::steady_clock::now();
    if (ucp_worker_progress(wk.w) == 0) return;
    ++c.served;
    c.served_ns += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t).count());
  }
}

void progress_loop(plugin *p, int efd) {
  worker &wk = *p->workers.front();
  uint64_t seen = p->main_progress.load(std::memory_order_relaxed);
  const auto longest = longest_nap(), shortest = std::min(min_nap, longest);
  auto nap = shortest;
  plugin::progress_counts &st_ = p->progress_stats;
  while (!p->stop_progress.load(std::memory_order_acquire)) {
    drain(wk, st_);
    const uint64_t now = p->main_progress.load(std::memory_order_relaxed);
    if (now != seen) {  // the PE's thread is progressing: stay a backstop, and look less often
      seen = now;
      std::this_thread::sleep_for(nap);
      ++st_.naps;
      st_.nap_us += static_cast<uint64_t>(nap.count());
      st_.longest_nap_us = std::max(st_.longest_nap_us, static_cast<uint64_t>(nap.count()));
      nap = std::min(2 * nap, longest);
      continue;
    }
    nap = shortest;
    ucs_status_t st;
    {
      worker_guard guard(wk);
      // A batch begun since the drain is sent first; one begun from here on signals the worker.
      st = wk.batch != nullptr ? UCS_ERR_BUSY : ucp_worker_arm(wk.w);
      if (st == UCS_OK) p->progress_asleep.store(true, std::memory_order_relaxed);
    }
    if (st == UCS_ERR_BUSY) continue;  // events arrived meanwhile: progress them first
    if (st != UCS_OK) {
      std::this_thread::sleep_for(1ms);
      continue;
    }
    pollfd pfd{efd, POLLIN, 0};
    ++st_.sleeps;
    if (::poll(&pfd, 1, 100) > 0) ++st_.woken;  // bounded, so that a lost wake-up costs 100 ms at most
    p->progress_asleep.store(false, std::memory_order_relaxed);
  }
}

// The worker's event descriptor, asked of UCX once (under the worker's lock when it has one);
// -1 when UCX gives none (*why: UCX's reason, when it was asked now).
int event_fd(worker &wk, ucs_status_t *why = nullptr) {
  if (wk.efd == -2) {
    const ucs_status_t st = ucp_worker_get_efd(wk.w, &wk.efd);
    if (st != UCS_OK) wk.efd = -1;
    if (why != nullptr) *why = st;
  }
  return wk.efd;
}

}  // namespace

int idle(void *w, unsigned usec) {
  worker &wk = *static_cast<worker *>(w);
  int efd;
  {
    worker_guard guard(wk);
    send_batch_if_any(wk, "idle");
    efd = event_fd(wk);
    if (efd >= 0) {
      const ucs_status_t st = ucp_worker_arm(wk.w);
      if (st == UCS_ERR_BUSY) return 1;  // events wait: the caller progresses them
      if (st != UCS_OK) efd = -1;
    }
  }
  if (efd < 0) {  // no descriptor to sleep on: a short nap still lets the competing program run
    std::this_thread::sleep_for(std::chrono::microseconds(usec));
    return 0;
  }
  pollfd pfd{efd, POLLIN, 0};
  const timespec limit{static_cast<time_t>(usec / 1000000), static_cast<long>(usec % 1000000) * 1000};
  return ::ppoll(&pfd, 1, &limit, nullptr) > 0 ? 1 : 0;
}

int start_progress_thread(plugin &p, const char *call) {
  ucs_status_t st = UCS_ERR_NO_RESOURCE;
  const int efd = event_fd(*p.workers.front(), &st);  // before the thread: nobody else uses the worker yet
  if (efd < 0) {
    return report(p, SYMMEM_ERR_SYSTEM, call, "UCX gives no event descriptor for its worker (%s)", ucs_status_string(st));
  }
  p.progress_thread = std::thread(progress_loop, &p, efd);
  // A PE bound to one CPU: this thread wakes for messages while the PE's thread spins elsewhere
  // (in a kernel's stream synchronisation, say), so it may run on the machine's other CPUs.
  (void)symmem::common::spread_helper_thread(p.progress_thread.native_handle(), "symmem-progress");
  return SYMMEM_SUCCESS;
}

void stop_progress_thread(plugin &p) {
  if (!p.progress_thread.joinable()) return;
  p.stop_progress.store(true, std::memory_order_release);
  {
    worker_guard guard(*p.workers.front());
    ucp_worker_signal(p.workers.front()->w);
  }
  p.progress_thread.join();
  const plugin::progress_counts &s = p.progress_stats;
  note(p, SYMMEM_BOOT_LOG_INFO,
       "network progress thread: %llu calls found work (%.3f s in them); %llu naps beside the library's own use of the worker (%.3f s, "
       "longest %llu us); %llu sleeps on the worker's messages, %llu ended by one",
       static_cast<unsigned long long>(s.served), static_cast<double>(s.served_ns) * 1e-9, static_cast<unsigned long long>(s.naps), static_cast<double>(s.nap_us) * 1e-6,
       static_cast<unsigned long long>(s.longest_nap_us), static_cast<unsigned long long>(s.sleeps),
       static_cast<unsigned long long>(s.woken));
}

}  // namespace symmem::ucx
