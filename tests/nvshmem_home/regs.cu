// One kernel per device call whose path to a PE that is not mapped is out of line. Built with -rdc,
// each kernel must keep at most 32 registers after the device link, as with NVSHMEM: the cold paths
// come from the device library, compiled with a limit (include/symmem/detail/cold.h). Built in the
// program with no limit they took 36 to 74 (jacobi's kernel 48 instead of its own 25).
#include <nvshmem.h>
#include <nvshmemx.h>

__global__ void k_p(float *a, int pe) { nvshmem_float_p(a + threadIdx.x, 1.0f, pe); }
__global__ void k_g(float *a, float *o, int pe) { o[threadIdx.x] = nvshmem_float_g(a + threadIdx.x, pe); }
__global__ void k_put(float *a, const float *b, int pe) { nvshmem_float_put(a, b, 16, pe); }
__global__ void k_get(float *a, const float *b, int pe) { nvshmem_float_get(a, b, 16, pe); }
__global__ void k_put_nbi_block(float *a, const float *b, int pe) { nvshmemx_float_put_nbi_block(a, b, 1024, pe); }
__global__ void k_add(int *a, int pe) { nvshmem_int_atomic_add(a, 1, pe); }
__global__ void k_fetch_add(int *a, int *o, int pe) { o[threadIdx.x] = nvshmem_int_atomic_fetch_add(a, 1, pe); }
__global__ void k_signal(uint64_t *s, int pe) { nvshmemx_signal_op(s, 1, NVSHMEM_SIGNAL_ADD, pe); }
__global__ void k_put_signal(float *a, const float *b, uint64_t *s, int pe) {
  nvshmem_float_put_signal(a, b, 16, s, 1, NVSHMEM_SIGNAL_SET, pe);
}
__global__ void k_quiet() { nvshmem_quiet(); }
__global__ void k_wait(int *v) { nvshmem_int_wait_until(v, NVSHMEM_CMP_GE, 1); }
__global__ void k_barrier_all() { nvshmem_barrier_all(); }
int main() { return 0; }
