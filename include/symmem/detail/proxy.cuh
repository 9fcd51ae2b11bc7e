/* symmem: the device API's path to PEs whose heap is not mapped here (PEs on other hosts), through
 * the proxy ring (symmem/detail/proxy_ring.h): a kernel posts a request, the PE's host proxy thread
 * carries it out on the network (NVSHMEM's proxy design). Included by <symmem/device.cuh>; every
 * routine there takes this path only when the target's peer_base entry is 0, out of line, so the
 * mapped path is what it was.
 *
 * What each operation is for a remote PE:
 *   - put / put_nbi: a PUT request naming the kernel's source buffer (the proxy reads it when it
 *     carries the request out, so it must be global memory: heap, cudaMalloc'ed or mapped host
 *     memory; a source in local or shared memory of up to SYMMEM_PROXY_SPAN_MOST bytes travels in
 *     the ring instead, a PUT_DATA request). The blocking form then quiets (the source may be
 *     reused once it returns).
 *   - get / get_nbi: a GET request into the destination (global memory; small local ones through
 *     the slot), waited for: a get completes before it returns, the _nbi form too.
 *   - p: a PUT_DATA request, the value in the ring (posted, complete at quiet). The lanes of a
 *     warp storing to one PE at consecutive addresses share one request (a kernel's threads
 *     storing a row to a neighbour: one request a warp, not one a thread).
 *   - g: a GET into the slot's inline data, waited for.
 *   - atomics: AMO requests (4 and 8 bytes); fetching ones wait for their result. fetch is OR 0,
 *     set a swap without fetch, inc / fetch_inc an add of 1; the forms without a result are posted.
 *   - signal_op: an AMO (SET: swap, ADD: add) without fetch. put_signal: a SIGNAL request (the
 *     proxy puts, fences, then signals); the blocking form then quiets.
 *   - fence: a FENCE request (besides the memory fence); quiet: a QUIET request, waited for.
 *   - barriers: a QUIET request first (every earlier request complete, the flag stores of the
 *     previous barrier included, so no flag store overtakes an older one), then the dissemination
 *     rounds: a round whose partner is remote stores the epoch with an AMO swap through the ring,
 *     the wait on this PE's own slot stays a local poll.
 * Every wait is bounded by SYMMEM_WAIT_TIMEOUT like the other device waits.
 */
#ifndef SYMMEM_DETAIL_PROXY_CUH
#define SYMMEM_DETAIL_PROXY_CUH

#include <type_traits>

#include "symmem/detail/proxy_ring.h"

namespace symmem {
namespace device {
namespace detail {

__device__ __forceinline__ symmem_proxy_ring *ring() { return (symmem_proxy_ring *)symmem_state_.proxy_ring; }

/* The ring, when [addr, addr+n) of PE pe can be reached through it; traps (bad_target) otherwise. */
__device__ __forceinline__ symmem_proxy_ring *ring_for(const void *addr, size_t n, int pe, const char *call) {
  symmem_proxy_ring *r = ring();
  const uint64_t off = (uint64_t)addr - symmem_state_.heap_base;
  if (r == nullptr || (unsigned)pe >= (unsigned)symmem_state_.n_pes || off >= symmem_state_.heap_size ||
      n > symmem_state_.heap_size - off) {
    bad_target(addr, pe, call);
  }
  return r;
}

SYMMEM_COLD void bad_local(const void *buf, size_t n, int most, int pe, const char *call) {
  printf("symmem: PE %d: %s: PE %d is on another host, reached through the host's proxy, which cannot read or write "
         "the kernel's local or shared memory at %p (%llu bytes; up to %d bytes travel inline); use a buffer in global "
         "memory (the symmetric heap, cudaMalloc, or mapped host memory)\n",
         symmem_state_.my_pe, call, pe, buf, (unsigned long long)n, most);
  __trap();
}

__device__ __forceinline__ symmem_proxy_req request(uint32_t op, int pe, uint64_t dst, uint64_t src, uint64_t size) {
  symmem_proxy_req q = {0, op, pe, dst, src, size, 0, 0, 0, 0};
  return q;
}

__device__ __forceinline__ uint64_t post(symmem_proxy_ring *r, const symmem_proxy_req &q) {
  return symmem_proxy_post(r, &q, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
}

__device__ __forceinline__ void await(symmem_proxy_ring *r, uint64_t ticket) {
  symmem_proxy_wait(r, ticket, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
}

__device__ __forceinline__ void ring_quiet(symmem_proxy_ring *r) {
  symmem_proxy_quiet(r, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
}

/* Where the proxy sees ring memory at device address p. */
__device__ __forceinline__ uint64_t ring_host(symmem_proxy_ring *r, const volatile void *p) {
  return symmem_state_.proxy_ring_host + ((uint64_t)p - (uint64_t)r);
}

/* A GET request (fetching) into the slot's inline data: `out` (n bytes) is copied from there once
 * it completed. */
__device__ __forceinline__ void inline_get(symmem_proxy_ring *r, symmem_proxy_req q, void *out, size_t n) {
  const uint64_t ticket = symmem_proxy_claim(r, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
  symmem_proxy_slot *s = symmem_proxy_slot_of(r, ticket);
  volatile unsigned char *data = (volatile unsigned char *)s->inline_data;
  q.dst = ring_host(r, data);
  q.fetch = 1;
  symmem_proxy_publish(r, ticket, &q);
  await(r, ticket);
  for (size_t i = 0; i < n; ++i) ((unsigned char *)out)[i] = data[i];
  symmem_proxy_release(r, ticket);
}

SYMMEM_COLD void remote_put(void *dest, const void *src, size_t n, int pe, bool complete,
                            const char *call) {
  symmem_proxy_ring *r = ring_for(dest, n, pe, call);
  const symmem_proxy_req q = request(SYMMEM_PROXY_PUT, pe, (uint64_t)dest, (uint64_t)src, n);
  if (!__isGlobal(src)) {  // the bytes travel in the ring: the source is free at once
    if (n > SYMMEM_PROXY_SPAN_MOST) bad_local(src, n, SYMMEM_PROXY_SPAN_MOST, pe, call);
    symmem_proxy_put_data(r, pe, (uint64_t)dest, src, n, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
    return;
  }
  post(r, q);
  if (complete) ring_quiet(r);
}

SYMMEM_COLD void remote_get(void *dest, const void *src, size_t n, int pe, const char *call) {
  symmem_proxy_ring *r = ring_for(src, n, pe, call);
  const symmem_proxy_req q = request(SYMMEM_PROXY_GET, pe, (uint64_t)dest, (uint64_t)src, n);
  if (!__isGlobal(dest)) {
    if (n > SYMMEM_PROXY_INLINE_BYTES) bad_local(dest, n, SYMMEM_PROXY_INLINE_BYTES, pe, call);
    inline_get(r, q, dest, n);
    return;
  }
  const uint64_t ticket = post(r, q);  // GET is a fetching request: the slot is ours until released
  await(r, ticket);
  symmem_proxy_release(r, ticket);
}

/* p of `size` bytes (1, 2, 4, 8) whose value is the low bytes of `bits`. */
SYMMEM_COLD void remote_p(void *dest, uint64_t bits, unsigned size, int pe, const char *call) {
  symmem_proxy_ring *r = ring_for(dest, size, pe, call);
  symmem_proxy_put_data_warp(r, pe, (uint64_t)dest, bits, size, symmem_state_.spin_limit_ns, symmem_state_.my_pe);
}

SYMMEM_COLD uint64_t remote_g(const void *src, unsigned size, int pe, const char *call) {
  symmem_proxy_ring *r = ring_for(src, size, pe, call);
  uint64_t bits = 0;
  inline_get(r, request(SYMMEM_PROXY_GET, pe, 0, (uint64_t)src, size), &bits, size);
  return bits;
}

/* op: SYMMEM_PROXY_AMO_*; size 4 or 8; value and cmp in the low bytes. */
SYMMEM_COLD uint64_t remote_amo(void *dest, int pe, unsigned op, unsigned size, uint64_t value,
                                uint64_t cmp, bool fetch, const char *call) {
  symmem_proxy_ring *r = ring_for(dest, size, pe, call);
  const uint64_t mask = size == 4 ? 0xffffffffull : ~0ull;
  symmem_proxy_req q = request(SYMMEM_PROXY_AMO, pe, (uint64_t)dest, 0, size);
  q.value = value & mask;
  q.value2 = cmp & mask;
  q.amo_op = op;
  if (!fetch) {
    post(r, q);
    return 0;
  }
  q.fetch = 1;
  return symmem_proxy_fetch(r, &q, symmem_state_.spin_limit_ns, symmem_state_.my_pe) & mask;
}

template <typename T>
__device__ __forceinline__ uint64_t bits_of(T v) {
  uint64_t b = 0;
  memcpy(&b, &v, sizeof(T));
  return b;
}
template <typename T>
__device__ __forceinline__ T from_bits(uint64_t b) {
  T v;
  memcpy(&v, &b, sizeof(T));
  return v;
}

SYMMEM_COLD void bad_float_amo(int pe, const char *call) {
  printf("symmem: PE %d: %s: PE %d is on another host, whose atomics on floating-point types are fetch, set, swap "
         "and compare_swap only (OpenSHMEM's extended AMO types); add on the host or keep the counter an integer\n",
         symmem_state_.my_pe, call, pe);
  __trap();
}

template <typename T>
__device__ __forceinline__ T remote_amo_t(T *dest, int pe, unsigned op, T value, T cmp, bool fetch, const char *call) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "atomics to PEs on other hosts take 4- and 8-byte types");
  if (std::is_floating_point<T>::value && op == SYMMEM_PROXY_AMO_ADD) bad_float_amo(pe, call);
  return from_bits<T>(remote_amo(dest, pe, op, sizeof(T), bits_of(value), bits_of(cmp), fetch, call));
}

SYMMEM_COLD void bad_signal_op(int sig_op, const char *call) {
  printf("symmem: PE %d: %s: operation %d is neither SYMMEM_SIGNAL_SET (%d) nor SYMMEM_SIGNAL_ADD (%d)\n",
         symmem_state_.my_pe, call, sig_op, SYMMEM_SIGNAL_SET, SYMMEM_SIGNAL_ADD);
  __trap();
}

__device__ __forceinline__ unsigned signal_amo(int sig_op, const char *call) {
  if (sig_op == SYMMEM_SIGNAL_SET) return SYMMEM_PROXY_AMO_SWAP;
  if (sig_op != SYMMEM_SIGNAL_ADD) bad_signal_op(sig_op, call);
  return SYMMEM_PROXY_AMO_ADD;
}

SYMMEM_COLD void remote_signal(uint64_t *sig, uint64_t v, int sig_op, int pe, const char *call) {
  (void)remote_amo(sig, pe, signal_amo(sig_op, call), 8, v, 0, false, call);
}

SYMMEM_COLD void remote_put_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                   int sig_op, int pe, bool complete, const char *call) {
  const unsigned op = signal_amo(sig_op, call);
  symmem_proxy_ring *r = ring_for(sig, sizeof(uint64_t), pe, call);
  if (n != 0) (void)ring_for(d, n, pe, call);
  if (n != 0 && !__isGlobal(s)) {  // the data from the slot (complete), then the signal after a fence
    remote_put(d, s, n, pe, true, call);
    post(r, request(SYMMEM_PROXY_FENCE, 0, 0, 0, 0));
    remote_signal(sig, v, sig_op, pe, call);
    if (complete) ring_quiet(r);
    return;
  }
  symmem_proxy_req q = request(SYMMEM_PROXY_SIGNAL, pe, (uint64_t)d, (uint64_t)s, n);
  q.value = v;
  q.value2 = (uint64_t)sig;
  q.amo_op = op;
  post(r, q);
  if (complete) ring_quiet(r);
}

SYMMEM_COLD void remote_fence() { post(ring(), request(SYMMEM_PROXY_FENCE, 0, 0, 0, 0)); }
SYMMEM_COLD void remote_quiet() { ring_quiet(ring()); }

/* The group forms: one thread posts for the group; the first sync orders every thread's writes
 * of the source before the post (the post's system fence is cumulative), the second makes a get's
 * data (acquired by that thread) visible to the group. */
template <typename G>
__device__ __forceinline__ void remote_put_group(void *d, const void *s, size_t n, int pe, bool complete,
                                                 const char *call) {
  G::sync();
  if (G::idx() == 0) remote_put(d, s, n, pe, complete, call);
  G::sync();
}
template <typename G>
__device__ __forceinline__ void remote_get_group(void *d, const void *s, size_t n, int pe, const char *call) {
  G::sync();
  if (G::idx() == 0) remote_get(d, s, n, pe, call);
  G::sync();
}
template <typename G>
__device__ __forceinline__ void remote_put_signal_group(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                                        int op, int pe, bool complete, const char *call) {
  G::sync();
  if (G::idx() == 0) remote_put_signal(d, s, n, sig, v, op, pe, complete, call);
  G::sync();
}

/* Strided transfers element by element through the ring (posted together, completed together). */
template <typename G, typename T>
__device__ __forceinline__ void remote_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  G::sync();
  if (G::idx() == 0) {
    for (size_t i = 0; i < n; ++i) remote_put(dest + (ptrdiff_t)i * dst, source + (ptrdiff_t)i * sst, sizeof(T), pe, false, "iput");
    remote_quiet();
  }
  G::sync();
}
template <typename G, typename T>
__device__ __forceinline__ void remote_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  G::sync();
  if (G::idx() == 0) {
    for (size_t i = 0; i < n; ++i) remote_get(dest + (ptrdiff_t)i * dst, source + (ptrdiff_t)i * sst, sizeof(T), pe, "iget");
  }
  G::sync();
}

/* The dissemination barrier of a job with a ring (see the top of this file). */
SYMMEM_COLD void remote_barrier(int team, symmem_device_team t) {
  const symmem_device_state &s = symmem_state_;
  symmem_proxy_ring *r = ring();
  ring_quiet(r);
  symmem_device_team_sync *sym = &((symmem_device_sync *)(s.heap_base + s.sync_offset))->team[team];
  symmem_device_team_sync *mine = (symmem_device_team_sync *)((base_of(s.my_pe)) + ((uint64_t)sym - s.heap_base));
  const bool gs = s.gpu_scope_ok != 0;
  uint64_t *ep = &mine->barrier_epoch;
  const uint64_t epoch = ld_relaxed(ep, true) + 1;
  for (int k = 0, dist = 1; dist < t.size; ++k, dist <<= 1) {
    const int to = team_member(t, (t.my_index + dist) % t.size);
    const uint64_t b = base_of(to);
    if (b != 0) {
      st_release((uint64_t *)(b + ((uint64_t)&sym->slot[k][0] - s.heap_base)), epoch, gs);
    } else {
      symmem_proxy_req q = request(SYMMEM_PROXY_AMO, to, (uint64_t)&sym->slot[k][0], 0, 8);
      q.value = epoch;
      q.amo_op = SYMMEM_PROXY_AMO_SWAP;
      post(r, q);
    }
    wait_epoch(&mine->slot[k][0], epoch, gs, s.spin_limit_ns, s.my_pe);
  }
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(ep), "l"(epoch) : "memory");
}

}  // namespace detail
}  // namespace device
}  // namespace symmem

#endif /* SYMMEM_DETAIL_PROXY_CUH */
