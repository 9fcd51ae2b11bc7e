// The symmem GPU demo: symmetric memory in GPU memory, used by kernels.
//
//   symmem-run -n 2 --mps ./gpu_demo
//
// 1. the heap lives on the GPU at one address on every PE; 2. a kernel puts a block of data into
// the next PE's GPU memory (one-sided, GPU to GPU) and signals it; 3. every PE's kernel increments
// one counter on PE 0 with device atomics; 4. a device-side barrier orders the steps.
#include <cstdio>
#include <vector>

#include <symmem/device.cuh>

namespace dev = symmem::device;

constexpr int kInts = 1 << 16;

__global__ void ring_put(int *data, uint64_t *signal, int next) {
  // every thread fills its share of the local source, then the block puts it to `next`
  for (int i = threadIdx.x; i < kInts; i += blockDim.x) data[kInts + i] = dev::my_pe() * 1000000 + i;
  __syncthreads();
  dev::putmem_signal_nbi_block(data, data + kInts, kInts * sizeof(int), signal, 1, SYMMEM_SIGNAL_SET, next);
}

__global__ void wait_and_count(uint64_t *signal, unsigned long long *counter) {
  if (threadIdx.x == 0) dev::signal_wait_until(signal, SYMMEM_CMP_EQ, 1);
  __syncthreads();
  for (int k = 0; k < 100; ++k) dev::atomic_add(counter, 1ull, 0);  // 100 per thread, on PE 0
  __syncthreads();
  dev::barrier_all_block();
}

int main() {
  if (symmem_init() != SYMMEM_SUCCESS) return 1;
  const int me = symmem_my_pe(), n = symmem_n_pes();
  if (!symmem_heap_on_gpu()) {
    if (me == 0) std::printf("gpu_demo: the heap is not on a GPU here (no GPU, or SYMMEM_HEAP=host); nothing to show\n");
    symmem_finalize();
    return 0;
  }
  int *data = static_cast<int *>(symmem_malloc(2 * kInts * sizeof(int)));
  auto *signal = static_cast<uint64_t *>(symmem_calloc(1, sizeof(uint64_t)));
  auto *counter = static_cast<unsigned long long *>(symmem_calloc(1, sizeof(unsigned long long)));
  if (me == 0) {
    std::printf("symmem GPU demo: %d PEs on GPU %d, heap in GPU memory at %p on every PE\n", n, symmem_gpu_device(),
                symmem_heap_base());
  }
  ring_put<<<1, 256>>>(data, signal, (me + 1) % n);
  wait_and_count<<<1, 128>>>(signal, counter);
  if (cudaDeviceSynchronize() != cudaSuccess) return 1;
  symmem_barrier_all();

  std::vector<int> got(kInts);
  cudaMemcpy(got.data(), data, kInts * sizeof(int), cudaMemcpyDeviceToHost);
  const int prev = (me + n - 1) % n;
  int wrong = 0;
  for (int i = 0; i < kInts; ++i) wrong += got[i] != prev * 1000000 + i;
  std::printf("PE %d: received %d ints from PE %d by a GPU-to-GPU put: %s\n", me, kInts, prev,
              wrong == 0 ? "all correct" : "WRONG");
  symmem_barrier_all();
  if (me == 0) {
    unsigned long long total = 0;
    cudaMemcpy(&total, counter, sizeof total, cudaMemcpyDeviceToHost);
    std::printf("device atomics: counter on PE 0 = %llu, expected %d -> %s\n", total, n * 128 * 100,
                total == 128ull * 100 * n ? "exact" : "WRONG");
  }
  symmem_free(counter);
  symmem_free(signal);
  symmem_free(data);
  symmem_finalize();
  return wrong == 0 ? 0 : 1;
}
