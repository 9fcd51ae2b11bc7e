// symmem: the groups collectives run over, and how each synchronises.
//
// Teams use the team barrier (teams/team_sync.cpp). Active sets (PE_start, logPE_stride, PE_size,
// pSync) have no team area, so they synchronise in the user's pSync: a counting dissemination
// barrier (Hensgen, Finkel & Manber 1988, with counters instead of epochs): in round k a PE adds 1
// to pSync[k] of its partner (i + 2^k) and waits until its own pSync[k] is at least 1, then takes
// 1 off. A round's signal always comes from the same partner, and a partner cannot signal round k
// of the next call before it has finished this one, so counts never mix calls; when every PE has
// left, every counter is back to SHMEM_SYNC_VALUE (0), as OpenSHMEM requires of pSync.
#include <sched.h>

#include <atomic>

#include "coll/coll.h"
#include "core/remote.h"
#include "core/sync.h"
#include "net/net_plugin.h"
#include "core/wait.h"

namespace symmem::coll {
namespace {

status aset_sync(group &gr, const char *call) {
  for (int k = 0, dist = 1; dist < gr.n; ++k, dist <<= 1) {
    const int to = gr.world((gr.me + dist) % gr.n);
    if (core::is_remote(to)) {
      // A fetching add, so that it has landed before this PE goes on (as the local one has).
      (void)core::remote_amo(gr.psync + k, to, SYMMEM_NET_AMO_ADD, sizeof(long), 1, 0, true, call);
    } else {
      long *remote = reinterpret_cast<long *>(core::translate(gr.psync + k, sizeof(long), to, call));
      std::atomic_ref<long>(*remote).fetch_add(1, std::memory_order_acq_rel);
    }
    std::atomic_ref<long> mine(gr.psync[k]);
    if (mine.load(std::memory_order_acquire) < 1) {
      const int from = gr.world((gr.me - dist + gr.n) % gr.n);
      core::spin_wait w(call, [from] {
        return strfmt("PE %d%s to reach the same collective call (active set)", from, core::remote_note(from));
      });
      w.yield_every_turn(core::node_oversubscribed());  // give the core to the PE awaited
      while (mine.load(std::memory_order_acquire) < 1) {
        w.pause();
      }
    }
    mine.fetch_sub(1, std::memory_order_acq_rel);
  }
  return ok_status;
}

}  // namespace

status group::sync(const core::call_record &rec, const char *call) {
  if (t != nullptr) {
    return teams::sync(*t, rec, call);
  }
  return aset_sync(*this, call);
}

bool team_group(symmem_team_t h, group &gr, const char *call) {
  teams::team *t = teams::lookup(h, call);
  if (t == nullptr) {
    return false;
  }
  if (t->my_idx < 0) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "this PE is not a member of the team; only members may call its "
                                                  "collectives");
    return false;
  }
  if (!core::g.heap_on_cpu && t->size > 1) {
    (void)fail(SYMMEM_ERR_UNSUPPORTED, call, "host collectives on a GPU heap are not supported yet; use SYMMEM_HEAP=host");
    return false;
  }
  if (!core::finish_deferred(call).ok()) return false;
  gr = group{};
  gr.n = t->size;
  gr.me = t->my_idx;
  gr.t = t;
  gr.local = t->all_local;
  return true;
}

bool aset_group(int start, int log_stride, int size, long *psync, group &gr, const char *call) {
  core::require_init(call);
  const int n = core::g.n_pes;
  if (size < 1 || start < 0 || log_stride < 0 || log_stride > 30 ||
      static_cast<long>(start) + (static_cast<long>(size - 1) << log_stride) >= n) {
    fatal(call, "the active set (PE_start %d, logPE_stride %d, PE_size %d) does not fit in the job's %d PEs; fix the "
          "triplet", start, log_stride, size, n);
  }
  const int stride = 1 << log_stride;
  const int rel = core::g.my_pe - start;
  if (rel < 0 || rel % stride != 0 || rel / stride >= size) {
    // OpenSHMEM leaves this undefined; OSHMEM returns at once (its scoll "null" module for PEs
    // outside the group) and programs written against it call active-set collectives from every PE.
    log(log_level::info, "%s: this PE is not in the active set (PE_start %d, logPE_stride %d, PE_size %d): nothing "
        "to do", call, start, log_stride, size);
    return false;
  }
  if (core::g.remote && start == 0 && size == n && core::g.heap_on_cpu) {
    // The whole job, across hosts: the world team's algorithms (pushed broadcasts, exchanges of
    // data signals, its barrier), which need no barrier per call, where the active-set forms
    // synchronise in pSync with network atomics (a broadcast64 took 58 us against 8 us). Every PE
    // is a member and calls the same collectives in the same order, so the world team's call
    // counts stay in agreement; pSync is left as it is (SHMEM_SYNC_VALUE), as OpenSHMEM requires.
    return team_group(symmem_team_world, gr, call);
  }
  gr = group{};
  gr.n = size;
  gr.me = rel / stride;
  gr.start = start;
  gr.stride = stride;
  gr.psync = psync;
  for (int i = 0; i < size; ++i) {
    if (core::g.local_rank_of[static_cast<size_t>(gr.world(i))] < 0) gr.local = false;
  }
  if (!core::g.heap_on_cpu && size > 1) {
    fatal(call, "host collectives on a GPU heap are not supported yet; use SYMMEM_HEAP=host");
  }
  if (size > 1 && psync == nullptr) {
    fatal(call, "pSync is NULL; pass a symmetric array of SHMEM_SYNC_SIZE longs set to SHMEM_SYNC_VALUE");
  }
  if (!core::finish_deferred(call).ok()) fatal(call, "%s", last_error().c_str());
  return true;
}

}  // namespace symmem::coll
