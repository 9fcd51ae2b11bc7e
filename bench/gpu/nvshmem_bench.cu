// One benchmark source written to the NVSHMEM API, built twice: against NVIDIA NVSHMEM
// (nvcc -rdc=true ... -lnvshmem_host -lnvshmem_device) and against symmem (symmem-nvcc). Started
// by symmem-run for both; the NVSHMEM build forms its job with a unique id that PE 0 writes to a
// file named after the launcher's job id (SYMMEM_LAUNCHER_RANK/SIZE, SYMMEM_JOB_ID), the symmem
// build with nvshmem_init() through the launcher. PE 0 prints CSV rows:
//   impl,npes,metric,bytes,value,unit
// Figures: init, device putmem (block scope, PE 0 -> PE 1), putmem_on_stream, device p+quiet
// latency, device and host barrier_all, malloc+free of 1 MiB. scripts/bench-gpu runs both.
// From 2 MiB up, two reference copies between two buffers of PE 0's own (cudaMalloc) memory, the
// same in both builds: cudaMemcpyAsync and a copy kernel of 16-byte loads and stores on the put's
// grid. The faster of the two is this GPU's copy limit, which the large puts are measured against.
#include <nvshmem.h>
#include <nvshmemx.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#ifdef SYMMEM_NVSHMEM_COMPAT
static const char *impl = "symmem";
#else
static const char *impl = "nvshmem";
#endif

#define CK(call)                                                                                      \
  do {                                                                                                \
    cudaError_t e_ = (call);                                                                          \
    if (e_ != cudaSuccess) {                                                                          \
      std::fprintf(stderr, "bench: %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                                   \
    }                                                                                                 \
  } while (0)

namespace {

using clk = std::chrono::steady_clock;
int me = 0, npes = 0;

double seconds_since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }

int env_int(const char *name, int dflt) {
  const char *v = std::getenv(name);
  return v != nullptr ? std::atoi(v) : dflt;
}

void row(const char *metric, size_t bytes, double value, const char *unit) {
  if (me == 0) std::printf("%s,%d,%s,%zu,%.4f,%s\n", impl, npes, metric, bytes, value, unit);
  std::fflush(stdout);
}

#ifndef SYMMEM_NVSHMEM_COMPAT
// NVSHMEM's unique-id bootstrap: PE 0 creates the id and writes it to a file the others poll.
void init_with_uniqueid(int rank, int size) {
  const char *job = std::getenv("SYMMEM_JOB_ID");
  std::string path = std::string("/tmp/nvshmem-bench-uid-") + (job ? job : "nojob");
  nvshmemx_uniqueid_t id = NVSHMEMX_UNIQUEID_INITIALIZER;
  if (rank == 0) {
    nvshmemx_get_uniqueid(&id);
    std::ofstream(path + ".tmp", std::ios::binary).write(reinterpret_cast<const char *>(&id), sizeof id);
    std::rename((path + ".tmp").c_str(), path.c_str());
  } else {
    auto start = clk::now();
    for (;;) {
      std::ifstream f(path, std::ios::binary);
      if (f && f.read(reinterpret_cast<char *>(&id), sizeof id)) break;
      if (seconds_since(start) > 60) {
        std::fprintf(stderr, "bench: PE %d: no unique id in %s after 60 s\n", rank, path.c_str());
        std::exit(1);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  nvshmemx_init_attr_t attr = NVSHMEMX_INIT_ATTR_INITIALIZER;
  nvshmemx_set_attr_uniqueid_args(rank, size, &id, &attr);
  nvshmemx_init_attr(NVSHMEMX_INIT_WITH_UNIQUEID, &attr);
}
#endif

double timed_init() {
  const int rank = env_int("SYMMEM_LAUNCHER_RANK", 0), size = env_int("SYMMEM_LAUNCHER_SIZE", 1);
  int count = 0;
  CK(cudaGetDeviceCount(&count));
  CK(cudaSetDevice(rank % count));  // both builds: the context exists before the timed init
  CK(cudaFree(nullptr));
  auto t = clk::now();
#ifdef SYMMEM_NVSHMEM_COMPAT
  (void)size;
  nvshmem_init();
#else
  init_with_uniqueid(rank, size);
#endif
  return seconds_since(t);
}

__global__ void put_block_kernel(char *dst, const char *src, size_t n, size_t chunk, int pe) {
  const size_t off = blockIdx.x * chunk;
  if (off < n) {
    const size_t len = off + chunk <= n ? chunk : n - off;
    nvshmemx_putmem_block(dst + off, src + off, len, pe);
  }
  if (threadIdx.x == 0) nvshmem_quiet();
}

// The reference copy: 16-byte vectors, grid-stride, no library code (n is a multiple of 16).
__global__ void copy_kernel(int4 *dst, const int4 *src, size_t n16) {
  const size_t step = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n16; i += step) dst[i] = src[i];
}

__global__ void p_quiet_kernel(int *dst, int iters, int pe) {
  for (int i = 0; i < iters; ++i) {
    nvshmem_int_p(dst, i, pe);
    nvshmem_quiet();
  }
}

__global__ void barrier_kernel(int iters) {
  for (int i = 0; i < iters; ++i) nvshmem_barrier_all();
}

// Seconds per launch of `launch`, timed with events over `iters` launches after a warm-up.
template <typename F>
float event_time(F launch, int iters, cudaStream_t s) {
  // The median of five timed windows: one window alone moved by a quarter from run to run at
  // 2 MiB (MPS, clocks), more than the difference being measured.
  constexpr int windows = 5;
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  launch();
  CK(cudaStreamSynchronize(s));
  float t[windows];
  for (float &w : t) {
    CK(cudaEventRecord(a, s));
    for (int i = 0; i < iters; ++i) launch();
    CK(cudaEventRecord(b, s));
    CK(cudaEventSynchronize(b));
    CK(cudaGetLastError());
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    w = ms / 1e3f / iters;
  }
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  std::sort(t, t + windows);
  return t[windows / 2];
}

void bench_put(char *dst, char *src, char *ldst, const char *lsrc, cudaStream_t s) {
  const size_t sizes[] = {8, 64, 512, 4096, 32768, 262144, 2u << 20, 16u << 20, 64u << 20, 256u << 20};
  for (size_t n : sizes) {
    nvshmem_barrier_all();
    if (me == 0) {
      const size_t blocks = std::min<size_t>(264, std::max<size_t>(1, n / (1u << 20)));
      const size_t chunk = ((n + blocks - 1) / blocks + 15) / 16 * 16;
      const int iters = n >= (64u << 20) ? 20 : 200;
      float t = event_time([&] { put_block_kernel<<<blocks, 1024, 0, s>>>(dst, src, n, chunk, 1); }, iters, s);
      row("device_putmem_block", n, n / t / 1e9, "GB/s");
      t = event_time([&] { nvshmemx_putmem_on_stream(dst, src, n, 1, s); }, iters, s);
      row("putmem_on_stream", n, n / t / 1e9, "GB/s");
      if (n >= (2u << 20)) {  // the copy limit: PE 0's own memory, no library call
        t = event_time([&] { CK(cudaMemcpyAsync(ldst, lsrc, n, cudaMemcpyDeviceToDevice, s)); }, iters, s);
        row("ref_memcpy_d2d", n, n / t / 1e9, "GB/s");
        t = event_time([&] { copy_kernel<<<264, 1024, 0, s>>>(reinterpret_cast<int4 *>(ldst), reinterpret_cast<const int4 *>(lsrc), n / 16); },
                       iters, s);
        row("ref_copy_kernel", n, n / t / 1e9, "GB/s");
      }
    }
  }
  nvshmem_barrier_all();
}

void bench_latency(int *word, cudaStream_t s) {
  nvshmem_barrier_all();
  if (me == 0) {
    const int iters = 10000;
    float t = event_time([&] { p_quiet_kernel<<<1, 1, 0, s>>>(word, iters, 1); }, 3, s);
    row("device_p_quiet", 4, t / iters * 1e6, "us");
  }
  nvshmem_barrier_all();
  const int iters = 2000;
  float t = event_time([&] { barrier_kernel<<<1, 1, 0, s>>>(iters); }, 3, s);
  row("device_barrier_all", 0, t / iters * 1e6, "us");
  nvshmem_barrier_all();
  for (int i = 0; i < 100; ++i) nvshmem_barrier_all();
  auto t0 = clk::now();
  const int host_iters = 2000;
  for (int i = 0; i < host_iters; ++i) nvshmem_barrier_all();
  row("host_barrier_all", 0, seconds_since(t0) / host_iters * 1e6, "us");
}

void bench_malloc() {
  const size_t n = 1u << 20;
  for (int i = 0; i < 10; ++i) nvshmem_free(nvshmem_malloc(n));
  const int iters = 200;
  auto t0 = clk::now();
  for (int i = 0; i < iters; ++i) {
    void *p = nvshmem_malloc(n);
    if (p == nullptr) std::exit(1);
    nvshmem_free(p);
  }
  row("malloc_free", n, seconds_since(t0) / iters * 1e6, "us");
}

// Every PE's init time, gathered on PE 0 with host puts; the slowest PE's is the job's.
void report_init(double secs) {
  double *all = static_cast<double *>(nvshmem_malloc(sizeof(double) * npes));
  nvshmem_barrier_all();
  nvshmem_double_p(&all[me], secs, 0);
  nvshmem_barrier_all();
  if (me == 0) {
    double worst = 0;
    for (int p = 0; p < npes; ++p) worst = std::max(worst, nvshmem_double_g(&all[p], 0));
    row("init", 0, worst * 1e3, "ms");
  }
  nvshmem_barrier_all();
  nvshmem_free(all);
}

}  // namespace

int main() {
  const double init_s = timed_init();
  me = nvshmem_my_pe();
  npes = nvshmem_n_pes();
  report_init(init_s);
  cudaStream_t s;
  CK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const size_t cap = 256u << 20;
  char *src = static_cast<char *>(nvshmem_malloc(cap));
  char *dst = static_cast<char *>(nvshmem_malloc(cap));
  int *word = static_cast<int *>(nvshmem_malloc(sizeof(int)));
  if (src == nullptr || dst == nullptr || word == nullptr) {
    std::fprintf(stderr, "bench: PE %d: nvshmem_malloc failed; raise NVSHMEM_SYMMETRIC_SIZE\n", me);
    return 1;
  }
  CK(cudaMemset(src, me + 1, cap));
  CK(cudaDeviceSynchronize());
  char *ldst = nullptr, *lsrc = nullptr;  // PE 0's reference copies
  if (me == 0) {
    CK(cudaMalloc(&ldst, cap));
    CK(cudaMalloc(&lsrc, cap));
    CK(cudaMemset(lsrc, 7, cap));
    CK(cudaDeviceSynchronize());
  }
  if (npes >= 2) bench_put(dst, src, ldst, lsrc, s);
  if (me == 0) {
    CK(cudaFree(ldst));
    CK(cudaFree(lsrc));
  }
  if (npes >= 2) bench_latency(word, s);
  bench_malloc();
  nvshmem_barrier_all();
  nvshmem_free(word);
  nvshmem_free(dst);
  nvshmem_free(src);
  CK(cudaStreamDestroy(s));
  nvshmem_finalize();
  return 0;
}
