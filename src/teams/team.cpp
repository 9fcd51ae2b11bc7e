// symmem: team creation, queries and destruction.
//
// Slot agreement (how a new team gets the same slot on every member, without a coordinator): every
// PE of the parent contributes its bitmap of live slots and, per slot, the last epoch it used
// there; one all-gather over the parent's scratch gives everyone the same inputs, so everyone picks
// the same lowest slot free on all of them and starts the team's epochs above every old epoch of
// that slot. PEs outside the new team only take part in the all-gather.
#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <string>

#include "core/remote.h"
#include "core/sync.h"
#include "core/wait.h"
#include "mem/vaspace.h"
#include "teams/team.h"

using symmem::core::g;

namespace symmem::teams {
namespace {

symmem_team_s pool[max_teams] __attribute__((init_priority(101)));  // before the program's globals (core::g)

struct pool_state {
  std::mutex mutex;
  std::atomic<uint64_t> nonce{0};    // the job (g.nonce) the pool was set up for
  uint64_t used = 0;                 // live slots on this PE
  uint64_t last_epoch[max_teams]{};  // epoch reached on each slot, kept after destroy
  // The counts in each slot's team area when its last team was destroyed (0 in a new job): where
  // the next team's counts of the cross-host collectives start. Read at destroy, when every count
  // of the team has landed (each one was waited for inside its call); at creation the area could
  // already hold a count of the new team (a member may be a step ahead).
  struct net_counts {
    uint64_t announced = 0, taken = 0;  // team_area::net_bcast, net_bcast_ack (pulled broadcasts)
    uint64_t landed = 0;                // team_area::net_landed (the direct forms)
    uint64_t blocks[2] = {};            // team_area::net_xchg_count (exchanges)
    uint64_t ring[net_ring] = {};       // team_area::net_ring_slots[k].landed (pushed broadcasts)
  } net_base[max_teams]{};
} ps __attribute__((init_priority(101)));

void set_members(team &t, int slot, std::vector<int> pes) {
  t.live = true;
  t.slot = slot;
  t.pes = std::move(pes);
  t.size = static_cast<int>(t.pes.size());
  t.my_idx = -1;
  t.all_local = true;
  for (int i = 0; i < t.size; ++i) {
    if (t.pes[static_cast<size_t>(i)] == g.my_pe) t.my_idx = i;
    if (g.local_rank_of[static_cast<size_t>(t.pes[static_cast<size_t>(i)])] < 0) t.all_local = false;
  }
  t.config = symmem_team_config_t{0};
  t.config_mask = 0;
  t.epoch = t.bcast_base = t.bcast_seq = 0;
  t.bcast_seen.assign(t.pes.size(), 0);
  t.net_done_seen.assign(t.pes.size(), 0);
  t.net_bcast_expect = ps.net_base[slot].announced;  // this team's broadcast counts start here
  t.net_bcast_acks = ps.net_base[slot].taken;
  t.net_landed = ps.net_base[slot].landed;
  t.net_xchg_seq = 0;
  t.net_xchg_expect[0] = ps.net_base[slot].blocks[0];
  t.net_xchg_expect[1] = ps.net_base[slot].blocks[1];
  t.net_push_seq = 0;
  for (int k = 0; k < net_ring; ++k) t.net_ring_expect[k] = ps.net_base[slot].ring[k];
  ps.used |= uint64_t{1} << slot;
}

// First use in a job: WORLD (slot 0) and SHARED (slot 1) exist, every other slot is free.
void setup_pool() {
  std::lock_guard<std::mutex> lock(ps.mutex);
  if (ps.nonce.load(std::memory_order_acquire) == g.nonce) {
    return;
  }
  for (team &t : pool) {
    t = symmem_team_s{};
  }
  ps.used = 0;
  std::fill(std::begin(ps.last_epoch), std::end(ps.last_epoch), 0);
  std::fill(std::begin(ps.net_base), std::end(ps.net_base), pool_state::net_counts{});
  std::vector<int> world(static_cast<size_t>(g.n_pes));
  std::vector<int> shared;
  for (int p = 0; p < g.n_pes; ++p) {
    world[static_cast<size_t>(p)] = p;
    if (g.local_rank_of[static_cast<size_t>(p)] >= 0) shared.push_back(p);
  }
  set_members(pool[0], 0, std::move(world));
  set_members(pool[1], 1, std::move(shared));
  ps.nonce.store(g.nonce, std::memory_order_release);
}

void ensure_pool(const char *call) {
  core::require_init(call);
  if (SYMMEM_UNLIKELY(ps.nonce.load(std::memory_order_acquire) != g.nonce)) {
    setup_pool();
  }
}

// The lowest slot free in `used` (from 2: WORLD and SHARED are 0 and 1), or -1 with the error.
int free_slot(uint64_t used, const char *call) {
  for (int s = 2; s < max_teams; ++s) {
    if (!(used & (uint64_t{1} << s))) return s;
  }
  (void)fail(SYMMEM_ERR_OUT_OF_MEMORY, call,
             "no free team slot: every PE can be in at most %d teams at once (WORLD and SHARED included); destroy "
             "teams you no longer use",
             max_teams);
  return -1;
}

struct slot_info {
  uint64_t used;
  uint64_t last_epoch[max_teams];
};

// Agrees on a free slot and its epoch base over `parent` (collective over the parent).
status agree_slot(team &parent, const core::call_record &rec, int &slot, uint64_t &base, const char *call) {
  slot_info mine{};
  {
    std::lock_guard<std::mutex> lock(ps.mutex);
    mine.used = ps.used;
    std::copy(std::begin(ps.last_epoch), std::end(ps.last_epoch), mine.last_epoch);
  }
  std::vector<slot_info> all(static_cast<size_t>(parent.size));
  SYMMEM_TRY(allgather_small(parent, &mine, sizeof mine, all.data(), rec, call));
  uint64_t used = 0;
  for (const slot_info &s : all) used |= s.used;
  slot = free_slot(used, call);
  if (slot < 0) return status(SYMMEM_ERR_OUT_OF_MEMORY);
  base = 0;
  for (const slot_info &s : all) base = std::max(base, s.last_epoch[slot]);
  base += 2;  // above any flag still in the slot (a partner runs at most one epoch ahead)
  return ok_status;
}

// Splits are collective over the parent: a PE outside it cannot take part. An invalid parent gives
// SHMEM_TEAM_INVALID and a non-zero return (OpenSHMEM 1.5, shmem_team_split_strided), without a message.
team *parent_of(symmem_team_t h, const char *call) {
  team *p = lookup(h, call, true);
  if (p != nullptr && p->my_idx < 0) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "this PE is not a member of the parent team; only its members may "
                                                  "split it");
    return nullptr;
  }
  return p;
}

// One team creation at a time per PE: two from two threads could agree on the same slot.
class creating {
 public:
  explicit creating(const char *call) {
    if (busy().exchange(true, std::memory_order_acquire)) {
      fatal(call, "another thread of this PE is creating a team at the same time; serialise team creation (OpenSHMEM "
                  "allows concurrent splits of different parents, symmem does not yet)");
    }
  }
  ~creating() { busy().store(false, std::memory_order_release); }
  creating(const creating &) = delete;
  creating &operator=(const creating &) = delete;

 private:
  static std::atomic<bool> &busy() {
    static std::atomic<bool> b{false};
    return b;
  }
};

void apply_config(team &t, const symmem_team_config_t *config, long mask) {
  if (config != nullptr && (mask & SYMMEM_TEAM_NUM_CONTEXTS)) {
    t.config.num_contexts = config->num_contexts;
    t.config_mask = SYMMEM_TEAM_NUM_CONTEXTS;
  }
}

// Makes slot `slot` the team of world PEs `pes` (in team order), its epochs from `base`. Holds ps.mutex.
team &install(int slot, uint64_t base, std::vector<int> pes, const symmem_team_config_t *config, long mask) {
  team &t = pool[slot];
  set_members(t, slot, std::move(pes));
  t.epoch = base;
  t.bcast_base = t.bcast_seq = base << 32;  // above every sequence number an older team left in the slot
  t.bcast_seen.assign(t.pes.size(), t.bcast_base);
  t.net_done_seen.assign(t.pes.size(), t.bcast_base);
  ps.last_epoch[slot] = base;
  apply_config(t, config, mask);
  return t;
}

// Creates the team whose members are the parent indices `members` (the same list on every member;
// empty on PEs outside it). Collective over the parent.
status split(team &parent, const std::vector<int> &members, const symmem_team_config_t *config, long mask,
             const core::call_record &rec, symmem_team_t *out, const char *call) {
  *out = SYMMEM_TEAM_INVALID;
  creating busy(call);
  int slot = 0;
  uint64_t base = 0;
  SYMMEM_TRY(agree_slot(parent, rec, slot, base, call));
  if (members.empty()) {
    return ok_status;
  }
  std::vector<int> pes;
  for (int idx : members) pes.push_back(parent.world(idx));
  std::lock_guard<std::mutex> lock(ps.mutex);
  *out = &install(slot, base, std::move(pes), config, mask);
  return ok_status;
}

// ---- teams from a unique id -----------------------------------------------------------------------

bool valid_uid(uint64_t u) { return u != 0 && u != ~uint64_t{0}; }

init_board &my_board() {
  return *reinterpret_cast<init_board *>(g.ctrl_table[static_cast<size_t>(g.my_pe)] + init_board_offset);
}

// World PE pe's board when it is in the team_init of `uid`: a load on this host, a get of the id
// and then of the board for a PE on another host (the board holds while its id is set).
bool read_board(int pe, uint64_t uid, init_board &b, const char *call) {
  if (char *ctrl = g.ctrl_table[static_cast<size_t>(pe)]) {
    auto *r = reinterpret_cast<init_board *>(ctrl + init_board_offset);
    if (std::atomic_ref<uint64_t>(r->uid).load(std::memory_order_acquire) != uid) return false;
    b = *r;
    b.uid = uid;
    return true;
  }
  uint64_t u = 0;
  core::ctrl_get(pe, init_board_offset, &u, sizeof u, call);
  if (u != uid) return false;
  core::ctrl_get(pe, init_board_offset, &b, sizeof b, call);
  return b.uid == uid;
}

std::string list_text(const std::vector<int> &v) {
  std::string s;
  for (int x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s.empty() ? "none" : s;
}

}  // namespace

status init_from_uid(uint64_t uid, int npes, int index, const symmem_team_config_t *config, long mask,
                     uint64_t agree_in, uint64_t *agree_out, symmem_team_t *out, const char *call) {
  *out = SYMMEM_TEAM_INVALID;
  ensure_pool(call);
  if (!valid_uid(uid)) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "unique id %#llx was not made by team_get_uniqueid; get one on one PE and hand it to every member",
                static_cast<unsigned long long>(uid));
  }
  if (npes < 1 || npes > g.n_pes) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "npes %d: a team has 1 to %d PEs (the job's)", npes, g.n_pes);
  }
  if (index < 0 || index >= npes) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "pe_idx_in_team %d is not a team index of a team of %d PEs; pass 0..%d, each member its own", index,
                npes, npes - 1);
  }
  creating busy(call);
  init_board &mine = my_board();
  std::atomic_ref<uint64_t>(mine.uid).store(0, std::memory_order_release);  // left set by a failed call
  {
    std::lock_guard<std::mutex> lock(ps.mutex);
    mine.index = index;
    mine.npes = npes;
    mine.used = ps.used;
    mine.agree = agree_in;
    std::copy(std::begin(ps.last_epoch), std::end(ps.last_epoch), mine.last_epoch);
  }
  std::atomic_ref<uint64_t>(mine.uid).store(uid, std::memory_order_release);

  std::vector<int> pes(static_cast<size_t>(npes), -1);  // world PE of each team index
  std::vector<init_board> boards(static_cast<size_t>(npes));
  std::vector<char> seen(static_cast<size_t>(g.n_pes), 0);
  int found = 0;
  core::spin_wait w(call, [&] {
    std::vector<int> have, at, missing;
    for (int i = 0; i < npes; ++i) {
      if (pes[static_cast<size_t>(i)] >= 0) {
        have.push_back(i);
        at.push_back(pes[static_cast<size_t>(i)]);
      } else {
        missing.push_back(i);
      }
    }
    return strfmt("the members of the team with unique id %#llx (%d PEs) to call team_init: team indices %s found "
                  "(world PEs %s), team indices %s missing; every member must call it with the same id and npes",
                  static_cast<unsigned long long>(uid), npes, list_text(have).c_str(), list_text(at).c_str(),
                  list_text(missing).c_str());
  });
  while (found < npes) {
    for (int p = 0; p < g.n_pes; ++p) {
      init_board b;
      if (seen[static_cast<size_t>(p)] || !read_board(p, uid, b, call)) continue;
      seen[static_cast<size_t>(p)] = 1;
      // Each finding leaves this PE's board set, so that the other PE finds the same disagreement.
      if (b.npes != npes || b.index < 0 || b.index >= npes) {
        return fail(SYMMEM_ERR_MISMATCH, call,
                    "PE %d called team_init with unique id %#llx for a team of %d PEs, this PE for %d; every member "
                    "must pass the same npes",
                    p, static_cast<unsigned long long>(uid), b.npes, npes);
      }
      int &at = pes[static_cast<size_t>(b.index)];
      if (at >= 0) {
        return fail(SYMMEM_ERR_MISMATCH, call,
                    "PEs %d and %d both called team_init with unique id %#llx as team index %d; each member must pass "
                    "its own pe_idx_in_team, 0..%d each once",
                    at, p, static_cast<unsigned long long>(uid), b.index, npes - 1);
      }
      at = p;
      boards[static_cast<size_t>(b.index)] = b;
      ++found;
    }
    if (found < npes) w.pause();
  }

  uint64_t used = 0, agree = 0, base = 0;
  for (const init_board &b : boards) {
    used |= b.used;
    agree |= b.agree;
  }
  const int slot = free_slot(used, call);
  if (slot < 0) return status(SYMMEM_ERR_OUT_OF_MEMORY);
  for (const init_board &b : boards) base = std::max(base, b.last_epoch[slot]);
  team *t = nullptr;
  {
    std::lock_guard<std::mutex> lock(ps.mutex);
    t = &install(slot, base + 2, pes, config, mask);
  }
  const core::call_record rec{call_team_init, 1, uid, static_cast<uint64_t>(npes)};
  status st = sync(*t, rec, call);
  if (st.ok()) {
    std::atomic_ref<uint64_t>(mine.uid).store(0, std::memory_order_release);
    st = sync(*t, rec, call);
  }
  if (!st.ok()) {
    std::lock_guard<std::mutex> lock(ps.mutex);
    ps.last_epoch[slot] = t->epoch;
    ps.used &= ~(uint64_t{1} << slot);
    t->live = false;
    t->pes.clear();
    return st;
  }
  if (agree_out != nullptr) *agree_out = agree;
  *out = t;
  return ok_status;
}

void prepare_pool() {
  if (ps.nonce.load(std::memory_order_acquire) != g.nonce) setup_pool();
  if (!g.remote) return;
  // A job that spans hosts: other hosts' data signals land in the world's exchange area and team
  // area, copied there by this PE's network handler, whose first write to each page faulted
  // (20 us a page on a virtual machine): a job's first 64 KiB reduction across two hosts took
  // 1.7 ms (OSHMEM 0.6, bench/first_op.sh). Their pages are made here in one call instead
  // (0.3-0.4 ms for the 528 KiB exchange area on that machine); contents are not changed, so data
  // that already landed stays. Kernels without MADV_POPULATE_WRITE (before Linux 5.14) skip it.
  mem::populate(g.ctrl_table[static_cast<size_t>(g.my_pe)] + world_xchg_offset, 2 * world_xchg_bytes);
  mem::populate(area(pool[0], g.my_pe), sizeof(team_area));
}

team *lookup(symmem_team_t h, const char *call, bool quiet_invalid) {
  ensure_pool(call);
  if (h == nullptr) {
    auto report = quiet_invalid ? fail_quiet : fail;
    (void)report(SYMMEM_ERR_INVALID_ARGUMENT, call, "the team is SHMEM_TEAM_INVALID; pass a team from a split that "
                                                    "included this PE");
    return nullptr;
  }
  if (h < pool || h >= pool + max_teams || !h->live) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
               "%p is not a live team (destroyed, or not a team handle); pass SHMEM_TEAM_WORLD, SHMEM_TEAM_SHARED or "
               "a team from a split",
               static_cast<void *>(h));
    return nullptr;
  }
  return h;
}

team &lookup_or_die(symmem_team_t h, const char *call) {
  team *t = lookup(h, call);
  if (t == nullptr) {
    fatal(call, "%s", last_error().c_str());
  }
  return *t;
}

}  // namespace symmem::teams

using namespace symmem;
using namespace symmem::teams;

extern "C" {

symmem_team_t const symmem_team_world = &pool[0];
symmem_team_t const symmem_team_shared = &pool[1];

int symmem_team_my_pe(symmem_team_t h) {
  ensure_pool("team_my_pe");
  return (h >= pool && h < pool + max_teams && h->live) ? h->my_idx : -1;
}

int symmem_team_n_pes(symmem_team_t h) {
  ensure_pool("team_n_pes");
  return (h >= pool && h < pool + max_teams && h->live) ? h->size : -1;
}

int symmem_team_get_config(symmem_team_t h, long mask, symmem_team_config_t *config) {
  team *t = lookup(h, "team_get_config", true);
  if (t == nullptr) return SYMMEM_ERR_INVALID_ARGUMENT;
  if (config != nullptr && (mask & SYMMEM_TEAM_NUM_CONTEXTS)) {
    config->num_contexts = t->config.num_contexts;
  }
  return SYMMEM_SUCCESS;
}

int symmem_team_translate_pe(symmem_team_t src, int src_pe, symmem_team_t dest) {
  ensure_pool("team_translate_pe");
  auto ok = [](symmem_team_t h) { return h >= pool && h < pool + max_teams && h->live; };
  if (!ok(src) || !ok(dest) || src_pe < 0 || src_pe >= src->size) {
    return -1;
  }
  const int world = src->world(src_pe);
  for (int i = 0; i < dest->size; ++i) {
    if (dest->world(i) == world) return i;
  }
  return -1;
}

int symmem_team_split_strided(symmem_team_t parent, int start, int stride, int size,
                              const symmem_team_config_t *config, long config_mask, symmem_team_t *new_team) {
  const char *call = "team_split_strided";
  if (new_team != nullptr) *new_team = SYMMEM_TEAM_INVALID;
  team *p = parent_of(parent, call);
  if (p == nullptr) return SYMMEM_ERR_INVALID_ARGUMENT;
  if (new_team == nullptr) return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "new_team is NULL; pass the address of a shmem_team_t").code();
  const long last = static_cast<long>(start) + static_cast<long>(stride) * (size - 1);
  if (size < 1 || start < 0 || start >= p->size || last < 0 || last >= p->size || (stride == 0 && size > 1)) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call,
                "start %d, stride %d, size %d do not name distinct PEs of the parent team (PEs 0..%d); fix the "
                "triplet",
                start, stride, size, p->size - 1)
        .code();
  }
  std::vector<int> members;
  for (int i = 0; i < size; ++i) members.push_back(start + i * stride);
  if (std::find(members.begin(), members.end(), p->my_idx) == members.end()) members.clear();
  core::call_record rec{call_team_split, 1,
                        static_cast<uint32_t>(start) | (static_cast<uint64_t>(static_cast<uint32_t>(stride)) << 32),
                        static_cast<uint64_t>(size)};
  return split(*p, members, config, config_mask, rec, new_team, call).code();
}

int symmem_team_split_2d(symmem_team_t parent, int xrange, const symmem_team_config_t *xconf, long xmask,
                         symmem_team_t *xteam, const symmem_team_config_t *yconf, long ymask, symmem_team_t *yteam) {
  const char *call = "team_split_2d";
  if (xteam != nullptr) *xteam = SYMMEM_TEAM_INVALID;
  if (yteam != nullptr) *yteam = SYMMEM_TEAM_INVALID;
  team *p = parent_of(parent, call);
  if (p == nullptr || xteam == nullptr || yteam == nullptr) return SYMMEM_ERR_INVALID_ARGUMENT;
  if (xrange < 1) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "xrange %d must be at least 1", xrange).code();
  }
  const int n = p->size;
  const int xr = std::min(xrange, n);
  const int me = p->my_idx;
  std::vector<int> xs, ys;
  for (int i = (me / xr) * xr; i < std::min((me / xr + 1) * xr, n); ++i) xs.push_back(i);
  for (int i = me % xr; i < n; i += xr) ys.push_back(i);
  core::call_record rec{call_team_split_2d, 1, static_cast<uint64_t>(xrange), 0};
  status st = split(*p, xs, xconf, xmask, rec, xteam, call);
  if (st.ok()) st = split(*p, ys, yconf, ymask, rec, yteam, call);
  return st.code();
}

int symmem_team_get_uniqueid(uint64_t *uniqueid) {
  const char *call = "team_get_uniqueid";
  core::require_init(call);
  if (uniqueid == nullptr) {
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "uniqueid is NULL; pass the address of a 64-bit id").code();
  }
  static std::atomic<uint64_t> made{0};
  std::random_device rd;
  uint64_t z = (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ g.nonce ^ (static_cast<uint64_t>(g.my_pe) << 40) ^
               made.fetch_add(1, std::memory_order_relaxed);
  do {  // splitmix64: spreads the bits; never 0 (no id) or all ones (NVSHMEM's invalid id)
    z += 0x9e3779b97f4a7c15ULL;
    uint64_t x = z;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    *uniqueid = x ^ (x >> 31);
  } while (!valid_uid(*uniqueid));
  return SYMMEM_SUCCESS;
}

int symmem_team_init(symmem_team_t *team, uint64_t uniqueid, int npes, int pe_idx_in_team,
                     const symmem_team_config_t *config, long config_mask) {
  const char *call = "team_init";
  if (team == nullptr) {
    core::require_init(call);
    return fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "team is NULL; pass the address of a team handle").code();
  }
  return init_from_uid(uniqueid, npes, pe_idx_in_team, config, config_mask, 0, nullptr, team, call).code();
}

void symmem_team_destroy(symmem_team_t h) {
  const char *call = "team_destroy";
  team *t = lookup(h, call, true);  // SHMEM_TEAM_INVALID: nothing to do (1.5, shmem_team_destroy)
  if (t == nullptr) return;
  if (t->slot < 2) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "SHMEM_TEAM_WORLD and SHMEM_TEAM_SHARED cannot be destroyed; "
                                                  "nothing was done");
    return;
  }
  // A sync first: no member may still read this PE's scratch of the team when the slot is reused.
  core::call_record rec{call_team_destroy, 1, 0, 0};
  if (!sync(*t, rec, call).ok()) {
    fatal(call, "the team's PEs are out of step in their collective calls (see above); ending the job");
  }
  std::lock_guard<std::mutex> lock(ps.mutex);
  ps.last_epoch[t->slot] = t->epoch;
  const team_area *a = area(*t, g.my_pe);
  ps.net_base[t->slot] = {a->net_bcast.load(std::memory_order_acquire),
                                a->net_bcast_ack.load(std::memory_order_acquire),
                                a->net_landed.load(std::memory_order_acquire),
                                {a->net_xchg_count[0].load(std::memory_order_acquire),
                                 a->net_xchg_count[1].load(std::memory_order_acquire)}};
  for (int k = 0; k < net_ring; ++k) {
    ps.net_base[t->slot].ring[k] = a->net_ring_slots[k].landed.load(std::memory_order_acquire);
  }
  ps.used &= ~(uint64_t{1} << t->slot);
  t->live = false;
  t->pes.clear();
}

void *symmem_team_ptr(symmem_team_t h, const void *dest, int pe) {
  team *t = lookup(h, "team_ptr", true);
  if (t == nullptr || pe < 0 || pe >= t->size) return nullptr;
  return symmem_ptr(dest, t->world(pe));
}

int symmem_team_sync(symmem_team_t h) {
  team *t = lookup(h, "team_sync");
  if (t == nullptr) return SYMMEM_ERR_INVALID_ARGUMENT;
  if (t->slot == 0) {
    // sync_all is team_sync(SHMEM_TEAM_WORLD) (1.5, 9.9.4): the same barrier, so the two match.
    core::call_record rec{core::call_barrier_all, 1, 0, 0};
    return core::collective_sync(rec, "team_sync").code();
  }
  core::call_record rec{call_team_sync, 1, 0, 0};
  return sync(*t, rec, "team_sync").code();
}

}  // extern "C"
