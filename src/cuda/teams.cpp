// symmem: teams kernels can name. NVSHMEM's nvshmem_team_t is a small integer that device code
// passes around, so every team gets an index into a device-memory table of team geometries
// (symmem_device_team, device_state.h) that kernels read: 0 world, 1 shared, 2 node, 3 the PEs
// with this PE's local rank on every node; a split takes the lowest index that no PE of its parent
// uses, agreed in the split itself (an OR of the parent members' used-index masks, read from their
// device sync areas by a one-thread kernel between two barriers of the parent). Members of one
// team therefore share its index, and its barrier slot in every sync area; disjoint teams may
// share an index (they never meet in a sync area).
#include <array>
#include <mutex>

#include "core/state.h"
#include "cuda/cu_api.h"
#include "cuda/gpu.h"
#include "cuda/kernels.h"
#include "cuda/device_runtime.h"
#include "symmem/cuda.h"

namespace symmem::cuda {
namespace {

struct team_entry {
  symmem_team_t team = SYMMEM_TEAM_INVALID;  // the host team (none for index 3 on one host)
  bool owned = false;                        // created by a split here: destroyed with the index
  symmem_device_team geo{0, 0, 0, -1};       // size 0: free
};

std::mutex g_mutex;
std::array<team_entry, SYMMEM_DEVICE_MAX_TEAMS> g_teams;
CUdeviceptr g_table = 0;           // device copy of every entry's geo
uint64_t *g_agree_out = nullptr;   // host-mapped: the agreement kernel's OR of the masks
constexpr int first_split_index = 4;

// Strided geometry of a host team in world PE numbers; size 0 when it is not strided.
symmem_device_team geometry_of(symmem_team_t t) {
  const int n = symmem_team_n_pes(t);
  if (n <= 0) return symmem_device_team{0, 0, 0, -1};
  const int start = symmem_team_translate_pe(t, 0, symmem_team_world);
  const int stride = n > 1 ? symmem_team_translate_pe(t, 1, symmem_team_world) - start : 1;
  for (int i = 0; i < n; ++i) {
    if (symmem_team_translate_pe(t, i, symmem_team_world) != start + i * stride) return symmem_device_team{0, 0, 0, -1};
  }
  return symmem_device_team{start, stride, n, symmem_team_my_pe(t)};
}

status push_table() {
  if (g_table == 0) return ok_status;
  std::array<symmem_device_team, SYMMEM_DEVICE_MAX_TEAMS> geo{};
  for (size_t i = 0; i < geo.size(); ++i) geo[i] = g_teams[i].geo;
  CUresult e = cu.cuMemcpyHtoDAsync(g_table, geo.data(), sizeof geo, gpu.stream);
  if (e == CUDA_SUCCESS) e = cu.cuStreamSynchronize(gpu.stream);
  return e == CUDA_SUCCESS ? ok_status : cu_fail(e, "team_split", "updating the device team table", "check the GPU");
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
  for (int i = first_split_index; i < SYMMEM_DEVICE_MAX_TEAMS; ++i) {
    if ((all & (uint64_t{1} << i)) == 0) return i;
  }
  return -1;
}

int check_parent(int parent, const char *call) {
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
  const symmem_device_team geo = geometry_of(t);
  if (geo.size <= 0) {
    symmem_team_destroy(t);
    (void)fail(SYMMEM_ERR_INVALID_ARGUMENT, call, "the new team is not strided in world PE numbers");
    return -1;
  }
  g_teams[static_cast<size_t>(idx)] = team_entry{t, true, geo};
  *out = idx;
  return 0;
}

}  // namespace

void teams_init() {
  std::lock_guard lock(g_mutex);
  const core::runtime_state &g = core::g;
  g_teams = {};
  g_teams[0] = team_entry{symmem_team_world, false, symmem_device_team{0, 1, g.n_pes, g.my_pe}};
  // The node's PEs, when they are consecutive world PEs (block placement, as every launcher here does).
  int first = g.my_pe, local = g.local_size;
  while (first > 0 && g.local_rank_of[static_cast<size_t>(first - 1)] >= 0) --first;
  const bool block = first + local <= g.n_pes && g.local_rank_of[static_cast<size_t>(first + local - 1)] >= 0;
  if (block) {
    const symmem_device_team node{first, 1, local, g.my_pe - first};
    g_teams[1] = team_entry{symmem_team_shared, false, node};
    g_teams[2] = team_entry{symmem_team_shared, false, node};
    if (g.n_pes % local == 0) {
      const int rank = g.my_pe - first;
      g_teams[3] = team_entry{SYMMEM_TEAM_INVALID, false, symmem_device_team{rank, local, g.n_pes / local, first / local}};
    }
  }
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
  }
  g_teams = {};
  if (g_table != 0) (void)cu.cuMemFree(g_table);
  if (g_agree_out != nullptr) (void)cu.cuMemFreeHost(g_agree_out);
  g_table = 0;
  g_agree_out = nullptr;
}

symmem_device_team *team_table() { return reinterpret_cast<symmem_device_team *>(g_table); }

bool team_geometry(int index, symmem_device_team &out) {
  if (index < 0 || index >= SYMMEM_DEVICE_MAX_TEAMS) return false;
  std::lock_guard lock(g_mutex);
  out = g_teams[static_cast<size_t>(index)].geo;
  return out.size > 0;
}

}  // namespace symmem::cuda

namespace sc = symmem::cuda;

extern "C" {

symmem_team_t symmem_team_of_index(int index) {
  if (index < 0 || index >= SYMMEM_DEVICE_MAX_TEAMS) return SYMMEM_TEAM_INVALID;
  std::lock_guard lock(sc::g_mutex);
  return sc::g_teams[static_cast<size_t>(index)].team;
}

int symmem_team_index_of(symmem_team_t team) {
  std::lock_guard lock(sc::g_mutex);
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
  symmem::cuda::make_current();
  (void)symmem::cuda::cu.cuCtxSynchronize();  // no kernel may still use the team
  std::lock_guard lock(sc::g_mutex);
  sc::team_entry &e = sc::g_teams[static_cast<size_t>(index)];
  if (e.owned && e.team != SYMMEM_TEAM_INVALID) symmem_team_destroy(e.team);
  e = sc::team_entry{};
  (void)sc::push_table();
}

}  // extern "C"
