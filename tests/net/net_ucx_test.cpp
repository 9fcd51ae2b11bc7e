// The UCX transport on its own, between real processes over real UCX (TCP between emulated
// hosts): the bootstrap forms the job, every PE connects to every other through the plugin and
// registers one buffer, and each operation the library relies on is checked against poisoned
// memory. Atomics are checked against the CPU atomics of the PE that owns the word (the
// atomicity domain), with every PE hammering one counter to an exact total.
//
//   symmem-run --hosts A:2,B:2 ... net_ucx_test
#include <sys/mman.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#include "bootstrap/bootstrap.h"
#include "common/config.h"
#include "core/state.h"
#include "core/wait.h"
#include "net/net.h"

using namespace symmem;

namespace {

constexpr size_t buf_bytes = size_t{4} << 20;
constexpr size_t slot = 64 * 1024;          // inbox slot per PE
constexpr size_t flags_at = 1u << 20;       // barrier flags: [parity][round] uint64
constexpr size_t counters_at = flags_at + 4096;
constexpr size_t src_at = 2u << 20;         // this PE's data for others to get
constexpr int hammer = 2000;

int me, n, failures;
char *buf;
std::vector<uint64_t> base;  // every PE's buffer address
std::unique_ptr<boot::bootstrap> bs;
std::unique_ptr<net::transport> tp;
void *w;
uint64_t epoch;

#define CHECK(cond)                                                                              \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      std::fprintf(stderr, "PE %d: CHECK FAILED at %s:%d: %s\n", me, __FILE__, __LINE__, #cond); \
      ++failures;                                                                                \
    }                                                                                            \
  } while (0)
#define MUST(st)                                                                                 \
  do {                                                                                           \
    status s_ = (st);                                                                            \
    if (!s_.ok()) {                                                                              \
      std::fprintf(stderr, "PE %d: %s failed at line %d: %s\n", me, #st, __LINE__, symmem::last_error().c_str()); \
      std::exit(1);                                                                              \
    }                                                                                            \
  } while (0)

uint64_t at(int pe, size_t off) { return base[static_cast<size_t>(pe)] + off; }
// The buffer is a data region, not region 0 (SYMMEM_NET_REGION_SIGNALS: the library's control
// segment, whose puts a worker flush need not cover), so a quiet completes the puts into it.
constexpr uint32_t data_region = 1;
unsigned char pattern(int owner, size_t i) { return static_cast<unsigned char>(owner * 37 + i * 11 + 1); }

// Progresses the worker until the 8-byte word at `word` holds at least `want` (bounded; the
// message names what was awaited).
void await_count(uint64_t *word, uint64_t want, const char *test, std::function<std::string()> what) {
  std::atomic_ref<uint64_t> v(*word);
  core::spin_wait sw(test, std::move(what));
  while (v.load(std::memory_order_acquire) < want) {
    tp->progress(w);
    sw.pause();
  }
}

// Dissemination barrier over the transport: round k signals PE me+2^k, waits for me-2^k.
void barrier() {
  const uint64_t e = ++epoch;
  auto *flags = reinterpret_cast<uint64_t *>(buf + flags_at);
  for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
    const int to = (me + d) % n;
    const size_t off = flags_at + (static_cast<size_t>(e & 1) * 32 + static_cast<size_t>(k)) * 8;
    MUST(tp->amo(w, to, data_region, at(to, off), SYMMEM_NET_AMO_SWAP, 8, e, 0, nullptr, "barrier"));
    std::atomic_ref<uint64_t> mine(flags[(e & 1) * 32 + static_cast<size_t>(k)]);
    core::spin_wait sw("barrier", [k] { return strfmt("round %d of the test barrier", k); });
    while (mine.load(std::memory_order_acquire) != e) {
      tp->progress(w);
      sw.pause();
    }
  }
}

void test_put_get() {
  const size_t sizes[] = {1, 8, 1000, slot};
  for (size_t len : sizes) {
    std::memset(buf, 0xEE, slot * static_cast<size_t>(n));  // poison every inbox slot
    std::vector<unsigned char> mine(len);
    for (size_t i = 0; i < len; ++i) mine[i] = pattern(me, i + len);
    barrier();
    for (int p = 0; p < n; ++p)
      if (p != me) MUST(tp->put(w, p, data_region, at(p, slot * static_cast<size_t>(me)), mine.data(), len, false, "put"));
    MUST(tp->quiet(w, -1, "quiet"));
    barrier();
    for (int p = 0; p < n; ++p) {
      if (p == me) continue;
      const unsigned char *in = reinterpret_cast<unsigned char *>(buf + slot * static_cast<size_t>(p));
      size_t bad = 0;
      for (size_t i = 0; i < len; ++i) bad += in[i] != pattern(p, i + len);
      CHECK(bad == 0);
      CHECK(len == slot || in[len] == 0xEE);  // nothing written past the end
    }
  }
  for (size_t i = 0; i < slot; ++i) buf[src_at + i] = static_cast<char>(pattern(me, i));
  barrier();
  std::vector<unsigned char> got(slot, 0xEE);
  for (int p = 0; p < n; ++p) {
    if (p == me) continue;
    std::fill(got.begin(), got.end(), 0xEE);
    MUST(tp->get(w, p, data_region, at(p, src_at), got.data(), slot, false, "get"));
    size_t bad = 0;
    for (size_t i = 0; i < slot; ++i) bad += got[i] != pattern(p, i);
    CHECK(bad == 0);
  }
  barrier();
}

// Many small nbi puts, then one quiet: every byte must be there after it.
void test_nbi() {
  std::memset(buf, 0xEE, slot * static_cast<size_t>(n));
  barrier();
  static uint64_t vals[512];
  for (int i = 0; i < 512; ++i) vals[i] = (static_cast<uint64_t>(me) << 32) | static_cast<uint64_t>(i);
  for (int p = 0; p < n; ++p)
    for (int i = 0; p != me && i < 512; ++i)
      MUST(tp->put(w, p, data_region, at(p, slot * static_cast<size_t>(me) + 8 * static_cast<size_t>(i)), &vals[i], 8, true, "put_nbi"));
  MUST(tp->quiet(w, -1, "quiet"));
  barrier();
  for (int p = 0; p < n; ++p) {
    const auto *in = reinterpret_cast<uint64_t *>(buf + slot * static_cast<size_t>(p));
    for (int i = 0; p != me && i < 512; ++i) CHECK(in[i] == ((static_cast<uint64_t>(p) << 32) | static_cast<uint64_t>(i)));
  }
  barrier();
}

// Every PE hammers PE 0's counters: the remote ones through UCX, PE 0 itself with CPU atomics on
// the same words at the same time. Lost updates would show in the totals.
void test_atomicity_domain() {
  auto *c64 = reinterpret_cast<uint64_t *>(buf + counters_at);
  auto *c32 = reinterpret_cast<uint32_t *>(buf + counters_at + 8);
  *c64 = 0;
  *c32 = 0;
  barrier();
  uint64_t last = 0;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < hammer; ++i) {
    if (me == 0) {
      std::atomic_ref<uint64_t>(*c64).fetch_add(1);
      std::atomic_ref<uint32_t>(*c32).fetch_add(3);
      if (i % 64 == 0) tp->progress(w);
      continue;
    }
    uint64_t old = 0;
    MUST(tp->amo(w, 0, data_region, at(0, counters_at), SYMMEM_NET_AMO_ADD, 8, 1, 0, &old, "fetch_add"));
    CHECK(old >= last);  // one PE's fetch_adds see a growing counter
    last = old;
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 8), SYMMEM_NET_AMO_ADD, 4, 3, 0, nullptr, "add"));
  }
  MUST(tp->quiet(w, -1, "quiet"));
  if (me != 0 && std::getenv("NET_UCX_TEST_TIMES") != nullptr)
    std::printf("PE %d: fetch_add + add: %.1f us a pair\n", me,
                std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / hammer);
  barrier();
  if (me == 0) {
    CHECK(*c64 == static_cast<uint64_t>(hammer) * static_cast<uint64_t>(n));
    CHECK(*c32 == 3u * static_cast<uint32_t>(hammer) * static_cast<uint32_t>(n));
    std::printf("PE 0: counter %llu of %llu, %u of %u\n", static_cast<unsigned long long>(*c64),
                static_cast<unsigned long long>(hammer) * static_cast<unsigned long long>(n), *c32,
                3u * static_cast<unsigned>(hammer) * static_cast<unsigned>(n));
  }
  barrier();
}

// With NET_UCX_TEST_TIMES set: PE 1's latencies to PE 0 while PE 0 waits (a figure for
// people, not a check).
void report_latency() {
  if (std::getenv("NET_UCX_TEST_TIMES") == nullptr) return;
  barrier();
  if (me == 1) {
    const int iters = 2000;
    uint64_t v = 1, r = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) {
      MUST(tp->put(w, 0, data_region, at(0, src_at), &v, 8, false, "put"));
      MUST(tp->quiet(w, -1, "quiet"));
    }
    auto t1 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i) MUST(tp->get(w, 0, data_region, at(0, src_at), &r, 8, false, "get"));
    auto t2 = std::chrono::steady_clock::now();
    for (int i = 0; i < iters; ++i)
      MUST(tp->amo(w, 0, data_region, at(0, counters_at + 1024), SYMMEM_NET_AMO_ADD, 8, 1, 0, &r, "fetch_add"));
    auto t3 = std::chrono::steady_clock::now();
    auto us = [](auto a, auto b) { return std::chrono::duration<double, std::micro>(b - a).count() / iters; };
    std::printf("PE 1 -> PE 0: put+quiet %.1f us, get %.1f us, fetch_add %.1f us\n", us(t0, t1), us(t1, t2), us(t2, t3));
  }
  barrier();
}

// Compare-and-swap: exactly one PE wins the word; bitwise operations leave every PE's bit set.
void test_cswap_bits() {
  auto *word = reinterpret_cast<uint64_t *>(buf + counters_at + 64);
  auto *bits = reinterpret_cast<uint32_t *>(buf + counters_at + 128);
  *word = 0;
  *bits = 0;
  barrier();
  uint64_t old = ~0ull;
  uint32_t obits = 0;
  if (me == 0) {
    uint64_t expected = 0;
    std::atomic_ref<uint64_t>(*word).compare_exchange_strong(expected, 1);
    old = expected;
    std::atomic_ref<uint32_t>(*bits).fetch_or(1u);
  } else {
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 64), SYMMEM_NET_AMO_CSWAP, 8, static_cast<uint64_t>(me) + 1, 0, &old, "cswap"));
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 128), SYMMEM_NET_AMO_OR, 4, 1u << me, 0, &obits, "fetch_or"));
    CHECK((obits & (1u << me)) == 0);
  }
  uint64_t winners = 0, all = 0;
  uint64_t won = old == 0 ? 1 : 0;
  std::vector<uint64_t> wins(static_cast<size_t>(n));
  MUST(bs->allgather(&won, wins.data(), sizeof won, "gather"));
  for (uint64_t x : wins) winners += x;
  CHECK(winners == 1);
  barrier();
  if (me == 0) {
    all = *word;
    CHECK(all >= 1 && all <= static_cast<uint64_t>(n));
    CHECK(*bits == (n >= 32 ? ~0u : (1u << n) - 1));
  }
  auto *slots = reinterpret_cast<uint64_t *>(buf + counters_at + 512);
  for (int p = 0; p < n; ++p) slots[p] = 7;
  barrier();  // the checks above are done before anyone changes the bits again
  // From every remote PE: xor twice restores its bit, a swap returns what was there.
  if (me != 0) {
    uint32_t x = 0;
    uint64_t was = 0;
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 512 + 8 * static_cast<size_t>(me)), SYMMEM_NET_AMO_SWAP, 8,
                 static_cast<uint64_t>(me) << 40, 0, &was, "swap"));
    CHECK(was == 7);
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 128), SYMMEM_NET_AMO_XOR, 4, 1u << me, 0, &x, "fetch_xor"));
    CHECK((x & (1u << me)) != 0);
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 128), SYMMEM_NET_AMO_XOR, 4, 1u << me, 0, nullptr, "xor"));
    MUST(tp->amo(w, 0, data_region, at(0, counters_at + 128), SYMMEM_NET_AMO_AND, 4, ~0u, 0, nullptr, "and"));
    MUST(tp->quiet(w, -1, "quiet"));
  }
  barrier();
  if (me == 0) {
    CHECK(*bits == (n >= 32 ? ~0u : (1u << n) - 1));
    for (int p = 1; p < n; ++p) CHECK(slots[p] == static_cast<uint64_t>(p) << 40);
  }
  barrier();
}

// fence orders a put before the flag that announces it.
void test_fence() {
  std::memset(buf, 0xEE, slot * static_cast<size_t>(n));
  auto *flag = reinterpret_cast<uint64_t *>(buf + counters_at + 256);
  *flag = 0;
  barrier();
  const int to = (me + 1) % n, from = (me + n - 1) % n;
  std::vector<unsigned char> data(slot);
  for (size_t i = 0; i < slot; ++i) data[i] = pattern(me, i);
  uint64_t one = 1;
  MUST(tp->put(w, to, data_region, at(to, slot * static_cast<size_t>(me)), data.data(), slot, true, "put_nbi"));
  MUST(tp->fence(w, "fence"));
  MUST(tp->put(w, to, data_region, at(to, counters_at + 256), &one, 8, true, "put_nbi"));
  core::spin_wait sw("fence test", [from] { return strfmt("the flag from PE %d", from); });
  while (std::atomic_ref<uint64_t>(*flag).load(std::memory_order_acquire) != 1) {
    tp->progress(w);
    sw.pause();
  }
  const unsigned char *in = reinterpret_cast<unsigned char *>(buf + slot * static_cast<size_t>(from));
  size_t bad = 0;
  for (size_t i = 0; i < slot; ++i) bad += in[i] != pattern(from, i);
  CHECK(bad == 0);
  MUST(tp->quiet(w, -1, "quiet"));
  barrier();
}

// Signals: one message each, stored last word to first with the first released, so a PE that
// sees the first word sees the rest. Then one aimed just past PE 1's registered buffer, at a
// page that faults if written: PE 1 must drop it (with a warning), not store it.
void test_signal() {
  std::memset(buf, 0xEE, slot * static_cast<size_t>(n));
  barrier();
  const int to = (me + 1) % n, from = (me + n - 1) % n;
  const uint64_t e = 1000 + epoch;
  for (size_t words = 1; words <= 8; ++words) {
    uint64_t msg[8];
    for (size_t i = 0; i < words; ++i) msg[i] = i == 0 ? e + words : (static_cast<uint64_t>(me) << 16) | (words << 8) | i;
    const size_t off = slot * static_cast<size_t>(me) + 128 * words;
    MUST(tp->signal(w, to, 0, at(to, off), msg, words, "signal"));
  }
  for (size_t words = 1; words <= 8; ++words) {
    const auto *in = reinterpret_cast<uint64_t *>(buf + slot * static_cast<size_t>(from) + 128 * words);
    core::spin_wait sw("signal test", [from, words] { return strfmt("a %zu-word signal from PE %d", words, from); });
    while (std::atomic_ref<const uint64_t>(in[0]).load(std::memory_order_acquire) != e + words) {
      tp->progress(w);
      sw.pause();
    }
    for (size_t i = 1; i < words; ++i) CHECK(in[i] == ((static_cast<uint64_t>(from) << 16) | (words << 8) | i));
    CHECK(in[words] == 0xEEEEEEEEEEEEEEEEull);  // nothing stored past the signal
  }
  barrier();
  if (me == 0) {
    const uint64_t msg[2] = {1, 2};
    MUST(tp->signal(w, 1, 0, at(1, buf_bytes), msg, 2, "signal"));  // the guard page of PE 1
  }
  MUST(tp->quiet(w, -1, "quiet"));  // after signals only: completes at once
  barrier();
  barrier();  // PE 1 has progressed past the stray signal: it did not fault
}

// Counting signals: every other PE adds 5 to one word of PE 0 `hammer` times through signal_add
// while PE 0 adds 5 with CPU atomics to the same word: the total must come out exact (signals have
// no completion to wait for, so PE 0 waits for the total, then checks nothing more arrives).
void test_signal_add() {
  auto *word = reinterpret_cast<uint64_t *>(buf + counters_at + 64);
  *word = 0;
  barrier();
  for (int i = 0; i < hammer; ++i) {
    if (me == 0) {
      std::atomic_ref<uint64_t>(*word).fetch_add(5);
      if (i % 64 == 0) tp->progress(w);
    } else {
      MUST(tp->signal_add(w, 0, 0, at(0, counters_at + 64), 5, "signal_add"));
    }
  }
  if (me == 0) {
    const uint64_t want = 5ull * static_cast<uint64_t>(hammer) * static_cast<uint64_t>(n);
    std::atomic_ref<uint64_t> total(*word);
    await_count(word, want, "signal_add test", [&] {
      return strfmt("the counter to reach %llu (at %llu)", static_cast<unsigned long long>(want),
                    static_cast<unsigned long long>(total.load()));
    });
    for (int k = 0; k < 1000; ++k) tp->progress(w);
    CHECK(total.load() == want);
  }
  barrier();
}

// Data signals: every PE sends the next one blocks of 1 B to 32 KiB, then one of the largest size,
// onto poisoned memory, each message adding 1 to one count; once the receiver sees the count,
// every byte must be there and nothing past a block. Then one aimed at PE 1's guard page: dropped (with a warning), the count
// untouched.
void test_signal_put() {
  std::memset(buf, 0xEE, slot * static_cast<size_t>(n));
  auto *count = reinterpret_cast<uint64_t *>(buf + counters_at + 192);
  *count = 0;
  barrier();
  const int to = (me + 1) % n, from = (me + n - 1) % n;
  const size_t sizes[] = {1, 8, 100, 4096, 32768};
  constexpr size_t blocks = sizeof sizes / sizeof sizes[0];
  size_t offs[blocks];
  std::vector<unsigned char> data(slot);
  for (size_t k = 0, off = 0; k < blocks; off += (sizes[k] + 15) / 8 * 8, ++k) {
    offs[k] = off;
    for (size_t i = 0; i < sizes[k]; ++i) data[i] = pattern(me, i + 31 * k);
    MUST(tp->signal_put(w, to, 0, at(to, slot * static_cast<size_t>(me) + off), data.data(), sizes[k],
                        at(to, counters_at + 192), 1, "signal_put"));
  }
  std::atomic_ref<uint64_t> landed(*count);
  await_count(count, blocks, "signal_put test", [from] { return strfmt("the data signals of PE %d", from); });
  for (size_t k = 0; k < blocks; ++k) {
    const auto *in = reinterpret_cast<unsigned char *>(buf + slot * static_cast<size_t>(from) + offs[k]);
    size_t bad = 0;
    for (size_t i = 0; i < sizes[k]; ++i) bad += in[i] != pattern(from, i + 31 * k);
    CHECK(bad == 0);
    CHECK(in[sizes[k]] == 0xEE);  // nothing stored past the block
  }
  // One block as large as a data signal goes (eager, in many fragments), into its own region.
  constexpr size_t big = SYMMEM_NET_DATA_SIGNAL_MAX, big_at = 3u << 20;
  static_assert(big_at + 4 * big <= buf_bytes, "the large blocks of 4 PEs fit the buffer");
  if (n <= 4) {
    std::memset(buf + big_at, 0xEE, big * static_cast<size_t>(n));
    barrier();
    std::vector<unsigned char> large(big);
    for (size_t i = 0; i < big; ++i) large[i] = pattern(me, i * 7);
    MUST(tp->signal_put(w, to, 0, at(to, big_at + big * static_cast<size_t>(me)), large.data(), big,
                        at(to, counters_at + 192), 1, "signal_put"));
    await_count(count, blocks + 1, "signal_put test", [from] { return strfmt("the large data signal of PE %d", from); });
    const auto *in = reinterpret_cast<unsigned char *>(buf + big_at + big * static_cast<size_t>(from));
    size_t bad = 0;
    for (size_t i = 0; i < big; ++i) bad += in[i] != pattern(from, i * 7);
    CHECK(bad == 0);
  }
  const uint64_t expect = blocks + (n <= 4 ? 1 : 0);
  barrier();
  if (me == 0) MUST(tp->signal_put(w, 1, 0, at(1, buf_bytes), data.data(), 16, at(1, counters_at + 192), 1, "signal_put"));
  MUST(tp->quiet(w, -1, "quiet"));
  barrier();
  for (int k = 0; k < 1000; ++k) tp->progress(w);
  CHECK(landed.load() == expect);  // the stray one added nothing
  barrier();
}

// Staged operations (net_plugin.h): the target's "library" is the hooks below, over a staged area
// of its own (poisoned, with a count of what it was asked), as a GPU heap's host would copy and
// run atomics. Checked from the default worker and from a second worker (whose answers must come
// back to it, not to the default one), with sizes up to the largest, an exact-total counter
// hammered by every PE with fetching and non-fetching adds, compare-and-swap semantics, and a
// refused address that must fail the request or the next quiet, naming why, without a touch.
constexpr size_t staged_bytes = size_t{SYMMEM_NET_DATA_SIGNAL_MAX} * 2;
char *sbuf;  // the staged area: [0, MAX) data in, [MAX, 2 MAX) data out; counters at the end of "in"
std::vector<uint64_t> sbase;
std::atomic<uint64_t> stage_calls{0};

bool in_staged(uint64_t addr, size_t len) {
  const uint64_t off = addr - reinterpret_cast<uint64_t>(sbuf);
  return off < staged_bytes && len <= staged_bytes - off;
}
int hook_store(void *, uint64_t addr, const void *src, size_t len) {
  stage_calls.fetch_add(1);
  if (!in_staged(addr, len)) return SYMMEM_ERR_NOT_ACCESSIBLE;
  std::memcpy(reinterpret_cast<void *>(addr), src, len);
  return 0;
}
int hook_load(void *, void *dst, uint64_t addr, size_t len) {
  stage_calls.fetch_add(1);
  if (!in_staged(addr, len)) return SYMMEM_ERR_NOT_ACCESSIBLE;
  std::memcpy(dst, reinterpret_cast<const void *>(addr), len);
  return 0;
}
int hook_amo(void *, uint64_t addr, int op, unsigned size, uint64_t value, uint64_t compare, uint64_t *old) {
  stage_calls.fetch_add(1);
  if (!in_staged(addr, size) || size != 8) return SYMMEM_ERR_NOT_ACCESSIBLE;
  std::atomic_ref<uint64_t> a(*reinterpret_cast<uint64_t *>(addr));
  if (op == SYMMEM_NET_AMO_ADD) *old = a.fetch_add(value);
  else if (op == SYMMEM_NET_AMO_CSWAP) *old = compare, a.compare_exchange_strong(*old, value);
  else if (op == SYMMEM_NET_AMO_SWAP) *old = a.exchange(value);
  else return SYMMEM_ERR_INVALID_ARGUMENT;
  return 0;
}

void staged_round(void *wk, const char *which) {
  const size_t max = SYMMEM_NET_DATA_SIGNAL_MAX;
  const int to = (me + 1) % n, from = (me + n - 1) % n;
  const size_t sizes[] = {1, 8, 4097, max};
  for (size_t len : sizes) {
    std::memset(sbuf, 0xEE, max - 64);  // poison the "in" half (the counters stay)
    for (size_t i = 0; i < max; ++i) sbuf[max + i] = static_cast<char>(pattern(me, i + len));
    barrier();
    std::vector<unsigned char> mine(len);
    for (size_t i = 0; i < len; ++i) mine[i] = pattern(me, i + len);
    MUST(tp->staged_put(wk, to, sbase[static_cast<size_t>(to)], mine.data(), len, "staged put"));
    std::memset(mine.data(), 0, len);  // the source is reusable at once
    // Counted per target PE until its answer: the library completes them before a get to that PE.
    if (n > 2) CHECK(!tp->staged_pending(wk, from));  // nothing was sent there
    for (int spin = 0; spin < 20000000 && tp->staged_pending(wk, to); ++spin) tp->progress(wk);
    CHECK(!tp->staged_pending(wk, to) && !tp->staged_pending(wk, -1));
    MUST(tp->quiet(wk, -1, "quiet"));
    std::vector<unsigned char> got(len, 0xEE);
    MUST(tp->staged_get(wk, to, sbase[static_cast<size_t>(to)] + max, got.data(), len, "staged get"));
    size_t bad = 0;
    for (size_t i = 0; i < len; ++i) bad += got[i] != pattern(to, i + len);
    if (bad != 0) std::fprintf(stderr, "PE %d: %s: staged get of %zu bytes: %zu wrong\n", me, which, len, bad);
    CHECK(bad == 0);
    barrier();
    bad = 0;
    for (size_t i = 0; i < len; ++i) bad += static_cast<unsigned char>(sbuf[i]) != pattern(from, i + len);
    if (bad != 0) std::fprintf(stderr, "PE %d: %s: staged put of %zu bytes: %zu wrong\n", me, which, len, bad);
    CHECK(bad == 0);
    CHECK(len == max || static_cast<unsigned char>(sbuf[len]) == 0xEE);
  }
}

void test_staged() {
  const size_t max = SYMMEM_NET_DATA_SIGNAL_MAX;
  uint64_t *counter = reinterpret_cast<uint64_t *>(sbuf + max - 64);
  staged_round(w, "default worker");
  void *w2 = nullptr;
  MUST(tp->create_worker(false, false, w2, "ctx"));
  staged_round(w2, "second worker");
  counter[0] = counter[1] = 0;  // the largest put covered them
  barrier();
  // Exact total: fetching adds from the default worker, non-fetching ones from the second.
  const uint64_t c0 = sbase[0] + max - 64;
  for (int k = 0; k < 200; ++k) {
    if (me == 0) continue;
    uint64_t old = 0;
    MUST(tp->staged_amo(w, 0, c0, SYMMEM_NET_AMO_ADD, 8, 1, 0, &old, "fetch_add"));
    MUST(tp->staged_amo(w2, 0, c0, SYMMEM_NET_AMO_ADD, 8, 2, 0, nullptr, "add"));
  }
  if (me == 0) {
    for (int k = 0; k < 200 * (n - 1); ++k) std::atomic_ref<uint64_t>(*counter).fetch_add(4);  // the owner's CPU
  }
  MUST(tp->quiet(w2, -1, "quiet"));
  barrier();
  if (me == 0 && *counter != 200ull * static_cast<uint64_t>(n - 1) * 7) {
    std::fprintf(stderr, "PE 0: staged counter %llu, expected %llu\n", static_cast<unsigned long long>(*counter),
                 200ull * static_cast<unsigned long long>(n - 1) * 7);
    ++failures;
  }
  // Compare-and-swap from the other PEs: one wins the word, the others see its value.
  uint64_t old = 0;
  if (me != 0) {
    MUST(tp->staged_amo(w, 0, c0 + 8, SYMMEM_NET_AMO_CSWAP, 8, 100 + static_cast<uint64_t>(me), 0, &old, "cswap"));
    CHECK(old == 0 || (old > 100 && old < 100 + static_cast<uint64_t>(n)));
  }
  barrier();
  if (me == 0) CHECK(counter[1] > 100 && counter[1] < 100 + static_cast<uint64_t>(n));
  if (me != 0) {
    MUST(tp->staged_amo(w, 0, c0 + 8, SYMMEM_NET_AMO_CSWAP, 8, 1, 0, &old, "cswap"));
    CHECK(old > 100 && old < 100 + static_cast<uint64_t>(n));  // no swap: 0 was not there
  }
  barrier();
  if (me == 0) CHECK(counter[1] > 100 && counter[1] < 100 + static_cast<uint64_t>(n));
  // Refused: outside the target's staged area. The get fails; the put fails the next quiet. The
  // target's memory behind the area (its data region) is not touched.
  const int to = (me + 1) % n;
  const uint64_t stray = sbase[static_cast<size_t>(to)] + staged_bytes;  // just past the end
  std::vector<char> tmp(16, 0);
  status st = tp->staged_get(w2, to, stray, tmp.data(), 16, "staged get");
  CHECK(!st.ok() && std::strstr(symmem::last_error().c_str(), "refused a staged operation") != nullptr);
  clear_last_error();
  MUST(tp->staged_put(w2, to, stray - 8, tmp.data(), 16, "staged put"));  // straddles the end
  st = tp->quiet(w2, -1, "quiet");
  CHECK(!st.ok() && std::strstr(symmem::last_error().c_str(), "refused a staged operation") != nullptr);
  clear_last_error();
  MUST(tp->quiet(w2, -1, "quiet"));  // the error was reported once
  barrier();
  CHECK(stage_calls.load() > 0);
  tp->destroy_worker(w2);
}

// A region nobody registered: an error that names it, not a crash.
void test_errors() {
  uint64_t v = 0;
  status st = tp->get(w, (me + 1) % n, 7, at((me + 1) % n, 0), &v, 8, false, "get");
  CHECK(!st.ok() && std::strstr(symmem::last_error().c_str(), "no UCX key for memory region 7") != nullptr);
  clear_last_error();
}

}  // namespace

int main() {
  MUST(config::load(core::g.cfg));
  if (core::g.cfg.debug == "info") set_log_level(log_level::info);
  MUST(boot::create(core::g.cfg, bs));
  boot::set_current(bs.get());
  me = bs->rank();
  n = bs->size();
  set_log_pe(me);
  std::vector<int> remote;
  for (int p = 0; p < n; ++p)
    if (p != me) remote.push_back(p);
  net::stage_hooks hooks;
  hooks.store = hook_store;
  hooks.load = hook_load;
  hooks.amo = hook_amo;
  MUST(net::transport::open("ucx", *bs, false, remote, hooks, tp));
  MUST(tp->connect(remote, "init"));
  w = tp->default_worker();
  // A guard page after the buffer (test_signal aims a stray signal at it).
  buf = static_cast<char *>(::mmap(nullptr, buf_bytes + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ::mprotect(buf + buf_bytes, 4096, PROT_NONE);
  void *mh = nullptr;
  net::packed_key key;
  MUST(tp->register_memory(buf, buf_bytes, mh, key, "init"));
  sbuf = static_cast<char *>(::mmap(nullptr, staged_bytes + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ::mprotect(sbuf + staged_bytes, 4096, PROT_NONE);  // a refused request that touched it would crash
  struct published {
    uint64_t base, sbase;
    net::packed_key key;
  } mine{reinterpret_cast<uint64_t>(buf), reinterpret_cast<uint64_t>(sbuf), key};
  std::vector<published> all(static_cast<size_t>(n));
  MUST(bs->allgather(&mine, all.data(), sizeof mine, "init"));
  for (int p = 0; p < n; ++p) {
    base.push_back(all[static_cast<size_t>(p)].base);
    sbase.push_back(all[static_cast<size_t>(p)].sbase);
    if (p != me) MUST(tp->set_key(p, data_region, all[static_cast<size_t>(p)].key.bytes, all[static_cast<size_t>(p)].key.len, "init"));
  }
  for (int p : remote) std::printf("PE %d -> PE %d via UCX %s\n", me, p, tp->route(p).c_str());
  barrier();
  test_put_get();
  test_nbi();
  test_atomicity_domain();
  report_latency();
  test_cswap_bits();
  test_fence();
  test_signal();
  test_signal_add();
  test_signal_put();
  test_staged();
  test_errors();
  MUST(tp->quiet(w, -1, "finalize"));
  barrier();
  tp->closing();
  MUST(bs->barrier("finalize"));  // the progress thread serves the last acknowledgements meanwhile
  tp->deregister_memory(mh);
  tp.reset();
  std::printf("PE %d of %d: %s (%s)\n", me, n, failures == 0 ? "all UCX checks passed" : "FAILED", "UCX");
  boot::set_current(nullptr);
  bs->close();
  return failures == 0 ? 0 : 1;
}
