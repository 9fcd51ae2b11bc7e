// symmem: the host side of the proxy ring (proxy.h).
#include "net/proxy.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <iterator>
#include <new>

#include "common/error.h"
#include "common/helper_thread.h"

namespace symmem::net {
namespace {

using namespace std::chrono_literals;

std::atomic_ref<uint64_t> word(uint64_t &w) { return std::atomic_ref<uint64_t>(w); }

uint64_t ns_since(std::chrono::steady_clock::time_point t) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t).count());
}

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// Calls fn(where, offset, bytes) for each contiguous part of the `n` bytes of the span at `ticket`.
template <typename F>
void span_copy(symmem_proxy_ring *ring, uint64_t ticket, uint64_t n, F fn) {
  for (uint64_t off = 0; off < n;) {
    uint64_t c = 0;
    unsigned char *at = symmem_proxy_span_at(ring, ticket, off, &c);
    c = std::min(c, n - off);
    fn(at, off, c);
    off += c;
  }
}

}  // namespace

symmem_proxy_ring *proxy::init_ring(void *memory, uint64_t slots) {
  std::memset(memory, 0, symmem_proxy_ring_bytes(slots));
  auto *ring = static_cast<symmem_proxy_ring *>(memory);
  ring->slots = slots;
  ring->head_addr = reinterpret_cast<uint64_t>(&ring->head);
  return ring;
}

void proxy::start() {
  stop_.store(false);
  abandon_.store(false);
  ended_.store(false);
  stats_ = stats{};
  started_ = std::chrono::steady_clock::now();
  thread_ = std::thread([this] {
    loop();
    ended_.store(true, std::memory_order_release);
  });
  helper_cpus_ = common::spread_helper_thread(thread_.native_handle(), "symmem-proxy");
}

bool proxy::abandon(std::chrono::milliseconds limit) {
  if (!thread_.joinable()) return true;
  abandon_.store(true, std::memory_order_release);
  const auto until = std::chrono::steady_clock::now() + limit;
  while (!ended_.load(std::memory_order_acquire) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(1ms);
  }
  if (!ended_.load(std::memory_order_acquire)) {
    thread_.detach();
    return false;
  }
  thread_.join();
  return true;
}

void proxy::stop() {
  if (!thread_.joinable()) return;
  stop_.store(true, std::memory_order_release);
  thread_.join();
  stats_.wall_ns = ns_since(started_);
  if (current_log_level() >= log_level::info) {
    const auto &st = stats_;
    uint64_t all = 0;
    for (uint64_t c : st.ops) all += c;
    log(log_level::info,
        "proxy: %llu requests in %.3f s (%llu puts, %llu spans of %llu bytes, %llu gets, %llu atomics, %llu puts with "
        "signal, %llu fences, %llu quiets); busy %.3f s, of it %.3f s in the network's quiet; %llu idle sleeps",
        static_cast<unsigned long long>(all), st.wall_ns * 1e-9, static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_PUT]),
        static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_PUT_DATA]), static_cast<unsigned long long>(st.data_bytes),
        static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_GET]), static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_AMO]),
        static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_SIGNAL]),
        static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_FENCE]),
        static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_QUIET]), st.busy_ns * 1e-9, st.quiet_ns * 1e-9,
        static_cast<unsigned long long>(st.sleeps));
  }
}

// Carries out requests in ticket order; idle, it keeps the network moving and backs off to
// short sleeps so that it does not hold a core a PE needs.
void proxy::loop() {
  unsigned idle = 0;
  bool busy = false;
  std::chrono::steady_clock::time_point since;
  for (;;) {
    if (abandon_.load(std::memory_order_acquire)) return;  // the process exits: the network may be closing
    // A busy stretch starts before the step that found a request (the clock is read only while idle).
    const auto before = busy ? since : std::chrono::steady_clock::now();
    if (step()) {
      if (!busy) busy = true, since = before;
      idle = 0;
      continue;
    }
    if (busy) busy = false, stats_.busy_ns += ns_since(since);
    release();
    if (stop_.load(std::memory_order_acquire)) break;  // the producers are done: nothing more comes
    ex_.progress();
    if (++idle < 2000) {
      relax();
    } else {
      std::this_thread::sleep_for(50us);
      ++stats_.sleeps;
    }
  }
  ex_.quiet();  // nothing posted through the ring stays in flight
  word(ring_->completed).store(next_, std::memory_order_release);
}

bool proxy::step() {
  symmem_proxy_slot &s = ring_->slot[next_ & (ring_->slots - 1)];
  if (word(s.req.seq).load(std::memory_order_acquire) != next_ + 1) return false;
  symmem_proxy_req r;
  std::memcpy(&r, &s.req, sizeof r);
  ++stats_.ops[r.op < std::size(stats_.ops) ? r.op : 0];
  if (r.op == SYMMEM_PROXY_PUT_DATA) {
    put_data(r);
  } else {
    execute(r, s);
    ++next_;
  }
  release();
  return true;
}

// A span (proxy_ring.h): its bytes out of the ring into `span_`, the put, then past its tickets.
// A span the ring cannot hold is a producer that disagrees with this library on the ring.
void proxy::put_data(const symmem_proxy_req &r) {
  if (r.size == 0 || r.size > SYMMEM_PROXY_SPAN_MOST || r.value != symmem_proxy_span(r.size) || r.value > ring_->slots) {
    word(ring_->error).store(r.op, std::memory_order_release);
    log(log_level::warn, "proxy: request %llu: a span of %llu bytes in %llu tickets (a producer built against "
                          "another ring layout?)", static_cast<unsigned long long>(next_),
        static_cast<unsigned long long>(r.size), static_cast<unsigned long long>(r.value));
    ++next_;
    return;
  }
  span_copy(ring_, next_, r.size, [&](const unsigned char *at, uint64_t off, uint64_t c) { std::memcpy(span_ + off, at, c); });
  if (current_log_level() >= log_level::trace) {
    log(log_level::trace, "proxy: request %llu: %llu bytes of data in %llu tickets to PE %d, dst %#llx",
        static_cast<unsigned long long>(next_), static_cast<unsigned long long>(r.size),
        static_cast<unsigned long long>(r.value), static_cast<int>(r.pe), static_cast<unsigned long long>(r.dst));
  }
  ex_.put_data(r.pe, r.dst, span_, r.size);
  stats_.data_bytes += r.size;
  for (uint64_t t = 0; t < r.value; ++t) fetching_[(next_ + t) & (ring_->slots - 1)] = 0;
  next_ += r.value;
}

void proxy::execute(const symmem_proxy_req &r, symmem_proxy_slot &s) {
  if (current_log_level() >= log_level::trace) {
    log(log_level::trace, "proxy: request %llu: op %u to PE %d, dst %#llx, %llu bytes", static_cast<unsigned long long>(next_),
        static_cast<unsigned>(r.op), static_cast<int>(r.pe), static_cast<unsigned long long>(r.dst),
        static_cast<unsigned long long>(r.size));
  }
  uint64_t result = 0;
  switch (r.op) {
    case SYMMEM_PROXY_PUT: ex_.put(r.pe, r.dst, r.src, r.size); break;
    case SYMMEM_PROXY_GET: ex_.get(r.pe, r.dst, r.src, r.size); break;
    case SYMMEM_PROXY_AMO:
      result = ex_.amo(r.pe, r.dst, r.amo_op, static_cast<unsigned>(r.size), r.value, r.value2, r.fetch != 0);
      break;
    case SYMMEM_PROXY_SIGNAL:  // the data, ordered before the signal (OpenSHMEM put-with-signal)
      ex_.put_signal(r.pe, r.dst, r.src, r.size, r.value2, r.amo_op, r.value);
      break;
    case SYMMEM_PROXY_FENCE: ex_.fence(); break;
    case SYMMEM_PROXY_QUIET: timed_quiet(); break;
    default: word(ring_->error).store(r.op, std::memory_order_release); break;
  }
  const bool fetching = r.fetch != 0 || r.op == SYMMEM_PROXY_GET;
  fetching_[next_ & (ring_->slots - 1)] = fetching ? 1 : 0;
  if (fetching) {
    // `completed` promises every earlier request too: complete the nbi ones before it moves.
    timed_quiet();
    word(s.result).store(result, std::memory_order_relaxed);
  }
  if (fetching || r.op == SYMMEM_PROXY_QUIET) word(ring_->completed).store(next_ + 1, std::memory_order_release);
  if (current_log_level() >= log_level::trace) {
    log(log_level::trace, "proxy: request %llu done", static_cast<unsigned long long>(next_));
  }
}

void proxy::timed_quiet() {
  const auto t = std::chrono::steady_clock::now();
  ex_.quiet();
  stats_.quiet_ns += ns_since(t);
}

// Frees slots in order: a processed one at once, a fetching one once its producer released it.
void proxy::release() {
  uint64_t tail = word(ring_->tail).load(std::memory_order_relaxed);
  const uint64_t before = tail;
  while (tail < next_) {
    const uint64_t i = tail & (ring_->slots - 1);
    if (fetching_[i] && word(ring_->slot[i].req.seq).load(std::memory_order_acquire) != 0) break;
    fetching_[i] = 0;
    ++tail;
  }
  if (tail != before) word(ring_->tail).store(tail, std::memory_order_release);
}

namespace {

// Takes `k` tickets and waits until their slots are free. A full ring waits for the proxy thread:
// a producer on the CPU yields now and then, so that on a machine with fewer CPUs than threads it
// does not hold the CPU the proxy needs.
uint64_t claim(symmem_proxy_ring *ring, uint64_t k) {
  const uint64_t ticket =
      word(*reinterpret_cast<uint64_t *>(ring->head_addr)).fetch_add(k, std::memory_order_acq_rel);
  for (unsigned spins = 0; ticket + k - 1 - word(ring->tail).load(std::memory_order_acquire) >= ring->slots &&
                           word(ring->error).load(std::memory_order_relaxed) == 0;) {
    if (++spins % 64 == 0) {
      std::this_thread::yield();
    } else {
      relax();
    }
  }
  return ticket;
}

// Fills the slot of `ticket` with `r` (all but its seq), then publishes it: the request, and the
// span's bytes written before, become the proxy's.
void publish(symmem_proxy_ring *ring, uint64_t ticket, const symmem_proxy_req &r) {
  symmem_proxy_slot &s = ring->slot[ticket & (ring->slots - 1)];
  std::memcpy(reinterpret_cast<char *>(&s.req) + sizeof s.req.seq, reinterpret_cast<const char *>(&r) + sizeof r.seq,
              sizeof r - sizeof r.seq);
  word(s.req.seq).store(ticket + 1, std::memory_order_release);
}

}  // namespace

uint64_t proxy::post_data(symmem_proxy_ring *ring, int pe, uint64_t dst, const void *data, uint64_t n) {
  const uint64_t k = symmem_proxy_span(n);
  const uint64_t ticket = claim(ring, k);
  span_copy(ring, ticket, n, [&](unsigned char *at, uint64_t off, uint64_t c) {
    std::memcpy(at, static_cast<const unsigned char *>(data) + off, c);
  });
  symmem_proxy_req r{};
  r.op = SYMMEM_PROXY_PUT_DATA;
  r.pe = pe;
  r.dst = dst;
  r.size = n;
  r.value = k;
  publish(ring, ticket, r);
  return ticket;
}

uint64_t proxy::post(symmem_proxy_ring *ring, const symmem_proxy_req &r) {
  const uint64_t ticket = claim(ring, 1);
  publish(ring, ticket, r);
  return ticket;
}

void proxy::wait(symmem_proxy_ring *ring, uint64_t ticket) {
  while (word(ring->completed).load(std::memory_order_acquire) <= ticket &&
         word(ring->error).load(std::memory_order_relaxed) == 0) {
    std::this_thread::yield();
  }
}

uint64_t proxy::fetch(symmem_proxy_ring *ring, const symmem_proxy_req &r) {
  symmem_proxy_req f = r;
  f.fetch = 1;
  const uint64_t ticket = post(ring, f);
  wait(ring, ticket);
  symmem_proxy_slot &s = ring->slot[ticket & (ring->slots - 1)];
  const uint64_t v = word(s.result).load(std::memory_order_relaxed);
  word(s.req.seq).store(0, std::memory_order_release);  // released
  return v;
}

void proxy::quiet(symmem_proxy_ring *ring) {
  symmem_proxy_req q{};
  q.op = SYMMEM_PROXY_QUIET;
  wait(ring, post(ring, q));
}

}  // namespace symmem::net
