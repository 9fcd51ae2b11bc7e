/* symmem: what device code needs to know about the running job.
 *
 * The runtime fills one of these at init (and zeroes it at finalize) and hands it to every
 * registered consumer. <symmem/device.cuh> keeps a copy in __constant__ memory of each translation
 * unit that includes it (registered by a static constructor), so kernels built with and without
 * -rdc both see it. Plain C layout: host and device code share it.
 */
#ifndef SYMMEM_DETAIL_DEVICE_STATE_H
#define SYMMEM_DETAIL_DEVICE_STATE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SYMMEM_DEVICE_STATE_VERSION 7
/* Peers listed inline (in __constant__ memory); more PEs use peer_base_ext. Kept small because
 * every translation unit that includes device.cuh holds its own copy, and an -rdc program links
 * them all into one module with 64 KiB of constant memory. */
#define SYMMEM_DEVICE_MAX_PES 256
#define SYMMEM_DEVICE_SYNC_ROUNDS 32 /* dissemination rounds: 2^32 PEs */
#ifndef SYMMEM_DEVICE_SYNC_DIRECT /* a test builds with 2, to run the log2(n) rounds on few PEs */
#define SYMMEM_DEVICE_SYNC_DIRECT 8 /* teams up to this size (at most 8): a one-round barrier (device.cuh) */
#endif
/* Teams kernels can name (NVSHMEM's nvshmem_team_t is an index into this table): 0 world, 1 shared,
 * 2 node, 3 same-local-rank-across-nodes; split teams take free indices agreed over their parent. */
#define SYMMEM_DEVICE_MAX_TEAMS 64
/* peer_base[p] has this bit set when PE p's heap is on another GPU: accesses to it need system
 * scope (granules are 2 MiB aligned, so the low bits of a base are free). */
#define SYMMEM_DEVICE_PEER_SYS 1ull
/* Per team index, the bytes of this PE's scratch into which device reductions fetch the sources of
 * members on other hosts (include/symmem/detail/coll.cuh, reduce_remote). */
#define SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES 65536
/* Small fcollects on the teams made at init (world, shared, node: indices below
 * SYMMEM_DEVICE_LL_TEAMS) go without barriers (coll.cuh, fcollect_ll): each member stores its
 * block, 4 bytes of data and the call's 4-byte flag per 8-byte word (two words to a 16-byte line),
 * into a slot of its own in every member's LL area, two areas per team used by turns. Up to
 * SYMMEM_DEVICE_LL_BYTES per member for a block, SYMMEM_DEVICE_LL_WARP_BYTES for a warp,
 * SYMMEM_DEVICE_LL_THREAD_BYTES for one thread, and SYMMEM_DEVICE_LL_MEMBERS members. */
#define SYMMEM_DEVICE_LL_TEAMS 3
#define SYMMEM_DEVICE_LL_BYTES 2048
#define SYMMEM_DEVICE_LL_WARP_BYTES 512
#define SYMMEM_DEVICE_LL_THREAD_BYTES 16
#define SYMMEM_DEVICE_LL_MEMBERS 32
#define SYMMEM_DEVICE_LL_SLOT_BYTES (SYMMEM_DEVICE_LL_BYTES * 2)
#define SYMMEM_DEVICE_LL_TEAM_BYTES (2 * SYMMEM_DEVICE_LL_MEMBERS * SYMMEM_DEVICE_LL_SLOT_BYTES)
/* Small broadcasts on the same teams go without barriers too (coll.cuh, broadcast_ll): the root
 * stores the LL words into every other member's broadcast area, at an offset that advances with
 * every call; up to SYMMEM_DEVICE_LL_BCAST_BYTES for a block, SYMMEM_DEVICE_LL_BCAST_WARP_BYTES
 * for a warp, SYMMEM_DEVICE_LL_BCAST_THREAD_BYTES for one thread. These areas follow the fcollect
 * areas. */
#define SYMMEM_DEVICE_LL_BCAST_BYTES 8192
#define SYMMEM_DEVICE_LL_BCAST_WARP_BYTES 4096
#define SYMMEM_DEVICE_LL_BCAST_THREAD_BYTES 64
#define SYMMEM_DEVICE_LL_BCAST_TEAM_BYTES (128 * 1024)
#define SYMMEM_DEVICE_LL_AREA_BYTES \
  (SYMMEM_DEVICE_LL_TEAMS * (SYMMEM_DEVICE_LL_TEAM_BYTES + SYMMEM_DEVICE_LL_BCAST_TEAM_BYTES))

/* A team as kernels see it: world PE of member i is start + i * stride, or pes[i] for a team whose
 * members are not evenly spaced in world PE numbers (a team from a unique id). size 0: no such team. */
typedef struct symmem_device_team {
  int32_t start;
  int32_t stride;
  int32_t size;
  int32_t my_index;       /* this PE's index in the team; -1 when it is not a member */
  const int32_t *pes;     /* device memory: world PE of each member; NULL when start and stride say it */
  const int32_t *host_pes; /* the same list in host memory, for the runtime's host code */
} symmem_device_team;

typedef struct symmem_device_state {
  uint32_t version;      /* SYMMEM_DEVICE_STATE_VERSION; 0 when not initialized */
  int32_t my_pe;
  int32_t n_pes;
  int32_t gpu_scope_ok;  /* 1 when every accessible peer's heap is on this GPU: GPU-scope fences suffice */
  uint64_t heap_base;    /* the symmetric heap's address, the same on every PE */
  uint64_t heap_size;
  uint64_t sync_offset;  /* heap offset of the runtime's device sync area (symmem_device_sync) */
  uint64_t sync_bytes;
  uint64_t spin_limit_ns; /* a device wait longer than this traps with a message; 0: wait forever */
  uint64_t *peer_base_ext; /* device array [n_pes] when n_pes > SYMMEM_DEVICE_MAX_PES, else NULL */
  symmem_device_team *teams; /* device array [SYMMEM_DEVICE_MAX_TEAMS], kept current by the runtime */
  /* The proxy ring (symmem/detail/proxy_ring.h) through which kernels reach PEs that are not mapped
   * here (on other hosts): its device address, and the same memory's address on the host (the
   * proxy's side: inline data is named by it); 0 when every PE is mapped (no ring, no proxy). */
  uint64_t proxy_ring;
  uint64_t proxy_ring_host;
  /* Heap offset of the device reductions' scratch, SYMMEM_DEVICE_MAX_TEAMS blocks of
   * SYMMEM_DEVICE_REDUCE_SCRATCH_BYTES (one per team index); 0 when there is no ring. */
  uint64_t reduce_scratch_offset;
  /* Heap offset of the LL areas (SYMMEM_DEVICE_LL_AREA_BYTES): SYMMEM_DEVICE_LL_TEAMS blocks of
   * SYMMEM_DEVICE_LL_TEAM_BYTES (fcollect), then as many of SYMMEM_DEVICE_LL_BCAST_TEAM_BYTES. */
  uint64_t ll_offset;
  uint64_t peer_base[SYMMEM_DEVICE_MAX_PES]; /* where PE p's heap is mapped here (| SYMMEM_DEVICE_PEER_SYS
                                                when on another GPU); 0: not accessible */
} symmem_device_state;

/* The device sync area: one per PE, at heap_base + sync_offset (the first allocation of the heap,
 * so the same offset on every PE). Written only by device code and the runtime's stream kernels.
 * Dissemination barrier (Hensgen, Finkel & Manber 1988): in round k, PE i stores its epoch into
 * slot[k] of PE (i + 2^k) mod n and waits until its own slot[k] holds at least that epoch; teams of
 * up to SYMMEM_DEVICE_SYNC_DIRECT members take one round of radix n instead, PE i storing into word
 * j - 1 of slot[0] of PE (i + j) mod n for every j (device.cuh, dissemination). Epochs only grow,
 * so a slot needs no reset and no double buffering. */
typedef struct symmem_device_team_sync {
  uint64_t barrier_epoch; /* barriers this PE has entered on the team, device and on-stream alike */
  uint64_t ll_calls;      /* LL fcollects this PE has made on the team (device_state.h above) */
  uint64_t bc_calls;      /* LL broadcasts this PE has made on the team */
  uint64_t bc_offset;     /* where the next one goes in the team's broadcast area (bytes) */
  uint64_t pad0[4];
  uint64_t slot[SYMMEM_DEVICE_SYNC_ROUNDS][8]; /* [round][0], one 64-byte line each; [0][0..6] radix n */
} symmem_device_team_sync;

/* One per team index; `team_masks` holds this PE's used team indices while a split agrees on a
 * free index over its parent (src/cuda/teams.cpp). */
typedef struct symmem_device_sync {
  symmem_device_team_sync team[SYMMEM_DEVICE_MAX_TEAMS];
  uint64_t team_masks[SYMMEM_DEVICE_MAX_TEAMS / 64][8];
} symmem_device_sync;

/* Consumers of the state (device.cuh registers one per translation unit). `update` is called at
 * once if the runtime is initialized, then at every init and finalize. */
typedef void (*symmem_device_state_update_fn)(const symmem_device_state *state, void *ctx);
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
void symmem_device_state_register(symmem_device_state_update_fn update, void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* SYMMEM_DETAIL_DEVICE_STATE_H */
