// symmem: teams. A team is an ordered set of world PEs; every team owns one "slot" of each member's
// control segment (sync flags, call records and collective scratch). A team's slot index is agreed
// by its members when it is created, so the same index names the team's area on every member.
// Team handles point into a fixed pool indexed by slot: WORLD is slot 0, SHARED slot 1.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "core/state.h"
#include "symmem/symmem.h"

namespace symmem::teams {

inline constexpr int max_teams = 64;     // slots; a PE is a member of at most this many teams at once
inline constexpr int team_rounds = 16;   // dissemination rounds: teams of up to 65536 PEs
inline constexpr size_t coll_bytes = size_t{24} << 10;  // per-PE small-message scratch, per parity
inline constexpr size_t bcast_bytes = 2048;              // the no-barrier broadcast, per parity
inline constexpr int bcast_ring = 32;                    // short broadcasts in flight per root
inline constexpr size_t bcast_inline = 248;              // a short broadcast: data beside its number
inline constexpr size_t net_xchg_bytes = size_t{24} << 10;  // blocks of one exchange across hosts, per parity
inline constexpr int net_ring = 32;              // pushed broadcasts in flight per team (across hosts)
inline constexpr size_t net_ring_bytes = 4096;   // data of one ring slot
// A pushed broadcast, at most: two slots. Each slot is one message, and on the kernel's TCP a
// message costs ~10 us whatever its size (2 hosts: 4 KiB + 8 B 23 us pushed, 34 us pulled; 8 KiB
// 28 and 31; 32 KiB 112 and 35), so above two slots the pull's one get is faster. Teams of up to
// bcast_exchange_pes members (coll_net.cpp) take broadcasts past one slot as exchanges instead
// (OSU's osu_oshm_broadcast, 2 hosts x 1 PE, 8 KiB: 21-24 us in two slots, 13-15 by exchange,
// OSHMEM 11).
inline constexpr size_t net_push_bytes = net_ring_bytes * 2;
inline constexpr int net_report_every = 16;      // a member tells the root how far it got every this many
inline constexpr int net_reporters = 64;         // team PEs below this report (the others are read)

// One pushed broadcast as it lands: the root's data signal stores `seq`, `rec` and the data, then
// adds 1 to `landed`.
struct net_ring_slot {
  alignas(64) std::atomic<uint64_t> landed;
  alignas(64) uint64_t seq;
  core::call_record rec;
  unsigned char data[net_ring_bytes];
};

// A short broadcast: its sequence number with its data right after it (up to 56 bytes share the
// number's cache line, so the reader's one miss brings both).
struct alignas(64) bcast_line {
  std::atomic<uint64_t> seq;
  unsigned char data[bcast_inline];
};

// One team's area in a PE's control segment.
struct team_area {
  core::sync_slot slots[2][team_rounds];  // [epoch parity][round], written by the round's partner
  alignas(64) core::call_record record[2];  // this PE's current call, by parity (argument check)
  alignas(64) uint64_t meta[2][8];          // small per-call values (collect sizes), by parity
  alignas(64) unsigned char data[2][coll_bytes];  // small-message scratch, by parity
  alignas(64) std::atomic<uint64_t> bcast_flag;   // the last small broadcast this PE sent as root
  alignas(64) std::atomic<uint64_t> bcast_ack;    // the last small broadcast this PE has finished
  alignas(64) unsigned char bcast_data[2][bcast_bytes];  // its data, by sequence parity
  bcast_line bcast_tiny[bcast_ring];               // short broadcasts sent as root, by sequence
  // Broadcasts of a team that spans hosts (coll_net.cpp): one count per broadcast whose root has
  // announced it to this PE, and one per member that has taken a broadcast this PE rooted.
  alignas(64) std::atomic<uint64_t> net_bcast;
  alignas(64) std::atomic<uint64_t> net_bcast_ack;
  // Bytes of the direct forms (coll_net.cpp: broadcast_direct, gather_direct) that have landed in
  // this PE's dest.
  alignas(64) std::atomic<uint64_t> net_landed;
  // Exchanges of a team that spans hosts (coll_net.cpp): team PE i's block of an exchange with
  // sequence parity p lands at net_xchg_data[p][i * slot], and each landed block adds 1 to
  // net_xchg_count[p].
  alignas(64) std::atomic<uint64_t> net_xchg_count[2];
  alignas(64) unsigned char net_xchg_data[2][net_xchg_bytes];
  // Pushed broadcasts (coll_net.cpp): broadcast s of the team lands in net_ring_slots[s % net_ring];
  // net_done is the last pushed broadcast this PE has finished, tagged by the team's bcast_base
  // (written only by this PE; a root reads it when it needs to reuse a slot). net_done_of[m] is
  // the same figure for team PE m as m last reported it to this PE, the root of a broadcast it
  // finished (every net_report_every broadcasts): a lower bound, tagged likewise.
  net_ring_slot net_ring_slots[net_ring];
  alignas(64) std::atomic<uint64_t> net_done;
  alignas(64) std::atomic<uint64_t> net_done_of[net_reporters];
};
// SHMEM_TEAM_WORLD, the team most programs use for everything, exchanges through a larger area
// of its own after the team areas (per parity), so its blocks of up to a few hundred KiB take one
// or two exchanges instead of many. Past 256 KiB it has room for each block's tag: a block of a
// power of two (128 KiB at 2 PEs, 64 KiB at 4, ... 4 KiB at 64) fits one slot with its tag,
// instead of taking a second exchange for its last 32 bytes.
inline constexpr size_t world_xchg_bytes = (size_t{256} << 10) + (size_t{8} << 10);
inline constexpr size_t world_xchg_offset = core::ctrl_scratch_offset + max_teams * sizeof(team_area);
static_assert(world_xchg_offset + 2 * world_xchg_bytes <= core::ctrl_bytes,
              "team areas and the world's exchange area must fit in the control segment");

// A PE's part in a team made from a unique id (symmem_team_init, team.cpp): the members find one
// another and agree on the team's slot by reading each other's board, since no parent team links
// them. `uid` is written last (release) and read first; the rest holds while it is set.
struct init_board {
  uint64_t uid;  // the unique id of the team_init this PE is in, 0 when none (through std::atomic_ref)
  int32_t index;              // this PE's index in that team
  int32_t npes;               // the team size this PE asked for
  uint64_t used;              // live team slots on this PE
  uint64_t agree;             // a mask the members OR together (the device layer's team indices)
  uint64_t last_epoch[max_teams];
};
inline constexpr size_t init_board_offset = world_xchg_offset + 2 * world_xchg_bytes;
static_assert(init_board_offset % 64 == 0 && init_board_offset + sizeof(init_board) <= core::ctrl_bytes,
              "the team_init board must fit in the control segment");

}  // namespace symmem::teams

struct symmem_team_s {
  bool live = false;
  int slot = 0;
  int size = 0;
  int my_idx = -1;
  bool all_local = true;  // every member is node-local (the shared-memory collectives apply)
  uint64_t epoch = 0;     // syncs done by this PE on this team (agreed base at creation)
  uint64_t bcast_base = 0;  // small broadcasts are numbered from here (epoch base << 32)
  uint64_t bcast_seq = 0;   // the last small broadcast on this team
  std::vector<uint64_t> bcast_seen;  // each member's acknowledgement as last read here (a cache)
  uint64_t net_bcast_expect = 0;     // team_area::net_bcast once every broadcast so far was announced here
  uint64_t net_bcast_acks = 0;       // team_area::net_bcast_ack once every broadcast rooted here was taken
  uint64_t net_landed = 0;           // team_area::net_landed once every direct form's data so far has landed
  uint64_t net_xchg_seq = 0;          // exchanges done on this team (coll_net.cpp)
  uint64_t net_xchg_expect[2] = {};   // team_area::net_xchg_count[p] once every block so far has landed
  uint64_t net_push_seq = 0;          // pushed broadcasts on this team
  uint64_t net_ring_expect[symmem::teams::net_ring] = {};   // team_area::net_ring_slots[k].landed once each so far has landed
  std::vector<uint64_t> net_done_seen;  // each member's net_done as last read by this PE (a cache)
  std::vector<int> pes;   // world PE of each team index
  symmem_team_config_t config{0};
  long config_mask = 0;

  int world(int idx) const { return pes[static_cast<size_t>(idx)]; }
};

namespace symmem::teams {

using team = symmem_team_s;

// The team's area in world PE `pe`'s control segment (pe must be node-local; remote members'
// areas are reached by offset: area_offset and core/remote.h).
inline team_area *area(const team &t, int pe) {
  return reinterpret_cast<team_area *>(core::g.ctrl_table[static_cast<size_t>(pe)] + core::ctrl_scratch_offset) +
         t.slot;
}

// Where the team's area lies in every member's control segment (the same offset on each).
inline size_t area_offset(const team &t) {
  return core::ctrl_scratch_offset + static_cast<size_t>(t.slot) * sizeof(team_area);
}

// Sets up the team slots of this job (WORLD and SHARED; the rest free). Init calls it: done at the
// first team routine instead, its first writes to the slots' pages (page faults, 0.3 ms on a
// virtual machine) kept the PE's first collective from progressing the network meanwhile.
void prepare_pool();

// The live team behind a handle, or nullptr (with the error reported) when the handle is invalid.
// quiet_invalid: SHMEM_TEAM_INVALID is an input the routine defines a result for (OpenSHMEM 1.5
// gives one for team_get_config, the splits, team_create_ctx, team_destroy, team_ptr): record the
// error for symmem_last_error() without printing it. Any other bad handle is still reported.
team *lookup(symmem_team_t h, const char *call, bool quiet_invalid = false);
// The same, fatal instead (for routines that cannot report).
team &lookup_or_die(symmem_team_t h, const char *call);

// symmem_team_init with a mask that the members OR together (agree_in: this PE's; agree_out: the
// OR over the team; both may be 0/nullptr). Collective over the members.
status init_from_uid(uint64_t uid, int npes, int index, const symmem_team_config_t *config, long mask,
                     uint64_t agree_in, uint64_t *agree_out, symmem_team_t *out, const char *call);

// Dissemination barrier over the team that also compares the members' call records (see sync.cpp).
status sync(team &t, const core::call_record &rec, const char *call);

// Byte-level all-gather over the team's scratch (each PE gives `n` <= coll_bytes bytes; `out` gets
// size * n bytes in team order). Local buffers, one sync. Used by team creation.
status allgather_small(team &t, const void *in, size_t n, void *out, const core::call_record &rec, const char *call);

// Names of this layer's collective calls, for the argument-check messages.
enum call : uint32_t {
  call_team_sync = core::call_user_first,
  call_team_split,
  call_team_split_2d,
  call_team_destroy,
  call_team_init,
  call_broadcast,
  call_collect,
  call_fcollect,
  call_alltoall,
  call_alltoalls,
  call_reduce,
  call_scan,
  call_exit,
};

}  // namespace symmem::teams
