// symmem: put-with-signal and signal waits (OpenSHMEM 1.5, 9.8).
//
// The data goes first (memcpy into the peer's mapping), then the signal word is updated with
// release order, so a PE that sees the signal (acquire) sees the data: the ordering OpenSHMEM
// requires between the put and its signal. The _nbi forms complete at once on this transport.
// To a PE on another host: one staged message that the owner answers (data, then signal) when the
// data is small or the heap staged, else the put, a fence, then the signal as a network atomic.
#include <sched.h>

#include <atomic>
#include <cstring>

#include "core/checks.h"
#include "core/compare.h"
#include "core/remote.h"
#include "core/state.h"
#include "core/sync.h"
#include "core/wait.h"
#include "ctx/ctx.h"
#include "net/net_plugin.h"

namespace symmem::sig {
using core::holds;
namespace {

void put_signal(void *dest, const void *src, size_t nbytes, uint64_t *sig_addr, uint64_t signal, int op, int pe,
                const char *call, bool nbi = false, symmem_ctx_s *ctx = nullptr) {
  if (op != SYMMEM_SIGNAL_SET && op != SYMMEM_SIGNAL_ADD) {
    fatal(call, "sig_op %d is neither SHMEM_SIGNAL_SET (%d) nor SHMEM_SIGNAL_ADD (%d)", op, SYMMEM_SIGNAL_SET,
          SYMMEM_SIGNAL_ADD);
  }
  core::require_aligned(sig_addr, sizeof(uint64_t), call);  // an atomic word, on every path
  if (nbytes != 0 && src == nullptr) {
    core::require_init(call);
    core::null_argument("source", call);
  }
  if (SYMMEM_UNLIKELY(core::g.remote) && core::is_remote(pe)) {
    core::remote_put_signal(dest, src, nbytes, sig_addr, signal,
                            op == SYMMEM_SIGNAL_SET ? SYMMEM_NET_AMO_SWAP : SYMMEM_NET_AMO_ADD, pe, nbi, call, ctx);
    return;
  }
  if (SYMMEM_UNLIKELY(!core::cpu_memory(sig_addr))) {
    core::require_init(call);
    fatal(call, "signals in a GPU heap are not supported from the host yet; use SYMMEM_HEAP=host");
  }
  // Both targets are checked before anything moves: a bad signal word must not follow a put.
  auto *s = reinterpret_cast<uint64_t *>(core::translate(sig_addr, sizeof(uint64_t), pe, call));
  if (nbytes != 0) {
    char *d = core::translate(dest, nbytes, pe, call);
    if (core::cpu_memory(dest)) {
      std::memcpy(d, src, nbytes);
    } else {
      core::g.heap->copy(d, src, nbytes);  // data in a GPU heap, the signal in static data
    }
  }
  std::atomic_ref<uint64_t> word(*s);
  if (op == SYMMEM_SIGNAL_SET) {
    word.store(signal, std::memory_order_release);
  } else {
    word.fetch_add(signal, std::memory_order_acq_rel);
  }
}

}  // namespace
}  // namespace symmem::sig

using namespace symmem;
using namespace symmem::sig;

extern "C" {

void symmem_putmem_signal(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal,
                          int sig_op, int pe) {
  put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, "putmem_signal");
}

void symmem_putmem_signal_nbi(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr, uint64_t signal,
                              int sig_op, int pe) {
  put_signal(dest, source, nbytes, sig_addr, signal, sig_op, pe, "putmem_signal_nbi", true);
}

void symmem_ctx_putmem_signal(symmem_ctx_t c, void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                              uint64_t signal, int sig_op, int pe) {
  put_signal(dest, source, nbytes, sig_addr, signal, sig_op, ctx::world_pe(c, pe), "ctx_putmem_signal", false, c);
}

void symmem_ctx_putmem_signal_nbi(symmem_ctx_t c, void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                                  uint64_t signal, int sig_op, int pe) {
  put_signal(dest, source, nbytes, sig_addr, signal, sig_op, ctx::world_pe(c, pe), "ctx_putmem_signal_nbi", true, c);
}

// OpenSHMEM 1.6's signal updates without data: the signal half of putmem_signal (no bytes move; the
// destination named is the signal word itself, which every path checks anyway).
void symmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe) {
  put_signal(sig_addr, nullptr, 0, sig_addr, signal, SYMMEM_SIGNAL_ADD, pe, "signal_add", true);
}

void symmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe) {
  put_signal(sig_addr, nullptr, 0, sig_addr, signal, SYMMEM_SIGNAL_SET, pe, "signal_set", true);
}

void symmem_ctx_signal_add(symmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe) {
  put_signal(sig_addr, nullptr, 0, sig_addr, signal, SYMMEM_SIGNAL_ADD, ctx::world_pe(c, pe), "ctx_signal_add", true, c);
}

void symmem_ctx_signal_set(symmem_ctx_t c, uint64_t *sig_addr, uint64_t signal, int pe) {
  put_signal(sig_addr, nullptr, 0, sig_addr, signal, SYMMEM_SIGNAL_SET, ctx::world_pe(c, pe), "ctx_signal_set", true, c);
}

uint64_t symmem_signal_fetch(const uint64_t *sig_addr) {
  core::require_init("signal_fetch");
  const uint64_t *s = core::own_symmetric(sig_addr, 1, "signal_fetch");
  std::atomic_ref<uint64_t> word(*const_cast<uint64_t *>(s));
  uint64_t v = word.load(std::memory_order_acquire);
  // Programs poll a signal with fetch in loops of their own: a fetch that finds the same word and
  // value as this thread's last one is a miss, and does what a test's miss does (core/wait.h).
  thread_local const uint64_t *last_addr = nullptr;
  thread_local uint64_t last_value = 0;
  if (s == last_addr && v == last_value) {
    if (core::test_missed()) v = word.load(std::memory_order_acquire);
  } else {
    core::test_hit();
  }
  last_addr = s;
  last_value = v;
  return v;
}

uint64_t symmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value) {
  const char *call = "signal_wait_until";
  core::require_init(call);
  std::atomic_ref<uint64_t> word(*core::own_symmetric(sig_addr, 1, call));
  uint64_t v = word.load(std::memory_order_acquire);
  if (holds(v, cmp, cmp_value, call)) {
    return v;
  }
  core::spin_wait w(call, [sig_addr, cmp_value] {
    return strfmt("the signal at %p to compare with %llu (it holds %llu)", static_cast<void *>(sig_addr),
                  static_cast<unsigned long long>(cmp_value), static_cast<unsigned long long>(*sig_addr));
  });
  w.yield_every_turn(core::node_oversubscribed());  // the sender may need this core
  while (!holds(v = word.load(std::memory_order_acquire), cmp, cmp_value, call)) {
    w.pause();
  }
  return v;
}

}  // extern "C"
