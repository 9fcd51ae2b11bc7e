// symmem: broadcast, collect, fcollect, alltoall(s) over node-local PEs.
//
// Every peer's memory is mapped here, so the algorithms are the shared-memory ones, chosen by
// message size (compare the "copy-in/copy-out" and "direct read" schemes of Graham & Shipman,
// "MPI support for multi-core architectures: optimized shared memory collectives", EuroMPI 2008):
//  - small (a PE's contribution fits its team scratch, coll_bytes): copy-in. Each PE copies its
//    contribution into its own scratch, one team barrier, then each PE reads what it needs straight
//    from the peers' scratch. The scratch is double-buffered by barrier parity: a PE writes the same
//    half again only two barriers later, after every reader has passed the barrier in between. One
//    barrier per call, and the caller may reuse its source as soon as it returns.
//  - large: direct read. A barrier (everyone has entered, so every source is ready and every dest is
//    free), each PE reads the peers' source buffers directly into its own dest (one copy instead of
//    two), and a second barrier so that no source is changed while someone still reads it.
// Active sets have no scratch and always take the direct-read path. Reads start at the next peer
// (me + 1) so that the PEs do not all read the same peer at once.
#include <sched.h>

#include <atomic>
#include <cstring>
#include <optional>
#include <vector>

#include "coll/coll.h"
#include "core/remote.h"
#include "core/sync.h"
#include "core/wait.h"

namespace symmem::coll {
namespace {

const core::call_record exit_rec{teams::call_exit, 1, 0, 0};
constexpr size_t alltoall_copy_in_max = 1024;

const char *peer(const void *addr, size_t len, int world, const char *call) {
  return core::translate(addr, len, world, call);
}

// One element-wise piece of a strided exchange: posted, completed together by the caller.
void fetch_nbi(void *dst, const void *src, size_t len, int world, const char *call) {
  if (core::is_remote(world)) return core::remote_get(dst, src, len, world, true, call);
  std::memcpy(dst, peer(src, len, world, call), len);
}

status bad_root(int root, int n, const char *call) {
  return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "PE_root %d is not a PE of the team (0..%d); pass the root's "
                                                 "number in the team", root, n - 1);
}

}  // namespace

void fetch(void *dst, const void *src, size_t len, int world, const char *call) {
  if (len == 0) return;  // a zero-length collective may pass NULL buffers
  if (core::is_remote(world)) return core::remote_get(dst, src, len, world, false, call);
  std::memcpy(dst, peer(src, len, world, call), len);
}

void put_to(void *dst, const void *src, size_t len, int world, const char *call) {
  if (len == 0) return;
  if (core::is_remote(world)) return core::remote_put(dst, src, len, world, false, call);
  std::memcpy(core::translate(dst, len, world, call), src, len);
}

void wait_at_least(const std::atomic<uint64_t> &flag, uint64_t value, std::function<std::string()> describe,
                   const char *call) {
  if (flag.load(std::memory_order_acquire) >= value) return;
  core::spin_wait w(call, std::move(describe));
  w.yield_every_turn(core::node_oversubscribed());  // give the core to the PE awaited
  while (flag.load(std::memory_order_acquire) < value) {
    w.pause();
  }
}

namespace {

void wait_for_pe(const std::atomic<uint64_t> &flag, uint64_t value, int world, const char *what, const char *call) {
  if (flag.load(std::memory_order_acquire) >= value) return;  // the usual case: no message built
  wait_at_least(flag, value, [world, what] { return strfmt("PE %d %s", world, what); }, call);
}

// Small broadcast without a barrier (the flag-and-acknowledge scheme of shared-memory MPI
// broadcasts). Broadcasts on a team are numbered; the root puts the data in its own buffer and
// publishes the number with release order, the others wait for the number, copy out, and
// acknowledge. Nobody waits for anybody else's arrival, so back-to-back broadcasts overlap. A
// buffer is reused only after every member has acknowledged its previous use: messages up to 248 B
// go in a ring of 32 slots that hold the number beside the data (one miss for the reader up to 56
// B; 32 deep, so the root rarely waits even when PEs share cores), larger ones (<= 2 KiB) in two
// halves. The root remembers the acknowledgements it has seen, so it reads
// the members' lines only when a buffer comes round again. The argument check needs a barrier, so
// this path skips it.
void wait_acks(group &gr, teams::team &t, uint64_t seq, uint64_t depth, const char *call) {
  if (seq <= t.bcast_base + depth) {
    return;  // the buffer has not been used yet on this team
  }
  const uint64_t upto = seq - depth;
  for (int i = 0; i < gr.n; ++i) {
    uint64_t &seen = t.bcast_seen[static_cast<size_t>(i)];
    if (i == gr.me || seen >= upto) continue;
    const std::atomic<uint64_t> &ack = teams::area(t, gr.world(i))->bcast_ack;
    wait_for_pe(ack, upto, gr.world(i), "to finish an earlier broadcast", call);
    seen = ack.load(std::memory_order_acquire);
  }
}

status broadcast_flag(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                      const char *call) {
  teams::team &t = *gr.t;
  const uint64_t seq = ++t.bcast_seq;
  teams::team_area *ra = teams::area(t, gr.world(root));
  const bool tiny = nbytes <= teams::bcast_inline;
  teams::bcast_line &line = ra->bcast_tiny[seq % teams::bcast_ring];
  std::atomic<uint64_t> &flag = tiny ? line.seq : ra->bcast_flag;
  unsigned char *buf = tiny ? line.data : ra->bcast_data[seq & 1];
  if (gr.me == root) {
    wait_acks(gr, t, seq, tiny ? teams::bcast_ring : 2, call);
    std::memcpy(buf, src, nbytes);
    flag.store(seq, std::memory_order_release);
    if (update_root && dest != src) std::memmove(dest, src, nbytes);
  } else {
    wait_for_pe(flag, seq, gr.world(root), "(the root) to reach the broadcast", call);
    std::memcpy(dest, buf, nbytes);
  }
  teams::area(t, core::g.my_pe)->bcast_ack.store(seq, std::memory_order_release);
  return ok_status;
}

}  // namespace

status broadcast(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                 const char *call) {
  if (root < 0 || root >= gr.n) {
    return bad_root(root, gr.n, call);
  }
  own_range(dest, nbytes, call);
  own_range(src, nbytes, call);
  if (gr.shm() && nbytes <= teams::bcast_bytes) {
    if (gr.n == 1) {
      if (update_root && dest != src) std::memmove(dest, src, nbytes);
      return ok_status;
    }
    return broadcast_flag(gr, dest, src, nbytes, root, update_root, call);
  }
  if (gr.t != nullptr && !gr.local) {
    if (nbytes <= teams::net_ring_bytes) return broadcast_push(gr, dest, src, nbytes, root, update_root, call);
    if (broadcast_direct_fits(gr, nbytes)) return broadcast_direct(gr, dest, src, nbytes, root, update_root, call);
    if (broadcast_exchange_fits(gr, nbytes)) return broadcast_exchange(gr, dest, src, nbytes, root, update_root, call);
    if (nbytes <= teams::net_push_bytes) return broadcast_push(gr, dest, src, nbytes, root, update_root, call);
    return broadcast_pull(gr, dest, src, nbytes, root, update_root, call);
  }
  const core::call_record rec{teams::call_broadcast, 1, nbytes, static_cast<uint64_t>(root)};
  const bool is_root = gr.me == root;
  if (gr.shm() && nbytes <= teams::coll_bytes) {
    const unsigned p = gr.next_parity();
    if (is_root && gr.n > 1) std::memcpy(gr.scratch_of(gr.me, p), src, nbytes);
    SYMMEM_TRY(gr.sync(rec, call));
    if (!is_root) {
      std::memcpy(dest, gr.scratch_of(root, p), nbytes);
    } else if (update_root && dest != src) {
      std::memmove(dest, src, nbytes);
    }
    return ok_status;
  }
  SYMMEM_TRY(gr.sync(rec, call));
  if (!is_root) {
    fetch(dest, src, nbytes, gr.world(root), call);
  } else if (update_root && dest != src) {
    std::memmove(dest, src, nbytes);
  }
  return gr.sync(exit_rec, call);
}

status fcollect(group &gr, void *dest, const void *src, size_t nbytes, const char *call) {
  const core::call_record rec{teams::call_fcollect, 1, nbytes, 0};
  own_range(dest, bytes_of(static_cast<size_t>(gr.n), nbytes, call, "the team size times the block size"), call);
  own_range(src, nbytes, call);
  if (!gr.local) {
    if (gather_direct_fits(gr, nbytes)) return gather_direct(gr, dest, src, nbytes, 0, rec, call);
    return exchange_fits(gr, nbytes) ? gather_exchange(gr, dest, src, nbytes, 0, rec, call)
                                     : fcollect_push(gr, dest, src, nbytes, rec, call);
  }
  char *d = static_cast<char *>(dest);
  if (gr.shm() && nbytes <= teams::coll_bytes) {
    const unsigned p = gr.next_parity();
    std::memcpy(gr.scratch_of(gr.me, p), src, nbytes);
    SYMMEM_TRY(gr.sync(rec, call));
    for (int k = 0; k < gr.n; ++k) {
      const int i = (gr.me + k) % gr.n;  // own block first: src may lie inside dest
      std::memcpy(d + static_cast<size_t>(i) * nbytes, gr.scratch_of(i, p), nbytes);
    }
    return ok_status;
  }
  SYMMEM_TRY(gr.sync(rec, call));
  std::memmove(d + static_cast<size_t>(gr.me) * nbytes, src, nbytes);
  for (int k = 1; k < gr.n; ++k) {
    const int i = (gr.me + k) % gr.n;
    fetch(d + static_cast<size_t>(i) * nbytes, src, nbytes, gr.world(i), call);
  }
  return gr.sync(exit_rec, call);
}

namespace {

// Sizes of every PE's contribution to a collect: from the team's meta words, or pSync[sizes_at].
constexpr int sizes_at = 40;

uint64_t size_of(const group &gr, int i, unsigned p, const char *call) {
  if (gr.scratch()) {
    uint64_t v = 0;  // the member's control segment, over the network for a remote one
    core::ctrl_get(gr.world(i), teams::area_offset(*gr.t) + offsetof(teams::team_area, meta) + p * sizeof(uint64_t[8]),
                   &v, sizeof v, call);
    return v;
  }
  long v = 0;
  fetch(&v, gr.psync + sizes_at, sizeof v, gr.world(i), call);
  return static_cast<uint64_t>(v);
}

}  // namespace

size_t total_of(const std::vector<uint64_t> &sizes, const char *call) {
  size_t total = 0;
  for (uint64_t len : sizes) {
    std::optional<size_t> t = add_size(total, len);
    if (!t) size_overflow(call, total, len, "the sum of the contributions");
    total = *t;
  }
  return total;
}

// Variable-size all-gather: the sizes travel with the entry barrier; a contribution that fits the
// scratch goes through it, a larger one is read directly (and then a second barrier is needed).
status collect(group &gr, void *dest, const void *src, size_t nbytes, const char *call) {
  const core::call_record rec{teams::call_collect, 1, 0, 0};  // sizes may differ across PEs
  own_range(src, nbytes, call);
  if (exchange_fits(gr, 0)) return collect_exchange(gr, dest, src, nbytes, rec, call);  // across hosts
  const unsigned p = gr.scratch() ? gr.next_parity() : 0;
  if (gr.scratch()) {
    teams::area(*gr.t, core::g.my_pe)->meta[p][0] = nbytes;
    if (nbytes <= teams::coll_bytes) std::memcpy(gr.scratch_of(gr.me, p), src, nbytes);
  } else {
    std::atomic_ref<long>(gr.psync[sizes_at]).store(static_cast<long>(nbytes), std::memory_order_relaxed);
  }
  SYMMEM_TRY(gr.sync(rec, call));
  std::vector<uint64_t> sizes(static_cast<size_t>(gr.n));
  for (int i = 0; i < gr.n; ++i) sizes[static_cast<size_t>(i)] = i == gr.me ? nbytes : size_of(gr, i, p, call);
  own_range(dest, total_of(sizes, call), call);  // dest holds every contribution: all checked first
  if (!gr.local) {
    SYMMEM_TRY(collect_push(gr, dest, src, sizes, call));
    if (!gr.scratch()) std::atomic_ref<long>(gr.psync[sizes_at]).store(0, std::memory_order_relaxed);
    return ok_status;
  }
  char *d = static_cast<char *>(dest);
  bool direct = false;
  for (int i = 0; i < gr.n; ++i) {
    const size_t len = size_of(gr, i, p, call);
    const bool in_scratch = gr.shm() && len <= teams::coll_bytes;
    direct = direct || !in_scratch;
    if (in_scratch) {
      std::memcpy(d, gr.scratch_of(i, p), len);
    } else if (len != 0 && i == gr.me) {
      std::memmove(d, src, len);
    } else if (len != 0) {
      fetch(d, src, len, gr.world(i), call);
    }
    d += len;
  }
  if (!direct) {
    return ok_status;
  }
  SYMMEM_TRY(gr.sync(exit_rec, call));
  if (!gr.scratch()) {
    std::atomic_ref<long>(gr.psync[sizes_at]).store(0, std::memory_order_relaxed);  // back to SHMEM_SYNC_VALUE
  }
  return ok_status;
}

status alltoall(group &gr, void *dest, const void *src, size_t nbytes, const char *call) {
  const core::call_record rec{teams::call_alltoall, 1, nbytes, 0};
  const size_t all = bytes_of(static_cast<size_t>(gr.n), nbytes, call, "the team size times the block size");
  own_range(dest, all, call);
  own_range(src, all, call);
  if (!gr.local) {
    if (gather_direct_fits(gr, nbytes)) return gather_direct(gr, dest, src, nbytes, nbytes, rec, call);
    return exchange_fits(gr, nbytes) ? gather_exchange(gr, dest, src, nbytes, nbytes, rec, call)
                                     : alltoall_push(gr, dest, src, nbytes, rec, call);
  }
  char *d = static_cast<char *>(dest);
  const size_t me_off = static_cast<size_t>(gr.me) * nbytes;
  // Copy-in only for small blocks: beyond ~1 KiB per block, the two copies through the scratch cost
  // more than the second barrier of the direct path (measured: docs/collectives.md).
  if (gr.shm() && nbytes <= alltoall_copy_in_max && nbytes * static_cast<size_t>(gr.n) <= teams::coll_bytes) {
    const unsigned p = gr.next_parity();
    std::memcpy(gr.scratch_of(gr.me, p), src, nbytes * static_cast<size_t>(gr.n));
    SYMMEM_TRY(gr.sync(rec, call));
    for (int k = 0; k < gr.n; ++k) {
      const int i = (gr.me + k) % gr.n;
      std::memcpy(d + static_cast<size_t>(i) * nbytes, gr.scratch_of(i, p) + me_off, nbytes);
    }
    return ok_status;
  }
  SYMMEM_TRY(gr.sync(rec, call));
  for (int k = 0; k < gr.n; ++k) {
    const int i = (gr.me + k) % gr.n;
    const char *s = static_cast<const char *>(src) + me_off;
    if (k == 0) {
      std::memcpy(d + static_cast<size_t>(i) * nbytes, s, nbytes);
    } else {
      fetch(d + static_cast<size_t>(i) * nbytes, s, nbytes, gr.world(i), call);
    }
  }
  return gr.sync(exit_rec, call);
}

// Strided all-to-all: element k of the block for PE j sits at source[(j * nelems + k) * sst] and lands at
// dest[(i * nelems + k) * dst] on PE j, for the sender i (OpenSHMEM 1.5, 9.9.8). Always direct read.
status alltoalls(group &gr, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                 size_t esize, const char *call) {
  if (dst < 1 || sst < 1) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "strides must be positive (dst %td, sst %td)", dst, sst);
  }
  const size_t total = bytes_of(static_cast<size_t>(gr.n), nelems, call, "the team size times the element count");
  const size_t span = strided_span(total, static_cast<size_t>(sst), esize, call);
  own_range(dest, strided_span(total, static_cast<size_t>(dst), esize, call), call);
  own_range(src, span, call);
  const core::call_record rec{teams::call_alltoalls, 1, bytes_of(nelems, esize, call),
                              static_cast<uint64_t>(dst) ^ (static_cast<uint64_t>(sst) << 32)};
  SYMMEM_TRY(gr.sync(rec, call));
  char *d = static_cast<char *>(dest);
  for (int k = 0; k < gr.n && nelems != 0; ++k) {
    const int i = (gr.me + k) % gr.n;
    const bool remote = core::is_remote(gr.world(i));
    const char *s = k == 0 || remote ? static_cast<const char *>(src) : peer(src, span, gr.world(i), call);
    for (size_t e = 0; e < nelems; ++e) {
      const size_t from = (static_cast<size_t>(gr.me) * nelems + e) * static_cast<size_t>(sst) * esize;
      const size_t to = (static_cast<size_t>(i) * nelems + e) * static_cast<size_t>(dst) * esize;
      if (remote) {
        fetch_nbi(d + to, s + from, esize, gr.world(i), call);
      } else {
        std::memcpy(d + to, s + from, esize);
      }
    }
  }
  if (!gr.local) core::remote_quiet(call);  // the posted element gets have landed
  return gr.sync(exit_rec, call);
}

}  // namespace symmem::coll
