// symmem: the collectives of groups that span hosts.
//
// The shared-memory algorithms (coll.cpp) read the peers' buffers or scratch through the mapping.
// A group with PEs on other hosts *pushes* instead: after the entry barrier (every destination is
// free), each PE puts its contribution into every member's destination, puts to node-local
// members being stores into the mapping and to remote ones network puts; then a quiet, so that
// everything has landed, and the exit barrier. Pushing uses only this PE's source pointer, so a
// source inside the destination (fcollect in place) works as on one host, and every transfer
// is one-sided from the PE that has the data (no round trip per block, as a pull would need).
#include <cstddef>
#include <cstring>

#include "coll/coll.h"
#include "core/remote.h"
#include "core/sync.h"

namespace symmem::coll {
namespace {

const core::call_record exit_rec{teams::call_exit, 1, 0, 0};

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
// root: that and the last taker's add. The form it replaces took two barriers and a get.
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

}  // namespace symmem::coll
