// The planning of a staged batch's held stores (core/store_runs.h): sorted, joined where they
// touch, gathered into a buffer of limited size, and refused (sent as they came) where two overlap.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "core/store_runs.h"

using symmem::core::gather_runs;
using symmem::core::held_store;
using symmem::core::sort_disjoint;

namespace {

// Applies the plan to `mem` (addresses are offsets into it), copying at once; returns the copies.
struct target {
  std::vector<unsigned char> mem;
  size_t copies = 0, waits = 0;
  std::vector<size_t> lens;
  size_t run(const std::vector<held_store> &st, size_t cap) {
    std::vector<uint32_t> order;
    EXPECT_TRUE(sort_disjoint(st, order, cap));
    std::vector<char> buf(cap, 0x5a);
    copies = gather_runs(
        st, order, buf.data(), cap,
        [this](uint64_t addr, const char *from, size_t len) {
          ASSERT_LE(addr + len, mem.size());
          std::memcpy(mem.data() + addr, from, len);
          lens.push_back(len);
        },
        [this] { ++waits; });
    return copies;
  }
};

// A row of `n` pieces of `piece` bytes, posted in a shuffled order; each piece's bytes name it.
std::vector<held_store> shuffled_row(std::vector<unsigned char> &data, size_t n, size_t piece, uint64_t base,
                                     unsigned seed) {
  data.resize(n * piece);
  for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>((i * 131 + 7) & 0xff);
  std::vector<held_store> st;
  for (size_t i = 0; i < n; ++i) st.push_back(held_store{base + i * piece, data.data() + i * piece, piece});
  std::mt19937 rng(seed);
  std::shuffle(st.begin(), st.end(), rng);
  return st;
}

}  // namespace

TEST(StoreRuns, ShuffledRowIsOneCopy) {
  // Jacobi's halo row: 512 warps' pieces of 128 bytes in the order the warps ran.
  std::vector<unsigned char> data;
  const std::vector<held_store> st = shuffled_row(data, 512, 128, 4096, 1);
  target t;
  t.mem.assign(4096 + data.size() + 4096, 0xee);  // poisoned: unwritten bytes show
  EXPECT_EQ(t.run(st, size_t{1} << 20), 1u);
  EXPECT_EQ(t.waits, 0u);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), t.mem.begin() + 4096));
  EXPECT_EQ(t.mem[4095], 0xee);
  EXPECT_EQ(t.mem[4096 + data.size()], 0xee);
}

TEST(StoreRuns, GapsSplitRuns) {
  // Two rows with a gap between them, and a lone store past both: three copies.
  std::vector<unsigned char> a, b;
  std::vector<held_store> st = shuffled_row(a, 64, 32, 0, 2);
  const std::vector<held_store> second = shuffled_row(b, 64, 32, 64 * 32 + 8, 3);
  st.insert(st.begin() + 10, second.begin(), second.end());
  const unsigned char lone[3] = {1, 2, 3};
  st.push_back(held_store{10000, lone, 3});
  target t;
  t.mem.assign(10100, 0xee);
  EXPECT_EQ(t.run(st, 4096), 3u);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), t.mem.begin()));
  for (size_t i = 64 * 32; i < 64 * 32 + 8; ++i) EXPECT_EQ(t.mem[i], 0xee) << "gap byte " << i;
  EXPECT_TRUE(std::equal(b.begin(), b.end(), t.mem.begin() + 64 * 32 + 8));
  EXPECT_EQ(t.mem[10000], 1);
  EXPECT_EQ(t.mem[10002], 3);
  EXPECT_EQ(t.mem[10003], 0xee);
}

TEST(StoreRuns, FullBufferWaitsAndStartsOver) {
  // 64 KiB of pieces through a 16 KiB buffer: a run is cut where the buffer fills, and the
  // copies issued before are waited for before the buffer is written again.
  std::vector<unsigned char> data;
  const std::vector<held_store> st = shuffled_row(data, 512, 128, 0, 4);
  target t;
  t.mem.assign(data.size(), 0xee);
  EXPECT_EQ(t.run(st, 16384), 4u);
  EXPECT_EQ(t.waits, 3u);
  for (size_t len : t.lens) EXPECT_EQ(len, 16384u);
  EXPECT_TRUE(std::equal(data.begin(), data.end(), t.mem.begin()));
}

TEST(StoreRuns, OverlapOrTooLargeIsRefused) {
  const unsigned char x[16] = {};
  std::vector<uint32_t> order;
  // Overlapping by one byte, in either order of arrival: the later store must win, so no reordering.
  EXPECT_FALSE(sort_disjoint({{100, x, 8}, {107, x, 8}}, order, 1024));
  EXPECT_FALSE(sort_disjoint({{107, x, 8}, {100, x, 8}}, order, 1024));
  EXPECT_FALSE(sort_disjoint({{100, x, 8}, {100, x, 4}}, order, 1024));  // the same address twice
  EXPECT_TRUE(sort_disjoint({{108, x, 8}, {100, x, 8}}, order, 1024));    // touching is fine
  EXPECT_EQ(order, (std::vector<uint32_t>{1, 0}));
  EXPECT_FALSE(sort_disjoint({{0, x, 16}}, order, 8));  // larger than the buffer
  // Near the top of the address space: no wrap-around in the check.
  EXPECT_FALSE(sort_disjoint({{UINT64_MAX - 15, x, 16}, {UINT64_MAX - 3, x, 4}}, order, 1024));
}
