/* symmem: the CUDA device API. Everything is inline in this header.
 *
 *   #include <symmem/device.cuh>
 *   __global__ void k(float *x) { symmem::device::p(x, 1.0f, (symmem::device::my_pe() + 1) % symmem::device::n_pes()); }
 *
 * The job's state (heap base, peer mappings, my PE, ...) lives in a static __constant__ copy per
 * translation unit, filled by the runtime at init through a static constructor registered with
 * symmem_device_state_register. So kernels built with -rdc and without both work, and one program
 * may hold several translation units that include this header (each holds ~2 KiB of constant
 * memory). Kernels must not run before symmem_init returns or after symmem_finalize.
 *
 * Transport: every node-local peer's heap is mapped into this PE's address space (same GPU or a
 * GPU with peer access), so puts and gets are loads and stores. Memory model (PTX ISA, "Memory
 * Consistency Model"; OpenSHMEM 1.5 sections 9.5.3-9.5.4):
 *   - p/g and the flag side of signals are strong accesses (ld/st.relaxed) at the peer's scope:
 *     .gpu for a peer on this GPU, .sys for a peer on another GPU (per peer, not one job flag);
 *   - fence() orders earlier puts before later ones: fence.acq_rel (a release pattern);
 *   - quiet() completes earlier puts before any later load or store: fence.sc, because acq_rel does
 *     not order a store before a later load (store buffering) and quiet means completion;
 *   - signal_op(SET) is one st.release, signal_op(ADD) one red.release: release is cumulative, so no
 *     extra fence; waits poll with relaxed loads and end with one acquire.
 * Every wait is bounded: past SYMMEM_WAIT_TIMEOUT seconds it prints what it waited for and traps
 * (the kernel fails instead of hanging forever).
 *
 * Thread, warp and block variants: *_warp must be called by every thread of the warp with the same
 * arguments, *_block by every thread of the block; they return when the whole group's copy is
 * done. barrier_all / sync_all (thread form) must be called by one thread per PE.
 */
#ifndef SYMMEM_DEVICE_CUH
#define SYMMEM_DEVICE_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cuda/atomic>

#include "symmem/cuda.h"
#include "symmem/detail/device_state.h"
#include "symmem/detail/cold.h"

namespace symmem {
namespace device {
namespace detail {

/* ---- primitives that need no job state (the library's own stream kernels use these too) ------ */

__device__ __forceinline__ uint64_t globaltimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

/* fence.acq_rel, not the sequentially consistent __threadfence(): followed by a store it forms a
 * release pattern (PTX ISA, memory consistency model), which is all that fence/quiet promise, and
 * it is cumulative, so stores a __syncthreads made visible to this thread are ordered too. */
__device__ __forceinline__ void fence_scope(bool gpu_scope) {
  if (gpu_scope) {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  } else {
    asm volatile("fence.acq_rel.sys;" ::: "memory");
  }
}

/* quiet: a sequentially consistent fence also orders earlier stores before later loads. */
__device__ __forceinline__ void fence_sc(bool gpu_scope) {
  if (gpu_scope) {
    asm volatile("fence.sc.gpu;" ::: "memory");
  } else {
    asm volatile("fence.sc.sys;" ::: "memory");
  }
}

/* Strong (relaxed) loads and stores of 1, 2, 4 or 8 bytes at GPU or system scope: what p and g
 * are. A plain access may be split, merged or served from a stale L1 line; a volatile one is
 * system-scope on every peer. The scope is chosen by a predicate inside one asm block, not by a
 * branch (sys != 0: system scope), so the caller's loop body stays one basic block. */
#define SYMMEM_LD_SEL_(TY, C)                                                                          \
  asm volatile("{\n .reg .pred s;\n setp.ne.u32 s, %2, 0;\n @s ld.relaxed.sys.global." TY " %0, [%1];\n" \
               " @!s ld.relaxed.gpu.global." TY " %0, [%1];\n}"                                        \
               : "=" C(v) : "l"(p), "r"(sys) : "memory")
template <typename T>
__device__ __forceinline__ T ld_strong_sel(const T *p, unsigned sys) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "1, 2, 4 or 8 bytes");
  T out;
  if constexpr (sizeof(T) == 1) {
    uint16_t v;
    SYMMEM_LD_SEL_("u8", "h");
    const uint8_t b = (uint8_t)v;
    memcpy(&out, &b, 1);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t v;
    SYMMEM_LD_SEL_("u16", "h");
    memcpy(&out, &v, 2);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t v;
    SYMMEM_LD_SEL_("u32", "r");
    memcpy(&out, &v, 4);
  } else {
    uint64_t v;
    SYMMEM_LD_SEL_("u64", "l");
    memcpy(&out, &v, 8);
  }
  return out;
}
#undef SYMMEM_LD_SEL_
#define SYMMEM_ST_SEL_(TY, C)                                                                          \
  asm volatile("{\n .reg .pred s;\n setp.ne.u32 s, %2, 0;\n @s st.relaxed.sys.global." TY " [%0], %1;\n" \
               " @!s st.relaxed.gpu.global." TY " [%0], %1;\n}" ::"l"(p), C(v), "r"(sys) : "memory")
template <typename T>
__device__ __forceinline__ void st_strong_sel(T *p, T value, unsigned sys) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "1, 2, 4 or 8 bytes");
  if constexpr (sizeof(T) == 1) {
    uint8_t b;
    memcpy(&b, &value, 1);
    const uint16_t v = b;
    SYMMEM_ST_SEL_("u8", "h");
  } else if constexpr (sizeof(T) == 2) {
    uint16_t v;
    memcpy(&v, &value, 2);
    SYMMEM_ST_SEL_("u16", "h");
  } else if constexpr (sizeof(T) == 4) {
    uint32_t v;
    memcpy(&v, &value, 4);
    SYMMEM_ST_SEL_("u32", "r");
  } else {
    uint64_t v;
    memcpy(&v, &value, 8);
    SYMMEM_ST_SEL_("u64", "l");
  }
}
#undef SYMMEM_ST_SEL_

/* The same with the scope as a flag (true: GPU scope). */
template <typename T>
__device__ __forceinline__ T ld_strong(const T *p, bool gpu_scope) {
  return ld_strong_sel(p, gpu_scope ? 0u : 1u);
}
template <typename T>
__device__ __forceinline__ void st_strong(T *p, T value, bool gpu_scope) {
  st_strong_sel(p, value, gpu_scope ? 0u : 1u);
}

__device__ __forceinline__ uint64_t ld_acquire(const uint64_t *p, bool gpu_scope) {
  uint64_t v;
  if (gpu_scope) {
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  } else {
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  }
  return v;
}

__device__ __forceinline__ uint64_t ld_relaxed(const uint64_t *p, bool gpu_scope) {
  uint64_t v;
  if (gpu_scope) {
    asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  } else {
    asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  }
  return v;
}

__device__ __forceinline__ void st_release(uint64_t *p, uint64_t v, bool gpu_scope) {
  if (gpu_scope) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
  } else {
    asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
  }
}

template <typename T>
__device__ __forceinline__ bool compare_t(T v, int cmp, T value) {
  switch (cmp) {
    case SYMMEM_CMP_EQ: return v == value;
    case SYMMEM_CMP_NE: return v != value;
    case SYMMEM_CMP_GT: return v > value;
    case SYMMEM_CMP_GE: return v >= value;
    case SYMMEM_CMP_LT: return v < value;
    case SYMMEM_CMP_LE: return v <= value;
    default: return false;
  }
}

/* The 64-bit form the flag waits use. */
__device__ __forceinline__ bool compare(uint64_t v, int cmp, uint64_t value) { return compare_t(v, cmp, value); }

/* Bounded wait: true when `limit_ns` (0: forever) has passed since `start`. Checks the clock only
 * every 1024 turns so the spin stays a load and a compare. */
__device__ __forceinline__ bool spin_expired(uint64_t start, uint64_t limit_ns, uint32_t &turns) {
  if (limit_ns == 0 || (++turns & 1023u) != 0) return false;
  return globaltimer() - start > limit_ns;
}

/* Waits until the 64-bit word at p compares true (acquire); traps with the condition past the limit. */
SYMMEM_COLD void wait_u64_timeout(const uint64_t *p, int cmp, uint64_t value, uint64_t seen, int me,
                                  const char *what) {
  printf("symmem: PE %d: %s: waited past SYMMEM_WAIT_TIMEOUT for the word at %p to compare (op %d) with %llu; it "
         "holds %llu. The peer never arrived: check that every PE makes the same calls\n",
         me, what, (const void *)p, cmp, (unsigned long long)value, (unsigned long long)seen);
  __trap();
}

/* Polls with relaxed loads (no L1 invalidation per turn, so the loop is tight and sees the store
 * sooner), then one fence: a relaxed read followed by fence.acq_rel is an acquire pattern. */
__device__ __forceinline__ uint64_t wait_u64(const uint64_t *p, int cmp, uint64_t value, bool gpu_scope,
                                             uint64_t limit_ns, int me, const char *what) {
  uint64_t v = ld_relaxed(p, gpu_scope);
  if (!compare(v, cmp, value)) {
    const uint64_t start = globaltimer();
    uint32_t turns = 0;
    while (!compare(v = ld_relaxed(p, gpu_scope), cmp, value)) {
      if (spin_expired(start, limit_ns, turns)) wait_u64_timeout(p, cmp, value, v, me, what);
    }
  }
  fence_scope(gpu_scope);
  return v;
}

/* Copies n bytes with `nthreads` cooperating threads (this one is `tid`). 16-byte vectors when
 * source and destination share their alignment mod 16, four in flight per thread; bytes else. */
__device__ __forceinline__ void copy_bytes(char *d, const char *s, size_t n, size_t tid, size_t nthreads) {
  if ((((uintptr_t)d ^ (uintptr_t)s) & 15) == 0) {
    size_t head = (16 - ((uintptr_t)d & 15)) & 15;
    if (head > n) head = n;
    for (size_t i = tid; i < head; i += nthreads) d[i] = s[i];
    int4 *d4 = reinterpret_cast<int4 *>(d + head);
    const int4 *s4 = reinterpret_cast<const int4 *>(s + head);
    const size_t n4 = (n - head) / 16;
    size_t i = tid;
    for (; i + 3 * nthreads < n4; i += 4 * nthreads) {
      int4 a = s4[i], b = s4[i + nthreads], c = s4[i + 2 * nthreads], e = s4[i + 3 * nthreads];
      d4[i] = a;
      d4[i + nthreads] = b;
      d4[i + 2 * nthreads] = c;
      d4[i + 3 * nthreads] = e;
    }
    for (; i < n4; i += nthreads) d4[i] = s4[i];
    for (size_t j = head + n4 * 16 + tid; j < n; j += nthreads) d[j] = s[j];
  } else if ((((uintptr_t)d ^ (uintptr_t)s) & 3) == 0) {
    size_t head = (4 - ((uintptr_t)d & 3)) & 3;
    if (head > n) head = n;
    for (size_t i = tid; i < head; i += nthreads) d[i] = s[i];
    uint32_t *d1 = reinterpret_cast<uint32_t *>(d + head);
    const uint32_t *s1 = reinterpret_cast<const uint32_t *>(s + head);
    const size_t n1 = (n - head) / 4;
    for (size_t i = tid; i < n1; i += nthreads) d1[i] = s1[i];
    for (size_t j = head + n1 * 4 + tid; j < n; j += nthreads) d[j] = s[j];
  } else {
    for (size_t i = tid; i < n; i += nthreads) d[i] = s[i];
  }
}

__device__ __forceinline__ size_t block_tid() {
  return threadIdx.x + (size_t)blockDim.x * (threadIdx.y + (size_t)blockDim.y * threadIdx.z);
}
__device__ __forceinline__ size_t block_threads() { return (size_t)blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

/* The dissemination barrier (Hensgen, Finkel & Manber 1988) over the device sync areas; see
 * symmem_device_sync in device_state.h. `sync_of(pe)` gives PE pe's area as mapped here. */
/* The barrier's wait: flags only grow, so once a relaxed poll sees the epoch, one acquire load of
 * the same word completes the synchronisation with the peer's release store. That replaces the
 * full fence (MEMBAR) after the poll on the barrier's critical path; the clock is read only after
 * 1024 turns, not before the first poll. */
__device__ __forceinline__ void wait_epoch(const uint64_t *p, uint64_t epoch, bool gpu_scope, uint64_t limit_ns,
                                           int me) {
  uint64_t v = ld_relaxed(p, gpu_scope);
  if (v < epoch) {
    uint64_t start = 0;
    uint32_t turns = 0;
    while ((v = ld_relaxed(p, gpu_scope)) < epoch) {
      if (limit_ns != 0 && (++turns & 1023u) == 0) {
        const uint64_t now = globaltimer();
        if (start == 0) start = now;
        else if (now - start > limit_ns)
          wait_u64_timeout(p, SYMMEM_CMP_GE, epoch, v, me, "barrier (its members call it in one form: a thread, a warp or a block)");
      }
    }
  }
  (void)ld_acquire(p, gpu_scope);
}

/* `me` is this PE's index among the n members, `sync_of(i)` member i's team sync area as mapped
 * here; `pe` only names this PE in a timeout message.
 *
 * A warp or block on a team of up to SYMMEM_DEVICE_SYNC_DIRECT members takes one round instead of
 * log2(n) (barrier_direct, the dissemination barrier of radix n, as NVSHMEM's block-scoped barrier
 * on peer-connected teams): thread j - 1 stores the epoch into word j - 1 of slot[0] of the member
 * j places to its right (j = 1 .. n - 1) and waits until its own slot[0]'s word j - 1 holds it. One
 * thread takes the same round on teams of 3 or 4 (barrier_direct_one), radix 2 on others: on one
 * H100 under MPS a warp's or block's round took 1.57-1.67 us at 4 PEs (radix 2 by lane 0: 2.84). Each
 * word has one writer in either pattern (word 0 of slot[0] is distance 1 in both; slot[k][0] for k
 * >= 1 is radix 2's alone, words 1..6 of slot[0] radix n's), so barriers of different forms may
 * follow one another; but the members of one barrier must call it in the same form, as they must
 * call a collective in the same form (its small sizes take different paths by form). */
static_assert(SYMMEM_DEVICE_SYNC_DIRECT >= 2 && SYMMEM_DEVICE_SYNC_DIRECT <= 8,
              "a one-round barrier's n - 1 words share slot[0]'s 64-byte line");
template <typename SyncOf>
__device__ __forceinline__ void dissemination(symmem_device_team_sync *mine, int me, int n, bool gpu_scope,
                                              uint64_t limit_ns, int pe, SyncOf sync_of) {
  uint64_t *ep = &mine->barrier_epoch;  // only this PE's GPU writes it, one barrier at a time
  const uint64_t epoch = ld_relaxed(ep, true) + 1;
  for (int k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    const int to = (me + dist) % n;
    st_release(&sync_of(to)->slot[k][0], epoch, gpu_scope);
    wait_epoch(&mine->slot[k][0], epoch, gpu_scope, limit_ns, pe);
  }
  // Stored last, so the first flag's release does not wait for this store to reach L2.
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(ep), "l"(epoch) : "memory");
}

/* The one-round barrier of a team of up to SYMMEM_DEVICE_SYNC_DIRECT members (above), thread
 * `lane` of `lanes` taking the words j - 1 = lane, lane + lanes, ...: each stores with release (cumulative: the
 * group's earlier accesses, which the group's sync showed it, come first) and waits with acquire
 * (the group's sync after it orders the group's later accesses). The caller syncs the group before
 * and after, and stores the epoch (barrier_epoch) after that. */
template <typename SyncOf>
__device__ __forceinline__ void barrier_direct(symmem_device_team_sync *mine, int me, int n, uint64_t epoch,
                                               bool gpu_scope, uint64_t limit_ns, int pe, SyncOf sync_of, int lane,
                                               int lanes) {
  for (int j = 1 + lane; j < n; j += lanes) st_release(&sync_of((me + j) % n)->slot[0][j - 1], epoch, gpu_scope);
  for (int j = 1 + lane; j < n; j += lanes) wait_epoch(&mine->slot[0][j - 1], epoch, gpu_scope, limit_ns, pe);
}

/* Thread groups for the warp and block forms: every thread of the group calls with the same
 * arguments; idx/size split the work and sync() joins the group. */
struct group_thread {
  static __device__ __forceinline__ size_t idx() { return 0; }
  static __device__ __forceinline__ size_t size() { return 1; }
  static __device__ __forceinline__ void sync() {}
};
struct group_warp {
  static __device__ __forceinline__ size_t idx() { return lane_id(); }
  static __device__ __forceinline__ size_t size() { return 32; }
  static __device__ __forceinline__ void sync() { __syncwarp(); }
};
struct group_block {
  static __device__ __forceinline__ size_t idx() { return block_tid(); }
  static __device__ __forceinline__ size_t size() { return block_threads(); }
  static __device__ __forceinline__ void sync() { __syncthreads(); }
};
/* A warpgroup: 128 consecutive threads of the block (four warps), met at named barrier 1 + its
 * index (barrier 0 is __syncthreads'). */
struct group_warpgroup {
  static __device__ __forceinline__ size_t idx() { return block_tid() % 128; }
  static __device__ __forceinline__ size_t size() { return 128; }
  static __device__ __forceinline__ void sync() {
    asm volatile("bar.sync %0, 128;" ::"r"(1 + static_cast<unsigned>(block_tid() / 128)) : "memory");
  }
};

}  // namespace detail

#ifndef SYMMEM_DEVICE_NO_STATE
/* ---- the job's state: one __constant__ copy per translation unit ------------------------------ */
namespace {
__constant__ symmem_device_state symmem_state_;

#ifndef SYMMEM_DEVICE_LIBRARY /* libsymmem's own kernels get the state from the runtime directly */
void symmem_state_update(const symmem_device_state *s, void *) {
  cudaError_t e = cudaMemcpyToSymbol(symmem_state_, s, sizeof *s);
  if (e != cudaSuccess) {
    fprintf(stderr, "symmem: PE %d: init: cannot publish the device state to a CUDA module: %s; build device code "
                    "for this GPU's architecture (-arch)\n",
            s->my_pe, cudaGetErrorString(e));
  }
}

struct symmem_state_registrar {
  symmem_state_registrar() { symmem_device_state_register(&symmem_state_update, nullptr); }
};
symmem_state_registrar symmem_state_registrar_instance_;
#endif
}  // namespace

namespace detail {

__device__ __forceinline__ const symmem_device_state &st() { return symmem_state_; }
/* Fences that cover every peer: GPU scope only when every peer is on this GPU. */
__device__ __forceinline__ bool gpu_scope() { return symmem_state_.gpu_scope_ok != 0; }

SYMMEM_COLD void bad_target(const void *addr, int pe, const char *call) {
  printf("symmem: PE %d: %s: PE %d %s (address %p, heap %p..+%llu); pass symmetric addresses and PEs 0..%d "
         "reachable from this GPU\n",
         symmem_state_.my_pe, call, pe,
         symmem_state_.version == 0 ? "is unknown: symmem is not initialized" : "or the address is not accessible",
         addr, (void *)symmem_state_.heap_base, (unsigned long long)symmem_state_.heap_size,
         symmem_state_.n_pes - 1);
  __trap();
}

/* PE pe's entry of the peer table: its heap base here | SYMMEM_DEVICE_PEER_SYS; 0 when not mapped. */
__device__ __forceinline__ uint64_t peer_entry(int pe) {
  if ((unsigned)pe >= (unsigned)symmem_state_.n_pes) return 0;
  return pe < SYMMEM_DEVICE_MAX_PES ? symmem_state_.peer_base[pe] : symmem_state_.peer_base_ext[pe];
}

/* From one table read: whether addr of PE pe is mapped here, where (meaningful only when it is),
 * and whether accesses to it are system scope. */
template <typename T>
struct peer_at {
  bool ok;
  T *p;
  unsigned sys;
};
/* An address outside the heap is this PE's own memory at that address when pe is this PE: the
 * one translation that needs no table, and what NVSHMEM's arithmetic gives too. NVIDIA's jacobi
 * sample (multi-gpu-programming-models) puts to itself so, into cudaMalloc memory, in its
 * single-GPU reference run. Any other PE with such an address is not accessible. */
template <typename T>
__device__ __forceinline__ peer_at<T> mapped_at(T *addr, int pe) {
  const uint64_t off = (uint64_t)addr - symmem_state_.heap_base;
  if (off >= symmem_state_.heap_size) return {pe == symmem_state_.my_pe, addr, 0u};
  const uint64_t e = peer_entry(pe);
  return {e != 0, (T *)((e & ~SYMMEM_DEVICE_PEER_SYS) + off), (unsigned)(e & SYMMEM_DEVICE_PEER_SYS)};
}

/* Where symmetric address `addr` of PE `pe` lives in this process (traps when it does not). */
template <typename T>
__device__ __forceinline__ T *peer(const T *addr, int pe, const char *call) {
  const peer_at<const T> m = mapped_at(addr, pe);
  if (!m.ok) bad_target(addr, pe, call);
  return const_cast<T *>(m.p);
}

/* Scope of accesses to PE pe: GPU when its heap is on this GPU. */
__device__ __forceinline__ bool peer_gpu_scope(int pe) { return (peer_entry(pe) & SYMMEM_DEVICE_PEER_SYS) == 0; }

/* PE pe's heap base here; 0 when it is not mapped. */
__device__ __forceinline__ uint64_t base_of(int pe) { return peer_entry(pe) & ~SYMMEM_DEVICE_PEER_SYS; }

/* Where symmetric [addr, addr+n) of PE pe is mapped here; nullptr when it is not (a PE on another
 * host, reached through the proxy ring: proxy.cuh; or a bad PE or address, which that path traps on). */
template <typename T>
__device__ __forceinline__ T *mapped(const T *addr, int pe) {
  const peer_at<const T> m = mapped_at(addr, pe);
  return m.ok ? const_cast<T *>(m.p) : nullptr;
}

SYMMEM_COLD void bad_team(int team, const char *call) {
  printf("symmem: PE %d: %s: team %d is not a team of this PE (destroyed, never created, or this PE is not a "
         "member); pass a team handle this PE got from a split\n",
         symmem_state_.my_pe, call, team);
  __trap();
}

/* A team's geometry; world (0) without a memory load. */
__device__ __forceinline__ symmem_device_team team_of(int team, const char *call) {
  if (team == 0) return symmem_device_team{0, 1, symmem_state_.n_pes, symmem_state_.my_pe, nullptr, nullptr};
  if ((unsigned)team >= SYMMEM_DEVICE_MAX_TEAMS || symmem_state_.teams == nullptr) bad_team(team, call);
  const symmem_device_team t = symmem_state_.teams[team];
  if (t.size <= 0 || t.my_index < 0) bad_team(team, call);
  return t;
}
/* World PE of member i of team t. */
__device__ __forceinline__ int team_member(const symmem_device_team &t, int i) {
  return t.pes != nullptr ? t.pes[i] : t.start + i * t.stride;
}

}  // namespace detail
}  // namespace device
}  // namespace symmem
#include "symmem/detail/proxy.cuh"
namespace symmem {
namespace device {
namespace detail {

__device__ __forceinline__ symmem_device_sync *sync_of(int pe) {
  return peer((symmem_device_sync *)(symmem_state_.heap_base + symmem_state_.sync_offset), pe, "barrier");
}

/* Whether one thread's barrier on a team of n takes barrier_direct_one (else radix 2). A macro: the
 * same test through an inline function took the kernel calling barrier_all to 34 registers. */
#define SYMMEM_DEVICE_ONE_ROUND_THREAD(n) ((n) >= 3 && (n) <= 4 && (n) <= SYMMEM_DEVICE_SYNC_DIRECT)

/* The one-round barrier by one thread on a team of 3 or 4: one fence, then the n - 1 words stored
 * relaxed (a release pattern), then all n - 1 words of this PE's slot[0] polled together, two to a
 * 16-byte load, then one fence (an acquire pattern). On one H100 under MPS, 1000 calls: team sync
 * 2.11 us at 4 PEs against 2.60 by radix 2 (NVSHMEM 1.87), team barrier 2.09 against 2.61 (NVSHMEM
 * 4.31); at 2 PEs radix 2 was faster (sync 1.50 against 1.60 us), and the same words waited for one
 * by one, as tried before, were slower than radix 2 at 4 PEs too (2.95-4.21 us). Up to 4 members, so
 * that two loads poll every word: with four, a kernel calling barrier_all took 42 registers after
 * the device link, over NVSHMEM's 32 that the drop-in install test holds it to; with two, 32. */
__device__ __forceinline__ bool words_reached(const uint64_t *w, int count, uint64_t epoch, bool gpu_scope) {
  bool ok = true;
#pragma unroll
  for (int i = 0; i < 4; i += 2) {
    if (i < count) {
      uint64_t a, b;
      if (gpu_scope) {
        asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(w + i) : "memory");
      } else {
        asm volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(w + i) : "memory");
      }
      ok = ok && a >= epoch && (i + 1 >= count || b >= epoch);
    }
  }
  return ok;
}
__device__ __forceinline__ void barrier_direct_one(symmem_device_team_sync *mine, const symmem_device_team &t,
                                                   bool gpu_scope, uint64_t limit_ns, int pe) {
  uint64_t *ep = &mine->barrier_epoch;
  const uint64_t epoch = ld_relaxed(ep, true) + 1;
  // Member i's words are at its heap base here + the offset of this PE's own (the same layout on
  // every PE); a member not mapped is reported after the loop, which keeps the loop's registers
  // few (a kernel calling barrier_all stays within NVSHMEM's 32).
  const uint64_t off = (uint64_t)&mine->slot[0][0] - base_of(pe);
  int missing = -1;
  fence_scope(gpu_scope);
  for (int j = 1, to = t.my_index + 1; j < t.size; ++j, ++to) {
    if (to == t.size) to = 0;
    const int m = team_member(t, to);
    const uint64_t b = base_of(m);
    if (b == 0) {
      missing = m;
      break;
    }
    uint64_t *w = (uint64_t *)(b + off) + (j - 1);
    if (gpu_scope) {
      asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(w), "l"(epoch) : "memory");
    } else {
      asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(w), "l"(epoch) : "memory");
    }
  }
  if (missing >= 0) bad_target(mine, missing, "barrier");
  const int n = t.size;
  const uint64_t *words = &mine->slot[0][0];
  uint64_t start = 0;
  for (uint32_t turns = 1; !words_reached(words, n - 1, epoch, gpu_scope); ++turns) {
    if (limit_ns != 0 && (turns & 1023u) == 0) {
      const uint64_t now = globaltimer();
      if (start == 0) start = now;
      else if (now - start > limit_ns)
        for (int i = 0; i < n - 1; ++i)
          wait_epoch(words + i, epoch, gpu_scope, limit_ns, pe);  // names the first word still missing
    }
  }
  fence_scope(gpu_scope);
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(ep), "l"(epoch) : "memory");
}

/* The dissemination barrier of a team over its slot of every member's sync area. */
__device__ __forceinline__ void team_barrier_core(int team, const char *call) {
  const symmem_device_state &s = symmem_state_;
  const symmem_device_team t = team_of(team, call);
  if (s.proxy_ring != 0) return remote_barrier(team, t);  // some PE is on another host
  if (SYMMEM_DEVICE_ONE_ROUND_THREAD(t.size))
    return barrier_direct_one(&sync_of(s.my_pe)->team[team], t, s.gpu_scope_ok != 0, s.spin_limit_ns, s.my_pe);
  detail::dissemination(&sync_of(s.my_pe)->team[team], t.my_index, t.size, s.gpu_scope_ok != 0, s.spin_limit_ns,
                        s.my_pe, [team, t](int i) { return &sync_of(team_member(t, i))->team[team]; });
}

__device__ __forceinline__ void barrier_core() { team_barrier_core(0, "barrier"); }

/* The barrier by a warp or block (every thread calls): on a small team each word gets a thread of
 * its own (barrier_direct); otherwise thread 0 takes team_barrier_core. */
template <typename G>
__device__ __forceinline__ void team_barrier_group(int team, const char *call) {
  const symmem_device_state &s = symmem_state_;
  const symmem_device_team t = team_of(team, call);
  if (s.proxy_ring != 0 || t.size > SYMMEM_DEVICE_SYNC_DIRECT || G::size() == 1) {
    G::sync();
    if (G::idx() == 0) team_barrier_core(team, call);
    G::sync();
    return;
  }
  symmem_device_team_sync *mine = &sync_of(s.my_pe)->team[team];
  const uint64_t epoch = ld_relaxed(&mine->barrier_epoch, true) + 1;
  G::sync();  // the group's earlier accesses, and every thread has read the epoch
  if (G::idx() < (size_t)(t.size - 1)) {
    barrier_direct(mine, t.my_index, t.size, epoch, s.gpu_scope_ok != 0, s.spin_limit_ns, s.my_pe,
                   [team, t](int i) { return &sync_of(team_member(t, i))->team[team]; }, (int)G::idx(),
                   t.size - 1 < (int)G::size() ? t.size - 1 : (int)G::size());
  }
  G::sync();  // every word has come: the group's later accesses follow
  if (G::idx() == 0) asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" ::"l"(&mine->barrier_epoch), "l"(epoch) : "memory");
}

}  // namespace detail

/* ---- queries ---------------------------------------------------------------------------------- */
__device__ __forceinline__ int my_pe() { return symmem_state_.my_pe; }
__device__ __forceinline__ int n_pes() { return symmem_state_.n_pes; }

/* Address of symmetric `addr` on PE `pe`, usable by loads and stores here; nullptr when not mapped. */
template <typename T>
__device__ __forceinline__ T *ptr(const T *addr, int pe) {
  /* NULL for an address outside the heap, this PE's own too (as NVSHMEM's nvshmem_ptr) */
  if ((uint64_t)addr - detail::st().heap_base >= detail::st().heap_size) return nullptr;
  return detail::mapped(addr, pe);
}
__device__ __forceinline__ void *ptr(const void *addr, int pe) { return ptr((const char *)addr, pe); }

/* ---- ordering --------------------------------------------------------------------------------- */
/* With PEs on other hosts, also a FENCE request through the proxy ring / a QUIET request waited for. */
__device__ __forceinline__ void fence() {
  detail::fence_scope(detail::gpu_scope());
  if (symmem_state_.proxy_ring != 0) detail::remote_fence();
}
__device__ __forceinline__ void quiet() {
  detail::fence_sc(detail::gpu_scope());
  if (symmem_state_.proxy_ring != 0) detail::remote_quiet();
}

/* ---- RMA: bytes ------------------------------------------------------------------------------- */
/* Mapped peers: loads and stores. Others: the proxy ring (proxy.cuh), out of line. */
__device__ __forceinline__ void putmem(void *dest, const void *source, size_t n, int pe) {
  if (n == 0) return;
  if (char *d = detail::mapped((char *)dest, pe)) return detail::copy_bytes(d, (const char *)source, n, 0, 1);
  detail::remote_put(dest, source, n, pe, true, "putmem");
}
__device__ __forceinline__ void getmem(void *dest, const void *source, size_t n, int pe) {
  if (n == 0) return;
  if (const char *s = detail::mapped((const char *)source, pe)) return detail::copy_bytes((char *)dest, s, n, 0, 1);
  detail::remote_get(dest, source, n, pe, "getmem");
}
namespace detail {
template <typename G>
__device__ __forceinline__ void put_group(void *dest, const void *source, size_t n, int pe, bool complete, const char *call) {
  if (n == 0) return G::sync();
  if (char *d = mapped((char *)dest, pe)) {
    copy_bytes(d, (const char *)source, n, G::idx(), G::size());
    return G::sync();
  }
  remote_put_group<G>(dest, source, n, pe, complete, call);
}
template <typename G>
__device__ __forceinline__ void get_group(void *dest, const void *source, size_t n, int pe, const char *call) {
  if (n == 0) return G::sync();
  if (const char *s = mapped((const char *)source, pe)) {
    copy_bytes((char *)dest, s, n, G::idx(), G::size());
    return G::sync();
  }
  remote_get_group<G>(dest, source, n, pe, call);
}
}  // namespace detail
__device__ __forceinline__ void putmem_warp(void *dest, const void *source, size_t n, int pe) {
  detail::put_group<detail::group_warp>(dest, source, n, pe, true, "putmem_warp");
}
__device__ __forceinline__ void getmem_warp(void *dest, const void *source, size_t n, int pe) {
  detail::get_group<detail::group_warp>(dest, source, n, pe, "getmem_warp");
}
__device__ __forceinline__ void putmem_block(void *dest, const void *source, size_t n, int pe) {
  detail::put_group<detail::group_block>(dest, source, n, pe, true, "putmem_block");
}
__device__ __forceinline__ void getmem_block(void *dest, const void *source, size_t n, int pe) {
  detail::get_group<detail::group_block>(dest, source, n, pe, "getmem_block");
}
/* Stores to mapped peers are issued at once: the non-blocking forms are the blocking ones, and
 * quiet() completes them. To remote PEs a put_nbi is posted (complete at quiet); a get_nbi
 * completes before it returns. */
__device__ __forceinline__ void putmem_nbi(void *d, const void *s, size_t n, int pe) {
  if (n == 0) return;
  if (char *m = detail::mapped((char *)d, pe)) return detail::copy_bytes(m, (const char *)s, n, 0, 1);
  detail::remote_put(d, s, n, pe, false, "putmem_nbi");
}
__device__ __forceinline__ void getmem_nbi(void *d, const void *s, size_t n, int pe) { getmem(d, s, n, pe); }
__device__ __forceinline__ void putmem_nbi_warp(void *d, const void *s, size_t n, int pe) {
  detail::put_group<detail::group_warp>(d, s, n, pe, false, "putmem_nbi_warp");
}
__device__ __forceinline__ void getmem_nbi_warp(void *d, const void *s, size_t n, int pe) { getmem_warp(d, s, n, pe); }
__device__ __forceinline__ void putmem_nbi_block(void *d, const void *s, size_t n, int pe) {
  detail::put_group<detail::group_block>(d, s, n, pe, false, "putmem_nbi_block");
}
__device__ __forceinline__ void getmem_nbi_block(void *d, const void *s, size_t n, int pe) { getmem_block(d, s, n, pe); }

/* ---- RMA: typed ------------------------------------------------------------------------------- */
template <typename T>
__device__ __forceinline__ void p(T *dest, T value, int pe) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "1, 2, 4 or 8 bytes");
  // One table read gives both the mapping and the scope; the mapped case is the expected one.
  const detail::peer_at<T> m = detail::mapped_at(dest, pe);
  if (__builtin_expect(m.ok, 1)) return detail::st_strong_sel(m.p, value, m.sys);
  detail::remote_p(dest, detail::bits_of(value), sizeof(T), pe, "p");
}
template <typename T>
__device__ __forceinline__ T g(const T *source, int pe) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8, "1, 2, 4 or 8 bytes");
  // One table read gives both the mapping and the scope; the mapped case is the expected one.
  const detail::peer_at<const T> m = detail::mapped_at(source, pe);
  if (__builtin_expect(m.ok, 1)) return detail::ld_strong_sel(m.p, m.sys);
  return detail::from_bits<T>(detail::remote_g(source, sizeof(T), pe, "g"));
}
template <typename T>
__device__ __forceinline__ void put(T *d, const T *s, size_t nelems, int pe) { putmem(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get(T *d, const T *s, size_t nelems, int pe) { getmem(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void put_nbi(T *d, const T *s, size_t nelems, int pe) { putmem_nbi(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get_nbi(T *d, const T *s, size_t nelems, int pe) { getmem_nbi(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void put_warp(T *d, const T *s, size_t nelems, int pe) { putmem_warp(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get_warp(T *d, const T *s, size_t nelems, int pe) { getmem_warp(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void put_block(T *d, const T *s, size_t nelems, int pe) { putmem_block(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get_block(T *d, const T *s, size_t nelems, int pe) { getmem_block(d, s, nelems * sizeof(T), pe); }
/* The typed non-blocking group forms: to a PE on another host a put is posted and completes at
 * quiet (the blocking forms wait for it, a network round trip through the proxy). */
template <typename T>
__device__ __forceinline__ void put_nbi_warp(T *d, const T *s, size_t nelems, int pe) { putmem_nbi_warp(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get_nbi_warp(T *d, const T *s, size_t nelems, int pe) { getmem_nbi_warp(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void put_nbi_block(T *d, const T *s, size_t nelems, int pe) { putmem_nbi_block(d, s, nelems * sizeof(T), pe); }
template <typename T>
__device__ __forceinline__ void get_nbi_block(T *d, const T *s, size_t nelems, int pe) { getmem_nbi_block(d, s, nelems * sizeof(T), pe); }

/* ---- atomics (relaxed, like OpenSHMEM's; GPU scope for a peer on this GPU, else system) -------- */
/* To a PE on another host: an AMO request through the proxy ring (4- and 8-byte types); the forms
 * without a result are posted and complete at quiet. To a mapped peer, 4- and 8-byte integers (and
 * swap, compare-swap, fetch and set of any 4- or 8-byte type) take one table read for the mapping
 * and the scope, and one instruction that picks the scope by predicate; a form without a result is
 * a `red` (nothing comes back). NVSHMEM's shmem_atomic_bw, 2 MiB of uint64 increments at 2 PEs on
 * one H200: 354 GB/s, against 273 for the atomic_ref form with its scope branch (NVSHMEM: 347). */
namespace detail {
template <typename T, typename F>
__device__ __forceinline__ T amo_at(T *t, int pe, F f) {
  if (peer_gpu_scope(pe)) return f(::cuda::atomic_ref<T, ::cuda::thread_scope_device>(*t));
  return f(::cuda::atomic_ref<T, ::cuda::thread_scope_system>(*t));
}
enum amo_op : int { amo_add, amo_and, amo_or, amo_xor, amo_swap };
/* Which AMOs take the one-instruction form: integer arithmetic and bitwise ops, and swap of any
 * 4- or 8-byte type (floating-point add keeps the atomic_ref form). */
template <int Op, typename T>
constexpr bool amo_direct = (sizeof(T) == 4 || sizeof(T) == 8) && (Op == amo_swap || std::is_integral<T>::value);
template <typename T>
using amo_bits = typename std::conditional<sizeof(T) == 4, uint32_t, uint64_t>::type;

/* red (no result), atom and atom.cas of Op at p with the scope by predicate, for W-bit words
 * (C: their asm constraint); the op's type is u for add, b for the bitwise ops and exch. */
#define SYMMEM_RED_(OP, TY, C)                                                                    \
  asm volatile("{\n .reg .pred s;\n setp.ne.u32 s, %2, 0;\n @s red.relaxed.sys.global." OP "." TY \
               " [%0], %1;\n @!s red.relaxed.gpu.global." OP "." TY " [%0], %1;\n}"                 \
               ::"l"(p), C(v), "r"(sys) : "memory")
#define SYMMEM_ATOM_(OP, TY, C)                                                                    \
  asm volatile("{\n .reg .pred s;\n setp.ne.u32 s, %3, 0;\n @s atom.relaxed.sys.global." OP "." TY \
               " %0, [%1], %2;\n @!s atom.relaxed.gpu.global." OP "." TY " %0, [%1], %2;\n}"        \
               : "=" C(old) : "l"(p), C(v), "r"(sys) : "memory")
#define SYMMEM_CAS_(TY, C)                                                                             \
  asm volatile("{\n .reg .pred s;\n setp.ne.u32 s, %4, 0;\n @s atom.relaxed.sys.global.cas." TY        \
               " %0, [%1], %2, %3;\n @!s atom.relaxed.gpu.global.cas." TY " %0, [%1], %2, %3;\n}"      \
               : "=" C(old) : "l"(p), C(c), C(v), "r"(sys) : "memory")
#define SYMMEM_AMO_BY_OP_(INSN, W, C)                     \
  if constexpr (Op == amo_add) INSN("add", "u" W, C);     \
  else if constexpr (Op == amo_and) INSN("and", "b" W, C); \
  else if constexpr (Op == amo_or) INSN("or", "b" W, C);   \
  else if constexpr (Op == amo_xor) INSN("xor", "b" W, C); \
  else INSN("exch", "b" W, C)
template <int Op, typename T>
__device__ __forceinline__ void red_sel(T *p, T value, unsigned sys) {
  static_assert(Op != amo_swap, "swap has a result: atom_sel");
  amo_bits<T> v;
  memcpy(&v, &value, sizeof v);
  if constexpr (sizeof(T) == 4) {
    SYMMEM_AMO_BY_OP_(SYMMEM_RED_, "32", "r");
  } else {
    SYMMEM_AMO_BY_OP_(SYMMEM_RED_, "64", "l");
  }
}
template <int Op, typename T>
__device__ __forceinline__ T atom_sel(T *p, T value, unsigned sys) {
  amo_bits<T> v, old;
  memcpy(&v, &value, sizeof v);
  if constexpr (sizeof(T) == 4) {
    SYMMEM_AMO_BY_OP_(SYMMEM_ATOM_, "32", "r");
  } else {
    SYMMEM_AMO_BY_OP_(SYMMEM_ATOM_, "64", "l");
  }
  T out;
  memcpy(&out, &old, sizeof out);
  return out;
}
template <typename T>
__device__ __forceinline__ T cas_sel(T *p, T cond, T value, unsigned sys) {
  amo_bits<T> c, v, old;
  memcpy(&c, &cond, sizeof c);
  memcpy(&v, &value, sizeof v);
  if constexpr (sizeof(T) == 4) {
    SYMMEM_CAS_("b32", "r");
  } else {
    SYMMEM_CAS_("b64", "l");
  }
  T out;
  memcpy(&out, &old, sizeof out);
  return out;
}
#undef SYMMEM_AMO_BY_OP_
#undef SYMMEM_CAS_
#undef SYMMEM_ATOM_
#undef SYMMEM_RED_
}  // namespace detail
/* NAME returns the old value; VOID_NAME (when not empty) is the form without a result. */
#define SYMMEM_DEVICE_AMO(NAME, VOID_NAME, OP, EXPR, ROP)                                    \
  template <typename T>                                                                      \
  __device__ __forceinline__ T NAME(T *dest, T value, int pe) {                              \
    if constexpr (detail::amo_direct<detail::OP, T>) {                                       \
      const detail::peer_at<T> m = detail::mapped_at(dest, pe);                              \
      if (__builtin_expect(m.ok, 1)) return detail::atom_sel<detail::OP>(m.p, value, m.sys); \
    } else if (T *t = detail::mapped(dest, pe)) {                                            \
      return detail::amo_at(t, pe, [value](auto r) { return EXPR; });                        \
    }                                                                                        \
    return detail::remote_amo_t<T>(dest, pe, ROP, value, T(0), true, #NAME);                 \
  }                                                                                          \
  template <typename T>                                                                      \
  __device__ __forceinline__ void VOID_NAME(T *dest, T value, int pe) {                      \
    if constexpr (detail::amo_direct<detail::OP, T>) {                                       \
      const detail::peer_at<T> m = detail::mapped_at(dest, pe);                              \
      if (__builtin_expect(m.ok, 1)) return detail::red_sel<detail::OP>(m.p, value, m.sys);  \
    } else if (T *t = detail::mapped(dest, pe)) {                                            \
      (void)detail::amo_at(t, pe, [value](auto r) { return EXPR; });                         \
      return;                                                                                \
    }                                                                                        \
    (void)detail::remote_amo_t<T>(dest, pe, ROP, value, T(0), false, #VOID_NAME);            \
  }
SYMMEM_DEVICE_AMO(atomic_fetch_add, atomic_add, amo_add, r.fetch_add(value, ::cuda::memory_order_relaxed), SYMMEM_PROXY_AMO_ADD)
SYMMEM_DEVICE_AMO(atomic_fetch_and, atomic_and, amo_and, r.fetch_and(value, ::cuda::memory_order_relaxed), SYMMEM_PROXY_AMO_AND)
SYMMEM_DEVICE_AMO(atomic_fetch_or, atomic_or, amo_or, r.fetch_or(value, ::cuda::memory_order_relaxed), SYMMEM_PROXY_AMO_OR)
SYMMEM_DEVICE_AMO(atomic_fetch_xor, atomic_xor, amo_xor, r.fetch_xor(value, ::cuda::memory_order_relaxed), SYMMEM_PROXY_AMO_XOR)
#undef SYMMEM_DEVICE_AMO
/* swap's form without a result is atomic_set (a store, below). */
template <typename T>
__device__ __forceinline__ T atomic_swap(T *dest, T value, int pe) {
  if constexpr (detail::amo_direct<detail::amo_swap, T>) {
    const detail::peer_at<T> m = detail::mapped_at(dest, pe);
    if (__builtin_expect(m.ok, 1)) return detail::atom_sel<detail::amo_swap>(m.p, value, m.sys);
  } else if (T *t = detail::mapped(dest, pe)) {
    return detail::amo_at(t, pe, [value](auto r) { return r.exchange(value, ::cuda::memory_order_relaxed); });
  }
  return detail::remote_amo_t<T>(dest, pe, SYMMEM_PROXY_AMO_SWAP, value, T(0), true, "atomic_swap");
}
template <typename T>
__device__ __forceinline__ T atomic_fetch(const T *source, int pe) {
  const detail::peer_at<const T> m = detail::mapped_at(source, pe);  // a relaxed load is an atomic fetch
  if (__builtin_expect(m.ok, 1)) return detail::ld_strong_sel(m.p, m.sys);
  return detail::remote_amo_t<T>(const_cast<T *>(source), pe, SYMMEM_PROXY_AMO_OR, T(0), T(0), true, "atomic_fetch");
}
template <typename T>
__device__ __forceinline__ void atomic_set(T *dest, T value, int pe) {
  const detail::peer_at<T> m = detail::mapped_at(dest, pe);  // a relaxed store is an atomic set
  if (__builtin_expect(m.ok, 1)) return detail::st_strong_sel(m.p, value, m.sys);
  (void)detail::remote_amo_t<T>(dest, pe, SYMMEM_PROXY_AMO_SWAP, value, T(0), false, "atomic_set");
}
template <typename T>
__device__ __forceinline__ T atomic_compare_swap(T *dest, T cond, T value, int pe) {
  if constexpr (sizeof(T) == 4 || sizeof(T) == 8) {
    const detail::peer_at<T> m = detail::mapped_at(dest, pe);
    if (__builtin_expect(m.ok, 1)) return detail::cas_sel(m.p, cond, value, m.sys);
  } else if (T *t = detail::mapped(dest, pe)) {
    return detail::amo_at(t, pe, [cond, value](auto r) {
      T expected = cond;
      r.compare_exchange_strong(expected, value, ::cuda::memory_order_relaxed);
      return expected;
    });
  }
  return detail::remote_amo_t<T>(dest, pe, SYMMEM_PROXY_AMO_CSWAP, value, cond, true, "atomic_compare_swap");
}
template <typename T>
__device__ __forceinline__ T atomic_fetch_inc(T *dest, int pe) { return atomic_fetch_add(dest, (T)1, pe); }
template <typename T>
__device__ __forceinline__ void atomic_inc(T *dest, int pe) { atomic_add(dest, (T)1, pe); }

/* ---- signals ---------------------------------------------------------------------------------- */
/* SYMMEM_SIGNAL_SET is one release store, SYMMEM_SIGNAL_ADD one release add: a release is
 * cumulative, so the data this thread put (and what a __syncthreads made visible to it) is visible
 * to whoever acquires the signal. Scope: the fences' (every peer), since the data may have gone to
 * other PEs than the signal. */
__device__ __forceinline__ void signal_op(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe) {
  uint64_t *t = detail::mapped(sig_addr, pe);
  if (t == nullptr) return detail::remote_signal(sig_addr, signal, sig_op, pe, "signal_op");
  if (sig_op == SYMMEM_SIGNAL_SET) {
    detail::st_release(t, signal, detail::gpu_scope());
  } else if (sig_op == SYMMEM_SIGNAL_ADD) {
    if (detail::gpu_scope()) {
      ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_device>(*t).fetch_add(signal, ::cuda::memory_order_release);
    } else {
      ::cuda::atomic_ref<uint64_t, ::cuda::thread_scope_system>(*t).fetch_add(signal, ::cuda::memory_order_release);
    }
  } else {
    detail::bad_signal_op(sig_op, "signal_op");
  }
}
__device__ __forceinline__ uint64_t signal_fetch(const uint64_t *sig_addr) {
  return detail::ld_acquire(sig_addr, detail::gpu_scope());
}
/* To a PE on another host: one SIGNAL request (the proxy puts, fences and signals). */
__device__ __forceinline__ void putmem_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  if (detail::mapped(sig, pe) == nullptr) return detail::remote_put_signal(d, s, n, sig, v, op, pe, true, "putmem_signal");
  putmem(d, s, n, pe);
  signal_op(sig, v, op, pe);
}
__device__ __forceinline__ void putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                  int pe) {
  if (detail::mapped(sig, pe) == nullptr) {
    return detail::remote_put_signal(d, s, n, sig, v, op, pe, false, "putmem_signal_nbi");
  }
  putmem_signal(d, s, n, sig, v, op, pe);
}
namespace detail {
template <typename G>
__device__ __forceinline__ void put_signal_group(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                 int pe, bool complete, const char *call) {
  if (mapped(sig, pe) == nullptr) return remote_put_signal_group<G>(d, s, n, sig, v, op, pe, complete, call);
  put_group<G>(d, s, n, pe, true, call);  // ends with the group's sync: every thread's stores precede the fence
  if (G::idx() == 0) signal_op(sig, v, op, pe);
  G::sync();
}
}  // namespace detail
__device__ __forceinline__ void putmem_signal_warp(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                   int pe) {
  detail::put_signal_group<detail::group_warp>(d, s, n, sig, v, op, pe, true, "putmem_signal_warp");
}
__device__ __forceinline__ void putmem_signal_block(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op,
                                                    int pe) {
  detail::put_signal_group<detail::group_block>(d, s, n, sig, v, op, pe, true, "putmem_signal_block");
}
__device__ __forceinline__ void putmem_signal_nbi_warp(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                                       int op, int pe) {
  detail::put_signal_group<detail::group_warp>(d, s, n, sig, v, op, pe, false, "putmem_signal_nbi_warp");
}
__device__ __forceinline__ void putmem_signal_nbi_block(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,
                                                        int op, int pe) {
  detail::put_signal_group<detail::group_block>(d, s, n, sig, v, op, pe, false, "putmem_signal_nbi_block");
}
template <typename T>
__device__ __forceinline__ void put_signal(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op, int pe) {
  putmem_signal(d, s, nelems * sizeof(T), sig, v, op, pe);
}
template <typename T>
__device__ __forceinline__ void put_signal_nbi(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op, int pe) {
  putmem_signal_nbi(d, s, nelems * sizeof(T), sig, v, op, pe);
}
template <typename T>
__device__ __forceinline__ void put_signal_warp(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op, int pe) {
  putmem_signal_warp(d, s, nelems * sizeof(T), sig, v, op, pe);
}
template <typename T>
__device__ __forceinline__ void put_signal_block(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op, int pe) {
  putmem_signal_block(d, s, nelems * sizeof(T), sig, v, op, pe);
}
template <typename T>
__device__ __forceinline__ void put_signal_nbi_warp(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op,
                                                    int pe) {
  putmem_signal_nbi_warp(d, s, nelems * sizeof(T), sig, v, op, pe);
}
template <typename T>
__device__ __forceinline__ void put_signal_nbi_block(T *d, const T *s, size_t nelems, uint64_t *sig, uint64_t v, int op,
                                                     int pe) {
  putmem_signal_nbi_block(d, s, nelems * sizeof(T), sig, v, op, pe);
}

/* ---- point-to-point waits (on this PE's own symmetric variables) ------------------------------ */
__device__ __forceinline__ uint64_t signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t value) {
  return detail::wait_u64(sig_addr, cmp, value, detail::gpu_scope(), symmem_state_.spin_limit_ns, symmem_state_.my_pe,
                          "signal_wait_until");
}
SYMMEM_COLD void wait_until_timeout(const void *ivar, int cmp) {
  printf("symmem: PE %d: wait_until: waited past SYMMEM_WAIT_TIMEOUT for the variable at %p (comparison %d); the "
         "peer never wrote it\n",
         symmem_state_.my_pe, ivar, cmp);
  __trap();
}
/* Relaxed polls at the job's scope (the writer may be any peer), then one fence: a relaxed read
 * that saw the value followed by fence.acq_rel is an acquire pattern. */
template <typename T>
__device__ __forceinline__ void wait_until(T *ivar, int cmp, T value) {
  const bool sc = detail::gpu_scope();
  if (!detail::compare_t<T>(detail::ld_strong(ivar, sc), cmp, value)) {
    const uint64_t start = detail::globaltimer();
    uint32_t turns = 0;
    while (!detail::compare_t<T>(detail::ld_strong(ivar, sc), cmp, value)) {
      if (detail::spin_expired(start, symmem_state_.spin_limit_ns, turns)) wait_until_timeout(ivar, cmp);
    }
  }
  detail::fence_scope(sc);  // later loads see what the writer put before the flag
}
template <typename T>
__device__ __forceinline__ int test(T *ivar, int cmp, T value) {
  const int r = detail::compare_t<T>(detail::ld_strong(ivar, detail::gpu_scope()), cmp, value) ? 1 : 0;
  if (r) detail::fence_scope(detail::gpu_scope());
  return r;
}

/* ---- strided RMA: element i goes from source[i * sst] to dest[i * dst] ------------------------- */
template <typename T>
__device__ __forceinline__ void iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  if (n == 0) return;
  T *d = detail::mapped(dest, pe);
  if (d == nullptr) return detail::remote_iput<detail::group_thread>(dest, source, dst, sst, n, pe);
  for (size_t i = 0; i < n; ++i) d[(ptrdiff_t)i * dst] = source[(ptrdiff_t)i * sst];
}
template <typename T>
__device__ __forceinline__ void iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {
  if (n == 0) return;
  const T *s = detail::mapped(source, pe);
  if (s == nullptr) return detail::remote_iget<detail::group_thread>(dest, source, dst, sst, n, pe);
  for (size_t i = 0; i < n; ++i) dest[(ptrdiff_t)i * dst] = s[(ptrdiff_t)i * sst];
}

/* ---- barriers --------------------------------------------------------------------------------- */
/* One thread per PE. Puts are stores that are performed when issued, so completing them (quiet)
 * is ordering them before the barrier's flag: the flag store is a release (st.release, cumulative),
 * which already does that. So barrier_all and sync_all are the same barrier here. With PEs on other
 * hosts the barrier first completes the requests in the proxy ring (proxy.cuh). */
__device__ __forceinline__ void barrier_all() { detail::barrier_core(); }
__device__ __forceinline__ void sync_all() { detail::barrier_core(); }
/* Every thread of the block (warp): the group's earlier stores are ordered before the barrier's
 * flags by __syncthreads (__syncwarp) and the flags' releases, which are cumulative
 * (team_barrier_group). */
__device__ __forceinline__ void barrier_all_block() { detail::team_barrier_group<detail::group_block>(0, "barrier"); }
__device__ __forceinline__ void sync_all_block() { detail::team_barrier_group<detail::group_block>(0, "barrier"); }
__device__ __forceinline__ void barrier_all_warp() { detail::team_barrier_group<detail::group_warp>(0, "barrier"); }
__device__ __forceinline__ void sync_all_warp() { detail::team_barrier_group<detail::group_warp>(0, "barrier"); }

/* ---- teams ------------------------------------------------------------------------------------ */
/* `team` is a team index (NVSHMEM's nvshmem_team_t): 0 is the world. */
__device__ __forceinline__ int team_my_pe(int team) {
  if (team == 0) return symmem_state_.my_pe;
  if ((unsigned)team >= SYMMEM_DEVICE_MAX_TEAMS || symmem_state_.teams == nullptr) return -1;
  const symmem_device_team t = symmem_state_.teams[team];
  return t.size > 0 ? t.my_index : -1;
}
__device__ __forceinline__ int team_n_pes(int team) {
  if (team == 0) return symmem_state_.n_pes;
  if ((unsigned)team >= SYMMEM_DEVICE_MAX_TEAMS || symmem_state_.teams == nullptr) return -1;
  const symmem_device_team t = symmem_state_.teams[team];
  return t.size > 0 && t.my_index >= 0 ? t.size : -1;
}
/* PE `pe` of team `src` as a PE of team `dst`; -1 when it is not a member. */
__device__ __forceinline__ int team_translate_pe(int src, int pe, int dst) {
  if ((unsigned)src >= SYMMEM_DEVICE_MAX_TEAMS || (unsigned)dst >= SYMMEM_DEVICE_MAX_TEAMS) return -1;
  const symmem_device_team a = src == 0 ? detail::team_of(0, "") : symmem_state_.teams[src];
  const symmem_device_team b = dst == 0 ? detail::team_of(0, "") : symmem_state_.teams[dst];
  if (a.size <= 0 || b.size <= 0 || pe < 0 || pe >= a.size) return -1;
  const int world = detail::team_member(a, pe);
  if (b.pes != nullptr) {
    for (int i = 0; i < b.size; ++i)
      if (b.pes[i] == world) return i;
    return -1;
  }
  const int d = world - b.start;
  if (b.size == 1) return d == 0 ? 0 : -1;
  if (b.stride <= 0 || d % b.stride != 0) return -1;
  const int i = d / b.stride;
  return i >= 0 && i < b.size ? i : -1;
}
/* Barrier (quiet + sync) and sync over a team, one thread of the PE; *_warp / *_block forms. Puts
 * are performed stores, and the flag stores are releases: barrier and sync are one barrier. */
__device__ __forceinline__ void team_sync(int team) { detail::team_barrier_core(team, "team_sync"); }
__device__ __forceinline__ void team_barrier(int team) { detail::team_barrier_core(team, "barrier"); }
template <typename G>
__device__ __forceinline__ void team_sync_group(int team) {
  detail::team_barrier_group<G>(team, "team_sync");
}
#endif /* SYMMEM_DEVICE_NO_STATE */

}  // namespace device
}  // namespace symmem

#ifndef SYMMEM_DEVICE_NO_STATE
#include "symmem/detail/coll.cuh"
#include "symmem/detail/waits.cuh"
#endif

#endif /* SYMMEM_DEVICE_CUH */
