// symmem: the collectives of groups that span hosts.
//
// The shared-memory algorithms (coll.cpp) read the peers' buffers or scratch through the mapping.
// A group with PEs on other hosts *pushes* instead: after the entry barrier (every destination is
// free), each PE puts its contribution into every member's destination, puts to node-local
// members being stores into the mapping and to remote ones network puts; then a quiet, so that
// everything has landed, and the exit barrier. Pushing uses only this PE's source pointer, so a
// source inside the destination (fcollect in place) works as on one host, and every transfer
// is one-sided from the PE that has the data (no round trip per block, as a pull would need).
#include <cstring>

#include "coll/coll.h"
#include "core/remote.h"

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
