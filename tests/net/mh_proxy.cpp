// The proxy ring's host side with CPU producers, over the real remote path: each PE runs a proxy
// on a small ring (so it fills and wraps), and several producer threads post puts to a PE of the
// other host, atomic adds to one counter on PE 0 and on the last PE, fetching atomics and gets,
// then each quiets through the ring. After a barrier every value must be where it was put and
// every counter exact. (A GPU kernel posts through the same ring with the device functions of
// symmem/detail/proxy_ring.h.)
//
//   mh_proxy [PER_THREAD]       (default 300)
//   mh_proxy 0 exit             the runtime's proxy runs (as with a GPU heap across hosts) and the
//                               program exits with status 3 without finalize: the exit must not
//                               crash (the proxy thread kept progressing a closed network)
//   mh_proxy 0 idle             PE 0's proxy idles and its thread sleeps (as in a kernel's stream
//                               synchronisation) while the first PE of the other host gets from it
//                               200 times, 1 ms apart: PE 0's network progress thread must serve
//                               them asleep on the worker's messages (SYMMEM_DEBUG=info: "N sleeps
//                               on the worker's messages"); it napped instead while the proxy's
//                               idle turns progressed the default worker
//   mh_proxy PER cpus spread|bound   run bound to one CPU (symmem-run --bind-to core): the proxy
//                               thread and the network's progress thread must run on the machine's
//                               other CPUs (spread), or on the PE's CPU (SYMMEM_HELPER_CPUS=bound)
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <thread>
#include <vector>

#include <cstring>
#include <dirent.h>
#include <sched.h>
#include <unistd.h>
#include <fstream>
#include <string>

#include "core/proxy_exec.h"
#include "core/remote.h"
#include "net/net_plugin.h"
#include "net/proxy.h"
#include "symmem/symmem.h"

namespace {

int failures = 0;
#define CHECK(cond)                                                                                     \
  do {                                                                                                  \
    if (!(cond)) {                                                                                      \
      std::fprintf(stderr, "PE %d: CHECK FAILED at line %d: %s\n", symmem_my_pe(), __LINE__, #cond);  \
      ++failures;                                                                                       \
    }                                                                                                   \
  } while (0)

constexpr int threads = 3;
constexpr uint64_t slots = 16;

symmem_proxy_req put_req(int pe, void *dst, const void *src, size_t n) {
  symmem_proxy_req r{};
  r.op = SYMMEM_PROXY_PUT;
  r.pe = pe;
  r.dst = reinterpret_cast<uint64_t>(dst);
  r.src = reinterpret_cast<uint64_t>(src);
  r.size = n;
  return r;
}

symmem_proxy_req amo_req(int pe, void *dst, unsigned op, uint64_t v) {
  symmem_proxy_req r{};
  r.op = SYMMEM_PROXY_AMO;
  r.pe = pe;
  r.dst = reinterpret_cast<uint64_t>(dst);
  r.size = 8;
  r.amo_op = op;
  r.value = v;
  return r;
}

// The helper threads (common/helper_thread.h names them) against this PE's one CPU.
void check_helper_cpus(const char *want) {
  cpu_set_t own;
  CHECK(sched_getaffinity(0, sizeof own, &own) == 0 && CPU_COUNT(&own) == 1);  // --bind-to core
  if (CPU_COUNT(&own) != 1) return;
  const bool spread = std::strcmp(want, "spread") == 0;
  int found = 0;
  DIR *d = opendir("/proc/self/task");
  CHECK(d != nullptr);
  if (d == nullptr) return;
  while (dirent *e = readdir(d)) {
    if (e->d_name[0] == '.') continue;
    std::string name;
    std::getline(std::ifstream(std::string("/proc/self/task/") + e->d_name + "/comm"), name);
    if (name != "symmem-proxy" && name != "symmem-progress") continue;
    ++found;
    cpu_set_t cpus;
    CHECK(sched_getaffinity(static_cast<pid_t>(std::atoi(e->d_name)), sizeof cpus, &cpus) == 0);
    const bool same = CPU_EQUAL(&cpus, &own);
    std::printf("PE %d: %s may use %d CPUs%s\n", symmem_my_pe(), name.c_str(), CPU_COUNT(&cpus),
                same ? ", the PE's own" : "");
    if (spread) {
      for (int c = 0; c < CPU_SETSIZE; ++c)
        if (CPU_ISSET(c, &own)) CHECK(!CPU_ISSET(c, &cpus));  // not the PE's CPU
      CHECK(CPU_COUNT(&cpus) >= 1);
    } else {
      CHECK(same);
    }
  }
  closedir(d);
  CHECK(found == 2);  // the proxy thread and the UCX plugin's progress thread
}

}  // namespace

int main(int argc, char **argv) {
  const int per = argc > 1 ? std::atoi(argv[1]) : 300;
  if (symmem_init_thread(SYMMEM_THREAD_MULTIPLE, nullptr) != 0) return 2;
  const int me = symmem_my_pe(), n = symmem_n_pes();
  if (argc > 2 && std::strcmp(argv[2], "exit") == 0) {
    // Never freed: the proxy thread is abandoned at exit, not joined, and a static vector's
    // destructor could free the ring under it (an exit handler registered after the library's).
    auto *ring_memory = new char[symmem_proxy_ring_bytes(slots)];
    symmem::core::proxy_start(symmem::net::proxy::init_ring(ring_memory, slots));
    symmem_barrier_all();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::exit(3);
  }
  const int to = (me + n / 2) % n;  // a PE of the other host when the PEs fill two hosts in order
  std::vector<char> memory(symmem_proxy_ring_bytes(slots));
  symmem_proxy_ring *ring = symmem::net::proxy::init_ring(memory.data(), slots);
  auto exec = symmem::core::make_proxy_executor();
  symmem::net::proxy px(ring, *exec);
  px.start();
  if (argc > 2 && std::strcmp(argv[2], "idle") == 0) {
    // word[0] is read from the other host; word[1] takes the put that makes the proxy's context.
    auto *word = static_cast<uint64_t *>(symmem_calloc(2, sizeof(uint64_t)));
    word[0] = 42;
    static uint64_t one = 1;
    symmem::net::proxy::post(ring, put_req(to, &word[1], &one, 8));
    symmem::net::proxy::quiet(ring);
    symmem_barrier_all();
    if (me == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(600));  // away from the library
    } else if (me == n / 2) {
      for (int i = 0; i < 200; ++i) {
        uint64_t v = 0;
        symmem_getmem(&v, word, sizeof v, 0);
        CHECK(v == 42);
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
      }
    }
    symmem_barrier_all();
    px.stop();
    symmem_free(word);
    symmem_finalize();
    if (me == 0) std::puts("mh_proxy idle: ok");
    return 0;
  }
  auto *box = static_cast<uint64_t *>(symmem_calloc(static_cast<size_t>(n * threads * per), sizeof(uint64_t)));
  auto *counter = static_cast<uint64_t *>(symmem_calloc(2, sizeof(uint64_t)));
  if (argc > 3 && std::strcmp(argv[2], "cpus") == 0) {
    if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
      std::printf("PE %d: one CPU online: no other CPU for the helper threads\n", me);
    } else {
      check_helper_cpus(argv[3]);
    }
  }
  symmem_barrier_all();
  // Values that stay valid until the quiet below (a put's source must, as for putmem_nbi). In the
  // heap, as a kernel's are: the proxy holds such puts and sends them together (proxy_exec.cpp).
  auto *values = static_cast<uint64_t *>(symmem_malloc(static_cast<size_t>(threads * per) * sizeof(uint64_t)));
  std::vector<std::thread> producers;
  for (int t = 0; t < threads; ++t) {
    producers.emplace_back([&, t] {
      uint64_t last = 0;
      for (int i = 0; i < per; ++i) {
        const size_t k = static_cast<size_t>(t * per + i);
        values[k] = (static_cast<uint64_t>(me) << 40) | k;
        symmem::net::proxy::post(ring, put_req(to, &box[static_cast<size_t>(me * threads * per) + k], &values[k], 8));
        symmem::net::proxy::post(ring, amo_req(0, &counter[0], SYMMEM_NET_AMO_ADD, 1));
        symmem::net::proxy::post(ring, amo_req(n - 1, &counter[1], SYMMEM_NET_AMO_ADD, 2));
        if (i % 10 == 0) {  // a fetching add of 0 sees the counter grow
          const uint64_t v = symmem::net::proxy::fetch(ring, amo_req(0, &counter[0], SYMMEM_NET_AMO_ADD, 0));
          CHECK(v >= last);
          last = v;
        }
      }
      symmem::net::proxy::quiet(ring);
    });
  }
  for (auto &p : producers) p.join();
  // A get through the ring of what this PE put into `to`, after the quiet.
  uint64_t got = 0;
  symmem_proxy_req g{};
  g.op = SYMMEM_PROXY_GET;
  g.pe = to;
  g.dst = reinterpret_cast<uint64_t>(&got);
  g.src = reinterpret_cast<uint64_t>(&box[static_cast<size_t>(me * threads * per)]);
  g.size = 8;
  symmem::net::proxy::fetch(ring, g);
  CHECK(got == (static_cast<uint64_t>(me) << 40));
  // A kernel's `p` calls to consecutive elements (4-byte swaps without fetch, the value in the
  // request), from producers that interleave by warps of 32: the proxy's worker batches them and
  // joins consecutive stores into one record (ucx_staged.cpp), so a store in the wrong place, a
  // join across a gap, or one lost at a batch's edge shows as a wrong or poisoned element.
  constexpr uint32_t poison = 0xdeadbeefu;
  const size_t row = static_cast<size_t>(per) * 64 + 7;  // not a multiple of a warp
  auto *prow = static_cast<uint32_t *>(symmem_malloc(2 * row * sizeof(uint32_t)));
  for (size_t i = 0; i < 2 * row; ++i) prow[i] = poison;
  symmem_barrier_all();
  auto pval = [](int pe, size_t i) { return (static_cast<uint32_t>(pe) << 24) ^ static_cast<uint32_t>(i * 2654435761u); };
  std::vector<std::thread> pthreads;
  for (int t = 0; t < threads; ++t) {
    pthreads.emplace_back([&, t] {
      for (size_t base = static_cast<size_t>(t) * 32; base < row; base += threads * 32) {
        for (size_t i = base; i < std::min(row, base + 32); ++i) {
          if (i % 97 == 5) continue;  // gaps: the element stays poisoned
          symmem_proxy_req pr = amo_req(to, &prow[i], SYMMEM_NET_AMO_SWAP, pval(me, i));
          pr.size = 4;
          symmem::net::proxy::post(ring, pr);
        }
      }
      symmem::net::proxy::quiet(ring);
    });
  }
  for (auto &p : pthreads) p.join();
  // The same row again from one producer, backwards: consecutive requests that never continue
  // each other, and the second half of the array, whose first element follows the row's last.
  for (size_t i = 2 * row; i-- > row;) {
    symmem_proxy_req pr = amo_req(to, &prow[i], SYMMEM_NET_AMO_SWAP, pval(me, i));
    pr.size = 4;
    symmem::net::proxy::post(ring, pr);
  }
  symmem::net::proxy::quiet(ring);
  symmem_barrier_all();
  size_t pwrong = 0;
  {
    const int pfrom = (me + n - n / 2) % n;
    for (size_t i = 0; i < 2 * row; ++i) {
      const uint32_t want = i < row && i % 97 == 5 ? poison : pval(pfrom, i);
      if (prow[i] != want && pwrong++ < 5) {
        std::fprintf(stderr, "PE %d: p element %zu from PE %d holds %#x, expected %#x\n", me, i, pfrom, prow[i], want);
      }
    }
  }
  CHECK(pwrong == 0);
  symmem_barrier_all();
  symmem_free(prow);

  // Puts with signal (a kernel's put_signal): each producer sends blocks of 3 words, each with a
  // signal word of its own, set to the block's number + 1 (even blocks) or added 1 to (odd ones).
  // The receiver polls the signals in order and checks each block the moment its signal shows,
  // with no barrier or quiet between: a signal must never come before its data.
  constexpr int sig_blocks = 40, nblk = threads * sig_blocks;
  auto *sblk = static_cast<uint64_t *>(symmem_malloc(nblk * 3 * sizeof(uint64_t)));
  auto *sig = static_cast<uint64_t *>(symmem_calloc(nblk, sizeof(uint64_t)));
  for (int i = 0; i < nblk * 3; ++i) sblk[i] = 0xbad;
  auto *ssrc = static_cast<uint64_t *>(symmem_malloc(static_cast<size_t>(nblk * 3) * sizeof(uint64_t)));
  auto sval = [](int pe, int i) { return (static_cast<uint64_t>(pe) << 48) | static_cast<uint64_t>(i) * 7919u; };
  auto want_sig = [](int blk) { return blk % 2 == 0 ? static_cast<uint64_t>(blk) + 1 : uint64_t{1}; };
  for (int i = 0; i < nblk * 3; ++i) ssrc[static_cast<size_t>(i)] = sval(me, i);
  symmem_barrier_all();
  std::vector<std::thread> sthreads;
  for (int t = 0; t < threads; ++t) {
    sthreads.emplace_back([&, t] {
      for (int b = 0; b < sig_blocks; ++b) {
        const int blk = b * threads + t;  // the producers' blocks interleave
        const size_t at = static_cast<size_t>(blk) * 3;
        symmem_proxy_req sr{};
        sr.op = SYMMEM_PROXY_SIGNAL;
        sr.pe = to;
        sr.dst = reinterpret_cast<uint64_t>(&sblk[at]);
        sr.src = reinterpret_cast<uint64_t>(&ssrc[at]);
        sr.size = 3 * sizeof(uint64_t);
        sr.amo_op = blk % 2 == 0 ? SYMMEM_NET_AMO_SWAP : SYMMEM_NET_AMO_ADD;
        sr.value = want_sig(blk);
        sr.value2 = reinterpret_cast<uint64_t>(&sig[blk]);
        symmem::net::proxy::post(ring, sr);
      }
    });
  }
  {
    const int sfrom = (me + n - n / 2) % n;
    int swrong = 0, missing = 0;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    for (int blk = 0; blk < nblk; ++blk) {
      std::atomic_ref<uint64_t> s1(sig[blk]);
      while (s1.load(std::memory_order_acquire) == 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::yield();  // the proxy and progress threads need the CPUs too
      }
      if (s1.load(std::memory_order_acquire) != want_sig(blk)) {
        ++missing;
        continue;
      }
      for (int w = 0; w < 3; ++w) {
        const uint64_t got = std::atomic_ref<uint64_t>(sblk[blk * 3 + w]).load(std::memory_order_relaxed);
        if (got != sval(sfrom, blk * 3 + w) && swrong++ < 3) {
          std::fprintf(stderr, "PE %d: put with signal, block %d word %d holds %#llx once its signal came\n", me, blk, w,
                       static_cast<unsigned long long>(got));
        }
      }
    }
    CHECK(missing == 0);
    CHECK(swrong == 0);
  }
  for (auto &t : sthreads) t.join();
  symmem::net::proxy::quiet(ring);
  symmem_barrier_all();
  symmem_free(sig);
  symmem_free(sblk);
  symmem_free(ssrc);

  // Block puts of a kernel (put_nbi_block) from the heap, of sizes on both sides of what the proxy
  // holds (64 KiB), each into its own poisoned range, in one stream with no quiet between: held
  // ones and ones that are not must all land, whole, in order with the put that overwrites one.
  {
    const size_t sizes[] = {1, 13, 4096, 8192 + 3, size_t{64} << 10, (size_t{64} << 10) + 1, 200000, 40, 3};
    size_t total = 0;
    for (size_t z : sizes) total += z + 64;
    auto *bsrc = static_cast<unsigned char *>(symmem_malloc(total));
    auto *bdst = static_cast<unsigned char *>(symmem_malloc(total));
    auto bval = [](int pe, size_t i) { return static_cast<unsigned char>((pe * 131 + i * 7 + (i >> 8)) & 0xff); };
    for (size_t i = 0; i < total; ++i) bsrc[i] = bval(me, i), bdst[i] = 0xa5;
    symmem_barrier_all();
    // Later puts to the same bytes must win: 40 bytes into the range of the first put too large to
    // be held (sent before it, whatever the proxy holds), and the first range twice in a row.
    size_t at = 0, large = 0;
    for (size_t z : sizes) {
      if (z > (size_t{64} << 10) && large == 0) large = at;
      at += z + 64;
    }
    symmem::net::proxy::post(ring, put_req(to, bdst + large, bsrc + 1000, 40));
    at = 0;
    for (size_t z : sizes) {
      symmem::net::proxy::post(ring, put_req(to, bdst + at, bsrc + at, z));
      if (at == 0) symmem::net::proxy::post(ring, put_req(to, bdst, bsrc + 32, 1));
      at += z + 64;
    }
    symmem::net::proxy::quiet(ring);
    symmem_barrier_all();
    const int bfrom = (me + n - n / 2) % n;
    size_t bwrong = 0;
    at = 0;
    for (size_t z : sizes) {
      for (size_t i = 0; i < z + 64; ++i) {
        const unsigned char want = i >= z ? 0xa5 : at == 0 ? bval(bfrom, 32) : bval(bfrom, at + i);
        if (bdst[at + i] != want && bwrong++ < 5) {
          std::fprintf(stderr, "PE %d: block put of %zu bytes, byte %zu holds %#x, expected %#x\n", me, z, i,
                       bdst[at + i], want);
        }
      }
      at += z + 64;
    }
    CHECK(bwrong == 0);
    symmem_barrier_all();
    symmem_free(bdst);
    symmem_free(bsrc);
  }

  // PUT_DATA spans (a kernel's warp of `p` calls, a put from its local memory): the bytes travel
  // in the ring, 1 to SYMMEM_PROXY_SPAN_MOST of them, so spans of up to 10 tickets wrap around
  // this 16-slot ring. Each producer fills its own stretch of a row in pieces that follow each
  // other (the executor joins such pieces into one put) with gaps that must stay poisoned, a put
  // from the heap now and then (copied, not carried: joined too), and its first piece rewritten
  // at the end, which must win. The source vector is overwritten after each post: the bytes must
  // have been taken at the post.
  {
    const uint64_t sizes[] = {1, 7, 8, 56, 57, 112, 168, 169, 4, SYMMEM_PROXY_SPAN_MOST, 300, 2, 1000, 64, 3};
    const size_t stretch = 6000;
    const size_t row = stretch * threads;
    auto *drow = static_cast<unsigned char *>(symmem_malloc(row));
    auto *hsrc = static_cast<unsigned char *>(symmem_malloc(row));
    auto sv = [](int pe, size_t i, int pass) {
      const auto v = static_cast<unsigned char>((pe * 37 + i * 11 + (i >> 7) + pass * 101) & 0xff);
      return v == 0xa5 ? static_cast<unsigned char>(0x5a) : v;
    };
    std::vector<unsigned char> gap(row, 0), heap_piece(row, 0);
    for (size_t i = 0; i < row; ++i) drow[i] = 0xa5, hsrc[i] = sv(me, i, 0);
    // Which bytes each producer leaves out, and which it sends from the heap: the same on every PE.
    for (int t = 0; t < threads; ++t) {
      size_t at = static_cast<size_t>(t) * stretch;
      for (size_t k = 0; at < static_cast<size_t>(t + 1) * stretch; ++k) {
        const size_t z = std::min<size_t>(sizes[k % std::size(sizes)], static_cast<size_t>(t + 1) * stretch - at);
        for (size_t i = at; i < at + z; ++i) gap[i] = k % 6 == 5, heap_piece[i] = k % 6 != 5 && k % 7 == 3;
        at += z;
      }
    }
    symmem_barrier_all();
    std::vector<std::thread> dthreads;
    for (int t = 0; t < threads; ++t) {
      dthreads.emplace_back([&, t] {
        std::vector<unsigned char> buf(SYMMEM_PROXY_SPAN_MOST);
        const size_t begin = static_cast<size_t>(t) * stretch, end = begin + stretch;
        size_t first = 0;
        for (size_t at = begin, k = 0; at < end; ++k) {
          const size_t z = std::min<size_t>(sizes[k % std::size(sizes)], end - at);
          if (k == 0) first = z;
          if (gap[at]) {
          } else if (heap_piece[at]) {
            symmem::net::proxy::post(ring, put_req(to, drow + at, hsrc + at, z));
          } else {
            for (size_t i = 0; i < z; ++i) buf[i] = sv(me, at + i, 0);
            symmem::net::proxy::post_data(ring, to, reinterpret_cast<uint64_t>(drow + at), buf.data(), z);
            std::fill(buf.begin(), buf.end(), 0xa5);
          }
          at += z;
        }
        for (size_t i = 0; i < first; ++i) buf[i] = sv(me, begin + i, 1);
        symmem::net::proxy::post_data(ring, to, reinterpret_cast<uint64_t>(drow + begin), buf.data(), first);
        symmem::net::proxy::quiet(ring);
      });
    }
    for (auto &t : dthreads) t.join();
    symmem_barrier_all();
    const int dfrom = (me + n - n / 2) % n;
    size_t dwrong = 0;
    for (int t = 0; t < threads; ++t) {
      const size_t begin = static_cast<size_t>(t) * stretch;
      for (size_t i = begin; i < begin + stretch; ++i) {
        const unsigned char want = gap[i] ? 0xa5 : i < begin + sizes[0] ? sv(dfrom, i, 1) : sv(dfrom, i, 0);
        if (drow[i] != want && dwrong++ < 5) {
          std::fprintf(stderr, "PE %d: span byte %zu (producer %d) holds %#x, expected %#x%s\n", me, i, t, drow[i],
                       want, gap[i] ? " (a gap: nothing was put there)" : "");
        }
      }
    }
    CHECK(dwrong == 0);
    symmem_barrier_all();
    symmem_free(hsrc);
    symmem_free(drow);
  }

  // Barriers as a GPU kernel's device barrier makes them across hosts: a quiet through the ring,
  // then the epoch stored into the partner's word with a swap through it (posted, not fetched),
  // then a wait on this PE's own word, which only the partner's swap advances.
  auto *epoch = static_cast<uint64_t *>(symmem_calloc(1, sizeof(uint64_t)));
  symmem_barrier_all();
  const int rounds = per;
  for (int e = 1; e <= rounds; ++e) {
    symmem::net::proxy::quiet(ring);
    symmem_proxy_req sw = amo_req(to, epoch, SYMMEM_NET_AMO_SWAP, static_cast<uint64_t>(e));
    symmem::net::proxy::post(ring, sw);
    std::atomic_ref<uint64_t> mine(*epoch);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    // A kernel spins on its own GPU; here the spinning thread yields, or on a machine with fewer
    // CPUs than threads it takes the CPU that the proxy and progress threads need to deliver.
    while (mine.load(std::memory_order_acquire) < static_cast<uint64_t>(e) && std::chrono::steady_clock::now() < until) {
      std::this_thread::yield();
    }
    if (mine.load(std::memory_order_acquire) < static_cast<uint64_t>(e)) {
      std::fprintf(stderr, "PE %d: ring barrier %d: the partner's epoch never arrived (word holds %llu)\n", me, e,
                   static_cast<unsigned long long>(mine.load()));
      ++failures;
      break;
    }
  }
  px.stop();
  // The proxy's account of what it carried out (logged at SYMMEM_DEBUG=info): this PE's requests.
  {
    const auto &st = px.statistics();
    CHECK(st.ops[SYMMEM_PROXY_SIGNAL] == static_cast<uint64_t>(nblk));
    CHECK(st.ops[SYMMEM_PROXY_GET] == 1);
    CHECK(st.ops[0] == 0 && st.ops[SYMMEM_PROXY_FENCE] == 0);
    // quiets: the producers' of each phase (5 of 6 phases), one after each of 3 phases, one a barrier round
    CHECK(st.ops[SYMMEM_PROXY_QUIET] == static_cast<uint64_t>(3 * threads + 3 + rounds));
    CHECK(st.ops[SYMMEM_PROXY_PUT_DATA] > 0 && st.data_bytes >= st.ops[SYMMEM_PROXY_PUT_DATA]);
    CHECK(st.busy_ns > 0 && st.busy_ns <= st.wall_ns && st.quiet_ns <= st.busy_ns);
    std::printf("PE %d: the proxy carried out %llu atomics, %llu puts, %llu spans (%llu bytes), busy %.3f of %.3f s\n",
                me, static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_AMO]),
                static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_PUT]),
                static_cast<unsigned long long>(st.ops[SYMMEM_PROXY_PUT_DATA]),
                static_cast<unsigned long long>(st.data_bytes), st.busy_ns * 1e-9, st.wall_ns * 1e-9);
  }
  symmem_barrier_all();
  symmem_free(epoch);
  const int from = (me + n - n / 2) % n;  // the PE that put into this one
  for (int k = 0; k < threads * per; ++k)
    CHECK(box[static_cast<size_t>(from * threads * per + k)] == ((static_cast<uint64_t>(from) << 40) | static_cast<uint64_t>(k)));
  const uint64_t ops = static_cast<uint64_t>(n) * threads * static_cast<uint64_t>(per);
  if (me == 0) CHECK(counter[0] == ops);
  if (me == n - 1) CHECK(counter[1] == 2 * ops + (n == 1 ? 0 : 0));
  std::printf("PE %d: proxy ring: %d producers x %d requests, %s\n", me, threads, per, failures ? "FAILED" : "all landed");
  symmem_barrier_all();
  symmem_free(counter);
  symmem_free(values);
  symmem_free(box);
  symmem_finalize();
  return failures == 0 ? 0 : 1;
}
