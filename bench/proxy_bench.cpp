// proxy_bench: the rate of device-style `p` calls to a PE on another host through the proxy ring,
// with CPU threads as the producers (a GPU kernel posts through the same ring with the device
// functions of symmem/detail/proxy_ring.h). Each round, every producer posts its share of a row of
// 4-byte stores to consecutive elements of the other host's PE (as a Jacobi kernel's halo row of
// nvshmem_float_p calls does), then the PE quiets through the ring; the row is poisoned before and
// checked after each round, so a store that did not land shows.
//
//   symmem-run --hosts A:1,B:1 proxy_bench [ROW_ELEMENTS] [ROUNDS] [PRODUCERS] [signal|swap]   (16384 20 4)
//
// By default each warp of 32 stores goes as one PUT_DATA request of their 128 bytes, as a kernel's
// `p` calls do (symmem_proxy_put_data_warp); with `swap`, each store is a request of its own, an
// atomic swap without fetch with the value in the request (how a kernel's `p` went before spans).
//
// With `signal`, each element goes as a put with signal instead (a kernel's put_signal_nbi of 4
// bytes, adding 1 to a counter on the target): the counter must equal the row after the round.
//
// SYMMEM_NET_HEAP=staged makes the host heap take the staged path that a GPU heap across hosts
// takes (each store carried out by the owner, batched), which is what this measures. Prints one
// line per PE: median and best time per round and per store.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "core/proxy_exec.h"
#include "core/remote.h"
#include "net/net_plugin.h"
#include "net/proxy.h"
#include "symmem/symmem.h"

namespace {

constexpr uint64_t slots = 1024;  // the GPU heap's ring (src/cuda)
constexpr uint32_t poison = 0xdeadbeefu;

uint32_t value_of(int pe, int round, size_t i) {
  return (static_cast<uint32_t>(pe) << 28) ^ (static_cast<uint32_t>(round) << 20) ^ static_cast<uint32_t>(i);
}

}  // namespace

int main(int argc, char **argv) {
  const size_t row = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 16384;
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 20;
  const int producers = argc > 3 ? std::atoi(argv[3]) : 4;
  const bool signal = argc > 4 && std::strcmp(argv[4], "signal") == 0;
  const bool swap = argc > 4 && std::strcmp(argv[4], "swap") == 0;
  if (row == 0 || rounds <= 0 || producers <= 0) {
    std::fprintf(stderr, "usage: proxy_bench [ROW_ELEMENTS > 0] [ROUNDS > 0] [PRODUCERS > 0]\n");
    return 2;
  }
  if (symmem_init_thread(SYMMEM_THREAD_MULTIPLE, nullptr) != 0) return 2;
  const int me = symmem_my_pe(), n = symmem_n_pes();
  const int to = (me + n / 2) % n;    // a PE of the other host when the PEs fill two hosts in order
  const int from = (me + n - n / 2) % n;  // the PE that stores into this one
  auto *rows = static_cast<uint32_t *>(symmem_malloc(row * sizeof(uint32_t)));
  auto *counter = static_cast<uint64_t *>(symmem_malloc(sizeof(uint64_t)));
  std::vector<uint32_t> values(row);  // the put-with-signal sources (valid until the quiet)
  std::vector<char> memory(symmem_proxy_ring_bytes(slots));
  symmem_proxy_ring *ring = symmem::net::proxy::init_ring(memory.data(), slots);
  auto exec = symmem::core::make_proxy_executor();
  symmem::net::proxy px(ring, *exec);
  px.start();
  std::vector<double> us;
  size_t wrong = 0;
  for (int round = 0; round < rounds; ++round) {
    for (size_t i = 0; i < row; ++i) rows[i] = poison;
    *counter = 0;
    for (size_t i = 0; i < row; ++i) values[i] = value_of(me, round, i);
    symmem_barrier_all();
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> threads;
    for (int t = 0; t < producers; ++t) {
      threads.emplace_back([&, t] {
        // Consecutive elements per producer, in warps of 32 as a kernel's threads take them.
        for (size_t base = static_cast<size_t>(t) * 32; base < row; base += static_cast<size_t>(producers) * 32) {
          if (!signal && !swap) {  // the warp's stores, one span
            uint32_t v[32];
            const size_t end = std::min(row, base + 32);
            for (size_t i = base; i < end; ++i) v[i - base] = value_of(me, round, i);
            symmem::net::proxy::post_data(ring, to, reinterpret_cast<uint64_t>(&rows[base]), v, (end - base) * sizeof(uint32_t));
            continue;
          }
          for (size_t i = base; i < std::min(row, base + 32); ++i) {
            symmem_proxy_req r{};
            r.op = SYMMEM_PROXY_AMO;  // a device p of 4 bytes: a swap without fetch, the value in the request
            r.pe = to;
            r.dst = reinterpret_cast<uint64_t>(&rows[i]);
            r.size = 4;
            r.amo_op = SYMMEM_NET_AMO_SWAP;
            r.value = value_of(me, round, i);
            if (signal) {  // put_signal_nbi: the element from `values`, then add 1 to the counter
              r.op = SYMMEM_PROXY_SIGNAL;
              r.src = reinterpret_cast<uint64_t>(&values[i]);
              r.amo_op = SYMMEM_NET_AMO_ADD;
              r.value = 1;
              r.value2 = reinterpret_cast<uint64_t>(counter);
            }
            symmem::net::proxy::post(ring, r);
          }
        }
      });
    }
    for (auto &th : threads) th.join();
    symmem::net::proxy::quiet(ring);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    symmem_barrier_all();
    for (size_t i = 0; i < row; ++i) wrong += rows[i] != value_of(from, round, i);
    if (signal && *counter != row) {
      std::fprintf(stderr, "PE %d: round %d: the signal counter holds %llu, not %zu\n", me, round,
                   static_cast<unsigned long long>(*counter), row);
      ++wrong;
    }
  }
  px.stop();
  std::sort(us.begin(), us.end());
  const double med = us[us.size() / 2];
  std::printf("PE %d: %zu %s of 4 B to PE %d per round, %d producers, %d rounds: median %.1f us (%.3f us each), "
              "best %.1f us; %s\n",
              me, row, signal ? "puts with signal" : swap ? "stores (one swap each)" : "stores (a span of 32)", to, producers, rounds, med, med / static_cast<double>(row),
              us.front(),
              wrong == 0 ? "every store landed" : "STORES MISSING");
  if (wrong != 0) std::fprintf(stderr, "PE %d: %zu of %zu stores from PE %d did not land\n", me, wrong, row * rounds, from);
  symmem_barrier_all();
  symmem_free(counter);
  symmem_free(rows);
  symmem_finalize();
  return wrong == 0 ? 0 : 1;
}
