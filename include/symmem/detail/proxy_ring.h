/* symmem: the proxy ring, through which code that cannot drive the network itself (GPU kernels)
 * hands remote operations to a host thread that issues them (NVSHMEM's proxy design).
 *
 * The ring lives in memory both sides can reach (host-pinned, device-mapped memory for a GPU
 * producer). A producer takes a ticket with one atomic add on the ticket counter, waits while the
 * ring is full (`ticket - tail >= slots`), fills the slot and publishes it by storing
 * `seq = ticket + 1` last, after a system-scope fence. The ticket counter is where the producers'
 * atomics work: device memory for GPU producers (atomics on mapped host memory are not atomic on
 * GPUs attached over PCIe, and compute-sanitizer rejects them), the ring's own `head` word for
 * host producers; `head_addr` says which. For GPU producers it points at two zeroed words of device
 * memory: the ticket counter, then the largest `tail` a producer has read (a lower bound of the
 * proxy's, which lies across the bus: a producer reads the ring's own word only when that bound
 * says its slots may not be free yet). `head_addr` and `slots` do not change while a kernel runs:
 * device code reads them through the SM's read-only cache, not across the bus each time (each such
 * read is a round trip over PCIe). The proxy consumes tickets in order. Completion:
 *  - `completed`: every request with a ticket below it is complete. The proxy advances it after
 *    a QUIET request (after flushing the network) and after each fetching request (which it
 *    completes, flushing, before it writes the result).
 *  - a fetching request's result is written into its slot (`result`), and the slot stays the
 *    producer's until it sets `seq = 0` after reading it; only then may `tail` pass it. Other
 *    slots are free once processed.
 * Spans. A PUT_DATA request carries its bytes in the ring: from its slot's `result` word on (56
 * bytes), then in the slots of the tickets that follow it, whole but for their `seq` word (112
 * bytes each); `value` says how many tickets the request took (symmem_proxy_span). The producer
 * takes them with one atomic add, writes the bytes, and publishes the first slot only; the proxy
 * copies the bytes out, carries out the put and moves past all of them. A slot's `seq` is only
 * ever written by a request's producer (or zeroed at release), so a span's bytes never pass for a
 * published request, and the old `seq` a span's slot keeps is below any ticket the proxy waits for.
 * The device form gathers the `p` calls of a warp's lanes to one PE at consecutive addresses into
 * one span (symmem_proxy_put_data_warp).
 * Plain C layout, shared by host C++, CUDA device code and the proxy (src/net/proxy.cpp).
 */
#ifndef SYMMEM_DETAIL_PROXY_RING_H
#define SYMMEM_DETAIL_PROXY_RING_H

#include <stddef.h>
#include <stdint.h>
#include "symmem/detail/cold.h"

#if defined(__CUDACC__)
#define SYMMEM_PROXY_HD __host__ __device__
#else
#define SYMMEM_PROXY_HD
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum symmem_proxy_op {
  SYMMEM_PROXY_PUT = 1,    /* dst (symmetric, on pe) <- src (local), size bytes; complete at QUIET */
  SYMMEM_PROXY_GET = 2,    /* dst (local) <- src (symmetric, on pe); fetching (completed, then released) */
  SYMMEM_PROXY_AMO = 3,    /* amo on dst (symmetric, on pe): amo_op, size 4/8, value, compare; fetch: result */
  SYMMEM_PROXY_SIGNAL = 4, /* put of size bytes, then the signal: amo_op on sig (value2 = sig address) */
  SYMMEM_PROXY_QUIET = 5,  /* completes every earlier request */
  SYMMEM_PROXY_FENCE = 6,  /* orders earlier requests before later ones */
  SYMMEM_PROXY_PUT_DATA = 7, /* dst (symmetric, on pe) <- size bytes carried in the ring (a span of
                                `value` tickets: see Spans above); complete at QUIET */
};

typedef struct symmem_proxy_req {
  uint64_t seq;     /* ticket + 1 once the slot holds the request; 0 free (or released) */
  uint32_t op;      /* symmem_proxy_op */
  int32_t pe;
  uint64_t dst;
  uint64_t src;
  uint64_t size;    /* bytes (AMO: 4 or 8) */
  uint64_t value;   /* AMO operand, signal value */
  uint64_t value2;  /* AMO compare; SIGNAL: the signal word's address */
  uint32_t amo_op;  /* SYMMEM_NET_AMO_* (net/net_plugin.h) */
  uint32_t fetch;   /* 1: the request wants `result` and releases its slot */
} symmem_proxy_req;

/* Atomic operations of SYMMEM_PROXY_AMO requests: the network's (SYMMEM_NET_AMO_*, net/net_plugin.h,
 * which checks that they agree); device code cannot include that header. */
enum symmem_proxy_amo_op {
  SYMMEM_PROXY_AMO_ADD = 0,
  SYMMEM_PROXY_AMO_SWAP = 1,
  SYMMEM_PROXY_AMO_CSWAP = 2, /* value: the new value, value2: the compare value */
  SYMMEM_PROXY_AMO_AND = 3,
  SYMMEM_PROXY_AMO_OR = 4,
  SYMMEM_PROXY_AMO_XOR = 5,
};

#define SYMMEM_PROXY_INLINE_BYTES 48 /* bytes of a slot's inline area */

typedef struct symmem_proxy_slot {
  symmem_proxy_req req;
  uint64_t result;  /* a fetching request's value, valid once `completed` passed its ticket */
  /* Inline data: a fetching request may name it (by its host address) as a GET's destination
   * or a PUT's source (g, p of 1 or 2 bytes, small transfers from a kernel's local memory); the
   * slot is the producer's until it releases it, and the proxy completes the request first. */
  uint64_t inline_data[6];
} symmem_proxy_slot;

typedef struct symmem_proxy_ring {
  uint64_t head;      /* next ticket, for host producers */
  uint64_t head_addr; /* the ticket counter producers add to: &head, or a device-memory word */
  uint64_t pad0[6];
  uint64_t tail;     /* tickets below it are free slots (the proxy) */
  uint64_t pad1[7];
  uint64_t completed; /* tickets below it are complete (the proxy) */
  uint64_t pad2[7];
  uint64_t slots;    /* a power of two */
  uint64_t error;    /* non-zero: the proxy failed (producers stop waiting) */
  uint64_t pad3[6];
  symmem_proxy_slot slot[];
} symmem_proxy_ring;

/* The layout the spans rely on: a slot's `result` right after its request, 120 bytes a slot. */
typedef char symmem_proxy_slot_layout[(offsetof(symmem_proxy_slot, result) == 64 && sizeof(symmem_proxy_slot) == 120 &&
                                       offsetof(symmem_proxy_ring, slot) % 8 == 0) ? 1 : -1];

/* A span's bytes (PUT_DATA): this many in its first slot (from `result` on), then this many in
 * each further slot (all but `seq`). */
#define SYMMEM_PROXY_SPAN_HEAD 56
#define SYMMEM_PROXY_SPAN_MORE 112
#define SYMMEM_PROXY_SPAN_MOST 1064 /* bytes of one PUT_DATA request, at most (10 tickets) */

/* Tickets of a span of `n` bytes (1 to SYMMEM_PROXY_SPAN_MOST). */
SYMMEM_PROXY_HD static inline uint64_t symmem_proxy_span(uint64_t n) {
  return n <= SYMMEM_PROXY_SPAN_HEAD ? 1 : 1 + (n - SYMMEM_PROXY_SPAN_HEAD + SYMMEM_PROXY_SPAN_MORE - 1) / SYMMEM_PROXY_SPAN_MORE;
}

/* Where byte `off` of the span that starts at `ticket` lies in the ring, and how many of the
 * span's bytes follow it contiguously there (to the end of its slot's part). Spans wrap around
 * the ring's end like tickets. Parts start 8-byte aligned and hold multiples of 8 bytes, so an
 * aligned value of up to 8 bytes never crosses one. */
/* The ring's slot count: on the GPU through the read-only cache (it is fixed while a kernel runs). */
SYMMEM_PROXY_HD static inline uint64_t symmem_proxy_slots(const symmem_proxy_ring *ring) {
#if defined(__CUDA_ARCH__)
  return __ldg((const unsigned long long *)&ring->slots);
#else
  return ring->slots;
#endif
}

SYMMEM_PROXY_HD static inline unsigned char *symmem_proxy_span_at(symmem_proxy_ring *ring, uint64_t ticket, uint64_t off,
                                                  uint64_t *contiguous) {
  uint64_t t = ticket, at = 64 + off; /* the head's part starts at `result` */
  if (off >= SYMMEM_PROXY_SPAN_HEAD) {
    const uint64_t more = off - SYMMEM_PROXY_SPAN_HEAD;
    t = ticket + 1 + more / SYMMEM_PROXY_SPAN_MORE;
    at = 8 + more % SYMMEM_PROXY_SPAN_MORE;
  }
  if (contiguous != 0) *contiguous = sizeof(symmem_proxy_slot) - at;
  return (unsigned char *)&ring->slot[t & (symmem_proxy_slots(ring) - 1)] + at;
}

/* Bytes of a ring of `slots` entries. */
static inline uint64_t symmem_proxy_ring_bytes(uint64_t slots) {
  return (uint64_t)sizeof(symmem_proxy_ring) + slots * (uint64_t)sizeof(symmem_proxy_slot);
}

#ifdef __cplusplus
}
#endif

#if defined(__CUDACC__)
/* ---- the device producer ----
 * Every wait is bounded: past `limit_ns` (0: for ever) it prints what it waited for, as PE `me`,
 * and traps; so does a producer that finds the proxy failed (`error`). */
__device__ __forceinline__ uint64_t symmem_proxy_ld(const volatile uint64_t *p) { return *p; }

__device__ __forceinline__ uint64_t symmem_proxy_clock(void) {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

SYMMEM_COLD void symmem_proxy_stuck(symmem_proxy_ring *ring, uint64_t ticket, int me,
                                    const char *what) {
  const uint64_t err = symmem_proxy_ld(&ring->error);
  if (err != 0) {
    printf("symmem: PE %d: proxy: %s (request %llu): the host's proxy thread failed on a request of unknown "
           "operation %llu; the GPU and the library disagree on the ring (rebuild with this symmem's headers)\n",
           me, what, (unsigned long long)ticket, (unsigned long long)err);
  } else {
    printf("symmem: PE %d: proxy: %s (request %llu): waited past SYMMEM_WAIT_TIMEOUT; the host's proxy thread "
           "completed requests below %llu only (a remote PE that does not answer, or a host thread stuck in a "
           "blocking call)\n",
           me, what, (unsigned long long)ticket, (unsigned long long)symmem_proxy_ld(&ring->completed));
  }
  __trap();
}

/* True while `cond` should be waited for; checks the clock every 1024 turns, traps past the limit. */
__device__ __forceinline__ void symmem_proxy_spin(symmem_proxy_ring *ring, uint64_t ticket, uint64_t limit_ns, int me,
                                                  const char *what, uint64_t &start, uint32_t &turns) {
  if (symmem_proxy_ld(&ring->error) != 0) symmem_proxy_stuck(ring, ticket, me, what);
  if (limit_ns == 0 || (++turns & 1023u) != 0) return;
  const uint64_t now = symmem_proxy_clock();
  if (start == 0) start = now;
  else if (now - start > limit_ns) symmem_proxy_stuck(ring, ticket, me, what);
}

/* Takes `k` consecutive tickets and waits until their slots are free (the last one's: the proxy
 * frees slots in order). A full ring is polled with short sleeps between reads: the word lies in
 * host memory, and thousands of threads reading it across the bus slow the proxy's own accesses.
 * The lanes of a warp that claim together take their tickets with one atomic add (by the first
 * of them; each gets its place in lane order) and leave together, once all their slots are free.
 * Their tickets are thus one contiguous run, and no lane holds a ticket it has not published
 * while a sibling lane waits for a slot behind it (where the warp's paths join, the GPU may hold
 * the one back until the other arrives: neither would move again). The run must fit in the ring
 * at once: at most 32 x 10 tickets (SYMMEM_PROXY_SPAN_MOST's span), the runtime's ring has 1024. */
__device__ __forceinline__ uint64_t symmem_proxy_claim_n(symmem_proxy_ring *ring, uint64_t k, uint64_t limit_ns = 0,
                                                         int me = -1) {
  const unsigned together = __activemask();
  unsigned below;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(below));
  const int first = __ffs(together) - 1;
  const unsigned rank = __popc(together & below);
  uint64_t before, total;
  const unsigned long long k0 = __shfl_sync(together, (unsigned long long)k, first);
  if (__all_sync(together, k == k0)) {
    before = (uint64_t)rank * k;
    total = (uint64_t)__popc(together) * k;
  } else {
    before = total = 0;
    for (unsigned m = together; m != 0; m &= m - 1) {
      const int lane = __ffs(m) - 1;
      const uint64_t kl = __shfl_sync(together, (unsigned long long)k, lane);
      if ((below >> lane) & 1u) before += kl;
      total += kl;
    }
  }
  unsigned long long *counter = (unsigned long long *)__ldg((const unsigned long long *)&ring->head_addr);
  unsigned long long base = 0;
  if (rank == 0) base = atomicAdd(counter, (unsigned long long)total);  /* device memory */
  base = __shfl_sync(together, base, first);
  const uint64_t ticket = base + before, slots = symmem_proxy_slots(ring), last = base + total - 1;
  if (total > slots) {
    printf("symmem: PE %d: proxy: a warp's lanes asked %llu slots of the ring at once, more than its %llu\n", me,
           (unsigned long long)total, (unsigned long long)slots);
    __trap();
  }
  /* The run's slots are free once `tail` passed last - slots. The bound in device memory says so
   * most of the time; else the ring's own word, polled, and the bound raised for the others. The
   * lanes of the run share `last`, so they agree on each test. */
  unsigned long long known = 0;
  if (rank == 0) known = *(volatile unsigned long long *)(counter + 1);
  known = __shfl_sync(together, known, first);
  if (last - (uint64_t)known >= slots) {
    uint64_t start = 0, t = 0;
    uint32_t turns = 0;
    while (__any_sync(together, last - (t = symmem_proxy_ld(&ring->tail)) >= slots)) {
      symmem_proxy_spin(ring, ticket, limit_ns, me, "waiting for a free slot of the ring", start, turns);
#if __CUDA_ARCH__ >= 700
      __nanosleep(128);
#endif
    }
    if (rank == 0) atomicMax(counter + 1, (unsigned long long)t);
  }
  return ticket;
}

/* Takes a ticket and waits until its slot is free; the caller fills the slot's inline data (if
 * any) and publishes with symmem_proxy_publish. */
__device__ __forceinline__ uint64_t symmem_proxy_claim(symmem_proxy_ring *ring, uint64_t limit_ns = 0, int me = -1) {
  return symmem_proxy_claim_n(ring, 1, limit_ns, me);
}

__device__ __forceinline__ symmem_proxy_slot *symmem_proxy_slot_of(symmem_proxy_ring *ring, uint64_t ticket) {
  return &ring->slot[ticket & (symmem_proxy_slots(ring) - 1)];
}

__device__ __forceinline__ void symmem_proxy_publish(symmem_proxy_ring *ring, uint64_t ticket, const symmem_proxy_req *r) {
  volatile symmem_proxy_req *v = &symmem_proxy_slot_of(ring, ticket)->req;
  v->op = r->op;
  v->pe = r->pe;
  v->dst = r->dst;
  v->src = r->src;
  v->size = r->size;
  v->value = r->value;
  v->value2 = r->value2;
  v->amo_op = r->amo_op;
  v->fetch = r->fetch;
  __threadfence_system(); /* the fields (and the inline data) before the sequence number, as the host sees them */
  v->seq = ticket + 1;
}

/* Posts one request; returns its ticket. A thread calls it for itself (warp and block forms let
 * one thread post for the group). */
__device__ __forceinline__ uint64_t symmem_proxy_post(symmem_proxy_ring *ring, const symmem_proxy_req *r,
                                                      uint64_t limit_ns = 0, int me = -1) {
  const uint64_t ticket = symmem_proxy_claim(ring, limit_ns, me);
  symmem_proxy_publish(ring, ticket, r);
  return ticket;
}

/* Stores the low `size` bytes (1, 2, 4 or 8) of `bits` at byte `off` (a multiple of size) of the
 * span that starts at `ticket`. */
__device__ __forceinline__ void symmem_proxy_span_store(symmem_proxy_ring *ring, uint64_t ticket, uint64_t off,
                                                        uint64_t bits, unsigned size) {
  unsigned char *p = symmem_proxy_span_at(ring, ticket, off, 0);
  switch (size) {
    case 1: *(volatile uint8_t *)p = (uint8_t)bits; break;
    case 2: *(volatile uint16_t *)p = (uint16_t)bits; break;
    case 4: *(volatile uint32_t *)p = (uint32_t)bits; break;
    default: *(volatile uint64_t *)p = bits; break;
  }
}

/* A PUT_DATA request of `n` bytes (1 to SYMMEM_PROXY_SPAN_MOST) from `src`, any memory of the
 * calling thread (local, shared or global): the bytes travel in the ring, so `src` may be reused
 * once it returns. Posted; complete at a QUIET. */
__device__ __forceinline__ uint64_t symmem_proxy_put_data(symmem_proxy_ring *ring, int pe, uint64_t dst, const void *src,
                                                          uint64_t n, uint64_t limit_ns = 0, int me = -1) {
  const uint64_t k = symmem_proxy_span(n);
  const uint64_t ticket = symmem_proxy_claim_n(ring, k, limit_ns, me);
  for (uint64_t off = 0; off < n;) {
    uint64_t c = 0;
    volatile unsigned char *p = symmem_proxy_span_at(ring, ticket, off, &c);
    if (c > n - off) c = n - off;
    for (uint64_t i = 0; i < c; ++i) p[i] = ((const unsigned char *)src)[off + i];
    off += c;
  }
  const symmem_proxy_req r = {0, SYMMEM_PROXY_PUT_DATA, pe, dst, 0, n, k, 0, 0, 0};
  symmem_proxy_publish(ring, ticket, &r);
  return ticket;
}

/* A `p` of `size` bytes (1, 2, 4 or 8: the low bytes of `bits`) to `dst` on PE `pe`, as a
 * PUT_DATA request. The lanes of a warp that call it together for one PE and one size, at
 * consecutive addresses in lane order (a kernel's threads storing a row to a neighbour), share
 * one request: the first lane takes the span's tickets, each lane stores its value into the span
 * and fences, and once all have (the warp sync) the first publishes. Other lanes post their own.
 * Posted; complete at a QUIET. */
__device__ __forceinline__ void symmem_proxy_put_data_warp(symmem_proxy_ring *ring, int pe, uint64_t dst, uint64_t bits,
                                                           unsigned size, uint64_t limit_ns = 0, int me = -1) {
  const unsigned group = __match_any_sync(__activemask(), ((unsigned long long)(unsigned)pe << 4) | size);
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  const int first = __ffs(group) - 1;
  const unsigned rank = __popc(group & lt), count = __popc(group);
  const unsigned long long base = __shfl_sync(group, (unsigned long long)dst, first);
  const bool run = count > 1 && __all_sync(group, dst == base + (uint64_t)rank * size);
  const uint64_t n = run ? (uint64_t)count * size : size;
  const uint64_t k = symmem_proxy_span(n);
  uint64_t ticket = 0;
  if (!run || rank == 0) ticket = symmem_proxy_claim_n(ring, k, limit_ns, me);
  if (run) ticket = __shfl_sync(group, (unsigned long long)ticket, first);
  symmem_proxy_span_store(ring, ticket, run ? (uint64_t)rank * size : 0, bits, size);
  if (run) {
    __threadfence_system(); /* this lane's value, before the first lane's publication */
    __syncwarp(group);
  }
  if (!run || rank == 0) {
    const symmem_proxy_req r = {0, SYMMEM_PROXY_PUT_DATA, pe, run ? (uint64_t)base : dst, 0, n, k, 0, 0, 0};
    symmem_proxy_publish(ring, ticket, &r);
  }
}

/* Waits until every request up to `ticket` is complete. */
__device__ __forceinline__ void symmem_proxy_wait(symmem_proxy_ring *ring, uint64_t ticket, uint64_t limit_ns = 0,
                                                  int me = -1) {
  uint64_t start = 0;
  uint32_t turns = 0;
  while (symmem_proxy_ld(&ring->completed) <= ticket) {
    symmem_proxy_spin(ring, ticket, limit_ns, me, "waiting for the request's completion", start, turns);
  }
  __threadfence_system();
}

/* Gives a fetching request's slot back (after reading its result or inline data). */
__device__ __forceinline__ void symmem_proxy_release(symmem_proxy_ring *ring, uint64_t ticket) {
  __threadfence_system();
  ((volatile symmem_proxy_req *)&symmem_proxy_slot_of(ring, ticket)->req)->seq = 0; /* the proxy may reuse it */
}

/* A fetching request: posts, waits, reads the result and gives the slot back. */
__device__ __forceinline__ uint64_t symmem_proxy_fetch(symmem_proxy_ring *ring, const symmem_proxy_req *r,
                                                       uint64_t limit_ns = 0, int me = -1) {
  const uint64_t ticket = symmem_proxy_post(ring, r, limit_ns, me);
  symmem_proxy_wait(ring, ticket, limit_ns, me);
  const uint64_t v = symmem_proxy_ld(&symmem_proxy_slot_of(ring, ticket)->result);
  symmem_proxy_release(ring, ticket);
  return v;
}

/* quiet: a QUIET request, and wait for it. */
__device__ __forceinline__ void symmem_proxy_quiet(symmem_proxy_ring *ring, uint64_t limit_ns = 0, int me = -1) {
  symmem_proxy_req q = {0, SYMMEM_PROXY_QUIET, 0, 0, 0, 0, 0, 0, 0, 0};
  symmem_proxy_wait(ring, symmem_proxy_post(ring, &q, limit_ns, me), limit_ns, me);
}
#endif /* __CUDACC__ */

#endif /* SYMMEM_DETAIL_PROXY_RING_H */
