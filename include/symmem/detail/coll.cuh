/* symmem: device collectives over a team (included by <symmem/device.cuh>).
 *
 * Algorithms for PEs that reach each other's heaps with loads and stores (one GPU, or GPUs of one
 * NVLink domain): a team barrier, then every PE *pulls* what it needs straight from the members'
 * source buffers (peer mappings), then a second barrier so no source is overwritten while a peer
 * still reads it. Pulling lets every PE (and every thread of the calling group) move its own
 * share at once, needs no scratch buffer or pSync, and reads the members in the same order on
 * every PE, so reductions give bitwise-identical results everywhere (OpenSHMEM 1.5 section 9.9).
 * The data phases take (tid, nthreads) so the library's stream kernels can spread one collective
 * over a whole grid between two barrier kernels (src/cuda/coll_kernels.cu).
 *
 * On a team with a member on another host, broadcast, fcollect and alltoall push through the
 * proxy ring instead (below), and reductions fetch the remote members' sources through the ring
 * into this PE's scratch for the team, chunk by chunk (reduce_remote).
 *
 * dest and source may be the same buffer for reductions (handled by staging in registers between
 * barriers) but must not partly overlap; for the other collectives they must not overlap.
 */
#ifndef SYMMEM_DETAIL_COLL_CUH
#define SYMMEM_DETAIL_COLL_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector_types.h>

#include <type_traits>

namespace symmem {
namespace device {
namespace detail {

/* ---- reduction operators ---------------------------------------------------------------------- */
template <typename T>
struct is_half : std::integral_constant<bool, std::is_same<T, __half>::value || std::is_same<T, __nv_bfloat16>::value> {};

template <int OP, typename T>
__device__ __forceinline__ T combine(T a, T b) {
  if constexpr (OP == SYMMEM_RED_MAXLOC || OP == SYMMEM_RED_MINLOC) {
    static_assert(std::is_same<T, double2>::value, "maxloc/minloc reduce double2 (value, index) pairs");
    const bool take_b = OP == SYMMEM_RED_MAXLOC ? (b.x > a.x || (b.x == a.x && b.y < a.y))
                                                : (b.x < a.x || (b.x == a.x && b.y < a.y));
    return take_b ? b : a;
  } else if constexpr (is_half<T>::value) {
    static_assert(OP <= SYMMEM_RED_MAX, "and/or/xor reduce integer types only");
    const float x = (float)a, y = (float)b;  // one rounding, as the native half operators do
    float r = OP == SYMMEM_RED_SUM ? x + y : OP == SYMMEM_RED_PROD ? x * y : OP == SYMMEM_RED_MIN ? fminf(x, y) : fmaxf(x, y);
    return T(r);
  } else if constexpr (OP == SYMMEM_RED_SUM) {
    return a + b;
  } else if constexpr (OP == SYMMEM_RED_PROD) {
    return a * b;
  } else if constexpr (OP == SYMMEM_RED_MIN) {
    return b < a ? b : a;
  } else if constexpr (OP == SYMMEM_RED_MAX) {
    return b > a ? b : a;
  } else {
    static_assert(std::is_integral<T>::value, "and/or/xor reduce integer types only");
    return OP == SYMMEM_RED_AND ? T(a & b) : OP == SYMMEM_RED_OR ? T(a | b) : T(a ^ b);
  }
}


/* ---- data phases: thread `tid` of `nth` cooperating threads ----------------------------------- */
/* Whole 16-byte lines, each thread loading 8 before it stores them: a load stalls only the store
 * that needs its value, so 8 loads are in flight at once where copy_bytes's loop (kept to 4 for the
 * register budget of the point-to-point calls) has 4, and one thread of a pull is latency bound. */
__device__ __forceinline__ void copy_lines8(int4 *d, const int4 *s, size_t lines, size_t tid, size_t nth) {
  for (size_t i = tid; i < lines; i += 8 * nth) {
    int4 v[8];
#pragma unroll
    for (int u = 0; u < 8; ++u)
      if (i + u * nth < lines) v[u] = s[i + u * nth];
#pragma unroll
    for (int u = 0; u < 8; ++u)
      if (i + u * nth < lines) d[i + u * nth] = v[u];
  }
}

__device__ __forceinline__ bool lines_ok(const void *d, const void *s, size_t n) {
  return ((((uintptr_t)d | (uintptr_t)s) | n) & 15) == 0;
}

/* n bytes by 8 lines per thread where both ends and n allow whole lines, else by copy_bytes. */
__device__ __forceinline__ void copy_block(char *d, const char *s, size_t n, size_t tid, size_t nth) {
  if (lines_ok(d, s, n)) copy_lines8((int4 *)d, (const int4 *)s, n / 16, tid, nth);
  else copy_bytes(d, s, n, tid, nth);
}

/* One block of nb bytes per member: member j's copy of `block` (its address here) lands at
 * dest + j*nb. Members are visited from this PE's right neighbour on, so the PEs do not all read
 * the same member at once. Whole 16-byte lines go in batches of 8 loads per thread before their
 * stores: with few lines per thread and member, 2 lines of 4 members at a time, so that the small
 * blocks of all members are in flight together (one thread pulling 32 B from each of 4 members
 * waits for one round of loads, not for eight one after another); with more, 8 lines of one
 * member at a time. Measured on an H100 at 4 PEs, 1000 calls of NVSHMEM's perftests: a thread,
 * warp or block with 2 lines per member and thread took 4.9-5.7 us instead of 6.1-7.4 by
 * copy_bytes, member after member; 4 lines of a warp or block were 5.7 us either way against
 * 6.2 by batches across members (a thread's 4 lines: 6.4 across members, 7.5 member after
 * member); a walk of all (member, line) pairs as one sequence, 8 at a time, took 10.5 us there. */
__device__ __forceinline__ void gather_blocks(const symmem_device_team &t, char *dest, const char *block, size_t nb,
                                              size_t tid, size_t nth, const char *call) {
  const size_t lines = nb / 16;
  if (!lines_ok(dest, block, nb) || lines == 0 || (lines >= 4 * nth && (nth > 1 || lines >= 8))) {
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.my_index + k) % t.size;
      copy_block(dest + (size_t)j * nb, peer(block, team_member(t, j), call), nb, tid, nth);
    }
  } else {
    for (size_t l0 = tid; l0 < lines; l0 += 2 * nth) {
      for (int k0 = 0; k0 < t.size; k0 += 4) {
        const int4 *from[4];
        int4 *to[4];
#pragma unroll
        for (int m = 0; m < 4; ++m) {
          int j = t.my_index + k0 + m;
          if (j >= t.size) j -= t.size;
          from[m] = k0 + m < t.size ? (const int4 *)peer(block, team_member(t, j), call) : nullptr;
          to[m] = (int4 *)(dest + (size_t)j * nb);
        }
        int4 v[8];
#pragma unroll
        for (int m = 0; m < 4; ++m)
#pragma unroll
          for (int r = 0; r < 2; ++r)
            if (k0 + m < t.size && l0 + r * nth < lines) v[m * 2 + r] = from[m][l0 + r * nth];
#pragma unroll
        for (int m = 0; m < 4; ++m)
#pragma unroll
          for (int r = 0; r < 2; ++r)
            if (k0 + m < t.size && l0 + r * nth < lines) to[m][l0 + r * nth] = v[m * 2 + r];
      }
    }
  }
}

template <typename T>
__device__ __forceinline__ void broadcast_data(const symmem_device_team &t, T *dest, const T *src, size_t n, int root,
                                               size_t tid, size_t nth) {
  if ((unsigned)root >= (unsigned)t.size) bad_target(src, root, "broadcast (root is not a member of the team)");
  copy_block((char *)dest, (const char *)peer(src, team_member(t, root), "broadcast"), n * sizeof(T), tid, nth);
}

/* Member j's block lands at dest + j*n. */
template <typename T>
__device__ __forceinline__ void fcollect_data(const symmem_device_team &t, T *dest, const T *src, size_t n,
                                              size_t tid, size_t nth) {
  gather_blocks(t, (char *)dest, (const char *)src, n * sizeof(T), tid, nth, "fcollect");
}

/* Block i of member j's source (i: this PE's index) lands at dest + j*n. */
template <typename T>
__device__ __forceinline__ void alltoall_data(const symmem_device_team &t, T *dest, const T *src, size_t n,
                                              size_t tid, size_t nth) {
  gather_blocks(t, (char *)dest, (const char *)(src + (size_t)t.my_index * n), n * sizeof(T), tid, nth, "alltoall");
}

/* Element i of the reduction over the members' src[i], members in team order. */
template <int OP, typename T>
__device__ __forceinline__ T reduce_elem(const symmem_device_team &t, const T *src, size_t i) {
  T acc = peer(src, team_member(t, 0), "reduce")[i];
  for (int j = 1; j < t.size; ++j) acc = combine<OP>(acc, peer(src, team_member(t, j), "reduce")[i]);
  return acc;
}

/* dest[i] = reduction of the members' src[first + i], i < n (reduce: first 0; reducescatter: this
 * PE's block). */
template <int OP, typename T>
__device__ __forceinline__ void reduce_data(const symmem_device_team &t, T *dest, const T *src, size_t first, size_t n,
                                            size_t tid, size_t nth) {
  /* Teams of up to 8: the members' source pointers are translated once and kept in registers, so
   * each element costs its loads and combines only (per element translation made the one-thread
   * form 2x slower than NVSHMEM's from 256 B up). Combined in team order, as reduce_elem does. */
  constexpr int kRegs = 8;
  if (t.size <= kRegs) {
    const T *m[kRegs];
#pragma unroll
    for (int j = 0; j < kRegs; ++j) m[j] = j < t.size ? peer(src, team_member(t, j), "reduce") + first : nullptr;
    /* kBatch elements at a time: every member's loads of the batch are issued before its first
     * store (dest might alias a source as far as the compiler knows, so it would not move a load
     * of element i + nth above the store of element i: one round trip to the peers per element). */
    constexpr int kBatch = 4;
    size_t i = tid;
    for (; i + (kBatch - 1) * nth < n; i += kBatch * nth) {
      T acc[kBatch];
#pragma unroll
      for (int b = 0; b < kBatch; ++b) acc[b] = m[0][i + b * nth];
#pragma unroll
      for (int j = 1; j < kRegs; ++j) {
        if (j < t.size) {
#pragma unroll
          for (int b = 0; b < kBatch; ++b) acc[b] = combine<OP>(acc[b], m[j][i + b * nth]);
        }
      }
#pragma unroll
      for (int b = 0; b < kBatch; ++b) dest[i + b * nth] = acc[b];
    }
    for (; i < n; i += nth) {
      T acc = m[0][i];
#pragma unroll
      for (int j = 1; j < kRegs; ++j) {
        if (j < t.size) acc = combine<OP>(acc, m[j][i]);
      }
      dest[i] = acc;
    }
    return;
  }
  for (size_t i = tid; i < n; i += nth) dest[i] = reduce_elem<OP>(t, src, first + i);
}

/* ---- teams with members on other hosts (only in a job with a proxy ring) ---------------------
 * broadcast, fcollect and alltoall push instead of pulling: each PE writes its contribution into
 * the members' dest, with stores where the member is mapped and one PUT request through the ring
 * (thread 0 of the group) where it is on another host; the closing barrier quiets the ring first,
 * so every dest is complete when it returns. */
__device__ __forceinline__ bool any_remote(const symmem_device_team &t) {
  if (symmem_state_.proxy_ring == 0) return false;
  for (int i = 0; i < t.size; ++i)
    if (peer_entry(team_member(t, i)) == 0) return true;
  return false;
}

__device__ __forceinline__ void push_bytes(char *dest, const char *src, size_t n, int pe, size_t tid, size_t nth,
                                           const char *call) {
  if (n == 0) return;
  if (char *d = mapped(dest, pe)) copy_bytes(d, src, n, tid, nth);
  else if (tid == 0) remote_put(dest, src, n, pe, false, call);
}

template <typename T>
__device__ __forceinline__ void broadcast_push(const symmem_device_team &t, T *dest, const T *src, size_t n, int root,
                                               size_t tid, size_t nth) {
  if (t.my_index != root) return;  // broadcast() has checked the root
  for (int k = 0; k < t.size; ++k) {
    const int j = (t.my_index + k) % t.size;
    push_bytes((char *)dest, (const char *)src, n * sizeof(T), team_member(t, j), tid, nth, "broadcast");
  }
}

template <typename T>
__device__ __forceinline__ void fcollect_push(const symmem_device_team &t, T *dest, const T *src, size_t n, size_t tid,
                                              size_t nth) {
  for (int k = 0; k < t.size; ++k) {
    const int j = (t.my_index + k) % t.size;
    push_bytes((char *)(dest + (size_t)t.my_index * n), (const char *)src, n * sizeof(T), team_member(t, j), tid, nth,
               "fcollect");
  }
}

template <typename T>
__device__ __forceinline__ void alltoall_push(const symmem_device_team &t, T *dest, const T *src, size_t n, size_t tid,
                                              size_t nth) {
  for (int k = 0; k < t.size; ++k) {
    const int j = (t.my_index + k) % t.size;
    push_bytes((char *)(dest + (size_t)t.my_index * n), (const char *)(src + (size_t)j * n), n * sizeof(T),
               team_member(t, j), tid, nth, "alltoall");
  }
}

template <typename G>
__device__ __forceinline__ void group_barrier(int team, const char *call) {
  team_barrier_group<G>(team, call);
}

/* In place (dest overlaps src): each round reads a chunk of every member's source into registers,
 * waits until every member has read that chunk, then writes it. */
template <int OP, typename T, typename G>
__device__ __forceinline__ void reduce_staged(int team, const symmem_device_team &t, T *dest, const T *src,
                                              size_t first, size_t n) {
  constexpr int K = 4;
  const size_t chunk = G::size() * K;
  for (size_t base = 0; base < n; base += chunk) {
    T v[K];
    for (int k = 0; k < K; ++k) {
      const size_t i = base + G::idx() + (size_t)k * G::size();
      if (i < n) v[k] = reduce_elem<OP>(t, src, first + i);
    }
    group_barrier<G>(team, "reduce");
    for (int k = 0; k < K; ++k) {
      const size_t i = base + G::idx() + (size_t)k * G::size();
      if (i < n) dest[i] = v[k];
    }
  }
}

/* ---- small fcollects and broadcasts without barriers (LL: NVSHMEM's low-latency protocol) -----
 * On a team made at init whose members are all mapped here, data travels as 8-byte words, each 4
 * bytes of data beside the call's 4-byte flag, two words to a 16-byte line stored and loaded by
 * one vector access, into an area of the receiving member that the call owns; the receiver waits
 * for both words of each line to carry the flag. Each 64-bit word is seen whole, so a word with
 * the flag has its data: no barrier, no fence. Flags count the calls of
 * their kind on the team (the same on every member: the calls are collective), are never 0 (what
 * a fresh area holds) and differ from every recent call's.
 *
 * fcollect (up to SYMMEM_DEVICE_LL_BYTES per member by a block, SYMMEM_DEVICE_LL_WARP_BYTES by a
 * warp, a multiple of 4; alltoall likewise, member j getting block j; reduce below): each member
 * stores its block into its own slot of every member's LL
 * area for the call's parity, then reads every member's slot in its own area. A slot of parity p is written again two calls later, by a member
 * that has received every member's block of the call between, so every member has finished
 * reading it.
 *
 * broadcast (up to SYMMEM_DEVICE_LL_BCAST_BYTES by a block, _WARP_BYTES by a warp, _THREAD_BYTES
 * by one thread): the root stores the words at the call's offset into every other member's
 * broadcast area; the offset advances by the call's words on every member alike. Here a receiver tells the root
 * nothing, so when a call's words do not fit before the area's end, the members first take a team
 * barrier and start again at offset 0: every member has then left every earlier call. */
__device__ __forceinline__ bool ll_common(int team, const symmem_device_team &t, const void *dest, const void *src,
                                          size_t bytes) {
  const symmem_device_state &s = symmem_state_;
  return team < SYMMEM_DEVICE_LL_TEAMS && s.ll_offset != 0 && bytes != 0 && bytes % 4 == 0 &&
         (((uintptr_t)dest | (uintptr_t)src) & 3) == 0 && t.size <= SYMMEM_DEVICE_LL_MEMBERS && s.proxy_ring == 0;
}

template <typename G>
__device__ __forceinline__ bool ll_fits(int team, const symmem_device_team &t, const void *dest, const void *src,
                                        size_t bytes) {
  // One thread stores and polls every line itself: past two lines per member the barriers are
  // cheaper (one H100, 4 PEs, alltoall 32-bit: 4 / 8 / 16 B per member 6.1 / 4.9 / 7.5 us by LL
  // against 7.9 / 7.5 / 7.3 for NVSHMEM; 32 / 64 B 10.9 / 19.1 us by LL, 8.4 / 8.5 by barriers).
  constexpr size_t limit = std::is_same<G, group_thread>::value ? SYMMEM_DEVICE_LL_THREAD_BYTES
                           : std::is_same<G, group_warp>::value ? SYMMEM_DEVICE_LL_WARP_BYTES
                                                                : SYMMEM_DEVICE_LL_BYTES;
  return bytes <= limit && ll_common(team, t, dest, src, bytes);
}

/* fcollect and alltoall: a warp's lanes also poll every line of every other member, so past 1 KiB
 * from all of them together the barriers (and the pull of gather_blocks) win: on one H100, 1000
 * calls, a warp's fcollect of 512 B per member took 5.8 us by LL at 4 PEs, where 1 KiB per member
 * by barriers took 4.8-5.2 (NVSHMEM 4.5-5.6), and 2.5-2.7 us by LL at 2 PEs. One thread stops at
 * 8 B per member where its barrier takes one round (SYMMEM_DEVICE_ONE_ROUND_THREAD): there its
 * alltoall of 32 B per member by the barriers took 5.0 us at 4 PEs, and of 16 B by LL 7.0 (8 B by
 * LL 5.2; NVSHMEM 5.8-6.2 for all three); fcollect 5.4 against 6.6. */
template <typename G>
__device__ __forceinline__ bool ll_move_fits(int team, const symmem_device_team &t, const void *dest, const void *src,
                                             size_t bytes) {
  if (std::is_same<G, group_warp>::value && bytes * (size_t)(t.size - 1) > 1024) return false;
  if (std::is_same<G, group_thread>::value && bytes > 8 && SYMMEM_DEVICE_ONE_ROUND_THREAD(t.size)) return false;
  return ll_fits<G>(team, t, dest, src, bytes);
}

template <typename G>
__device__ __forceinline__ bool ll_bcast_fits(int team, const symmem_device_team &t, const void *dest,
                                              const void *src, size_t bytes) {
  // Past these a warp's lanes (a thread) poll more words than two barriers cost: a warp's 8 KiB
  // took 8.4 us by LL, 3.8 us by barriers (2 PEs); a block's 8 KiB 2.0 us by LL.
  constexpr size_t limit = std::is_same<G, group_thread>::value ? SYMMEM_DEVICE_LL_BCAST_THREAD_BYTES
                           : std::is_same<G, group_warp>::value ? SYMMEM_DEVICE_LL_BCAST_WARP_BYTES
                                                                : SYMMEM_DEVICE_LL_BCAST_BYTES;
  return bytes <= limit && ll_common(team, t, dest, src, bytes);
}

__device__ __forceinline__ uint32_t ll_flag(uint64_t call) { return (uint32_t)(call % 0xFFFFFFFFull) + 1; }

SYMMEM_COLD void ll_timeout(const char *call, int member, size_t line, uint64_t seen, uint32_t flag) {
  printf("symmem: PE %d: %s: waited past SYMMEM_WAIT_TIMEOUT for line %llu of team member %d's data (it holds "
         "flag %u, the call's is %u). The member never made this call: check that every PE makes the same calls "
         "with the same sizes\n",
         symmem_state_.my_pe, call, (unsigned long long)line, member, (unsigned)(seen >> 32), flag);
  __trap();
}

/* An LL line: 16 bytes, two 8-byte words of 4 data bytes beside the call's flag, stored and
 * loaded as one vector access. Each word is seen whole (an aligned 8-byte element of the access),
 * so the receiver checks both flags; a line carries twice the data of a single word for each
 * load a thread waits on. */
__device__ __forceinline__ void ll_line_store(uint64_t *to, uint64_t lo, uint64_t hi) {
  asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(to), "l"(lo), "l"(hi) : "memory");
}
__device__ __forceinline__ void ll_line_load(const uint64_t *p, bool gpu_scope, uint64_t &lo, uint64_t &hi) {
  if (gpu_scope) asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "l"(p) : "memory");
  else asm volatile("ld.relaxed.sys.global.v2.u64 {%0, %1}, [%2];" : "=l"(lo), "=l"(hi) : "l"(p) : "memory");
}
/* LL lines holding `words` 4-byte words (the last one's second word is padding when odd). */
__host__ __device__ __forceinline__ size_t ll_lines(size_t words) { return (words + 1) / 2; }

/* Polls a batch of up to K LL lines until both words of each carry `flag`: the lines u of the
 * `pending` mask, at line_at(u), are loaded together, and the ones not complete yet are loaded
 * again together (one round trip per poll for the batch, not one per late line). lo/hi hold the
 * lines on return. A wait past the limit names member_of(u) and line_of(u) of the first late line. */
template <int K, typename At, typename Member, typename Line>
__device__ __forceinline__ void ll_poll(const char *call, uint32_t flag, uint32_t pending, uint64_t (&lo)[K],
                                        uint64_t (&hi)[K], At line_at, Member member_of, Line line_of) {
  static_assert(K >= 1 && K <= 32, "a batch's lines are tracked in a 32-bit mask");
  const symmem_device_state &s = symmem_state_;
  const bool gs = s.gpu_scope_ok != 0;
#pragma unroll
  for (int u = 0; u < K; ++u) {
    if (pending & (1u << u)) ll_line_load(line_at(u), gs, lo[u], hi[u]);
  }
  uint64_t start = 0;
  uint32_t turns = 0;
  for (;;) {
#pragma unroll
    for (int u = 0; u < K; ++u) {
      if ((pending & (1u << u)) && (uint32_t)(lo[u] >> 32) == flag && (uint32_t)(hi[u] >> 32) == flag)
        pending &= ~(1u << u);
    }
    if (pending == 0) return;
    if (start == 0) start = globaltimer();
    if (spin_expired(start, s.spin_limit_ns, turns)) {
      const int u = __ffs(pending) - 1;
      ll_timeout(call, member_of(u), line_of(u), (uint32_t)(lo[u] >> 32) != flag ? lo[u] : hi[u], flag);
    }
#pragma unroll
    for (int u = 0; u < K; ++u) {
      if (pending & (1u << u)) ll_line_load(line_at(u), gs, lo[u], hi[u]);
    }
  }
}

/* Receives `total` LL lines: line q is at line_at(q), its data goes to out[out_index(q)] and, when
 * has_second(q), out[out_index(q) + 1]; it comes from team member member_of(q). A thread's share is
 * polled kLoads lines at a time (ll_poll), so that the loads overlap. */
template <typename G, int kLoads, typename At, typename Index, typename Second, typename Member>
__device__ __forceinline__ void ll_receive(const char *call, uint32_t *out, size_t total, uint32_t flag, At line_at,
                                           Index out_index, Second has_second, Member member_of) {
  for (size_t q0 = G::idx(); q0 < total; q0 += kLoads * G::size()) {
    uint64_t lo[kLoads], hi[kLoads];
    uint32_t pending = 0;
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      if (q0 + (size_t)u * G::size() < total) pending |= 1u << u;
    }
    auto q_of = [q0](int u) { return q0 + (size_t)u * G::size(); };
    ll_poll<kLoads>(
        call, flag, pending, lo, hi, [&](int u) { return line_at(q_of(u)); }, [&](int u) { return member_of(q_of(u)); },
        q_of);
#pragma unroll
    for (int u = 0; u < kLoads; ++u) {
      if (!(pending & (1u << u))) continue;
      const size_t q = q_of(u);
      const size_t i = out_index(q);
      out[i] = (uint32_t)lo[u];
      if (has_second(q)) out[i + 1] = (uint32_t)hi[u];
    }
  }
}

/* Stores `words` 4-byte words of `in` as LL lines at `to` (16-byte aligned). */
__device__ __forceinline__ void ll_store(uint64_t *to, uint32_t flag, const uint32_t *in, size_t words, size_t tid,
                                         size_t nth) {
  const uint64_t f = (uint64_t)flag << 32;
  const size_t lines = ll_lines(words);
  for (size_t l = tid; l < lines; l += nth) {
    const size_t w = 2 * l;
    ll_line_store(to + w, f | in[w], f | (w + 1 < words ? in[w + 1] : 0u));
  }
}

/* A group's count of its LL calls on a team (and the broadcast's offset), read at CTA scope, from
 * L1 where the line is there: the group's previous call stored it before that call's closing sync,
 * and a call by another block (or an earlier kernel) is ordered before this one by a grid sync or
 * the kernel boundary, whose fences make the store visible to any load after them. At GPU scope
 * the read was an L2 round trip at the head of every call (below). */
__device__ __forceinline__ uint64_t ld_count(const uint64_t *p) {
  uint64_t v;
  asm volatile("ld.relaxed.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}

/* fcollect and alltoall by LL (alltoall with `stride` = the block's words: member j gets src block
 * j). A thread takes whole lines: it loads line l of the source once (fcollect) or of the first
 * four members' blocks at once (alltoall), then stores it to every member, and its own copy into
 * dest. On one H100, 4 PEs, 1000 calls of NVSHMEM's perftests (sizes as they print them: all
 * members' bytes), against member after member with a GPU-scope count read and three syncs, in one
 * run: a block's fcollect of 64 B-4 KiB 2.36-2.96 -> 2.02-2.64 us (NVSHMEM 2.31-4.56), a warp's
 * of 16 B-1 KiB 2.88-3.60 -> 2.25-3.05 (NVSHMEM 3.33-8.22), a warp's alltoall 3.12-3.79 ->
 * 2.53-3.38 (NVSHMEM 5.84-6.29). One thread's LL rows move by up to 1.5 us between builds of
 * the same code (3.6-5.5 us; NVSHMEM 5.6-6.8). */
template <typename G>
__device__ __forceinline__ void fcollect_ll(int team, const symmem_device_team &t, void *dest, const void *src,
                                            size_t bytes, size_t stride = 0) {
  const symmem_device_state &s = symmem_state_;
  uint64_t *calls = &sync_of(s.my_pe)->team[team].ll_calls;
  const uint64_t call = ld_count(calls) + 1;  // its parity picks the area
  const uint32_t flag = ll_flag(call);
  G::sync();  // every thread has the count, so the next one may be stored; and the group's source is whole
  if (G::idx() == 0) st_strong(calls, call, true);  // the group's next call reads it after the closing sync
  const size_t words = bytes / 4;
  /* Slot j of parity p of the team's area: member j's block. */
  const uint64_t area = s.heap_base + s.ll_offset + (uint64_t)team * SYMMEM_DEVICE_LL_TEAM_BYTES +
                        (call & 1) * SYMMEM_DEVICE_LL_MEMBERS * SYMMEM_DEVICE_LL_SLOT_BYTES;
  const uint32_t *in = (const uint32_t *)src;
  uint32_t *out = (uint32_t *)dest;
  uint32_t *own_out = out + (size_t)t.my_index * words;
  uint64_t *slot = (uint64_t *)(area + (uint64_t)t.my_index * SYMMEM_DEVICE_LL_SLOT_BYTES);
  const uint64_t f = (uint64_t)flag << 32;
  for (size_t l = G::idx(); l < ll_lines(words); l += G::size()) {
    const size_t w = 2 * l;
    const bool two = w + 1 < words;
    if (stride == 0) {
      const uint32_t a = in[w], b = two ? in[w + 1] : 0u;
      for (int k = 1; k < t.size; ++k)  // the right neighbour first, as the other collectives
        ll_line_store(peer(slot, team_member(t, (t.my_index + k) % t.size), "fcollect") + w, f | a, f | b);
      own_out[w] = a;
      if (two) own_out[w + 1] = b;
      continue;
    }
    for (int k0 = 0; k0 < t.size; k0 += 4) {  // k: the member's distance to the right; 0 is this PE
      uint32_t a[4], b[4];
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        const size_t at = (size_t)((t.my_index + k0 + u) % t.size) * stride + w;
        if (k0 + u < t.size) {
          a[u] = in[at];
          b[u] = two ? in[at + 1] : 0u;
        }
      }
#pragma unroll
      for (int u = 0; u < 4; ++u) {
        if (k0 + u >= t.size) break;
        if (k0 + u == 0) {
          own_out[w] = a[u];
          if (two) own_out[w + 1] = b[u];
        } else {
          ll_line_store(peer(slot, team_member(t, (t.my_index + k0 + u) % t.size), "alltoall") + w, f | a[u], f | b[u]);
        }
      }
    }
  }
  /* Every other member's lines, counted q = (k - 1) * lines + l from the left neighbour on (k: its
   * distance). */
  const uint64_t *mine = peer((const uint64_t *)area, s.my_pe, "fcollect");
  const size_t lines = ll_lines(words);
  auto member_of = [&](size_t q) { return (t.my_index + t.size - 1 - (int)(q / lines)) % t.size; };
  // Four lines at a time: eight made every warp and block figure at 4 PEs slower (a block's 2 KiB
  // per member 3.5 -> 4.1 us, a warp's 512 B 5.6 -> 5.9 us), as eight and sixteen 8-byte words did.
  // One thread takes eight: the lines of 4 members' 16 bytes in one batch.
  ll_receive<G, std::is_same<G, group_thread>::value ? 8 : 4>(
      "fcollect", out, (size_t)(t.size - 1) * lines, flag,
      [&](size_t q) { return mine + (size_t)member_of(q) * (SYMMEM_DEVICE_LL_SLOT_BYTES / 8) + 2 * (q % lines); },
      [&](size_t q) { return (size_t)member_of(q) * words + 2 * (q % lines); },
      [&](size_t q) { return 2 * (q % lines) + 1 < words; }, member_of);
  G::sync();  // the group's dest is whole, and its next call reads the count stored above
}

/* reduce and reducescatter (up to SYMMEM_DEVICE_LL_BYTES of dest by a block, _WARP_BYTES by a
 * warp; teams of up to 8; elements of 1, 2, 4 or 8 bytes): each member stores the block that member
 * j needs (src + j * stride elements) into its own slot of j's LL area, as fcollect does, then each
 * thread takes whole lines: it waits for that line of every other member and combines the line's
 * elements over the members in team order (its own from src), so every member gets the same bits
 * as with the barriers, and no barrier is taken. The slots and flags are fcollect's: the two count
 * their calls together, so the parity argument above holds for any mix of them. A thread reads
 * only the lines of src that it stores and combines, so dest may be src (reduce in place). */
template <int OP, typename T, typename G>
__device__ __forceinline__ void reduce_ll(int team, const symmem_device_team &t, T *dest, const T *src, size_t stride,
                                          size_t bytes) {
  static_assert(sizeof(T) <= 8 && 8 % sizeof(T) == 0, "LL lines hold whole elements");
  constexpr int kMembers = 8;
  const symmem_device_state &s = symmem_state_;
  uint64_t *calls = &sync_of(s.my_pe)->team[team].ll_calls;
  const uint64_t call = ld_count(calls) + 1;  // its parity picks the area
  const uint32_t flag = ll_flag(call);
  G::sync();  // every thread has the count, and the group's source is whole
  if (G::idx() == 0) st_strong(calls, call, true);  // read by the group's next call, after the closing sync
  const size_t words = bytes / 4;
  const uint64_t area = s.heap_base + s.ll_offset + (uint64_t)team * SYMMEM_DEVICE_LL_TEAM_BYTES +
                        (call & 1) * SYMMEM_DEVICE_LL_MEMBERS * SYMMEM_DEVICE_LL_SLOT_BYTES;
  for (int k = 1; k < t.size; ++k) {  // the right neighbour first, as the other collectives
    const int j = (t.my_index + k) % t.size;
    ll_store(peer((uint64_t *)(area + (uint64_t)t.my_index * SYMMEM_DEVICE_LL_SLOT_BYTES), team_member(t, j), "reduce"),
             flag, (const uint32_t *)(src + (size_t)j * stride), words, G::idx(), G::size());
  }
  const uint32_t *own = (const uint32_t *)(src + (size_t)t.my_index * stride);
  const uint64_t *mine = peer((const uint64_t *)area, s.my_pe, "reduce");
  const size_t lines = ll_lines(words);
  uint32_t *out = (uint32_t *)dest;
  for (size_t l = G::idx(); l < lines; l += G::size()) {
    uint64_t lo[kMembers], hi[kMembers];
    uint32_t pending = 0;
#pragma unroll
    for (int j = 0; j < kMembers; ++j) {
      if (j < t.size && j != t.my_index) pending |= 1u << j;
    }
    ll_poll<kMembers>(
        "reduce", flag, pending, lo, hi, [&](int j) { return mine + (size_t)j * (SYMMEM_DEVICE_LL_SLOT_BYTES / 8) + 2 * l; },
        [](int j) { return j; }, [l](int) { return l; });
    // The line's 8 data bytes of each member, combined element by element in team order.
    const bool second = 2 * l + 1 < words;
    const uint64_t mine_bytes = (uint64_t)own[2 * l] | (second ? (uint64_t)own[2 * l + 1] << 32 : 0);
    constexpr int kPer = 8 / sizeof(T);
    T acc[kPer], x[kPer];
    uint64_t b = t.my_index == 0 ? mine_bytes : ((uint64_t)(uint32_t)lo[0] | (uint64_t)(uint32_t)hi[0] << 32);
    memcpy(acc, &b, 8);
#pragma unroll
    for (int j = 1; j < kMembers; ++j) {
      if (j < t.size) {
        b = j == t.my_index ? mine_bytes : ((uint64_t)(uint32_t)lo[j] | (uint64_t)(uint32_t)hi[j] << 32);
        memcpy(x, &b, 8);
#pragma unroll
        for (int e = 0; e < kPer; ++e) acc[e] = combine<OP>(acc[e], x[e]);
      }
    }
    memcpy(&b, acc, 8);
    out[2 * l] = (uint32_t)b;
    if (second) out[2 * l + 1] = (uint32_t)(b >> 32);
  }
  G::sync();  // the group's dest is whole, and its next call reads the count stored above
}

template <typename G>
__device__ __forceinline__ void broadcast_ll(int team, const symmem_device_team &t, void *dest, const void *src,
                                             size_t bytes, int root) {
  const symmem_device_state &s = symmem_state_;
  symmem_device_team_sync *mine = &sync_of(s.my_pe)->team[team];
  const uint64_t call = ld_count(&mine->bc_calls) + 1;
  uint64_t off = ld_count(&mine->bc_offset);
  const uint32_t flag = ll_flag(call);
  const size_t words = bytes / 4;
  G::sync();  // the group's source is whole (a block's threads may have just written it)
  const size_t lines = ll_lines(words);
  const bool wrap = off + lines * 16 > SYMMEM_DEVICE_LL_BCAST_TEAM_BYTES;  // the same decision on every member
  if (G::idx() == 0) {  // every thread has read the state; the group's next call reads it after the closing sync
    st_strong(&mine->bc_offset, (wrap ? 0 : off) + lines * 16, true);
    st_strong(&mine->bc_calls, call, true);
  }
  if (wrap) {
    group_barrier<G>(team, "broadcast");
    off = 0;
  }
  const uint64_t at = s.heap_base + s.ll_offset + SYMMEM_DEVICE_LL_TEAMS * SYMMEM_DEVICE_LL_TEAM_BYTES +
                      (uint64_t)team * SYMMEM_DEVICE_LL_BCAST_TEAM_BYTES + off;
  const uint32_t *in = (const uint32_t *)src;
  uint32_t *out = (uint32_t *)dest;
  if (t.my_index == root) {
    for (int k = 1; k < t.size; ++k)  // the root's right neighbour first
      ll_store(peer((uint64_t *)at, team_member(t, (root + k) % t.size), "broadcast"), flag, in, words, G::idx(), G::size());
    if (dest != src)
      for (size_t w = G::idx(); w < words; w += G::size()) out[w] = in[w];
  } else {
    const uint64_t *words_at = peer((const uint64_t *)at, s.my_pe, "broadcast");
    // One thread loads eight lines at a time (its latency is the whole call's); groups four.
    ll_receive<G, std::is_same<G, group_thread>::value ? 8 : 4>(
        "broadcast", out, lines, flag, [&](size_t q) { return words_at + 2 * q; }, [](size_t q) { return 2 * q; },
        [&](size_t q) { return 2 * q + 1 < words; }, [&](size_t) { return root; });
  }
  G::sync();  // the group's dest is whole, and its next call reads the state stored above
}

__host__ __device__ __forceinline__ bool overlaps(const void *a, size_t an, const void *b, size_t bn) {
  return (const char *)a < (const char *)b + bn && (const char *)b < (const char *)a + an;
}

/* Reductions on a team with members on other hosts (one thread of the group posts): `bytes` of
 * every remote member's `src` are fetched with GET requests through the ring, posted together and
 * then awaited, into consecutive slots of `slot_bytes` at `scratch`, members in team order. */
SYMMEM_COLD void fetch_remote_members(const symmem_device_team &t, char *scratch, const char *src,
                                      size_t bytes, size_t slot_bytes) {
  constexpr int kBatch = 32;  // fetching requests hold their ring slots until released
  symmem_proxy_ring *r = ring();
  uint64_t tickets[kBatch];
  int posted = 0, slot = 0;
  auto drain = [&] {
    for (int k = 0; k < posted; ++k) {
      await(r, tickets[k]);
      symmem_proxy_release(r, tickets[k]);
    }
    posted = 0;
  };
  for (int j = 0; j < t.size; ++j) {
    const int pe = team_member(t, j);
    if (base_of(pe) != 0) continue;
    ring_for(src, bytes, pe, "reduce");
    tickets[posted++] = post(r, request(SYMMEM_PROXY_GET, pe, (uint64_t)(scratch + (size_t)slot++ * slot_bytes),
                                        (uint64_t)src, bytes));
    if (posted == kBatch) drain();
  }
  drain();
}

SYMMEM_COLD void reduce_scratch_too_small(int remote, size_t elem, const char *call) {
  printf("symmem: PE %d: %s: the team has %d members on other hosts, more than the device reduction's scratch of %d "
         "bytes holds one %llu-byte element of each; call the reduction from the host or on a stream\n",
         symmem_state_.my_pe, call, remote, SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES, (unsigned long long)elem);
  __trap();
}

/* dest[i] = reduction of the members' src[first + i] when some member is on another host. Rounds
 * of `chunk` elements: the group's first thread fetches the remote members' chunk into this PE's
 * scratch for the team index (device_state.h), then every thread combines its elements in team
 * order, loading mapped members directly, so every PE computes the same bits as reduce_elem. In
 * place, the round's result waits in the scratch's last slot until a team barrier says every
 * member has read that chunk of its source; otherwise it goes straight to dest. */
template <int OP, typename T, typename G>
__device__ __forceinline__ void reduce_remote(int team, const symmem_device_team &t, T *dest, const T *src,
                                              size_t first, size_t n, bool in_place) {
  const symmem_device_state &s = symmem_state_;
  int remote = 0;
  for (int j = 0; j < t.size; ++j) remote += base_of(team_member(t, j)) == 0;
  const size_t chunk = SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES / (((size_t)remote + (in_place ? 1 : 0)) * sizeof(T));
  if (chunk == 0) reduce_scratch_too_small(remote, sizeof(T), "reduce");
  T *scratch = (T *)(s.heap_base + s.reduce_scratch_offset + (size_t)team * SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES);
  const T *from = src + first;
  for (size_t base = 0; base < n; base += chunk) {
    const size_t m = n - base < chunk ? n - base : chunk;
    G::sync();  // the previous round's slots are read
    if (G::idx() == 0) fetch_remote_members(t, (char *)scratch, (const char *)(from + base), m * sizeof(T), chunk * sizeof(T));
    G::sync();
    T *out = in_place ? scratch + (size_t)remote * chunk : dest + base;
    for (size_t i = G::idx(); i < m; i += G::size()) {
      T acc{};
      for (int j = 0, r = 0; j < t.size; ++j) {
        const uint64_t b = base_of(team_member(t, j));
        const T v = b != 0 ? *(const T *)(b + ((uint64_t)(from + base + i) - s.heap_base)) : scratch[(size_t)r++ * chunk + i];
        acc = j == 0 ? v : combine<OP>(acc, v);
      }
      out[i] = acc;
    }
    if (in_place) {
      group_barrier<G>(team, "reduce");  // every member has read this chunk of its source
      for (size_t i = G::idx(); i < m; i += G::size()) dest[base + i] = out[i];
    }
  }
}

template <int OP, typename T, typename G>
__device__ __forceinline__ int reduce_group(int team, T *dest, const T *src, size_t first, size_t n, size_t src_elems) {
  const symmem_device_team t = team_of(team, "reduce");
  if constexpr (sizeof(T) <= 8 && 8 % sizeof(T) == 0) {
    // Small ones without barriers (reduce_ll): dest apart from src, or a reduction in place.
    const size_t stride = src_elems == n ? 0 : n;
    if (t.size <= 8 && ll_fits<G>(team, t, dest, src, n * sizeof(T)) &&
        ((dest == src && stride == 0) || !overlaps(dest, n * sizeof(T), src, src_elems * sizeof(T)))) {
      reduce_ll<OP, T, G>(team, t, dest, src, stride, n * sizeof(T));
      return 0;
    }
  }
  group_barrier<G>(team, "reduce");
  if (any_remote(t)) {  // members on other hosts
    reduce_remote<OP, T, G>(team, t, dest, src, first, n, overlaps(dest, n * sizeof(T), src, src_elems * sizeof(T)));
  } else if (overlaps(dest, n * sizeof(T), src, src_elems * sizeof(T))) {
    reduce_staged<OP, T, G>(team, t, dest, src, first, n);
  } else {
    reduce_data<OP>(t, dest, src, first, n, G::idx(), G::size());
  }
  group_barrier<G>(team, "reduce");
  return 0;
}

}  // namespace detail

/* ---- the collectives' bodies (the public forms are below, after the out-of-line layer) -------- */
namespace detail {
template <typename T, typename G>
__device__ __forceinline__ int broadcast_body(int team, T *dest, const T *src, size_t nelems, int root) {
  const symmem_device_team t = team_of(team, "broadcast");
  if ((unsigned)root >= (unsigned)t.size) bad_target(src, root, "broadcast (root is not a member of the team)");
  if (ll_bcast_fits<G>(team, t, dest, src, nelems * sizeof(T))) return broadcast_ll<G>(team, t, dest, src, nelems * sizeof(T), root), 0;
  group_barrier<G>(team, "broadcast");
  if (any_remote(t)) broadcast_push(t, dest, src, nelems, root, G::idx(), G::size());  // members on other hosts
  else broadcast_data(t, dest, src, nelems, root, G::idx(), G::size());
  group_barrier<G>(team, "broadcast");
  return 0;
}
template <typename T, typename G>
__device__ __forceinline__ int fcollect_body(int team, T *dest, const T *src, size_t nelems) {
  const symmem_device_team t = team_of(team, "fcollect");
  if (ll_move_fits<G>(team, t, dest, src, nelems * sizeof(T))) return fcollect_ll<G>(team, t, dest, src, nelems * sizeof(T)), 0;
  group_barrier<G>(team, "fcollect");
  if (any_remote(t)) fcollect_push(t, dest, src, nelems, G::idx(), G::size());  // members on other hosts
  else fcollect_data(t, dest, src, nelems, G::idx(), G::size());
  group_barrier<G>(team, "fcollect");
  return 0;
}
template <typename T, typename G>
__device__ __forceinline__ int alltoall_body(int team, T *dest, const T *src, size_t nelems) {
  const symmem_device_team t = team_of(team, "alltoall");
  // Small blocks without barriers: fcollect's LL path, member j taking src block j.
  if (ll_move_fits<G>(team, t, dest, src, nelems * sizeof(T)) &&
      !overlaps(dest, nelems * sizeof(T) * t.size, src, nelems * sizeof(T) * t.size))
    return fcollect_ll<G>(team, t, dest, src, nelems * sizeof(T), nelems * sizeof(T) / 4), 0;
  group_barrier<G>(team, "alltoall");
  if (any_remote(t)) alltoall_push(t, dest, src, nelems, G::idx(), G::size());  // members on other hosts
  else alltoall_data(t, dest, src, nelems, G::idx(), G::size());
  group_barrier<G>(team, "alltoall");
  return 0;
}
}  // namespace detail
}  // namespace device
}  // namespace symmem

#include "symmem/detail/coll_outline.cuh"

namespace symmem {
namespace device {

/* ---- the collectives: G is detail::group_thread, group_warp or group_block -------------------- *
 * In a program built with -rdc and -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES they call the out-of-line
 * copies of coll_outline.cuh (moves as bytes, reductions by machine type), which libsymmem_device.a
 * holds with a register limit. */
template <typename T, typename G = detail::group_thread>
__device__ __forceinline__ int broadcast(int team, T *dest, const T *src, size_t nelems, int root) {
#if SYMMEM_DEVICE_OUTLINE
  if constexpr (detail::outline_group<G>::value)
    return detail::outline_move<G>::broadcast(team, (char *)dest, (const char *)src, nelems * sizeof(T), root);
  else
#endif
    return detail::broadcast_body<T, G>(team, dest, src, nelems, root);
}
template <typename T, typename G = detail::group_thread>
__device__ __forceinline__ int fcollect(int team, T *dest, const T *src, size_t nelems) {
#if SYMMEM_DEVICE_OUTLINE
  if constexpr (detail::outline_group<G>::value)
    return detail::outline_move<G>::fcollect(team, (char *)dest, (const char *)src, nelems * sizeof(T));
  else
#endif
    return detail::fcollect_body<T, G>(team, dest, src, nelems);
}
template <typename T, typename G = detail::group_thread>
__device__ __forceinline__ int alltoall(int team, T *dest, const T *src, size_t nelems) {
#if SYMMEM_DEVICE_OUTLINE
  if constexpr (detail::outline_group<G>::value)
    return detail::outline_move<G>::alltoall(team, (char *)dest, (const char *)src, nelems * sizeof(T));
  else
#endif
    return detail::alltoall_body<T, G>(team, dest, src, nelems);
}
namespace detail {
/* dest[i] = the reduction of the members' src[first + i], i < n; src holds src_elems elements. */
template <int OP, typename T, typename G>
__device__ __forceinline__ int reduce_entry(int team, T *dest, const T *src, size_t first, size_t n, size_t src_elems) {
#if SYMMEM_DEVICE_OUTLINE
  using C = typename outline_red_type<OP, T>::type;
  if constexpr (outline_red<OP, C, G>::value)
    return outline_red<OP, C, G>::call(team, (void *)dest, (const void *)src, first, n, src_elems);
  else
#endif
    return reduce_group<OP, T, G>(team, dest, src, first, n, src_elems);
}
}  // namespace detail
/* OP: SYMMEM_RED_SUM, _PROD, _MIN, _MAX, _AND, _OR, _XOR, _MAXLOC, _MINLOC (double2). */
template <int OP, typename T, typename G = detail::group_thread>
__device__ __forceinline__ int reduce(int team, T *dest, const T *src, size_t nreduce) {
  return detail::reduce_entry<OP, T, G>(team, dest, src, 0, nreduce, nreduce);
}
/* dest (nreduce elements) = this PE's block of the reduction of the members' src (n_pes x nreduce). */
template <int OP, typename T, typename G = detail::group_thread>
__device__ __forceinline__ int reducescatter(int team, T *dest, const T *src, size_t nreduce) {
  const int me = team_my_pe(team), n = team_n_pes(team);
  if (me < 0) detail::bad_team(team, "reducescatter");
  return detail::reduce_entry<OP, T, G>(team, dest, src, (size_t)me * nreduce, nreduce, (size_t)n * nreduce);
}

}  // namespace device
}  // namespace symmem

#endif /* SYMMEM_DETAIL_COLL_CUH */
