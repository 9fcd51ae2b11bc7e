// Must NOT compile: a tile collective (NVSHMEM runs them on NVLink multicast) fails with symmem's
// message, as NVSHMEM's tile perftests and its gemm_allreduce example would call it; the types and
// the headers they include by NVSHMEM's paths are there.
#include "device_host/nvshmem_common.cuh"
#include "device_host/nvshmem_tensor.h"

__global__ void k(float *src, float *dst, nvshmem_team_t team) {
  auto layout = nvshmemx::make_layout(nvshmemx::make_shape(64, 64), nvshmemx::make_stride(ConstInt<1>{}, 64));
  nvshmemx::Tensor s(src, layout), d(dst, layout);
  auto bound = nvshmemx::make_shape<int, int>(64, 64);
  nvshmemx::tile_sum_reduce_warpgroup<decltype(s), decltype(d), decltype(bound), nvshmemx::tile_coll_algo_t::NVLS_ONE_SHOT_PULL_NBI>(
      team, s, d, bound, bound, 0, 0);
  nvshmemx::tile_collective_wait_warpgroup<nvshmemx::tile_coll_algo_t::NVLS_ONE_SHOT_PULL_NBI>(team, 0);
}
