// symmem: what the proxy ring's requests do (net/proxy.h): the runtime's own routines, so a
// request to a PE on another host takes the remote path and one to a node-local PE the mapping.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "core/proxy_exec.h"
#include "core/remote.h"
#include "core/state.h"
#include "ctx/ctx.h"
#include "net/net_plugin.h"
#include "net/proxy.h"

namespace symmem::core {
namespace {

// The ring's atomic operations (proxy_ring.h) are the network's.
constexpr bool same_op(int ring_op, int net_op) { return ring_op == net_op; }
static_assert(same_op(SYMMEM_PROXY_AMO_ADD, SYMMEM_NET_AMO_ADD) && same_op(SYMMEM_PROXY_AMO_SWAP, SYMMEM_NET_AMO_SWAP) &&
              same_op(SYMMEM_PROXY_AMO_CSWAP, SYMMEM_NET_AMO_CSWAP) && same_op(SYMMEM_PROXY_AMO_AND, SYMMEM_NET_AMO_AND) &&
              same_op(SYMMEM_PROXY_AMO_OR, SYMMEM_NET_AMO_OR) && same_op(SYMMEM_PROXY_AMO_XOR, SYMMEM_NET_AMO_XOR));

// Requests travel on a private context of their own, made by the proxy thread on its first
// request (not at init: a context needs an initialized job, and a private context's network worker
// belongs to the thread that made it, which alone progresses it: remote_progress). So the proxy
// neither shares the default worker's queue with the program's threads nor takes its lock for its
// puts and gets; its fence and quiet cover the ring's requests only. The routines it calls are the
// program's: to a GPU heap, with device memory as the local buffer, they stage through host memory.
//
// Small puts (and puts with signal) from GPU memory to PEs on other hosts leave through host
// memory, each a copy and a wait for it when done one by one. Consecutive ones are held instead:
// each copy is queued on the heap's copy stream as its request comes, into a staging buffer of
// pinned memory, and one wait covers them all; then each goes out from there (a staged put takes
// its own copy, and the rest are blocking puts). Any other request, a full buffer, and an empty
// ring send what is held first, so the requests keep the ring's order. On a host heap (the tests'
// proxy) puts from the heap are held the same way, so the CPU machines run this path too.
class runtime_executor final : public net::proxy_executor {
 public:
  ~runtime_executor() override { close(); }
  void put(int pe, uint64_t dst, uint64_t src, uint64_t size) override {
    if (holdable(pe, src, size)) return hold(pe, dst, src, size, false, 0, 0, 0);
    send_held();
    symmem_ctx_putmem_nbi(ctx(), reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), size, pe);
  }
  // A kernel's `p` calls (a warp's, joined) and small puts from its local memory: the bytes are
  // held like a put's (copied now: the ring's slot is reused), else sent before the call returns.
  void put_data(int pe, uint64_t dst, const void *data, uint64_t size) override {
    if (size != 0 && size <= hold_most && !stage_failed_ && is_remote(pe)) {
      return hold(pe, dst, reinterpret_cast<uint64_t>(data), size, false, 0, 0, 0, true);
    }
    send_held();
    symmem_ctx_putmem(ctx(), reinterpret_cast<void *>(dst), data, size, pe);
  }
  void get(int pe, uint64_t dst, uint64_t src, uint64_t size) override {
    send_held();
    symmem_ctx_getmem(ctx(), reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), size, pe);
  }
  uint64_t amo(int pe, uint64_t dst, unsigned op, unsigned size, uint64_t value, uint64_t compare,
               bool fetch) override {
    send_held();
    void *d = reinterpret_cast<void *>(dst);
    if (size != 4 && size != 8) fatal("proxy", "a proxy atomic of %u bytes (4 or 8 only)", size);
    if (is_remote(pe)) return remote_amo(d, pe, static_cast<int>(op), size, value, compare, fetch, "proxy", ctx());
    return heap_amo(translate(d, size, pe, "proxy"), static_cast<int>(op), size, value, compare);
  }
  // The runtime's put-with-signal: to a PE on another host, data and signal as one message that
  // the owner carries out in order (core/remote.cpp, remote_put_signal), where put, fence and
  // signal took a round trip for the fence (a fence beside a staged heap is a quiet).
  void put_signal(int pe, uint64_t dst, uint64_t src, uint64_t size, uint64_t sig, unsigned op,
                  uint64_t value) override {
    if (op != SYMMEM_NET_AMO_SWAP && op != SYMMEM_NET_AMO_ADD) {
      fatal("proxy", "a put with signal takes a set or an add, not atomic %u", op);
    }
    if (holdable(pe, src, size)) return hold(pe, dst, src, size, true, sig, op, value);
    send_held();
    symmem_ctx_putmem_signal_nbi(ctx(), reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), size,
                                 reinterpret_cast<uint64_t *>(sig), value,
                                 op == SYMMEM_NET_AMO_SWAP ? SYMMEM_SIGNAL_SET : SYMMEM_SIGNAL_ADD, pe);
  }
  // No context yet: nothing was sent, nothing to order or complete.
  void fence() override {
    send_held();
    if (ctx_ != nullptr) symmem_ctx_fence(ctx_);
  }
  void quiet() override {
    send_held();
    if (ctx_ != nullptr) symmem_ctx_quiet(ctx_);
  }
  void progress() override {  // the ring is empty
    send_held();
    remote_progress_own();  // its context's worker; the default one is the progress thread's
  }
  // After the proxy thread stopped (its worker is then nobody's): completes and frees the context.
  void close() {
    if (symmem_initialized()) send_held();
    if (ctx_ != nullptr && symmem_initialized()) symmem_ctx_destroy(ctx_);
    ctx_ = nullptr;
    if (stage_ != nullptr && g.heap) {
      g.heap->host_buffer_free(stage_);
    } else if (stage_ != nullptr && !stage_pinned_) {
      std::free(stage_);  // the heap's provider is gone (after finalize): a host heap's was malloc's
    }  // else pinned memory whose GPU context went with the heap: nothing to free it with
    stage_ = nullptr;
  }

 private:
  static constexpr size_t stage_bytes = size_t{1} << 20;  // the staging buffer
  static constexpr size_t held_most = 256;                 // requests held at once
  const size_t hold_most = std::min(g.cfg.proxy_hold, stage_bytes);  // bytes of one held request, at most
  struct held_put {
    int pe;
    uint64_t dst;
    size_t at, size;
    bool signal;
    uint64_t sig;
    unsigned op;
    uint64_t value;
  };

  // A put of GPU memory (or, on a host heap, of heap memory) to a PE on another host.
  bool holdable(int pe, uint64_t src, uint64_t size) {
    if (size == 0 || size > hold_most || stage_failed_ || !is_remote(pe)) return false;
    const auto *p = reinterpret_cast<const void *>(src);
    return g.heap_on_cpu ? src - g.heap_base < g.heap_size && size <= g.heap_size - (src - g.heap_base)
                         : !g.heap->cpu_reaches(p, size);
  }

  // `host`: the source is host memory (a span's bytes), copied at once; else the heap's memory,
  // copied on the copy stream. A put that continues the last held one (the next bytes of the same
  // PE, no signal) lengthens it: a kernel's rows of `p`, a warp a request, leave as one put.
  void hold(int pe, uint64_t dst, uint64_t src, uint64_t size, bool signal, uint64_t sig, unsigned op,
            uint64_t value, bool host = false) {
    if (stage_ == nullptr) {
      stage_ = static_cast<char *>(g.heap->host_buffer(stage_bytes));
      stage_pinned_ = !g.heap_on_cpu;
      if (stage_ == nullptr) {  // no pinned memory: one by one, as before
        stage_failed_ = true;
        log(log_level::warn, "proxy: no %zu bytes of pinned host memory for staging; puts from GPU memory to other "
                             "hosts go one by one", stage_bytes);
        return host ? put_data(pe, dst, reinterpret_cast<const void *>(src), size)
               : signal ? put_signal(pe, dst, src, size, sig, op, value)
                        : put(pe, dst, src, size);
      }
    }
    auto copy = [&](size_t at) {
      if (host) {
        std::memcpy(stage_ + at, reinterpret_cast<const void *>(src), size);
      } else {
        g.heap->copy_async(stage_ + at, reinterpret_cast<const void *>(src), size);
      }
    };
    if (!signal && !held_.empty()) {
      held_put &last = held_.back();
      if (!last.signal && last.pe == pe && last.dst + last.size == dst && last.at + last.size + size <= stage_bytes) {
        copy(last.at + last.size);
        last.size += size;
        used_ = (last.at + last.size + 15) & ~size_t{15};
        return;
      }
    }
    if (used_ + size > stage_bytes || held_.size() == held_most) send_held();
    copy(used_);
    held_.push_back({pe, dst, used_, size, signal, sig, op, value});
    used_ += (size + 15) & ~size_t{15};
  }

  // Blocking puts: a staged one returns at once anyway (its message holds a copy), and an RMA one
  // (SYMMEM_NET_PUT_STAGED below the size) must be done with the buffer before it is reused.
  void send_held() {
    if (held_.empty()) return;
    g.heap->copy_wait();
    for (const held_put &h : held_) {
      void *d = reinterpret_cast<void *>(h.dst);
      if (h.signal) {
        symmem_ctx_putmem_signal(ctx(), d, stage_ + h.at, h.size, reinterpret_cast<uint64_t *>(h.sig), h.value,
                                 h.op == SYMMEM_NET_AMO_SWAP ? SYMMEM_SIGNAL_SET : SYMMEM_SIGNAL_ADD, h.pe);
      } else {
        symmem_ctx_putmem(ctx(), d, stage_ + h.at, h.size, h.pe);
      }
    }
    held_.clear();
    used_ = 0;
  }

  symmem_ctx_t ctx() {
    if (SYMMEM_UNLIKELY(ctx_ == nullptr) && symmem::ctx::make_progressed(&ctx_) != SYMMEM_SUCCESS) {
      fatal("proxy", "cannot make the proxy's communication context: %s", last_error().c_str());
    }
    return ctx_;
  }
  symmem_ctx_t ctx_ = nullptr;
  char *stage_ = nullptr;
  bool stage_failed_ = false, stage_pinned_ = false;
  size_t used_ = 0;
  std::vector<held_put> held_;
};

// The GPU heap's proxy (proxy_exec.h): one per PE, while the job runs. A plain pointer, never
// destroyed at exit: a program that exits without finalize must not join the thread (and flush
// its network worker) from a static destructor.
struct running_proxy {
  runtime_executor ex;
  net::proxy px;
  explicit running_proxy(symmem_proxy_ring *ring) : px(ring, ex) {}
};
running_proxy *g_proxy = nullptr;

}  // namespace

std::unique_ptr<net::proxy_executor> make_proxy_executor() { return std::make_unique<runtime_executor>(); }

int proxy_start(symmem_proxy_ring *ring) {
  proxy_stop();
  g_proxy = new running_proxy(ring);
  g_proxy->px.start();
  const int cpus = g_proxy->px.helper_cpus();
  log(log_level::info, "proxy: a host thread carries kernels' requests to PEs on other hosts (%llu-slot ring)%s",
      static_cast<unsigned long long>(ring->slots),
      cpus > 0 ? strfmt(", on %d CPUs besides the one this PE is bound to", cpus).c_str() : "");
  return cpus;
}

void proxy_stop() {
  if (g_proxy == nullptr) return;
  g_proxy->px.stop();  // carries out what was published, then a last quiet
  g_proxy->ex.close();
  delete g_proxy;
  g_proxy = nullptr;
}

bool proxy_abandon() {
  if (g_proxy == nullptr) return true;
  using namespace std::chrono_literals;
  if (!g_proxy->px.abandon(2s)) return false;
  g_proxy = nullptr;  // left allocated: its context's worker goes with the transport
  return true;
}

bool proxy_running() { return g_proxy != nullptr; }

}  // namespace symmem::core
