// symmem: collectives over a group of PEs: a team (OpenSHMEM 1.5) or an active set with a pSync
// array (the deprecated 1.x forms). The algorithms work on bytes; typed routines (api.cpp,
// reduce.cpp) only pick the element size and, for reductions, the combining function.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/checked.h"

#include "teams/team.h"

namespace symmem::coll {

// Who takes part, and how they synchronise.
struct group {
  int n = 0;
  int me = 0;
  teams::team *t = nullptr;  // team form: epoch sync and scratch in the team's area
  int start = 0;             // active-set form: world PE of index i is start + i * stride
  int stride = 1;
  long *psync = nullptr;
  bool local = true;  // every member is node-local: the shared-memory algorithms apply

  int world(int i) const { return t != nullptr ? t->world(i) : start + i * stride; }
  bool scratch() const { return t != nullptr; }
  // The team's scratch is mapped for every member (copy-in algorithms and flag broadcasts).
  bool shm() const { return t != nullptr && local; }
  // The scratch parity the next sync will use (team form only).
  unsigned next_parity() const { return static_cast<unsigned>((t->epoch + 1) & 1); }
  unsigned char *scratch_of(int i, unsigned parity) const { return teams::area(*t, world(i))->data[parity]; }
  status sync(const core::call_record &rec, const char *call);
};

// Copies len bytes of symmetric `src` as held by world PE `world` into local `dst`: a memcpy from
// the mapping, or a get over the network for a PE on another host. put_to is the reverse.
void fetch(void *dst, const void *src, size_t len, int world, const char *call);
void put_to(void *dst, const void *src, size_t len, int world, const char *call);
// Waits (bounded, progressing the network) until `flag` holds at least `value`; `describe` says
// what is awaited, for the message of a wait that runs out.
void wait_at_least(const std::atomic<uint64_t> &flag, uint64_t value, std::function<std::string()> describe,
                   const char *call);

// The group of a team (nullptr-safe: reports and returns false for an invalid team).
bool team_group(symmem_team_t h, group &gr, const char *call);
// The group of an active set in gr; fatal when the triplet is bad. false (and nothing to do) when
// this PE is not in the set.
bool aset_group(int start, int log_stride, int size, long *psync, group &gr, const char *call);

// Checks that `len` bytes at `addr` are this PE's symmetric memory: the dest and source of every
// collective are symmetric objects (OpenSHMEM 1.5, 9.9), and peers read or write them there.
// Fatal (naming the call) otherwise, before any byte moves.
inline void own_range(const void *addr, size_t len, const char *call) {
  if (len != 0) (void)core::translate(addr, len, core::g.my_pe, call);
}

// Element-wise combining function of a reduction: acc[i] = acc[i] op in[i], i < n.
struct reducer {
  size_t esize;
  void (*combine)(void *acc, const void *in, size_t n);
};

status broadcast(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root, const char *call);
status fcollect(group &gr, void *dest, const void *src, size_t nbytes, const char *call);
status collect(group &gr, void *dest, const void *src, size_t nbytes, const char *call);
status alltoall(group &gr, void *dest, const void *src, size_t nbytes, const char *call);
status alltoalls(group &gr, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                 size_t esize, const char *call);
// The forms for groups with PEs on other hosts (coll_net.cpp): every PE pushes its contribution.
status fcollect_push(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                     const char *call);
status collect_push(group &gr, void *dest, const void *src, const std::vector<uint64_t> &sizes, const char *call);
status alltoall_push(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                     const char *call);
status broadcast_pull(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                      const char *call);
status broadcast_push(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                      const char *call);
// Small blocks across hosts (coll_net.cpp): one exchange of data signals, no barrier. exchange_fits
// says whether blocks of `len` bytes of this group go that way.
bool exchange_fits(const group &gr, size_t len);
// fcollect (stride 0) and alltoall (stride nbytes): member k's block for team PE j is at src + j * stride.
status gather_exchange(group &gr, void *dest, const void *src, size_t nbytes, size_t stride,
                       const core::call_record &rec, const char *call);
status collect_exchange(group &gr, void *dest, const void *src, size_t nbytes, const core::call_record &rec,
                        const char *call);
// The bytes of a collect's dest: the sum of the contributions, which must not wrap.
size_t total_of(const std::vector<uint64_t> &sizes, const char *call);
// Large blocks across hosts, straight into the members' dest (coll_net.cpp, gather_direct).
bool gather_direct_fits(const group &gr, size_t nbytes);
status gather_direct(group &gr, void *dest, const void *src, size_t nbytes, size_t stride,
                     const core::call_record &rec, const char *call);
bool broadcast_exchange_fits(const group &gr, size_t nbytes);
bool broadcast_direct_fits(const group &gr, size_t nbytes);
status broadcast_direct(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                        const char *call);
status broadcast_exchange(group &gr, void *dest, const void *src, size_t nbytes, int root, bool update_root,
                          const char *call);
status reduce_exchange(group &gr, void *dest, const void *src, size_t nelems, const reducer &r,
                       const core::call_record &rec, const char *call);
status reduce_split(group &gr, void *dest, const void *src, size_t nelems, const reducer &r,
                    const core::call_record &rec, const char *call);
bool reduce_split_fits(const group &gr, size_t nbytes, size_t esize);

status reduce(group &gr, void *dest, const void *src, size_t nelems, const reducer &r, uint32_t op_id,
              const char *call);
status scan(group &gr, void *dest, const void *src, size_t nelems, const reducer &r, bool inclusive,
            const char *call);

}  // namespace symmem::coll
