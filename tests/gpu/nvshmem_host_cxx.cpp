// symmem GPU test: an NVSHMEM host program compiled by the plain C++ compiler (no nvcc), as
// NVSHMEM's CMake builds its .cpp perftests: <nvshmem.h> must declare the stream and collective
// host routines and bring the CUDA runtime, half and bfloat16 by itself.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (!(cond)) {                                         \
      std::fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      std::fprintf(stderr, __VA_ARGS__);                   \
      std::fprintf(stderr, "\n");                          \
      std::exit(1);                                        \
    }                                                      \
  } while (0)

int main() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED nvshmem_host_cxx: no CUDA device\n");
    return 77;
  }
  nvshmem_init();
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  const size_t n = 1000;
  int *src = (int *)nvshmem_malloc(n * sizeof(int)), *dst = (int *)nvshmem_malloc(n * npes * sizeof(int));
  std::vector<int> h(n * npes);
  for (size_t i = 0; i < n; ++i) h[i] = me * 100000 + (int)i;
  CHECK(cudaMemcpy(src, h.data(), n * sizeof(int), cudaMemcpyHostToDevice) == cudaSuccess, "copy in");
  cudaStream_t st;
  CHECK(cudaStreamCreate(&st) == cudaSuccess, "stream");
  nvshmemx_barrier_all_on_stream(st);
  nvshmemx_int_fcollect_on_stream(NVSHMEM_TEAM_WORLD, dst, src, n, st);
  nvshmemx_int_sum_reduce_on_stream(NVSHMEM_TEAM_WORLD, src, src, n, st);  // in place
  CHECK(cudaStreamSynchronize(st) == cudaSuccess, "stream work");
  CHECK(cudaMemcpy(h.data(), dst, n * npes * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess, "copy out");
  for (int p = 0; p < npes; ++p)
    for (size_t i = 0; i < n; ++i) CHECK(h[p * n + i] == p * 100000 + (int)i, "PE %d: fcollect [%d][%zu] = %d", me, p, i, h[p * n + i]);
  CHECK(cudaMemcpy(h.data(), src, n * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess, "copy out");
  for (size_t i = 0; i < n; ++i) {
    const int want = 100000 * (npes * (npes - 1) / 2) + npes * (int)i;
    CHECK(h[i] == want, "PE %d: in-place sum [%zu] = %d, expected %d", me, i, h[i], want);
  }
  half hv = __float2half(1.5f);
  half *hp = (half *)nvshmem_malloc(sizeof(half));
  nvshmem_half_p(hp, hv, (me + 1) % npes);
  nvshmem_barrier_all();
  CHECK(__half2float(nvshmem_half_g(hp, me)) == 1.5f, "PE %d: half p/g from the host", me);
  CHECK(nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE) >= 0 && nvshmem_team_n_pes(NVSHMEM_TEAM_SHARED) >= 1, "node teams");
  nvshmem_free(hp);
  nvshmem_free(dst);
  nvshmem_free(src);
  CHECK(cudaStreamDestroy(st) == cudaSuccess, "stream");
  nvshmem_finalize();
  if (me == 0) std::printf("PASS nvshmem_host_cxx (%d PEs)\n", npes);
  return NVSHMEMX_SUCCESS;
}
