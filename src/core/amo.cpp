// symmem: atomics on node-local peers through std::atomic_ref on the mapped heap. Lock-free for
// every OpenSHMEM AMO type on the platforms symmem targets (checked at compile time), so AMOs from
// different PEs, and from the target's own loads, are atomic with respect to each other.
#include <atomic>
#include <cstring>
#include <type_traits>

#include "core/remote.h"
#include "core/checks.h"
#include "core/state.h"
#include "ctx/ctx.h"
#include "mem/provider.h"
#include "net/net_plugin.h"

namespace symmem::core {
namespace {

// std::atomic_ref's interface over symmetric memory: the CPU's atomics on a host heap and on static
// data, a kernel on a GPU heap, the network transport for a PE on another host (whose host CPU
// then performs it, so it is atomic with respect to that host's CPU atomics: docs/multihost.md).
template <typename T>
class amo_ref {
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;  // the bits the network moves

 public:
  amo_ref(T *p, bool cpu) : p_(p), cpu_(cpu) {}
  static amo_ref remote(T *p, int pe, const char *call, symmem_ctx_s *ctx) {
    amo_ref r(p, false);
    r.pe_ = pe;
    r.call_ = call;
    r.ctx_ = ctx;
    return r;
  }
  T load(std::memory_order o) const {
    return cpu() ? ref().load(o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_OR, T{}, true) : gpu(mem::amo_fetch, T{}, T{});
  }
  void store(T v, std::memory_order o) const {
    cpu() ? ref().store(v, o) : pe_ >= 0 ? (void)net(SYMMEM_NET_AMO_SWAP, v, false) : (void)gpu(mem::amo_set, v, T{});
  }
  T exchange(T v, std::memory_order o) const {
    return cpu() ? ref().exchange(v, o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_SWAP, v, true) : gpu(mem::amo_swap, v, T{});
  }
  T fetch_add(T v, std::memory_order o) const {
    return cpu() ? ref().fetch_add(v, o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_ADD, v, true) : gpu(mem::amo_add, v, T{});
  }
  T fetch_and(T v, std::memory_order o) const {
    return cpu() ? ref().fetch_and(v, o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_AND, v, true) : gpu(mem::amo_and, v, T{});
  }
  T fetch_or(T v, std::memory_order o) const {
    return cpu() ? ref().fetch_or(v, o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_OR, v, true) : gpu(mem::amo_or, v, T{});
  }
  T fetch_xor(T v, std::memory_order o) const {
    return cpu() ? ref().fetch_xor(v, o) : pe_ >= 0 ? net(SYMMEM_NET_AMO_XOR, v, true) : gpu(mem::amo_xor, v, T{});
  }
  // The non-fetching forms: over the network they are posted and complete at quiet, like a put.
  void add(T v) const { pe_ >= 0 ? (void)net(SYMMEM_NET_AMO_ADD, v, false) : (void)fetch_add(v, std::memory_order_acq_rel); }
  void and_(T v) const { pe_ >= 0 ? (void)net(SYMMEM_NET_AMO_AND, v, false) : (void)fetch_and(v, std::memory_order_acq_rel); }
  void or_(T v) const { pe_ >= 0 ? (void)net(SYMMEM_NET_AMO_OR, v, false) : (void)fetch_or(v, std::memory_order_acq_rel); }
  void xor_(T v) const { pe_ >= 0 ? (void)net(SYMMEM_NET_AMO_XOR, v, false) : (void)fetch_xor(v, std::memory_order_acq_rel); }
  bool compare_exchange_strong(T &expected, T v, std::memory_order s, std::memory_order f) const {
    if (cpu()) return ref().compare_exchange_strong(expected, v, s, f);
    T old = pe_ >= 0 ? from_bits(remote_amo(p_, pe_, SYMMEM_NET_AMO_CSWAP, sizeof(T), bits(v), bits(expected), true, call_, ctx_))
                     : gpu(mem::amo_cas, expected, v);
    bool swapped = old == expected;
    expected = old;
    return swapped;
  }

 private:
  bool cpu() const { return SYMMEM_LIKELY(cpu_); }
  std::atomic_ref<T> ref() const { return std::atomic_ref<T>(*p_); }
  static uint64_t bits(T v) {
    U u;
    std::memcpy(&u, &v, sizeof v);
    return u;
  }
  static T from_bits(uint64_t r) {
    U u = static_cast<U>(r);
    T out;
    std::memcpy(&out, &u, sizeof out);
    return out;
  }
  T net(int op, T v, bool fetch) const {
    return from_bits(remote_amo(p_, pe_, op, sizeof(T), bits(v), 0, fetch, call_, ctx_));
  }
  T gpu(int op, T a, T b) const {
    uint64_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, sizeof a);
    std::memcpy(&ub, &b, sizeof b);
    // A heap the CPU cannot reach: the memory kind's own atomic (GPU heap: a one-thread kernel
    // with system-scope atomics, so it is atomic with respect to device AMOs: docs/gpu.md).
    uint64_t r = g.heap->amo(op, p_, sizeof(T), std::is_floating_point_v<T>, ua, ub);
    T out;
    std::memcpy(&out, &r, sizeof out);
    return out;
  }
  T *p_;
  bool cpu_;
  int pe_ = -1;  // >= 0: a PE on another host
  const char *call_ = nullptr;
  symmem_ctx_s *ctx_ = nullptr;  // the context whose worker carries a remote AMO
};

// f(the AMO's target): the heap inline; static data (always host memory) through one out-of-line
// call that does the whole AMO, so the heap path keeps nothing across a call (see rma.cpp).
// A target must be naturally aligned: an atomic that straddles two cache lines is not atomic (nor
// is a NIC's). The heap path folds the test into its hit condition; a misaligned heap target
// falls to the miss path, which names it.
template <typename T>
inline bool aligned_for_amo(const void *p) {
  return (reinterpret_cast<uintptr_t>(p) & (std::atomic_ref<T>::required_alignment - 1)) == 0;
}

template <typename T, typename F>
[[gnu::noinline]] auto amo_miss(T *dest, int pe, const char *call, symmem_ctx_s *ctx, F f) {
  require_aligned(dest, std::atomic_ref<T>::required_alignment, call);  // symmetric addresses agree on it
  if (char *p = translate_hit(dest, sizeof(T), pe)) return f(amo_ref<T>(reinterpret_cast<T *>(p), g.heap_on_cpu));
  char *p = translate_data(dest, sizeof(T), pe);
  if (SYMMEM_UNLIKELY(p == nullptr)) {
    if (is_remote(pe)) return f(amo_ref<T>::remote(dest, pe, call, ctx));
    bad_target(dest, sizeof(T), pe, call);
  }
  return f(amo_ref<T>(reinterpret_cast<T *>(p), true));
}

template <typename T, typename F>
[[gnu::always_inline]] inline auto amo(T *dest, int pe, const char *call, symmem_ctx_s *ctx, F f) {
  static_assert(std::atomic_ref<T>::is_always_lock_free, "AMO type must be lock-free");
  if (char *p = translate_hit(dest, sizeof(T), pe); SYMMEM_LIKELY(p != nullptr && aligned_for_amo<T>(p))) {
    return f(amo_ref<T>(reinterpret_cast<T *>(p), g.heap_on_cpu));
  }
  return amo_miss(dest, pe, call, ctx, f);
}

template <typename T>
T cas_on(amo_ref<T> r, T cond, T value) {
  T expected = cond;
  r.compare_exchange_strong(expected, value, std::memory_order_acq_rel, std::memory_order_acquire);
  return expected;  // the old value, whether or not it was swapped
}

// Two operands: spelled out rather than captured, so the heap path packs nothing before the test.
template <typename T>
[[gnu::noinline]] T cas_miss(T *dest, T cond, T value, int pe, const char *call, symmem_ctx_s *ctx) {
  require_aligned(dest, std::atomic_ref<T>::required_alignment, call);
  if (char *h = translate_hit(dest, sizeof(T), pe)) {
    return cas_on(amo_ref<T>(reinterpret_cast<T *>(h), g.heap_on_cpu), cond, value);
  }
  char *p = translate_data(dest, sizeof(T), pe);
  if (SYMMEM_UNLIKELY(p == nullptr)) {
    if (is_remote(pe)) return cas_on(amo_ref<T>::remote(dest, pe, call, ctx), cond, value);
    bad_target(dest, sizeof(T), pe, call);
  }
  return cas_on(amo_ref<T>(reinterpret_cast<T *>(p), true), cond, value);
}

template <typename T>
[[gnu::always_inline]] inline T cas(T *dest, T cond, T value, int pe, const char *call, symmem_ctx_s *ctx) {
  if (char *p = translate_hit(dest, sizeof(T), pe); SYMMEM_LIKELY(p != nullptr && aligned_for_amo<T>(p))) {
    return cas_on(amo_ref<T>(reinterpret_cast<T *>(p), g.heap_on_cpu), cond, value);
  }
  return cas_miss(dest, cond, value, pe, call, ctx);
}

}  // namespace
}  // namespace symmem::core

using namespace symmem::core;

extern "C" {

// Every AMO twice, as in rma.cpp: the default context's and the ctx_ form. P: nothing or ctx_;
// CP: the context parameter; W(pe): the world PE; C: the context (nullptr for the default).
#define SYMMEM_COMMA ,
#define SYMMEM_NOCTX(pe) pe
#define SYMMEM_CTXW(pe) symmem::ctx::world_pe(c, pe)
#define SYMMEM_BOTH(F, T, N) F(T, N, , , SYMMEM_NOCTX, nullptr) F(T, N, ctx_, symmem_ctx_t c SYMMEM_COMMA, SYMMEM_CTXW, c)
#define SYMMEM_AMO(T, N, OP, W, C, BODY) amo(dest, W(pe), #N "_atomic_" OP, C, [=](amo_ref<T> r) { BODY; })

#define SYMMEM_DEF_AMO_EXT1(T, N, P, CP, W, C)                                                       \
  T symmem_##P##N##_atomic_fetch(CP const T *source, int pe) {                                      \
    return amo(const_cast<T *>(source), W(pe), #P #N "_atomic_fetch", C,                             \
               [=](amo_ref<T> r) { return r.load(std::memory_order_acquire); });                     \
  }                                                                                                  \
  void symmem_##P##N##_atomic_set(CP T *dest, T value, int pe) {                                    \
    SYMMEM_AMO(T, P##N, "set", W, C, return r.store(value, std::memory_order_release));                 \
  }                                                                                                  \
  T symmem_##P##N##_atomic_swap(CP T *dest, T value, int pe) {                                      \
    return SYMMEM_AMO(T, P##N, "swap", W, C, return r.exchange(value, std::memory_order_acq_rel));      \
  }
#define SYMMEM_DEF_AMO_EXT(T, N) SYMMEM_BOTH(SYMMEM_DEF_AMO_EXT1, T, N)
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_DEF_AMO_EXT)
#undef SYMMEM_DEF_AMO_EXT
#undef SYMMEM_DEF_AMO_EXT1

#define SYMMEM_DEF_AMO_STD1(T, N, P, CP, W, C)                                                       \
  T symmem_##P##N##_atomic_compare_swap(CP T *dest, T cond, T value, int pe) {                      \
    return cas(dest, cond, value, W(pe), #P #N "_atomic_compare_swap", C);                           \
  }                                                                                                  \
  T symmem_##P##N##_atomic_fetch_inc(CP T *dest, int pe) {                                          \
    return SYMMEM_AMO(T, P##N, "fetch_inc", W, C, return r.fetch_add(static_cast<T>(1), std::memory_order_acq_rel)); \
  }                                                                                                  \
  void symmem_##P##N##_atomic_inc(CP T *dest, int pe) { SYMMEM_AMO(T, P##N, "inc", W, C, r.add(static_cast<T>(1))); } \
  T symmem_##P##N##_atomic_fetch_add(CP T *dest, T value, int pe) {                                 \
    return SYMMEM_AMO(T, P##N, "fetch_add", W, C, return r.fetch_add(value, std::memory_order_acq_rel)); \
  }                                                                                                  \
  void symmem_##P##N##_atomic_add(CP T *dest, T value, int pe) { SYMMEM_AMO(T, P##N, "add", W, C, r.add(value)); }
#define SYMMEM_DEF_AMO_STD(T, N) SYMMEM_BOTH(SYMMEM_DEF_AMO_STD1, T, N)
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_DEF_AMO_STD)
#undef SYMMEM_DEF_AMO_STD
#undef SYMMEM_DEF_AMO_STD1

#define SYMMEM_DEF_AMO_BIT1(T, N, P, CP, W, C)                                                       \
  T symmem_##P##N##_atomic_fetch_and(CP T *dest, T value, int pe) {                                 \
    return SYMMEM_AMO(T, P##N, "fetch_and", W, C, return r.fetch_and(value, std::memory_order_acq_rel)); \
  }                                                                                                  \
  void symmem_##P##N##_atomic_and(CP T *dest, T value, int pe) { SYMMEM_AMO(T, P##N, "and", W, C, r.and_(value)); } \
  T symmem_##P##N##_atomic_fetch_or(CP T *dest, T value, int pe) {                                  \
    return SYMMEM_AMO(T, P##N, "fetch_or", W, C, return r.fetch_or(value, std::memory_order_acq_rel));  \
  }                                                                                                  \
  void symmem_##P##N##_atomic_or(CP T *dest, T value, int pe) { SYMMEM_AMO(T, P##N, "or", W, C, r.or_(value)); } \
  T symmem_##P##N##_atomic_fetch_xor(CP T *dest, T value, int pe) {                                 \
    return SYMMEM_AMO(T, P##N, "fetch_xor", W, C, return r.fetch_xor(value, std::memory_order_acq_rel)); \
  }                                                                                                  \
  void symmem_##P##N##_atomic_xor(CP T *dest, T value, int pe) { SYMMEM_AMO(T, P##N, "xor", W, C, r.xor_(value)); }
#define SYMMEM_DEF_AMO_BIT(T, N) SYMMEM_BOTH(SYMMEM_DEF_AMO_BIT1, T, N)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_DEF_AMO_BIT)
#undef SYMMEM_DEF_AMO_BIT
#undef SYMMEM_DEF_AMO_BIT1
#undef SYMMEM_AMO
#undef SYMMEM_BOTH
#undef SYMMEM_CTXW
#undef SYMMEM_NOCTX
#undef SYMMEM_COMMA

}  // extern "C"
