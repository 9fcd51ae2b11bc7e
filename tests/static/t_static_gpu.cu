// Global variables in a program whose symmetric heap is in GPU memory: they stay host memory, and
// host RMA, atomics, signals, waits, locks and shmem_ptr on them use the CPU, beside a heap that
// the copy engine and kernels reach. Device work on a global is refused with a clear message
// (mode "kernel_on_static"). Exit 77 without a GPU.
#include <symmem/device.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define EXPECT(cond)                                                                                  \
  do {                                                                                                \
    if (!(cond)) {                                                                                    \
      std::fprintf(stderr, "FAIL PE %d %s:%d: %s\n", symmem_my_pe(), __FILE__, __LINE__, #cond);      \
      symmem_global_exit(1);                                                                          \
    }                                                                                                 \
  } while (0)

long counter;
long lock_word;
long values[1024];
int flag;
uint64_t signal_word;
static unsigned char bytes[1 << 20];
static unsigned char source[1 << 20];

__global__ void bump(int *p) { atomicAdd(p, 1); }  // device code: the heap goes to the GPU

int main(int argc, char **argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("SKIPPED t_static_gpu: no CUDA device\n");
    return 77;
  }
  symmem_init();
  const int me = symmem_my_pe(), n = symmem_n_pes(), next = (me + 1) % n, prev = (me + n - 1) % n;
  if (!symmem_heap_on_gpu()) {
    std::printf("SKIPPED t_static_gpu: the heap is not in GPU memory\n");
    symmem_finalize();
    return 77;
  }
  int *dev = static_cast<int *>(symmem_calloc(1, sizeof(int)));  // GPU heap
  if (argc > 1 && std::strcmp(argv[1], "kernel_on_static") == 0) {
    symmem_putmem_on_stream(values, source, 8, next, 0);  // must be refused
    std::fprintf(stderr, "PE %d: putmem_on_stream on a global was not refused\n", me);
    symmem_global_exit(2);
  }
  for (size_t i = 0; i < sizeof source; ++i) source[i] = static_cast<unsigned char>(i * 7 + me);
  std::memset(bytes, 0xA5, sizeof bytes);
  symmem_barrier_all();
  symmem_putmem(bytes, source, sizeof source, next);
  symmem_long_p(&values[3], 100 + me, next);
  symmem_long_atomic_add(&counter, 1, 0);
  symmem_putmem_signal(&values[10], &values[3], 0, &signal_word, 5, SYMMEM_SIGNAL_SET, next);
  symmem_int_atomic_set(&flag, 1, next);
  symmem_int_wait_until(&flag, SYMMEM_CMP_EQ, 1);
  EXPECT(symmem_signal_wait_until(&signal_word, SYMMEM_CMP_EQ, 5) == 5);
  for (int i = 0; i < 20; ++i) {
    symmem_set_lock(&lock_word);
    symmem_long_p(&values[0], symmem_long_g(&values[0], 0) + 1, 0);
    symmem_quiet();
    symmem_clear_lock(&lock_word);
  }
  bump<<<1, 1>>>(dev);  // the GPU heap works beside the globals
  symmem_barrier_all();
  for (size_t i = 0; i < sizeof bytes; ++i) EXPECT(bytes[i] == static_cast<unsigned char>(i * 7 + prev));
  EXPECT(values[3] == 100 + prev);
  EXPECT(symmem_long_g(&values[3], next) == 100 + me);
  if (me == 0) EXPECT(counter == n);
  EXPECT(symmem_long_atomic_fetch(&values[0], 0) == 20L * n);
  EXPECT(symmem_addr_accessible(&counter, next) == 1);
  long *peer = static_cast<long *>(symmem_ptr(&values[5], next));
  EXPECT(peer != nullptr);
  *peer = 7 + me;
  symmem_barrier_all();
  EXPECT(values[5] == 7 + prev);
  int on_gpu = 0;
  cudaMemcpy(&on_gpu, dev, sizeof on_gpu, cudaMemcpyDeviceToHost);
  EXPECT(on_gpu == 1);
  symmem_free(dev);
  symmem_finalize();
  if (me == 0) std::printf("t_static_gpu: %d PEs ok (GPU heap, globals in host memory)\n", n);
  return 0;
}
