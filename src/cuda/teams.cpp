// symmem: teams kernels can name. NVSHMEM's nvshmem_team_t is a small integer that device code
// passes around, so every team gets an index into a device-memory table of team geometries
// (symmem_device_team, device_state.h) that kernels read: 0 world, 1 shared, 2 node, 3 the PEs
// with this PE's local rank on every node; a split takes the lowest index that no PE of its parent
// uses, agreed in the split itself (an OR of the parent members' used-index masks, read from their
// device sync areas by a one-thread kernel between two barriers of the parent). Members of one
// team therefore share its index, and its barrier slot in every sync area; disjoint teams may
// share an index (they never meet in a sync area). A team made from a unique id has no parent: its
// members OR their masks while they find one another (teams::init_from_uid). A team whose members
// are not evenly spaced in world PE numbers carries its list of world PEs, in device memory for
// kernels and in host memory for the runtime.
#include <array>
#include <mutex>
#include <vector>

#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/gpu.h"
#include "cuda/kernels.h"
#include "cuda/device_runtime.h"
#include "symmem/cuda.h"
#include "teams/team.h"

namespace symmem::cuda {
namespace {

struct team_entry {
  symmem_team_t team = SYMMEM_TEAM_INVALID;  // the host team (none for index 3 on one host)
  bool owned = false;                        // created by a split here: destroyed with the index
  symmem_device_team geo{0, 0, 0, -1, nullptr, nullptr};  // size 0: free
  uint64_t uid = ~uint64_t{0};               // the unique id it was made from (team_init)
  std::vector<int32_t> host_list;            // world PE of each member, when not strided
  CUdeviceptr dev_list = 0;                  // its device copy (a GPU heap)
};

std::mutex g_mutex;
std::array<team_entry, SYMMEM_DEVICE_MAX_TEAMS> g_teams;
CUdeviceptr g_table = 0;           // device copy of every entry's geo
uint64_t *g_agree_out = nullptr;   // host-mapped: the agreement kernel's OR of the masks
constexpr int first_split_index = 4;
uint64_t g_job = 0;                // the job (core::g.nonce) whose predefined teams g_teams holds
void ensure_filled();

// Frees an entry's member lists (no kernel may use the team any more).
void release(team_entry &e) {
  if (e.dev_list != 0) (void)cu.cuMemFree(e.dev_list);
  e = team_entry{};
}

// Fills e with host team t: its geometry in world PE numbers, strided or by list.
status describe(team_entry &e, symmem_team_t t, const char *call) {
  const int n = symmem_team_n_pes(t);
  std::vector<int32_t> pes(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) pes[static_cast<size_t>(i)] = symmem_team_translate_pe(t, i, symmem_team_world);
  const int start = pes[0], stride = n > 1 ? pes[1] - start : 1;
  bool strided = stride > 0;
  for (int i = 0; i < n && strided; ++i) strided = pes[static_cast<size_t>(i)] == start + i * stride;
  e.team = t;
  e.owned = true;
  e.geo = symmem_device_team{start, strided ? stride : 0, n, symmem_team_my_pe(t), nullptr, nullptr};
  if (strided) return ok_status;
  e.host_list = std::move(pes);
  e.geo.host_pes = e.host_list.data();
  if (g_table == 0) return ok_status;  // no kernel reads team tables (a host heap)
  const size_t bytes = sizeof(int32_t) * static_cast<size_t>(n);
  CUresult r = cu.cuMemAlloc(&e.dev_list, bytes);
  if (r == CUDA_SUCCESS) r = cu.cuMemcpyHtoD(e.dev_list, e.host_list.data(), bytes);
  if (r != CUDA_SUCCESS) return cu_fail(r, call, "copying the team's members to the GPU", "check the GPU");
  e.geo.pes = reinterpret_cast<const int32_t *>(e.dev_list);
  return ok_status;
}

status push_table() {
  if (g_table == 0) return ok_status;
  std::array<symmem_device_team, SYMMEM_DEVICE_MAX_TEAMS> geo{};
  for (size_t i = 0; i < geo.size(); ++i) geo[i] = g_teams[i].geo;
  CUresult e = cu.cuMemcpyHtoDAsync(g_table, geo.data(), sizeof geo, gpu.stream);
  if (e == CUDA_SUCCESS) e = cu.cuStreamSynchronize(gpu.stream);
  return e == CUDA_SUCCESS ? ok_status : cu_fail(e, "team_split", "updating the device team table", "check the GPU");
}

// The lowest split index that `used` leaves free, or -1.
int lowest_free(uint64_t used) {
  for (int i = first_split_index; i < SYMMEM_DEVICE_MAX_TEAMS; ++i) {
    if ((used & (uint64_t{1} << i)) == 0) return i;
  }
  return -1;
}

uint64_t used_mask() {
  uint64_t m = 0;
  for (size_t i = 0; i < g_teams.size(); ++i) m |= g_teams[i].geo.size > 0 ? uint64_t{1} << i : 0;
  return m | ((uint64_t{1} << first_split_index) - 1);
}

// Collective over `parent`: the lowest index free on every member, or -1 when none is.
int agree_free_index(int parent) {
  uint64_t mine = used_mask(), all = mine;
  if (!core::g.heap_on_cpu) {
    auto *sync = reinterpret_cast<symmem_device_sync *>(core::g.heap_base + device_sync_offset());
    // On the waiting stream (gpu.h): the kernel waits for the members, whose masks on other hosts
    // it reads through the proxy, which needs gpu.stream here and at the members.
    CUresult e = cu.cuMemcpyHtoDAsync(reinterpret_cast<CUdeviceptr>(&sync->team_masks[0][0]), &mine, sizeof mine,
                                      gpu.wait_stream);
    if (e != CUDA_SUCCESS || launch_team_agree(parent, g_agree_out, gpu.wait_stream) != 0 ||
        cu.cuStreamSynchronize(gpu.wait_stream) != CUDA_SUCCESS) {
      fatal("team_split", "agreeing on a team index over team %d failed on the GPU (a kernel faulted; see above)", parent);
    }
    all = *static_cast<volatile uint64_t *>(g_agree_out);
  }
  return lowest_free(all);
}

int check_parent(int parent, const char *call) {
  {
    std::lock_guard lock(g_mutex);
    ensure_filled();
  }
  if (parent < 0 || parent >= SYMMEM_DEVICE_MAX_TEAMS || g_teams[static_cast<size_t>(parent)].geo.size <= 0 ||
      g_teams[static_cast<size_t>(parent)].team == SYMMEM_TEAM_INVALID) {
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "team %d is not a team this PE can split (not created here, destroyed, or a "
               "team that has no host handle); split NVSHMEM_TEAM_WORLD or a team this PE got from a split", parent);
    return -1;
  }
  return 0;
}

// Gives `t` (this PE's result of a split, maybe INVALID) the agreed index.
int take_index(int idx, symmem_team_t t, int *out, const char *call) {
  *out = SYMMEM_TEAM_INDEX_INVALID;
  if (t == SYMMEM_TEAM_INVALID) return 0;
  if (idx < 0) {
    symmem_team_destroy(t);
    (void)fail(SYMMEM_ERR_OUT_OF_MEMORY, call, "all %d team indices are in use on some PE of the parent; destroy teams "
               "that are no longer needed", SYMMEM_DEVICE_MAX_TEAMS);
    return -1;
  }
  team_entry &e = g_teams[static_cast<size_t>(idx)];
  if (!describe(e, t, call).ok()) {
    release(e);
    symmem_team_destroy(t);
    return -1;
  }
  *out = idx;
  return 0;
}

// The predefined teams of this job (holds g_mutex).
void fill_predefined() {
  const core::runtime_state &g = core::g;
  g_teams = {};
  g_job = g.nonce;
  auto predefined = [](symmem_team_t t, int start, int stride, int size, int me) {
    team_entry e;
    e.team = t;
    e.geo = symmem_device_team{start, stride, size, me, nullptr, nullptr};
    return e;
  };
  g_teams[0] = predefined(symmem_team_world, 0, 1, g.n_pes, g.my_pe);
  // The node's PEs, when they are consecutive world PEs (block placement, as every launcher here does).
  int first = g.my_pe, local = g.local_size;
  while (first > 0 && g.local_rank_of[static_cast<size_t>(first - 1)] >= 0) --first;
  const bool block = first + local <= g.n_pes && g.local_rank_of[static_cast<size_t>(first + local - 1)] >= 0;
  if (block) {
    g_teams[1] = predefined(symmem_team_shared, first, 1, local, g.my_pe - first);
    g_teams[2] = predefined(symmem_team_shared, first, 1, local, g.my_pe - first);
    if (g.n_pes % local == 0) {
      const int rank = g.my_pe - first;
      g_teams[3] = predefined(SYMMEM_TEAM_INVALID, rank, local, g.n_pes / local, first / local);
    }
  }
}

// Holds g_mutex. A GPU heap's init fills the table (teams_init); with the heap in host memory the
// indices serve host calls only, and are set up at their first use in a job.
void ensure_filled() {
  if (g_job != core::g.nonce && core::g.phase.load(std::memory_order_acquire) == 1) fill_predefined();
}

}  // namespace

void teams_init() {
  std::lock_guard lock(g_mutex);
  fill_predefined();
  const core::runtime_state &g = core::g;
  if (g.heap_on_cpu) return;
  const size_t bytes = sizeof(symmem_device_team) * SYMMEM_DEVICE_MAX_TEAMS;
  CUresult e = cu.cuMemAlloc(&g_table, bytes);
  if (e == CUDA_SUCCESS) e = cu.cuMemHostAlloc(reinterpret_cast<void **>(&g_agree_out), 64, CU_MEMHOSTALLOC_DEVICEMAP);
  if (e != CUDA_SUCCESS) fatal("init", "allocating the device team table failed: %s", cu_text(e).c_str());
  (void)push_table();
}

void teams_fini() {
  std::lock_guard lock(g_mutex);
  for (size_t i = first_split_index; i < g_teams.size(); ++i) {
    if (g_teams[i].owned && g_teams[i].team != SYMMEM_TEAM_INVALID) symmem_team_destroy(g_teams[i].team);
    release(g_teams[i]);
  }
  g_teams = {};
  g_job = 0;
  if (g_table != 0) (void)cu.cuMemFree(g_table);
  if (g_agree_out != nullptr) (void)cu.cuMemFreeHost(g_agree_out);
  g_table = 0;
  g_agree_out = nullptr;
}

symmem_device_team *team_table() { return reinterpret_cast<symmem_device_team *>(g_table); }

bool team_geometry(int index, symmem_device_team &out) {
  if (index < 0 || index >= SYMMEM_DEVICE_MAX_TEAMS) return false;
  std::lock_guard lock(g_mutex);
  ensure_filled();
  out = g_teams[static_cast<size_t>(index)].geo;
  return out.size > 0;
}

}  // namespace symmem::cuda

namespace sc = symmem::cuda;

extern "C" {

symmem_team_t symmem_team_of_index(int index) {
  if (index < 0 || index >= SYMMEM_DEVICE_MAX_TEAMS) return SYMMEM_TEAM_INVALID;
  std::lock_guard lock(sc::g_mutex);
  sc::ensure_filled();
  return sc::g_teams[static_cast<size_t>(index)].team;
}

int symmem_team_index_of(symmem_team_t team) {
  std::lock_guard lock(sc::g_mutex);
  sc::ensure_filled();
  for (size_t i = 0; i < sc::g_teams.size(); ++i) {
    if (team != SYMMEM_TEAM_INVALID && sc::g_teams[i].team == team) return static_cast<int>(i);
  }
  return -1;
}

int symmem_team_index_split_strided(int parent, int start, int stride, int size, const symmem_team_config_t *config,
                                    long config_mask, int *new_index) {
  symmem::core::require_init("team_split_strided");
  if (new_index == nullptr || sc::check_parent(parent, "team_split_strided") != 0) return -1;
  symmem_team_t t = SYMMEM_TEAM_INVALID;
  int rc = symmem_team_split_strided(symmem_team_of_index(parent), start, stride, size, config, config_mask, &t);
  if (rc != 0) return rc;
  const int idx = sc::agree_free_index(parent);
  std::lock_guard lock(sc::g_mutex);
  rc = sc::take_index(idx, t, new_index, "team_split_strided");
  return rc == 0 && sc::push_table().ok() ? 0 : -1;
}

int symmem_team_index_split_2d(int parent, int xrange, const symmem_team_config_t *xc, long xm, int *xi,
                               const symmem_team_config_t *yc, long ym, int *yi) {
  symmem::core::require_init("team_split_2d");
  if (xi == nullptr || yi == nullptr || sc::check_parent(parent, "team_split_2d") != 0) return -1;
  symmem_team_t x = SYMMEM_TEAM_INVALID, y = SYMMEM_TEAM_INVALID;
  int rc = symmem_team_split_2d(symmem_team_of_index(parent), xrange, xc, xm, &x, yc, ym, &y);
  if (rc != 0) return rc;
  const int ix = sc::agree_free_index(parent);  // the x teams are disjoint: they share one index
  {
    std::lock_guard lock(sc::g_mutex);
    rc = sc::take_index(ix, x, xi, "team_split_2d");
  }
  const int iy = sc::agree_free_index(parent);
  std::lock_guard lock(sc::g_mutex);
  if (rc == 0) rc = sc::take_index(iy, y, yi, "team_split_2d");
  return rc == 0 && sc::push_table().ok() ? 0 : -1;
}

void symmem_team_index_destroy(int index) {
  if (index < sc::first_split_index || index >= SYMMEM_DEVICE_MAX_TEAMS) return;  // predefined teams stay
  if (!symmem::core::g.heap_on_cpu) {
    symmem::cuda::make_current();
    (void)symmem::cuda::cu.cuCtxSynchronize();  // no kernel may still use the team
  }
  std::lock_guard lock(sc::g_mutex);
  sc::team_entry &e = sc::g_teams[static_cast<size_t>(index)];
  if (e.owned && e.team != SYMMEM_TEAM_INVALID) symmem_team_destroy(e.team);
  sc::release(e);
  (void)sc::push_table();
}

int symmem_team_index_init(int *index, uint64_t uniqueid, int npes, int pe_idx_in_team,
                           const symmem_team_config_t *config, long config_mask) {
  const char *call = "team_init";
  symmem::core::require_init(call);
  if (index == nullptr) {
    return symmem::fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "team is NULL; pass the address of an nvshmem_team_t").code();
  }
  *index = SYMMEM_TEAM_INDEX_INVALID;
  uint64_t mine = 0, all = 0;
  {
    std::lock_guard lock(sc::g_mutex);
    sc::ensure_filled();
    mine = sc::used_mask();
  }
  symmem_team_t t = SYMMEM_TEAM_INVALID;
  const symmem::status st =
      symmem::teams::init_from_uid(uniqueid, npes, pe_idx_in_team, config, config_mask, mine, &all, &t, call);
  if (!st.ok()) return st.code();
  std::lock_guard lock(sc::g_mutex);
  if (sc::take_index(sc::lowest_free(all), t, index, call) != 0) return -1;
  sc::g_teams[static_cast<size_t>(*index)].uid = uniqueid;
  return sc::push_table().ok() ? 0 : -1;
}

uint64_t symmem_team_index_uniqueid(int index) {
  if (index < 0 || index >= SYMMEM_DEVICE_MAX_TEAMS) return ~uint64_t{0};
  std::lock_guard lock(sc::g_mutex);
  sc::ensure_filled();
  return sc::g_teams[static_cast<size_t>(index)].uid;
}

}  // extern "C"
