// proxy_rtt: one put and a quiet through the proxy ring, waited for, then the next: the round
// trip of a kernel's blocking `putmem` (or `putmem_on_stream`) to a PE on another host, with a
// CPU thread as the producer. PE 0 puts into PE 1 from its heap at sizes 8 B to 2 MiB (5 warm-up
// rounds, then 20 timed); PE 1 waits in barrier_all meanwhile, as NVIDIA's `bw` perftest's
// second PE does. Prints the time per put and quiet.
//
//   symmem-run --hosts A:1,B:1 proxy_rtt
//
// With symmem-run's default binding on a machine of two CPUs each PE has one CPU, as under
// mpirun's default binding: SYMMEM_HELPER_CPUS=bound keeps the proxy thread on it, the default
// (spread) lets it run on the other (common/helper_thread.h; BENCHMARKS.md has both).
#include <chrono>
#include <cstdio>
#include <cstring>
#include <vector>

#include "core/proxy_exec.h"
#include "core/remote.h"
#include "net/proxy.h"
#include "symmem/symmem.h"

int main() {
  if (symmem_init_thread(SYMMEM_THREAD_MULTIPLE, nullptr) != 0) return 2;
  const int me = symmem_my_pe();
  if (symmem_n_pes() != 2) {
    if (me == 0) std::fprintf(stderr, "proxy_rtt: run it with 2 PEs, one per host\n");
    symmem_finalize();
    return 2;
  }
  const size_t max = size_t{2} << 20;
  auto *dst = static_cast<char *>(symmem_malloc(max));
  auto *src = static_cast<char *>(symmem_malloc(max));
  std::memset(src, 1, max);
  std::vector<char> memory(symmem_proxy_ring_bytes(1024));
  symmem_proxy_ring *ring = symmem::net::proxy::init_ring(memory.data(), 1024);
  auto exec = symmem::core::make_proxy_executor();
  symmem::net::proxy px(ring, *exec);
  px.start();
  symmem_barrier_all();
  if (me == 0) {
    for (size_t n = 8; n <= max; n *= 4) {
      auto one = [&] {
        symmem_proxy_req r{};
        r.op = SYMMEM_PROXY_PUT;
        r.pe = 1;
        r.dst = reinterpret_cast<uint64_t>(dst);
        r.src = reinterpret_cast<uint64_t>(src);
        r.size = n;
        symmem::net::proxy::post(ring, r);
        symmem::net::proxy::quiet(ring);
      };
      for (int i = 0; i < 5; ++i) one();
      const auto t0 = std::chrono::steady_clock::now();
      for (int i = 0; i < 20; ++i) one();
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / 20;
      std::printf("%8zu B: %8.1f us per put and quiet through the ring\n", n, us);
    }
  }
  symmem_barrier_all();
  px.stop();
  symmem_free(src);
  symmem_free(dst);
  symmem_finalize();
  return 0;
}
