// The shape of NVSHMEM's "hello" program (each PE puts its number to the next PE from a kernel),
// built by tests/install_nvshmem_test.sh the ways NVSHMEM's documentation and users' build files
// do: nvcc with -I$NVSHMEM_HOME/include -L$NVSHMEM_HOME/lib -lnvshmem_host -lnvshmem_device, and
// CMake's find_package(NVSHMEM). It prints what every PE received.
#include <nvshmem.h>
#include <nvshmemx.h>
#include <stdio.h>

__global__ void simple_shift(int *destination) {
  int mype = nvshmem_my_pe();
  int npes = nvshmem_n_pes();
  nvshmem_int_p(destination, mype, (mype + 1) % npes);
}

int main(void) {
  nvshmem_init();
  int mype = nvshmem_my_pe(), npes = nvshmem_n_pes();
  int ndev = 1;
  cudaGetDeviceCount(&ndev); /* several PEs may share a GPU */
  cudaSetDevice(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE) % (ndev > 0 ? ndev : 1));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int *destination = (int *)nvshmem_malloc(sizeof(int));
  cudaMemsetAsync(destination, 0xff, sizeof(int), stream); /* -1 until the put lands */
  nvshmemx_barrier_all_on_stream(stream);
  simple_shift<<<1, 1, 0, stream>>>(destination);
  nvshmemx_barrier_all_on_stream(stream);
  int msg = -2;
  cudaMemcpyAsync(&msg, destination, sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaError_t e = cudaStreamSynchronize(stream);
  printf("%d: received message %d (%s)\n", mype, msg, cudaGetErrorString(e));
  int ok = e == cudaSuccess && msg == (mype + npes - 1) % npes;
  nvshmem_free(destination);
  nvshmem_finalize();
  return ok ? 0 : 1;
}
