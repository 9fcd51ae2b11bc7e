// symmem: the collectives of groups that span hosts.
//
// The shared-memory algorithms (coll.cpp) read the peers' buffers or scratch through the mapping.
// A group with PEs on other hosts *pushes* instead: after the entry barrier (every destination is
// free), each PE puts its contribution into every member's destination, puts to node-local
// members being stores into the mapping and to remote ones network puts; then a quiet, so that
// everything has landed, and the exit barrier. Pushing uses only this PE's source pointer, so a
// source inside the destination (fcollect in place) works as on one host, and every transfer
// is one-sided from the PE that has the data (no round trip per block, as a pull would need).
//
// Small all-to-all patterns (fcollect, alltoall, reductions) go as one *exchange* instead: each
// member sends every other member its block as one data signal (the block lands in the receiver's
// team area, then a count goes up, both from one network message with no reply), and waits for
// the n-1 blocks sent to it. No barrier, no flush: one one-way latency per call. Blocks land by
// the parity of the team's exchange number, so a block of exchange k+2 could overwrite one of
// exchange k; but a member that sends exchange k+2 has received every member's block of k+1,
// so every member has finished k (it copies its blocks out before it returns): the exchanges
// themselves are the flow control. Only exchanges use those slots, and every exchange sends to
// every member. Each block carries its exchange number and the sender's call record, so a member
// reads only blocks of this call and names the members that made another call (the check the
// entry barrier does elsewhere).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstring>
#include <memory>
#include <mutex>
#include <vector>

#include "coll/coll.h"
#include "core/remote.h"
#include "core/sync.h"
#include "core/wait.h"
#include "mem/vaspace.h"
#include "net/net_plugin.h"

namespace symmem::coll {
namespace {

// A thread's scratch bytes, grown without writing them: a std::vector's resize zero-fills every
// new byte, and at a thread's first large collective those were tens of KiB of new pages, each
// page's first write a fault (20 us on a virtual machine: a job's first 64 KiB reduction across
// two hosts took 1.7 ms against 0.06 ms later, 45 of its 64 faults in such fills).
class scratch_bytes {
 public:
  unsigned char *get(size_t n) {
    if (n > cap_) {
      buf_.reset(new unsigned char[n]);  // default-initialised: not written
      cap_ = n;
    }
    return buf_.get();
  }

 private:
  std::unique_ptr<unsigned char[]> buf_;
  size_t cap_ = 0;
};

const core::call_record exit_rec{teams::call_exit, 1, 0, 0};

struct xchg_tag {
  uint64_t seq;           // the team's exchange number
  core::call_record rec;  // the sender's call
};
// Slots are multiples of 8 bytes in 8-byte aligned areas: a block's data lands 8-byte aligned.
static_assert(sizeof(xchg_tag) % 8 == 0);

// The exchange area of a team, per parity: the world's own, or the team area's.
size_t xchg_bytes(const teams::team &t) { return t.slot == 0 ? teams::world_xchg_bytes : teams::net_xchg_bytes; }
size_t xchg_offset(const teams::team &t, unsigned parity) {
  return t.slot == 0 ? teams::world_xchg_offset + parity * teams::world_xchg_bytes
                     : teams::area_offset(t) + offsetof(teams::team_area, net_xchg_data) + parity * teams::net_xchg_bytes;
}
// Team PE i's block sits at i * slot, the same place whatever its length, so that a member that
// called with another length is still found (and named).
size_t xchg_slot(const teams::team &t, int n) { return xchg_bytes(t) / static_cast<size_t>(n) / 8 * 8; }
constexpr size_t exchange_max_bytes = size_t{256} << 10;   // per block, in any number of exchanges
constexpr size_t exchange_long_bytes = size_t{1} << 20;    // per block, in at most exchange_long_chunks
constexpr size_t exchange_long_chunks = 16;                 // (see exchange_fits)
constexpr size_t bcast_exchange_max_bytes = size_t{512} << 10;  // broadcasts by exchanges, at most
constexpr int bcast_exchange_pes = 8;  // members of a broadcast by exchanges, at most (broadcast_exchange)
// Broadcasts straight into the members' dest (broadcast_direct): from SYMMEM_NET_COLL_DIRECT bytes
// (128 KiB by default), and always past bcast_exchange_max_bytes, on teams of up to
// bcast_exchange_pes; in data signals of core::message_piece bytes (OSU's osu_oshm_broadcast at 2
// hosts x 1 PE, 4 rounds alternating with 256 KiB pieces: 512 KiB 266-335 us against 257-356,
// 1 MiB 517-626 against 594-716, OSHMEM 442-529; again, 1 MiB 377-491 against 432-594. 128 KiB
// pieces took 15-25% longer than 256 KiB ones at 512 KiB-1 MiB). The limit at 2 members was
// 512 KiB while this VM's TCP ran BBR congestion control, which paced the direct form's bursts
// (512 KiB: 132-149 us by exchanges against 188-312 straight); under CUBIC, the kernel's default,
// 3 rounds alternating (us): 256 KiB 52-58 straight against 59-61 by exchanges, 512 KiB 93-95
// against 113-119 (OSHMEM 87-100), 128 KiB and 1 MiB level (docs/multihost.md).
constexpr size_t bcast_direct_piece = core::message_piece;
// fcollect, alltoall and collect straight into the members' dest (gather_direct): blocks of at
// least SYMMEM_NET_COLL_DIRECT bytes, teams of up to gather_direct_pes, in pieces of
// core::message_piece.
constexpr int gather_direct_pes = 8;
constexpr size_t gather_direct_piece = core::message_piece;

// Bytes of a block per exchange: what a slot holds past the tag, a multiple of esize.
size_t chunk_of(const group &gr, size_t esize) {
  const size_t room = std::min<size_t>(xchg_slot(*gr.t, gr.n) - sizeof(xchg_tag), SYMMEM_NET_DATA_SIGNAL_MAX - sizeof(xchg_tag));
  return std::max(esize, room / esize * esize);
}

// Whether a block of len bytes goes as exchanges rather than pushed: up to exchange_max_bytes in
// any number of exchanges, up to exchange_long_bytes in at most exchange_long_chunks (the world's
// area at up to 4 PEs: 66-132 KiB chunks). OSU's osu_oshm_fcollect and osu_oshm_collect, the
// world's form, 512 KiB / 1 MiB blocks, two rounds alternating the limits: 2 hosts x 1 PE fcollect
// 207 / 428 us by exchanges against 367 / 690 pushed, collect 210 / 440 against 301 / 670; 2 x 2
// fcollect 1052-1140 / 2270-2516 against 1733-1894 / 3771-3978 (OSHMEM 178-283 / 515-579 at 2 x 1).
// Beyond, a block in many small chunks costs a message per chunk and member, more than one put.
bool exchanges_carry(const group &gr, size_t len) {
  return len <= exchange_max_bytes || (len <= exchange_long_bytes && len <= exchange_long_chunks * chunk_of(gr, 1));
}

bool same_call(const core::call_record &x, const core::call_record &y) {
  return x.call == y.call && x.a == y.a && x.b == y.b;
}

// The error of a collective whose members disagree; `others` names what the other side called.
status differ(int n, int me, const core::call_record &rec, const std::string &others, const char *call) {
  return fail(SYMMEM_ERR_MISMATCH, call,
              "collective calls differ across the PEs of a team of %d: this PE (team PE %d) called %s, %s; every "
              "team member must make the same collective calls with the same arguments, in the same order",
              n, me, core::describe_call(rec).c_str(), others.c_str());
}

// Waits for the n-1 blocks of the team's exchange `seq` (its counts were expected already),
// checks that they belong to the same call, and hands each to take(i, data) in team order.
template <class Take>
status await_blocks(teams::team &t, uint64_t seq, const core::call_record &rec, Take take, const char *call,
                    bool late = false) {
  const unsigned p = static_cast<unsigned>(seq & 1);
  const int n = t.size;
  const int me = t.my_idx;
  const size_t slot = xchg_slot(t, n);
  teams::team_area *mine = teams::area(t, core::g.my_pe);
  const unsigned char *in =
      reinterpret_cast<const unsigned char *>(core::g.ctrl_table[static_cast<size_t>(core::g.my_pe)]) + xchg_offset(t, p);
  // For the message of a wait that runs out: the members whose block of this exchange is not in.
  auto missing = [&t, in, slot, seq, n, me] {
    std::string who;
    for (int i = 0; i < n; ++i) {
      xchg_tag got;
      std::memcpy(&got, in + static_cast<size_t>(i) * slot, sizeof got);
      if (i != me && got.seq != seq) who += strfmt("%sPE %d (team PE %d)", who.empty() ? "" : ", ", t.world(i), i);
    }
    return who.empty() ? std::string("the other members") : who;
  };
  wait_at_least(mine->net_xchg_count[p], t.net_xchg_expect[p],
                [late, &rec, missing] {
                  return late ? strfmt("%s to reach this PE's earlier %s, of which it was the root (a collective "
                                       "across hosts, checked at this call)",
                                       missing().c_str(), core::describe_call(rec).c_str())
                              : strfmt("the blocks of %s in this collective across hosts", missing().c_str());
                },
                call);
  std::string others;
  for (int i = 0; i < n; ++i) {
    if (i == me) continue;
    xchg_tag got;
    std::memcpy(&got, in + static_cast<size_t>(i) * slot, sizeof got);
    if (got.seq != seq || !same_call(got.rec, rec)) {
      others += strfmt("%steam PE %d (PE %d) called %s", others.empty() ? "" : "; ", i, t.world(i),
                       got.seq == seq ? core::describe_call(got.rec).c_str() : "another collective");
    }
  }
  if (!others.empty()) return differ(n, me, rec, others, call);
  for (int i = 0; i < n; ++i) {
    if (i != me) take(i, in + static_cast<size_t>(i) * slot + sizeof(xchg_tag));
  }
  return ok_status;
}

// A check left for later. A broadcast's root returns once its blocks are sent, without waiting
// for the other members' blocks, which carry only their calls (as an MPI root returns once its
// message is out). Those blocks are waited for and checked at the start of this PE's next
// collective of any kind on any team (core::before_collective, which every barrier and team
// collective calls), and before its next exchange on the team, which the exchanges' flow control
// needs (a block of exchange k+1 goes out only once every member's block of k is in). Waiting
// later for the same blocks never waits for more than waiting in the broadcast did; and a member
// that skipped the broadcast is still caught: the root, at its next collective, waits for a block
// that never comes and names it, rather than both going on with their exchanges out of step.
struct deferred_check {
  std::mutex mu;
  teams::team *t = nullptr;  // set while a check is left
  uint64_t seq = 0;
  core::call_record rec{};
};
deferred_check deferred[teams::max_teams];  // by team slot
std::atomic<int> deferred_left{0};

status finish_check(deferred_check &d, const char *call) {
  std::lock_guard<std::mutex> lock(d.mu);
  if (d.t == nullptr) return ok_status;
  teams::team &t = *d.t;
  d.t = nullptr;
  deferred_left.fetch_sub(1, std::memory_order_release);
  return await_blocks(t, d.seq, d.rec, [](int, const unsigned char *) {}, call, true);
}

status finish_all_checks(const char *call) {
  if (deferred_left.load(std::memory_order_acquire) == 0) return ok_status;
  // Every slot, though one is usually pending: stopping at the pending one made OSU's 8 KiB
  // broadcast across two hosts slower, not faster (6.9-7.1 us against 6.4-6.6, 3 rounds each).
  for (deferred_check &d : deferred) SYMMEM_TRY(finish_check(d, call));
  return ok_status;
}

// Sends block_for(j) (len bytes) to every other member j, waits for theirs, checks them, and hands
// each to take(i, data) in team order (this PE's own block is not handed over). With `defer`, it
// returns once its blocks are sent and leaves the wait and the check for later (deferred_check;
// there is then nothing to take).
template <class Block, class Take>
status exchange(group &gr, size_t len, const core::call_record &rec, Block block_for, Take take, const char *call,
                bool defer = false) {
  teams::team &t = *gr.t;
  if (deferred_left.load(std::memory_order_acquire) != 0) {
    SYMMEM_TRY(finish_check(deferred[static_cast<size_t>(t.slot)], call));
  }
  const uint64_t seq = ++t.net_xchg_seq;
  const unsigned p = static_cast<unsigned>(seq & 1);
  const size_t slot = xchg_slot(t, gr.n);
  const size_t area_off = teams::area_offset(t);
  const size_t data_off = xchg_offset(t, p);
  const size_t count_off = area_off + offsetof(teams::team_area, net_xchg_count) + p * sizeof(uint64_t);
  const xchg_tag tag{seq, rec};
  // The tag and one block, not the whole slot (a slot's worth of zeros, tens of KiB of new pages at
  // a thread's first exchange of each kind, kept its PE from progressing the network for 0.4-1 ms),
  // each from where it is (ctrl_put_add: to a PE on another host the transport joins small ones).
  for (int k = 1; k < gr.n; ++k) {
    const int j = (gr.me + k) % gr.n;
    core::ctrl_put_add(gr.world(j), data_off + static_cast<size_t>(gr.me) * slot, &tag, sizeof tag,
                       len != 0 ? block_for(j) : nullptr, len, count_off, 1, call);
  }
  t.net_xchg_expect[p] += static_cast<uint64_t>(gr.n - 1);
  if (defer) {
    deferred_check &d = deferred[static_cast<size_t>(t.slot)];
    std::lock_guard<std::mutex> lock(d.mu);
    d.t = &t;
    d.seq = seq;
    d.rec = rec;
    deferred_left.fetch_add(1, std::memory_order_release);
    core::before_collective.store(finish_all_checks, std::memory_order_release);
    return ok_status;
  }
  return await_blocks(t, seq, rec, take, call);
}

// Every member gets `len` bytes of `src` at `dst_off` of its `dest`; this PE's own copy last
// (src may lie inside dest).
void push_all(group &gr, void *dest, size_t dst_off, const void *src, size_t len, const char *call) {
  char *d = static_cast<char *>(dest) + dst_off;
  for (int k = 1; k < gr.n && len != 0; ++k) put_to(d, src, len, gr.world((gr.me + k) % gr.n), call);
  if (len != 0 && d != src) std::memmove(d, src, len);
  core::remote_quiet(call);
}

}  // namespace

// A team's broadcast across hosts, without the two barriers. The root announces the broadcast to
// every member (a network add of 1 to the member's count of announced broadcasts); a member waits
// for its count, copies the data from the root's source itself (a get), and adds 1 to the root's
// count of takers; the root returns when every member took it (its source may then be reused).
// A member's dest is written only by that member, inside its call, so a program that reuses one
// dest for back-to-back broadcasts, or resets it between them, works as on one host; and a root
// cannot start its next broadcast before the last one was taken. Counts are added, never stored,
// so they may arrive in any order: a member that counts a later root's announcement before an
// earlier root's knows the earlier root is in its broadcast (the later root took that one from
// it), and that root waits for this member's take. A member: one announcement and a get; the
// root: that and the last taker's add. The form it replaces took two barriers and a get. Used past
// 512 KiB where broadcast_direct does not fit: more than bcast_exchange_pes members, a staged heap.
status broadcast_pull(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                      const char *call) {
  if (nbytes == 0) return ok_status;  // (a one-PE team is node-local: it never comes here)
  teams::team &t = *gr.t;
  teams::team_area *mine = teams::area(t, core::g.my_pe);
  const size_t area_off = teams::area_offset(t);
  const int root_pe = gr.world(root);
  if (gr.me != root) {
    wait_at_least(mine->net_bcast, ++t.net_bcast_expect, [root_pe, root] {
      return strfmt("PE %d%s (team PE %d, the root) to start the broadcast", root_pe, core::remote_note(root_pe), root);
    }, call);
    fetch(dest, src, nbytes, root_pe, call);  // returns with the data
    core::ctrl_add(root_pe, area_off + offsetof(teams::team_area, net_bcast_ack), 1, call);
    return ok_status;
  }
  t.net_bcast_acks += static_cast<uint64_t>(gr.n - 1);
  for (int k = 1; k < gr.n; ++k) {
    core::ctrl_add(gr.world((gr.me + k) % gr.n), area_off + offsetof(teams::team_area, net_bcast), 1, call);
  }
  const int n = gr.n;
  wait_at_least(mine->net_bcast_ack, t.net_bcast_acks,
                [n] { return strfmt("the %d other PEs of the team to take the broadcast", n - 1); }, call);
  if (update_root && dest != src) std::memmove(dest, src, nbytes);
  return ok_status;
}

// A team broadcast across hosts of up to net_push_bytes, pushed: the root sends the data to every
// member as data signals into the member's ring of net_ring slots (one slot per net_ring_bytes of
// data, consecutive ones) and returns; a member waits for its slot, checks
// the root's call record beside the data and copies the data out. Nobody waits for a reply, so
// back-to-back broadcasts overlap as far as the ring allows: a root reuses a slot only once every
// member has finished the broadcast that used it last. Each PE stores how far it got in its own
// team area (net_done, tagged by the team's bcast_base, so a value an older team of the slot left
// reads as older), and every net_report_every broadcasts also sends it, fire-and-forget, into the
// area of that broadcast's root (net_done_of). A root that needs a member further than it last
// saw takes in the reports that have come (one progress call of its own: the progress thread,
// which would wake on the root's CPU for each, stays asleep) and uses the member's report when it
// is far enough, else reads the member's word (a blocking get). Every value sent was true when it
// was sent and the root keeps the largest it has seen, so a report that a late older one
// overwrote only gives a smaller bound, never a wrong one; with a steady root the reports keep
// it from waiting for a get. Ring positions count the team's broadcasts, so they agree on every member
// whoever the roots are; a slot's landed count only ever goes up (its base carried over from the
// slot's earlier teams).
status broadcast_push(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                      const char *call) {
  teams::team &t = *gr.t;
  // Data beyond one slot goes in consecutive slots, one data signal each (at most net_push_bytes).
  const uint64_t chunks = nbytes == 0 ? 1 : (nbytes + teams::net_ring_bytes - 1) / teams::net_ring_bytes;
  const uint64_t first = t.net_push_seq + 1;
  const uint64_t last = t.net_push_seq += chunks;
  const core::call_record rec{teams::call_broadcast, 1, nbytes, static_cast<uint64_t>(root)};
  const size_t area_off = teams::area_offset(t);
  const auto slot_off = [area_off](uint64_t s) {
    return area_off + offsetof(teams::team_area, net_ring_slots) +
           static_cast<size_t>(s % teams::net_ring) * sizeof(teams::net_ring_slot);
  };
  // Where slot s's part of the data starts, and how long it is.
  const auto chunk_at = [first](uint64_t s) { return static_cast<size_t>(s - first) * teams::net_ring_bytes; };
  const auto chunk_len = [nbytes, &chunk_at](uint64_t s) { return std::min(teams::net_ring_bytes, nbytes - chunk_at(s)); };
  teams::team_area *mine = teams::area(t, core::g.my_pe);
  if (gr.me == root) {
    if (last > static_cast<uint64_t>(teams::net_ring)) {  // the slots' last broadcasts must be finished everywhere
      const uint64_t need = t.bcast_base + last - teams::net_ring;
      const size_t done_off = area_off + offsetof(teams::team_area, net_done);
      for (int m = 0; m < gr.n; ++m) {
        uint64_t &seen = t.net_done_seen[static_cast<size_t>(m)];
        if (m == gr.me || seen >= need) continue;
        if (m < teams::net_reporters) {
          seen = std::max(seen, mine->net_done_of[m].load(std::memory_order_acquire));
          if (seen >= need) continue;
          core::remote_progress();  // takes in the reports that have come
          seen = std::max(seen, mine->net_done_of[m].load(std::memory_order_acquire));
          if (seen >= need) continue;
        }
        const int pe = gr.world(m);
        core::ctrl_get(pe, done_off, &seen, sizeof seen, call);
        if (seen >= need) continue;
        core::spin_wait w(call, [pe, m] {
          return strfmt("PE %d%s (team PE %d) to finish an earlier broadcast", pe, core::remote_note(pe), m);
        });
        while (seen < need) {
          w.pause();
          core::ctrl_get(pe, done_off, &seen, sizeof seen, call);
        }
      }
    }
    for (uint64_t s = first; s <= last; ++s) {
      const size_t len = chunk_len(s);
      const xchg_tag h{t.bcast_base + s, rec};  // lands on the slot's seq and rec
      const char *chunk = len != 0 ? static_cast<const char *>(src) + chunk_at(s) : nullptr;
      const size_t off = slot_off(s);
      for (int j = 1; j < gr.n; ++j) {
        core::ctrl_put_add(gr.world((gr.me + j) % gr.n), off + offsetof(teams::net_ring_slot, seq), &h, sizeof h, chunk,
                           len, off + offsetof(teams::net_ring_slot, landed), 1, call);
      }
    }
    if (update_root && dest != src) std::memmove(dest, src, nbytes);
  } else {
    const int root_pe = gr.world(root);
    for (uint64_t s = first; s <= last; ++s) {
      const size_t k = static_cast<size_t>(s % teams::net_ring);
      teams::net_ring_slot &in = mine->net_ring_slots[k];
      wait_at_least(in.landed, ++t.net_ring_expect[k], [root_pe, root] {
        return strfmt("PE %d%s (team PE %d, the root) to start the broadcast", root_pe, core::remote_note(root_pe), root);
      }, call);
      if (in.seq != t.bcast_base + s || !same_call(in.rec, rec)) {
        // The rest of this call's slots (if any) are left unread: the job is ending with this error.
        return differ(gr.n, gr.me, rec,
                      strfmt("the root (team PE %d, PE %d) called %s", root, root_pe,
                             in.seq == t.bcast_base + s ? core::describe_call(in.rec).c_str() : "another broadcast"),
                      call);
      }
      const size_t len = chunk_len(s);
      if (len != 0) std::memcpy(static_cast<char *>(dest) + chunk_at(s), in.data, len);
    }
  }
  const uint64_t done = t.bcast_base + last;
  mine->net_done.store(done, std::memory_order_release);  // read by later roots
  if (gr.me != root && gr.me < teams::net_reporters &&
      last / teams::net_report_every != (first - 1) / teams::net_report_every) {
    core::ctrl_signal(gr.world(root),
                      area_off + offsetof(teams::team_area, net_done_of) + static_cast<size_t>(gr.me) * sizeof(uint64_t),
                      &done, 1, call);
  }
  return ok_status;
}

status fcollect_push(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                     const char *call) {
  SYMMEM_TRY(gr.sync(rec, call));
  push_all(gr, dest, static_cast<size_t>(gr.me) * nbytes, src, nbytes, call);
  return gr.sync(exit_rec, call);
}

// `sizes[i]`: member i's contribution, known to every member after the entry barrier.
status collect_push(group &gr, void *dest, const void *src, const std::vector<uint64_t> &sizes, const char *call) {
  size_t at = 0;
  for (int i = 0; i < gr.me; ++i) at += sizes[static_cast<size_t>(i)];
  push_all(gr, dest, at, src, sizes[static_cast<size_t>(gr.me)], call);
  return gr.sync(exit_rec, call);
}

status alltoall_push(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                     const char *call) {
  SYMMEM_TRY(gr.sync(rec, call));
  const size_t me_off = static_cast<size_t>(gr.me) * nbytes;
  for (int k = 0; k < gr.n && nbytes != 0; ++k) {
    const int i = (gr.me + k) % gr.n;
    const char *block = static_cast<const char *>(src) + static_cast<size_t>(i) * nbytes;
    if (k == 0) {
      std::memmove(static_cast<char *>(dest) + me_off, block, nbytes);
    } else {
      put_to(static_cast<char *>(dest) + me_off, block, nbytes, gr.world(i), call);
    }
  }
  core::remote_quiet(call);
  return gr.sync(exit_rec, call);
}

// Blocks larger than a slot go as several exchanges, one chunk of every block each (the members
// compute the same chunks: they depend only on the length and the team size), while
// exchanges_carry them; larger ones are pushed (one network put per block, barriers).
bool exchange_fits(const group &gr, size_t len) {
  return gr.t != nullptr && !gr.local && xchg_slot(*gr.t, gr.n) > sizeof(xchg_tag) + 64 && exchanges_carry(gr, len);
}

// dest's block i gets team PE i's block for this PE (nbytes; member j's block for team PE k is at
// src + k * stride: fcollect's stride 0 sends its source to everyone, alltoall's nbytes block k to
// team PE k), this PE's own last.
status gather_exchange(group &gr, void *dest, const void *src, size_t nbytes, size_t stride,
                       const core::call_record &rec, const char *call) {
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dest);
  const size_t chunk = chunk_of(gr, 1);
  for (size_t at = 0; at < nbytes || at == 0; at += chunk) {  // a zero-length call still exchanges once
    const size_t len = std::min(chunk, nbytes - at);
    SYMMEM_TRY(exchange(gr, len, rec, [s, stride, at](int j) { return s + static_cast<size_t>(j) * stride + at; },
                        [d, nbytes, at, len](int i, const unsigned char *b) {
                          if (len != 0) std::memcpy(d + static_cast<size_t>(i) * nbytes + at, b, len);
                        },
                        call));
    if (nbytes == 0) break;
  }
  // fcollect's src may lie inside dest (at this PE's block): it was read into every message already.
  if (nbytes != 0) std::memmove(d + static_cast<size_t>(gr.me) * nbytes, s + static_cast<size_t>(gr.me) * stride, nbytes);
  return ok_status;
}

namespace {

// The direct forms' count of this PE in its team area.
size_t landed_offset(const teams::team &t) { return teams::area_offset(t) + offsetof(teams::team_area, net_landed); }

// Sends every other member j the `len` bytes at block_of(j) into its dest at `at` (a symmetric
// address) as counted data signals (core::put_count): the members on other hosts first, so that
// their pieces are on the wire while the node-local members' are copied. Returns when the blocks
// may be reused.
template <class BlockOf>
void send_direct(group &gr, char *at, size_t len, BlockOf block_of, const char *call) {
  if (len == 0) return;
  const size_t landed_off = landed_offset(*gr.t);
  for (int pass = 0; pass < 2; ++pass) {
    for (int k = 1; k < gr.n; ++k) {
      const int i = (gr.me + k) % gr.n;
      const int pe = gr.world(i);
      if (core::is_remote(pe) == (pass == 0)) core::put_count(at, block_of(i), len, pe, gather_direct_piece, landed_off, call);
    }
  }
}

// Waits until `bytes` more of the direct forms' data have landed in this PE's dest.
void await_direct(group &gr, uint64_t bytes, const char *call) {
  teams::team &t = *gr.t;
  const int n = gr.n;
  wait_at_least(teams::area(t, core::g.my_pe)->net_landed, t.net_landed += bytes,
                [n, bytes] {
                  return strfmt("the %d other PEs of the team to send their %llu bytes of this collective across hosts",
                                n - 1, static_cast<unsigned long long>(bytes));
                },
                call);
}

}  // namespace

// Large blocks of fcollect and alltoall, straight into the members' dest: one exchange of the calls
// and the blocks' first chunks (a member's block says that it has entered the call, so its dest
// may be written; the calls are checked as in every exchange), then each member sends the rest of
// its block for member j into j's dest as data signals (send_direct, all posted before any is
// waited for), each adding its length to j's net_landed, and waits until its own count has grown
// by the rest of the n - 1 blocks sent to it (why the count cannot mix two calls:
// broadcast_direct). Against gather_exchange, no lockstep (each chunk's exchange waited for every
// member's chunk before the next chunk went) and no copy out of the exchange area past the first
// chunk. With the first chunks in the exchange (instead of the calls alone), 3 rounds under CUBIC:
// fcollect 512 KiB 182-195 us against 190-222, 1 MiB 373-406 against 390-449. OSU's
// osu_oshm_fcollect / osu_oshm_collect at 2 hosts x 1 PE, 3 rounds with the exchanges and OSHMEM
// alternating, us: under CUBIC (the kernel's default congestion control)
// 256 KiB 88-103 / 95-134 against 115-129 / 130-149 (OSHMEM 88-106 / 98-120), 512 KiB 201-221 /
// 194-262 against 242-303 / 296-317 (162-221 / 161-218), 1 MiB 367-417 / 407-474 against 514-648 /
// 573-662 (326-384 / 330-393); 32-128 KiB level. Under BBR, which paces bursts, 256 KiB is still
// ahead (87-91 against 107-109 for fcollect) but 512 KiB-1 MiB is level or behind (296-322 against
// 239-251 at 512 KiB; OSHMEM 291-496): SYMMEM_NET_COLL_DIRECT=0 keeps the exchanges there.
status gather_direct(group &gr, void *dest, const void *src, size_t nbytes, size_t stride,
                     const core::call_record &rec, const char *call) {
  const char *s = static_cast<const char *>(src);
  auto block_of = [s, stride](int j) { return s + static_cast<size_t>(j) * stride; };
  // The exchange of the calls carries each block's first chunk, so data moves from the start.
  char *d = static_cast<char *>(dest);
  const size_t first = std::min(chunk_of(gr, 1), nbytes);
  SYMMEM_TRY(exchange(gr, first, rec, block_of,
                      [d, nbytes, first](int i, const unsigned char *b) {
                        std::memcpy(d + static_cast<size_t>(i) * nbytes, b, first);
                      },
                      call));
  char *mine = d + static_cast<size_t>(gr.me) * nbytes;
  send_direct(gr, mine + first, nbytes - first, [&block_of, first](int j) { return block_of(j) + first; }, call);
  // fcollect's src may lie inside dest (at this PE's block, which no other member writes).
  std::memmove(mine, block_of(gr.me), nbytes);
  await_direct(gr, static_cast<uint64_t>(gr.n - 1) * (nbytes - first), call);
  return ok_status;
}

bool gather_direct_fits(const group &gr, size_t nbytes) {
  const size_t least = core::g.cfg.net_coll_direct;
  return least != 0 && gr.n <= gather_direct_pes && nbytes >= least && exchange_fits(gr, 0) &&
         core::remote_direct_signals();
}

// A broadcast of a few PEs past one of the ring's slots: exchanges in which the root's block
// carries the data (chunk by chunk) and every other member's only its call, so that each member
// waits for one message of the root's (and the others' calls, sent at once) instead of an
// announcement, a get and an answer (OSU's osu_oshm_broadcast at 2 hosts x 1 PE, 16 KiB: 44 us
// pulled, OSHMEM 12). Every member sends to every other, which keeps the exchanges' flow control
// (a member sends its next block at a parity only once every member sent its last) and checks the
// calls, but costs n * (n - 1) messages: beyond bcast_exchange_pes members the pull, which costs
// 2 * (n - 1), is used. The data lands in the member's exchange area and the member copies it into
// dest inside its call, as with the pull.
status broadcast_exchange(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                          const char *call) {
  const core::call_record rec{teams::call_broadcast, 1, nbytes, static_cast<uint64_t>(root)};
  const size_t chunk = chunk_of(gr, 1);
  const bool is_root = gr.me == root;
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dest);
  for (size_t at = 0; at < nbytes; at += chunk) {
    const size_t len = std::min(chunk, nbytes - at);
    SYMMEM_TRY(exchange(gr, is_root ? len : 0, rec, [s, at](int) { return s + at; },
                        [d, at, len, root](int i, const unsigned char *b) {
                          if (i == root) std::memcpy(d + at, b, len);
                        },
                        call, is_root && at + len == nbytes));
  }
  if (is_root && update_root && dest != src) std::memmove(dest, src, nbytes);
  return ok_status;
}

// A large broadcast of a few PEs, written straight into the members' dest: one exchange in which
// every member's block carries only its call and one flag (a member's block says that it has
// entered the call, so its dest may be written, and the calls are checked as in
// broadcast_exchange), then the root sends the data into the dest of each member on another host
// that forwards (below) as data signals of up to bcast_direct_piece bytes (core::put_count, all
// posted before any is waited for), each adding its length to that member's net_landed, and
// copies it into the dest of the members on its own host likewise. The root returns once they are
// sent (data signals copy: src may be reused); a member once its count has grown by nbytes. The
// data crosses to each other host once: there the first member of the team (the flag of its
// block) copies it on into the dest of the others, each adding nbytes to the other's count, once
// its own count is complete. Against broadcast_exchange the root streams every piece without a
// member's answer per chunk, a member copies nothing out of its exchange area, and a host gets
// the data once; against the pull, no large get (a get or a put of 512 KiB-1 MiB took 1.6-1.8x
// what the same bytes took as data signals on the kernel's TCP; puts in 256 KiB or 1 MiB pieces,
// counted after a quiet, took 1.10-1.16x what the exchange and the pull take, and pulling in
// 256 KiB gets was no faster than one get).
// OSU's osu_oshm_broadcast, alternating with the exchange (up to 512 KiB) and the pull (1 MiB),
// medians of per-round ratios over 4-7 rounds: 2 hosts x 1 PE, 512 KiB 0.81-0.94x, 1 MiB 0.88-0.93x
// in two runs (123 / 255 us against 153 / 290 in one); on this VM's slower days 0.95x / 0.93x
// (333 / 661 us against 350 / 678; OSHMEM 261 / 491). 2 hosts x 2 PEs (4 PEs on 2 CPUs), 128 KiB
// to 1 MiB: 0.54x, 0.39x, 0.43x, 0.68x (97 / 152 / 364 / 677 us against 164 / 404 / 905 / 953).
// At 256 KiB and 2 members, or 64 KiB and 4, no faster (1.01x, 1.41x): the exchange starts the
// data at once, where this waits for the members' blocks first.
// net_landed is a count of the direct forms alone (this one and gather_direct), and only for the
// member's current call. Data goes into member M's dest only from a PE that has M's block of that
// call's exchange (the root, or the forwarding member of M's host: every member has every
// block), i.e. after M entered the call, and M leaves it only once its count has grown by
// what the call sends it; so every byte counted at M between its entry and its exit belongs to
// this call: an earlier one's were all counted before M left it (M waited for them), and a later
// one's cannot go before M enters that one, whichever PE roots it. (The pull's net_bcast counts
// announcements, which may run a broadcast ahead of a member: counting data there would mix the
// two.) A member that called with another length or root is named by the exchange before any
// data goes.
status broadcast_direct(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                        const char *call) {
  const core::call_record rec{teams::call_broadcast, 1, nbytes, static_cast<uint64_t>(root)};
  teams::team &t = *gr.t;
  const int n = gr.n;
  const int root_pe = gr.world(root);
  // This PE forwards the data on its host when the root is on another and no member before it
  // is on this one.
  bool forwards = core::is_remote(root_pe);
  for (int m = 0; m < gr.me && forwards; ++m) forwards = core::is_remote(gr.world(m));
  const uint64_t flag = forwards ? 1 : 0;
  thread_local std::vector<char> forwarder;  // by team PE: its flag
  forwarder.assign(static_cast<size_t>(n), 0);
  SYMMEM_TRY(exchange(gr, sizeof flag, rec, [&flag](int) { return reinterpret_cast<const char *>(&flag); },
                      [](int i, const unsigned char *b) { forwarder[static_cast<size_t>(i)] = b[0] != 0; }, call));
  const size_t landed_off = landed_offset(t);
  if (gr.me == root) {
    // The other hosts first: their pieces are on the wire while the node-local members' copy.
    for (int pass = 0; pass < 2; ++pass) {
      for (int k = 1; k < n; ++k) {
        const int i = (gr.me + k) % n;
        const int pe = gr.world(i);
        if (pass == 0 ? core::is_remote(pe) && forwarder[static_cast<size_t>(i)] : !core::is_remote(pe)) {
          core::put_count(dest, src, nbytes, pe, bcast_direct_piece, landed_off, call);
        }
      }
    }
    if (update_root && dest != src) std::memmove(dest, src, nbytes);
    return ok_status;
  }
  const bool from_root = forwards || !core::is_remote(root_pe);
  wait_at_least(teams::area(t, core::g.my_pe)->net_landed, t.net_landed += nbytes,
                [root_pe, root, from_root] {
                  return strfmt("PE %d%s (team PE %d, the root) to send the broadcast's data%s", root_pe,
                                core::remote_note(root_pe), root,
                                from_root ? "" : " (through the first member of the team on this host)");
                },
                call);
  if (forwards) {  // the members after this one on its host (none is before it)
    for (int i = gr.me + 1; i < n; ++i) {
      const int pe = gr.world(i);
      if (!core::is_remote(pe)) core::put_count(dest, dest, nbytes, pe, bcast_direct_piece, landed_off, call);
    }
  }
  return ok_status;
}

bool broadcast_direct_fits(const group &gr, size_t nbytes) {
  return gr.n <= bcast_exchange_pes &&
         (nbytes > bcast_exchange_max_bytes || (core::g.cfg.net_coll_direct != 0 && nbytes >= core::g.cfg.net_coll_direct)) &&
         exchange_fits(gr, sizeof(uint64_t)) && core::remote_direct_signals();
}

// Up to 512 KiB: at 2 hosts x 1 PE, 512 KiB took 147-152 us by exchanges against 155-159 pulled,
// 1 MiB 297-304 against 273-284 (OSU's osu_oshm_broadcast, two rounds alternating the limits).
// (broadcast_direct, asked first, takes the larger ones of these where it fits.)
bool broadcast_exchange_fits(const group &gr, size_t nbytes) {
  return gr.n <= bcast_exchange_pes && nbytes <= bcast_exchange_max_bytes && exchange_fits(gr, nbytes);
}

// A collect (contributions of any size): the first exchange carries each member's size and the
// start of its contribution, so small collects take one exchange, as fcollect does (the form it
// replaces took a barrier, a network get of every other member's size, puts, a quiet and a
// barrier: 61 us against OSHMEM's 21 in OSU's osu_oshm_collect). The rest goes as further
// exchanges, chunk by chunk, while exchanges_carry the largest contribution, else it
// is pushed (every member has entered the call: its first block came) and a barrier ends it.
status collect_exchange(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                        const char *call) {
  const size_t chunk = chunk_of(gr, 1);
  const size_t head = sizeof(uint64_t);
  const size_t first = chunk - head;  // contribution bytes in the first exchange
  thread_local std::vector<unsigned char> block;
  const size_t mine = std::min(first, nbytes);
  block.resize(head + mine);
  const uint64_t my_size = nbytes;
  std::memcpy(block.data(), &my_size, head);
  if (mine != 0) std::memcpy(block.data() + head, src, mine);
  const int n = gr.n;
  std::vector<uint64_t> sizes(static_cast<size_t>(n));
  std::vector<const unsigned char *> starts(static_cast<size_t>(n));
  sizes[static_cast<size_t>(gr.me)] = nbytes;
  SYMMEM_TRY(exchange(gr, head + mine, rec, [](int) { return block.data(); },
                      [&sizes, &starts, head](int i, const unsigned char *b) {
                        std::memcpy(&sizes[static_cast<size_t>(i)], b, head);
                        starts[static_cast<size_t>(i)] = b + head;
                      },
                      call));
  // That dest holds them all (checked before it is written; the sum cannot wrap past this), and
  // where each contribution goes.
  own_range(dest, total_of(sizes, call), call);
  std::vector<size_t> at(static_cast<size_t>(n));
  size_t largest = 0;
  for (int i = 1; i < n; ++i) at[static_cast<size_t>(i)] = at[static_cast<size_t>(i - 1)] + sizes[static_cast<size_t>(i - 1)];
  for (uint64_t len : sizes) largest = std::max<size_t>(largest, len);
  char *d = static_cast<char *>(dest);
  // The blocks stay in the exchange area until this PE sends its next block (the other parity).
  for (int i = 0; i < n; ++i) {
    const size_t len = std::min<size_t>(first, sizes[static_cast<size_t>(i)]);
    if (i != gr.me && len != 0) std::memcpy(d + at[static_cast<size_t>(i)], starts[static_cast<size_t>(i)], len);
  }
  const char *s = static_cast<const char *>(src);
  const size_t me_at = at[static_cast<size_t>(gr.me)];
  if (largest > first && gather_direct_fits(gr, largest)) {
    // Every member has entered the call (its first block came): the rest straight into dest.
    uint64_t coming = 0;
    for (int i = 0; i < n; ++i) {
      const uint64_t size = sizes[static_cast<size_t>(i)];
      if (i != gr.me && size > first) coming += size - first;
    }
    if (nbytes > first) send_direct(gr, d + me_at + first, nbytes - first, [s, first](int) { return s + first; }, call);
    if (nbytes != 0) std::memmove(d + me_at, s, nbytes);  // src may lie inside dest (no member writes there)
    await_direct(gr, coming, call);
    return ok_status;
  }
  if (largest > first && exchanges_carry(gr, largest)) {
    for (size_t from = first; from < largest; from += chunk) {
      const size_t len = nbytes > from ? std::min(chunk, nbytes - from) : 0;
      SYMMEM_TRY(exchange(gr, len, rec, [s, from](int) { return s + from; },
                          [d, &at, &sizes, from, chunk](int i, const unsigned char *b) {
                            const size_t size = sizes[static_cast<size_t>(i)];
                            if (size > from) std::memcpy(d + at[static_cast<size_t>(i)] + from, b, std::min(chunk, size - from));
                          },
                          call));
    }
  } else if (largest > first) {
    if (nbytes > first) push_all(gr, dest, me_at + first, s + first, nbytes - first, call);
    else core::remote_quiet(call);
    // src may lie inside dest: this PE's own bytes are written after every member has them.
    SYMMEM_TRY(gr.sync(exit_rec, call));
  }
  if (nbytes != 0) std::memmove(d + me_at, s, nbytes);
  return ok_status;
}

// The members' chunks of one exchange of a reduction, folded in team order 0..n-1 into dest. The
// other members' chunks are folded where they landed in the exchange area (they stay there until
// this PE sends its next block), not copied out first (OSU's osu_oshm_reduce at 2 hosts x 1 PE,
// 128 KiB-1 MiB: 0.83-0.90x the time). Blocks land 8-byte aligned, which elements of up to 8 bytes
// need; larger ones (long double, complex) are copied out. So is this PE's own chunk when dest is
// src and another member's comes first (dest is written with that one).
class chunk_fold {
 public:
  // Chunks of at most `most` bytes of gr's members.
  chunk_fold(const group &gr, size_t most, const reducer &r)
      : n_(static_cast<size_t>(gr.n)), me_(static_cast<size_t>(gr.me)), r_(r) {
    thread_local scratch_bytes copies;  // chunks copied out: n of them at most (written only when used)
    thread_local std::vector<const unsigned char *> from;  // by team PE: its chunk
    unsigned char *c = copies.get(n_ * std::max<size_t>(1, most) + 16);
    from.assign(n_, nullptr);
    spare_ = c + (16 - reinterpret_cast<uintptr_t>(c) % 16) % 16;
    from_ = from.data();
  }
  // Team PE i's chunk of len bytes, at b in the exchange area (an exchange's take).
  void take(int i, const unsigned char *b, size_t len) {
    const size_t k = static_cast<size_t>(i);
    if (r_.esize <= 8) {
      from_[k] = b;
      return;
    }
    std::memcpy(spare_ + k * len, b, len);
    from_[k] = spare_ + k * len;
  }
  // Folds the first `have` bytes of the chunks of `len` bytes (this PE's at mine) into out.
  void into(char *out, const char *mine, size_t have, size_t len) {
    from_[me_] = reinterpret_cast<const unsigned char *>(mine);
    if (me_ != 0 && out == mine) {
      std::memcpy(spare_ + me_ * len, mine, have);
      from_[me_] = spare_ + me_ * len;
    }
    if (from_[0] != reinterpret_cast<const unsigned char *>(out)) std::memcpy(out, from_[0], have);
    for (size_t i = 1; i < n_; ++i) r_.combine(out, from_[i], have / r_.esize);
  }

 private:
  size_t n_, me_;
  const reducer &r_;
  unsigned char *spare_ = nullptr;
  const unsigned char **from_ = nullptr;
};

// Every member folds all n sources in team order 0..n-1, as the shared-memory path does, so all
// get bit-identical results. Chunk by chunk: dest may be src, and a chunk of dest is written only
// after this PE's chunk of src went out (chunk_fold).
status reduce_exchange(group &gr, void *dest, const void *src, size_t nelems, const reducer &r,
                       const core::call_record &rec, const char *call) {
  const size_t nbytes = nelems * r.esize;
  const size_t chunk = chunk_of(gr, r.esize);
  chunk_fold fold(gr, std::min(chunk, nbytes), r);
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dest);
  for (size_t at = 0; at < nbytes || at == 0; at += chunk) {  // a zero-length call still exchanges once
    const size_t len = std::min(chunk, nbytes - at);
    SYMMEM_TRY(exchange(gr, len, rec, [s, at](int) { return s + at; },
                        [&fold, len](int i, const unsigned char *b) { fold.take(i, b, len); }, call));
    if (len == 0) break;
    fold.into(d + at, s + at, len, len);
  }
  return ok_status;
}

// A large reduction split by segments (a reduce-scatter, then an all-gather, both as exchanges):
// element segment j of ceil(nelems / n) belongs to team PE j. In the first exchanges each member
// sends chunk k of segment j to member j, which folds the n chunks of its segment in team order
// 0..n-1 into its dest; in the next ones each member sends its folded chunk to all. A member sends
// and receives 2 (n - 1) / n of the data instead of n - 1 times it (reduce_exchange), folds a
// segment instead of all of it, and every segment is folded by one member in team order, so all
// get the same bits, as with reduce_exchange. dest may be src: this PE's segment of src is read
// only by this PE, and another's segment of dest is written only in the second part, once every
// chunk of src has gone. OSU's osu_oshm_reduce, 3 rounds alternating with reduce_exchange (its
// blocks folded where they land; before that, copied out first): 2 hosts x 1 PE, 512 KiB
// 163-171 us against 190-195 (218 copied out), 1 MiB 341-348 against 365-377 (437-444); 2 hosts x
// 2 PEs, 256 KiB / 512 KiB / 1 MiB 174-238 / 364-516 / 755-808 us against 375-397 / 755-816 /
// 1591-1716.
status reduce_split(group &gr, void *dest, const void *src, size_t nelems, const reducer &r,
                    const core::call_record &rec, const char *call) {
  const size_t n = static_cast<size_t>(gr.n);
  const size_t me = static_cast<size_t>(gr.me);
  const size_t es = r.esize;
  const size_t per = (nelems + n - 1) / n;  // elements of a segment; the last ones may be shorter or empty
  const size_t seg = per * es;
  auto lo_of = [nelems, per, es](size_t j) { return std::min(nelems, per * j) * es; };
  auto len_of = [nelems, per, es, &lo_of](size_t j) { return std::min(nelems, per * (j + 1)) * es - lo_of(j); };
  // The bytes of segment j in the chunk at `at` of `len` bytes.
  auto part = [&len_of](size_t j, size_t at, size_t len) {
    const size_t l = len_of(j);
    return l > at ? std::min(len, l - at) : 0;
  };
  const size_t chunk = chunk_of(gr, es);
  thread_local scratch_bytes pad_bytes;  // a short segment's chunk, filled up
  unsigned char *pad = pad_bytes.get(chunk);
  chunk_fold fold(gr, std::min(chunk, seg), r);
  const char *s = static_cast<const char *>(src);
  char *d = static_cast<char *>(dest);
  // Segment j's chunk at `at` of base (src or dest): in place, or in pad when the segment ends in it.
  auto block = [&part, &lo_of, pad](const char *base, size_t j, size_t at, size_t len) -> const char * {
    const size_t have = part(j, at, len);
    if (have == len) return base + lo_of(j) + at;
    if (have != 0) std::memcpy(pad, base + lo_of(j) + at, have);
    std::memset(pad + have, 0, len - have);
    return reinterpret_cast<const char *>(pad);
  };
  const size_t mine = lo_of(me);
  for (size_t at = 0; at < seg; at += chunk) {
    const size_t len = std::min(chunk, seg - at);
    SYMMEM_TRY(exchange(gr, len, rec, [&block, s, at, len](int j) { return block(s, static_cast<size_t>(j), at, len); },
                        [&fold, len](int i, const unsigned char *b) { fold.take(i, b, len); }, call));
    const size_t have = part(me, at, len);
    if (have != 0) fold.into(d + mine + at, s + mine + at, have, len);
  }
  if (gather_direct_fits(gr, seg)) {
    // The second part straight into the members' dest (gather_direct). Member j writes segment j
    // of this PE's dest only after it has every chunk of segment j from this PE, so this PE has
    // read its segment j of src (which may be dest) for the last time.
    uint64_t coming = 0;
    for (size_t j = 0; j < n; ++j) coming += j == me ? 0 : len_of(j);
    send_direct(gr, d + mine, len_of(me), [d, mine](int) { return d + mine; }, call);
    await_direct(gr, coming, call);
    return ok_status;
  }
  for (size_t at = 0; at < seg; at += chunk) {
    const size_t len = std::min(chunk, seg - at);
    const char *out = block(d, me, at, len);
    SYMMEM_TRY(exchange(gr, len, rec, [out](int) { return out; },
                        [d, at, len, &part, &lo_of](int i, const unsigned char *b) {
                          const size_t k = static_cast<size_t>(i);
                          const size_t have = part(k, at, len);
                          if (have != 0) std::memcpy(d + lo_of(k) + at, b, have);
                        },
                        call));
  }
  return ok_status;
}

// Past two exchanges' worth: below, the split's two parts cost more exchanges than they save.
bool reduce_split_fits(const group &gr, size_t nbytes, size_t esize) { return nbytes > 2 * chunk_of(gr, esize); }

}  // namespace symmem::coll
