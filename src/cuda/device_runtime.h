// symmem: what the CUDA runtime files share: the device state (device_runtime.cpp), the team-index
// registry (teams.cpp), and the checks of the stream operations.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/error.h"
#include "symmem/detail/device_state.h"

namespace symmem::core {
// The GPU heap's operations (device_runtime.cpp), behind the provider's table (gpu_provider.cpp):
// after init, the device sync area and the device state; waiting for this PE's GPU work; the
// device state's withdrawal; a host atomic on the heap (op: mem::amo_op).
status gpu_after_init();
void gpu_quiesce();
void gpu_before_teardown();
uint64_t gpu_amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b);
}  // namespace symmem::core

namespace symmem::cuda {

// Fills the predefined teams (world, shared, node, same local rank) and, with a GPU heap, the
// device table; after init's device sync area exists.
void teams_init();
void teams_fini();
// The device table (nullptr with a host heap): what device_state.teams points to.
symmem_device_team *team_table();
// Geometry of team `index` on this PE; false when there is no such team here.
bool team_geometry(int index, symmem_device_team &out);
// Heap offset of the device sync areas (device_runtime.cpp).
size_t device_sync_offset();
// The state published to kernels (version 0 outside init..finalize).
const symmem_device_state &device_state();
// Fails the job unless the heap is on the GPU; makes this PE's context current.
bool gpu_heap(const char *call);
void check_launch(int err, const char *call);
// Blocks for one 1024-thread wave of this GPU (two per SM).
int wave_blocks();

}  // namespace symmem::cuda
