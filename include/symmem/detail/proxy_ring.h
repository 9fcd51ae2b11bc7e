/* symmem: the proxy ring, through which code that cannot drive the network itself (GPU kernels)
 * hands remote operations to a host thread that issues them (NVSHMEM's proxy design).
 *
 * The ring lives in memory both sides can reach (host-pinned, device-mapped memory for a GPU
 * producer). A producer takes a ticket with one atomic add on the ticket counter, waits while the
 * ring is full (`ticket - tail >= slots`), fills the slot and publishes it by storing
 * `seq = ticket + 1` last, after a system-scope fence. The ticket counter is where the producers'
 * atomics work: device memory for GPU producers (atomics on mapped host memory are not atomic on
 * GPUs attached over PCIe, and compute-sanitizer rejects them), the ring's own `head` word for
 * host producers; `head_addr` says which. The proxy consumes tickets in order. Completion:
 *  - `completed`: every request with a ticket below it is complete. The proxy advances it after
 *    a QUIET request (after flushing the network) and after each fetching request (which it
 *    completes, flushing, before it writes the result).
 *  - a fetching request's result is written into its slot (`result`), and the slot stays the
 *    producer's until it sets `seq = 0` after reading it; only then may `tail` pass it. Other
 *    slots are free once processed.
 * Plain C layout, shared by host C++, CUDA device code and the proxy (src/net/proxy.cpp).
 */
#ifndef SYMMEM_DETAIL_PROXY_RING_H
#define SYMMEM_DETAIL_PROXY_RING_H

#include <stdint.h>

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

typedef struct symmem_proxy_slot {
  symmem_proxy_req req;
  uint64_t result;  /* a fetching request's value, valid once `completed` passed its ticket */
  uint64_t pad[6];
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

/* Bytes of a ring of `slots` entries. */
static inline uint64_t symmem_proxy_ring_bytes(uint64_t slots) {
  return (uint64_t)sizeof(symmem_proxy_ring) + slots * (uint64_t)sizeof(symmem_proxy_slot);
}

#ifdef __cplusplus
}
#endif

#if defined(__CUDACC__)
/* ---- the device producer ---- */
__device__ __forceinline__ uint64_t symmem_proxy_ld(const volatile uint64_t *p) { return *p; }

/* Posts one request; returns its ticket. A thread calls it for itself (warp and block forms let
 * one thread post for the group). */
__device__ __forceinline__ uint64_t symmem_proxy_post(symmem_proxy_ring *ring, const symmem_proxy_req *r) {
  const uint64_t ticket = atomicAdd((unsigned long long *)ring->head_addr, 1ULL);  /* device memory */
  while (ticket - symmem_proxy_ld(&ring->tail) >= ring->slots && !symmem_proxy_ld(&ring->error)) {
  }
  symmem_proxy_slot *s = &ring->slot[ticket & (ring->slots - 1)];
  volatile symmem_proxy_req *v = &s->req;
  v->op = r->op;
  v->pe = r->pe;
  v->dst = r->dst;
  v->src = r->src;
  v->size = r->size;
  v->value = r->value;
  v->value2 = r->value2;
  v->amo_op = r->amo_op;
  v->fetch = r->fetch;
  __threadfence_system(); /* the fields before the sequence number, as the host sees them */
  v->seq = ticket + 1;
  return ticket;
}

/* Waits until every request up to `ticket` is complete. */
__device__ __forceinline__ void symmem_proxy_wait(symmem_proxy_ring *ring, uint64_t ticket) {
  while (symmem_proxy_ld(&ring->completed) <= ticket && !symmem_proxy_ld(&ring->error)) {
  }
  __threadfence_system();
}

/* A fetching request: posts, waits, reads the result and gives the slot back. */
__device__ __forceinline__ uint64_t symmem_proxy_fetch(symmem_proxy_ring *ring, const symmem_proxy_req *r) {
  const uint64_t ticket = symmem_proxy_post(ring, r);
  symmem_proxy_wait(ring, ticket);
  symmem_proxy_slot *s = &ring->slot[ticket & (ring->slots - 1)];
  const uint64_t v = symmem_proxy_ld(&s->result);
  __threadfence_system();
  ((volatile symmem_proxy_req *)&s->req)->seq = 0; /* released: the proxy may reuse it */
  return v;
}

/* quiet: a QUIET request, and wait for it. */
__device__ __forceinline__ void symmem_proxy_quiet(symmem_proxy_ring *ring) {
  symmem_proxy_req q = {0, SYMMEM_PROXY_QUIET, 0, 0, 0, 0, 0, 0, 0, 0};
  symmem_proxy_wait(ring, symmem_proxy_post(ring, &q));
}
#endif /* __CUDACC__ */

#endif /* SYMMEM_DETAIL_PROXY_RING_H */
