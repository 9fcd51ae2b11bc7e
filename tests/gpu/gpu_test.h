// symmem GPU tests: shared helpers. Plain programs with exit codes (no test framework): 0 pass,
// 1 fail, 77 skipped (no GPU: ctest's SKIP_RETURN_CODE). Data is fresh random bytes per PE and
// round, outputs are poisoned first, and every byte is checked.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#define CK(call)                                                                                           \
  do {                                                                                                     \
    cudaError_t e_ = (call);                                                                               \
    if (e_ != cudaSuccess) {                                                                               \
      std::fprintf(stderr, "FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));     \
      std::exit(1);                                                                                        \
    }                                                                                                      \
  } while (0)

#define EXPECT(cond, ...)                                                                                  \
  do {                                                                                                     \
    if (!(cond)) {                                                                                         \
      std::fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);                                 \
      std::fprintf(stderr, __VA_ARGS__);                                                                   \
      std::fprintf(stderr, "\n");                                                                          \
      std::exit(1);                                                                                        \
    }                                                                                                      \
  } while (0)

namespace gt {

constexpr unsigned char poison = 0xA5;

// Exit 77 (skipped) when this machine has no usable GPU: never report a pass without one.
inline void skip_without_gpu(const char *name) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);  // no driver: cudaErrorInsufficientDriver / NoDevice
  if (e != cudaSuccess || count == 0) {
    std::printf("SKIPPED %s: no CUDA device (%s)\n", name, cudaGetErrorString(e));
    std::exit(77);
  }
}

// The bytes PE `pe` sends in round `round`: reproducible by every PE, fresh per run (the job's
// seed comes from the launcher's job id, so two runs differ).
inline uint64_t job_seed() {
  static uint64_t s = [] {
    const char *j = std::getenv("SYMMEM_JOB_ID");
    return j != nullptr ? std::strtoull(j, nullptr, 16) ^ 0x9e3779b97f4a7c15ULL : 12345;
  }();
  return s;
}

inline std::vector<unsigned char> pattern(int pe, int round, size_t n) {
  std::mt19937_64 rng(job_seed() ^ (uint64_t(pe) << 40) ^ (uint64_t(round) << 8) ^ n);
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; i += 8) {
    uint64_t r = rng();
    std::memcpy(v.data() + i, &r, std::min<size_t>(8, n - i));
  }
  for (auto &c : v) c = c == poison ? 0x5A : c;  // never the poison value itself
  return v;
}

// Checks that dev[0..total) holds `want` at [off, off+want.size()) and poison elsewhere.
inline void check_bytes(const void *dev, size_t total, size_t off, const std::vector<unsigned char> &want,
                        const char *what, int me) {
  std::vector<unsigned char> got(total);
  CK(cudaMemcpy(got.data(), dev, total, cudaMemcpyDefault));
  for (size_t i = 0; i < total; ++i) {
    const bool inside = i >= off && i < off + want.size();
    const unsigned char expect = inside ? want[i - off] : poison;
    if (got[i] != expect) {
      std::fprintf(stderr, "FAIL PE %d: %s: byte %zu of %zu (payload at %zu, %zu bytes) is %#x, expected %#x\n", me,
                   what, i, total, off, want.size(), got[i], expect);
      std::exit(1);
    }
  }
}

}  // namespace gt
