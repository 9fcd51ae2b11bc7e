// symmem: the team barrier, the one synchronisation every team collective rides on.
//
// Dissemination barrier (Hensgen, Finkel & Manber, "Two algorithms for barrier synchronization",
// 1988) over the team's indices: in round k, index i signals index (i + 2^k) mod n in that PE's
// team area and waits for (i - 2^k) mod n. Like the world barrier in core/sync.cpp, each signal
// carries the min and max fingerprint of the members' call records, so checking that every member
// made the same call with the same arguments costs no extra round. Flags are double-buffered by
// epoch parity; a team's epochs start from a base agreed at creation (team.cpp), so a reused slot
// never sees a stale epoch that matches.
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <vector>

#include "core/sync.h"
#include "core/remote.h"
#include "core/wait.h"
#include "teams/team.h"

namespace symmem::teams {
namespace {

using core::fingerprint;
const char *op_name(uint64_t code) {
  switch (code) {
    case ('a' << 8 | 'n'): return "and";
    case ('o' << 8 | 'r'): return "or";
    case ('x' << 8 | 'o'): return "xor";
    case ('m' << 8 | 'a'): return "max";
    case ('m' << 8 | 'i'): return "min";
    case ('s' << 8 | 'u'): return "sum";
    case ('p' << 8 | 'r'): return "prod";
    default: return "?";
  }
}

// This layer's calls in words; the core's for the rest.
std::string describe(const core::call_record &r) {
  const auto a = static_cast<unsigned long long>(r.a);
  switch (r.call) {
    case call_broadcast: return strfmt("broadcast(%llu bytes, root %llu)", a, static_cast<unsigned long long>(r.b));
    case call_collect: return "collect()";
    case call_fcollect: return strfmt("fcollect(%llu bytes)", a);
    case call_alltoall: return strfmt("alltoall(%llu bytes per PE)", a);
    case call_alltoalls: return strfmt("alltoalls(%llu bytes per PE, strides %llu/%llu)", a,
                                       static_cast<unsigned long long>(r.b & 0xffffffff),
                                       static_cast<unsigned long long>(r.b >> 32));
    case call_reduce: return strfmt("%s_reduce(%llu bytes)", op_name(r.b), a);
    case call_scan: return strfmt("sum_%s(%llu bytes)", r.b != 0 ? "inscan" : "exscan", a);
    case call_team_split:
      return strfmt("team_split_strided(start %d, stride %d, size %llu)", static_cast<int>(r.a & 0xffffffff),
                    static_cast<int>(r.a >> 32), static_cast<unsigned long long>(r.b));
    case call_team_split_2d: return strfmt("team_split_2d(xrange %llu)", a);
    case call_team_sync: return "team_sync()";
    case call_team_destroy: return "team_destroy()";
    case call_team_init: return strfmt("team_init(unique id %#llx, npes %llu)", a, static_cast<unsigned long long>(r.b));
    case call_exit: return "the end of a two-barrier collective";
    default: return core::describe_call(r);
  }
}

status report_mismatch(const team &t, unsigned parity, const char *call) {
  std::map<std::string, std::vector<int>> groups;  // description -> team PEs
  const size_t off = area_offset(t) + offsetof(team_area, record) + parity * sizeof(core::call_record);
  for (int i = 0; i < t.size; ++i) {
    core::call_record rec{};
    core::ctrl_get(t.world(i), off, &rec, sizeof rec, call);
    groups[describe(rec)].push_back(i);
  }
  std::vector<std::pair<std::string, std::vector<int>>> order(groups.begin(), groups.end());
  std::sort(order.begin(), order.end(), [](auto &x, auto &y) { return x.second[0] < y.second[0]; });
  std::string text;
  for (auto &[desc, who] : order) {
    std::string list;
    for (int i : who) list += (list.empty() ? "" : ",") + std::to_string(i);
    text += (text.empty() ? "" : "; ") + std::string(who.size() == 1 ? "team PE " : "team PEs ") + list + " called " + desc;
  }
  return fail(SYMMEM_ERR_MISMATCH, call,
              "collective calls differ across the PEs of a team of %d: %s; every team member must make the same "
              "collective calls with the same arguments, in the same order",
              t.size, text.c_str());
}

void wait_flag(const core::sync_slot &in, uint64_t epoch, const team &t, int from, const char *call) {
  if (core::slot_ready(in, epoch)) {
    return;
  }
  int world = t.world(from);
  core::spin_wait w(call, [world, from] {
    return strfmt("PE %d%s (team PE %d) to reach the same collective call", world, core::remote_note(world), from);
  });
  w.yield_every_turn(core::node_oversubscribed());
  while (!core::slot_ready(in, epoch)) {
    w.pause();
  }
}

}  // namespace

status sync(team &t, const core::call_record &rec, const char *call) {
  const int n = t.size;
  if (n == 1) {
    ++t.epoch;
    return ok_status;
  }
  SYMMEM_TRY(core::finish_deferred(call));
  const uint64_t epoch = ++t.epoch;
  const unsigned parity = epoch & 1;
  const int me = t.my_idx;
  team_area *mine = area(t, core::g.my_pe);
  const bool check = core::g.cfg.check_args;
  uint64_t lo = check ? fingerprint(rec) : 0;
  uint64_t hi = lo;
  if (check) {
    mine->record[parity] = rec;
  }
  for (int k = 0, dist = 1; dist < n; ++k, dist <<= 1) {
    core::sync_slot &in = mine->slots[parity][k];
    core::signal_slot(t.world((me + dist) % n), core::ctrl_offset(&in), epoch, lo, hi, call);
    wait_flag(in, epoch, t, (me - dist + n) % n, call);
    lo = std::min(lo, std::atomic_ref<uint64_t>(in.lo).load(std::memory_order_relaxed));
    hi = std::max(hi, std::atomic_ref<uint64_t>(in.hi).load(std::memory_order_relaxed));
  }
  if (lo != hi) {
    return report_mismatch(t, parity, call);
  }
  return ok_status;
}

status allgather_small(team &t, const void *in, size_t n, void *out, const core::call_record &rec, const char *call) {
  const unsigned parity = (t.epoch + 1) & 1;
  std::memcpy(area(t, core::g.my_pe)->data[parity], in, n);
  SYMMEM_TRY(sync(t, rec, call));
  const size_t off = area_offset(t) + offsetof(team_area, data) + parity * coll_bytes;
  for (int i = 0; i < t.size; ++i) {
    core::ctrl_get(t.world(i), off, static_cast<char *>(out) + static_cast<size_t>(i) * n, n, call);
  }
  return ok_status;
}

}  // namespace symmem::teams

namespace symmem::core {

// Names this layer's calls in the argument-check messages of core/sync.cpp.
const char *user_call_name(uint32_t id) {
  switch (id) {
    case teams::call_team_sync: return "team_sync";
    case teams::call_team_split: return "team_split_strided";
    case teams::call_team_split_2d: return "team_split_2d";
    case teams::call_team_destroy: return "team_destroy";
    case teams::call_team_init: return "team_init";
    case teams::call_broadcast: return "broadcast";
    case teams::call_collect: return "collect";
    case teams::call_fcollect: return "fcollect";
    case teams::call_alltoall: return "alltoall";
    case teams::call_alltoalls: return "alltoalls";
    case teams::call_reduce: return "reduce";
    case teams::call_scan: return "scan";
    case teams::call_exit: return "the end of a collective";
    default: return nullptr;
  }
}

}  // namespace symmem::core
