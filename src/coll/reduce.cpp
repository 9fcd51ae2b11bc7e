// symmem: reductions (and, or, xor, max, min, sum, prod) over teams and active sets.
//
// Two shared-memory algorithms, by size:
//  - small: copy-in. Each PE copies its source into its scratch, one team barrier, and every PE
//    folds all n contributions itself. n times the arithmetic, but one barrier and no second pass.
//  - large: reduce-scatter + all-gather by direct access (the shared-memory form of Rabenseifner's
//    algorithm, "Optimization of collective reduction operations", ICCS 2004): after a barrier, PE
//    i folds slice i of every peer's source and writes the result into slice i of every peer's dest,
//    then a second barrier. Every element is reduced once, in team order 0..n-1, so all PEs get
//    bit-identical results (floating point included). Slices are disjoint, so dest == source
//    (allowed by the spec) is safe: a slice is read in full before it is written.
#include <algorithm>
#include <cstring>
#include <vector>

#include "coll/coll.h"
#include "core/remote.h"

namespace symmem::coll {
namespace {

constexpr size_t small_reduce_bytes = 4096;  // per PE, and n * bytes <= 4 * this (see docs/collectives.md)
constexpr size_t chunk_bytes = 8192;         // the local accumulator of the large path

status reduce_small(group &gr, void *dest, const void *src, size_t nelems, const reducer &r,
                    const core::call_record &rec, const char *call) {
  const size_t nbytes = nelems * r.esize;
  const unsigned p = gr.next_parity();
  std::memcpy(gr.scratch_of(gr.me, p), src, nbytes);
  SYMMEM_TRY(gr.sync(rec, call));
  std::memcpy(dest, gr.scratch_of(0, p), nbytes);
  for (int i = 1; i < gr.n; ++i) {
    r.combine(dest, gr.scratch_of(i, p), nelems);
  }
  return ok_status;
}

// Folds elements [lo, hi) of every PE's source and stores them in every PE's dest.
void reduce_slice(group &gr, void *dest, const void *src, size_t lo, size_t hi, const reducer &r, const char *call) {
  alignas(64) unsigned char acc[chunk_bytes];
  const size_t per_chunk = std::max<size_t>(1, chunk_bytes / r.esize);
  for (size_t at = lo; at < hi; at += per_chunk) {
    const size_t cnt = std::min(per_chunk, hi - at);
    const size_t off = at * r.esize;
    const size_t len = cnt * r.esize;
    fetch(acc, static_cast<const char *>(src) + off, len, gr.world(0), call);
    for (int i = 1; i < gr.n; ++i) {
      if (core::is_remote(gr.world(i))) {  // a PE on another host: its slice comes over the network
        alignas(64) unsigned char in[chunk_bytes];
        fetch(in, static_cast<const char *>(src) + off, len, gr.world(i), call);
        r.combine(acc, in, cnt);
      } else {
        r.combine(acc, core::translate(static_cast<const char *>(src) + off, len, gr.world(i), call), cnt);
      }
    }
    for (int k = 0; k < gr.n; ++k) {
      const int j = (gr.me + k) % gr.n;
      put_to(static_cast<char *>(dest) + off, acc, len, gr.world(j), call);
    }
  }
}

}  // namespace

status reduce(group &gr, void *dest, const void *src, size_t nelems, const reducer &r, uint32_t op_id,
              const char *call) {
  const size_t nbytes = bytes_of(nelems, r.esize, call);
  own_range(dest, nbytes, call);
  own_range(src, nbytes, call);
  const core::call_record rec{teams::call_reduce, 1, nbytes, op_id};
  if (gr.n == 1) {
    if (dest != src) std::memmove(dest, src, nbytes);
    return gr.sync(rec, call);
  }
  // Across hosts (exchange_fits of 0 bytes: a team with members on other hosts) a reduction of any
  // size goes as exchanges, chunk by chunk: the slices below fetch
  // each remote PE's part 8 KiB at a time, a network round trip each (OSU's osu_oshm_reduce at
  // 2 hosts x 1 PE, 512 KiB and 1 MiB: 1.44 and 2.86 ms by slices, 0.34 and 0.67 ms by exchanges;
  // OSHMEM 0.20 and 0.43). fcollect, collect and alltoall push their blocks past what
  // exchanges_carry (coll_net.cpp). Past two exchanges' worth, split by segments (reduce_split).
  if (exchange_fits(gr, 0)) {
    return reduce_split_fits(gr, nbytes, r.esize) ? reduce_split(gr, dest, src, nelems, r, rec, call)
                                                   : reduce_exchange(gr, dest, src, nelems, r, rec, call);
  }
  if (gr.shm() && nbytes <= small_reduce_bytes && nbytes * static_cast<size_t>(gr.n) <= 4 * small_reduce_bytes) {
    return reduce_small(gr, dest, src, nelems, r, rec, call);
  }
  SYMMEM_TRY(gr.sync(rec, call));
  // Slices of whole cache lines where the type allows, so two PEs never write one line.
  const size_t line = std::max<size_t>(1, 64 / r.esize);
  size_t per = (nelems + static_cast<size_t>(gr.n) - 1) / static_cast<size_t>(gr.n);
  per = (per + line - 1) / line * line;
  const size_t lo = std::min(nelems, per * static_cast<size_t>(gr.me));
  const size_t hi = std::min(nelems, lo + per);
  reduce_slice(gr, dest, src, lo, hi, r, call);
  if (!gr.local) core::remote_quiet(call);  // the slices put to other hosts have landed
  const core::call_record exit_rec{teams::call_exit, 1, 0, 0};
  return gr.sync(exit_rec, call);
}

// Prefix sums (inscan: PEs 0..me, exscan: 0..me-1; zeros on PE 0). Each member reads the sources
// of the members before it (a memcpy on this host, a get from another) into a private sum, after
// a sync that has every source ready; a second sync keeps every source unchanged until all have
// read it, so dest may be source. Team sizes are small next to element counts, so the me reads
// per PE cost less than a tree's extra synchronisation.
status scan(group &gr, void *dest, const void *src, size_t nelems, const reducer &r, bool inclusive,
            const char *call) {
  const size_t nbytes = bytes_of(nelems, r.esize, call);
  own_range(dest, nbytes, call);
  own_range(src, nbytes, call);
  const core::call_record rec{teams::call_scan, 1, nbytes, inclusive ? 1u : 0u};
  SYMMEM_TRY(gr.sync(rec, call));
  std::vector<unsigned char> sum(nbytes, 0);  // zero is the sum's identity for every type
  std::vector<unsigned char> in(nbytes);
  const int upto = inclusive ? gr.me + 1 : gr.me;
  for (int i = 0; i < upto; ++i) {
    fetch(in.data(), src, nbytes, gr.world(i), call);
    r.combine(sum.data(), in.data(), nelems);
  }
  const core::call_record exit_rec{teams::call_exit, 1, 0, 0};
  SYMMEM_TRY(gr.sync(exit_rec, call));
  if (nbytes != 0) std::memcpy(dest, sum.data(), nbytes);
  return ok_status;
}

}  // namespace symmem::coll
