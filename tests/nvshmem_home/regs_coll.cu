// One kernel per kind of collective, built with -rdc and -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES: each
// must keep at most 64 registers after the device link, taking the device library's out-of-line
// copies (include/symmem/detail/coll_outline.cuh), so that its blocks of 1024 threads launch;
// inline they gave such kernels 93 to 146.
#define SYMMEM_DEVICE_OUTLINE_COLLECTIVES 1
#include <nvshmem.h>
#include <nvshmemx.h>

__global__ void c_fcollect_block(int *d, const int *s) { nvshmemx_int_fcollect_block(NVSHMEM_TEAM_WORLD, d, s, 16); }
__global__ void c_alltoall_warp(int *d, const int *s) { nvshmemx_int_alltoall_warp(NVSHMEM_TEAM_WORLD, d, s, 16); }
__global__ void c_broadcast(int *d, const int *s) { nvshmem_int_broadcast(NVSHMEM_TEAM_WORLD, d, s, 16, 0); }
__global__ void c_sum_reduce_block(float *d, const float *s) { nvshmemx_float_sum_reduce_block(NVSHMEM_TEAM_WORLD, d, s, 16); }
__global__ void c_max_reduce(long long *d, const long long *s) { nvshmem_longlong_max_reduce(NVSHMEM_TEAM_WORLD, d, s, 16); }
__global__ void c_maxloc_warp(double2 *d, const double2 *s) { nvshmemx_double2_maxloc_reduce_warp(NVSHMEM_TEAM_WORLD, d, s, 4); }
__global__ void c_reducescatter_block(int *d, const int *s) {
  nvshmemx_int_sum_reducescatter_block(NVSHMEM_TEAM_WORLD, d, s, 16);
}

int main() { return 0; }
