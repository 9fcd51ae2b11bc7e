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
// Launches with launch() (a kernels.h launcher: 0 or a CUDA error) and fails the job, naming the
// call, when the launch failed. An error the program's own earlier CUDA calls left pending is
// taken first, so it is not mistaken for the launch's: the launch goes ahead and a warning says
// which error was pending (NVSHMEM's on-stream calls read it as theirs, and go on).
int take_pending_error();  // kernels.cu
void check_launch_result(int err, int pending, const char *call);
template <typename Launch>
void check_launch(Launch &&launch, const char *call) {
  const int pending = take_pending_error();
  check_launch_result(launch(), pending, call);
}
// Blocks for one 1024-thread wave of this GPU (two per SM).
int wave_blocks();
// True while the proxy ring exists (some PE is on another host).
bool proxy_ring_active();
// The _on_stream forms to a PE on another host (kernels.h's remote_args): true when `pe` is one,
// after checking that [addr, addr+n) is in the symmetric heap (else the job ends naming the call)
// and launching the operation on `stream` through the device API's proxy path.
struct remote_args;
void check_remote_range(const void *addr, size_t n, int pe, const char *call);
bool stream_remote(const remote_args &a, const void *addr, size_t n, void *stream, const char *call);

}  // namespace symmem::cuda
