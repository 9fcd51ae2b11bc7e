#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "heap/allocator.h"

using symmem::heap::allocator;

namespace {
constexpr size_t MiB = size_t{1} << 20;
constexpr size_t granule = 2 * MiB;

struct released {
  std::vector<std::pair<size_t, size_t>> ranges;
};

allocator make(size_t size, size_t retain, released *log = nullptr) {
  allocator a;
  a.reset(0, size, granule, retain, 64, [log](size_t off, size_t len) {
    if (log) log->ranges.emplace_back(off, len);
  });
  return a;
}
}  // namespace

TEST(Allocator, SameCallsSameOffsets) {
  // Two allocators fed the same random sequence hand out the same offsets: what makes the heap
  // symmetric without communication.
  allocator a = make(256 * MiB, 0), b = make(256 * MiB, 0);
  std::mt19937_64 rng(42);
  std::vector<size_t> live;
  for (int i = 0; i < 2000; ++i) {
    if (!live.empty() && rng() % 3 == 0) {
      size_t k = rng() % live.size();
      ASSERT_TRUE(a.release(live[k]));
      ASSERT_TRUE(b.release(live[k]));
      live.erase(live.begin() + static_cast<long>(k));
    } else {
      size_t sz = 1 + rng() % (1 << 18);
      size_t al = size_t{64} << (rng() % 6);
      auto x = a.allocate(sz, al), y = b.allocate(sz, al);
      ASSERT_EQ(x, y);
      ASSERT_TRUE(x.has_value());
      EXPECT_EQ(*x % al, 0u);
      live.push_back(*x);
    }
  }
}

TEST(Allocator, NoOverlapAndFullCoalescing) {
  allocator a = make(64 * MiB, 0);
  std::vector<std::pair<size_t, size_t>> blocks;
  for (int i = 0; i < 100; ++i) {
    auto off = a.allocate(1000 + static_cast<size_t>(i) * 37, 64);
    ASSERT_TRUE(off);
    blocks.emplace_back(*off, 1000 + static_cast<size_t>(i) * 37);
  }
  std::sort(blocks.begin(), blocks.end());
  for (size_t i = 1; i < blocks.size(); ++i) {
    EXPECT_GE(blocks[i].first, blocks[i - 1].first + blocks[i - 1].second);
  }
  for (size_t i = 0; i < blocks.size(); i += 2) a.release(blocks[i].first);
  for (size_t i = 1; i < blocks.size(); i += 2) a.release(blocks[i].first);
  EXPECT_EQ(a.used_bytes(), 0u);
  EXPECT_EQ(a.largest_free(), 64 * MiB);  // everything merged back into one block
}

TEST(Allocator, ExhaustionAndDoubleFree) {
  allocator a = make(4 * MiB, 0);
  auto x = a.allocate(3 * MiB, 64);
  ASSERT_TRUE(x);
  EXPECT_FALSE(a.allocate(2 * MiB, 64));
  EXPECT_TRUE(a.release(*x));
  EXPECT_FALSE(a.release(*x));      // already free
  EXPECT_FALSE(a.release(*x + 64));  // not a block start
  EXPECT_TRUE(a.allocate(4 * MiB, 64));
}

TEST(Allocator, ResizeInPlace) {
  allocator a = make(16 * MiB, 0);
  auto x = a.allocate(1024, 64);
  ASSERT_TRUE(x);
  EXPECT_TRUE(a.resize_in_place(*x, 8192));
  EXPECT_EQ(a.block_size(*x), 8192u);
  auto y = a.allocate(64, 64);
  ASSERT_TRUE(y);
  EXPECT_FALSE(a.resize_in_place(*x, 16 * MiB));  // y is in the way
  EXPECT_TRUE(a.resize_in_place(*x, 128));
  EXPECT_EQ(a.used_bytes(), 128u + 64u);
}

TEST(Allocator, EmptiedGranulesBeyondTheRetainBudgetAreReleased) {
  released log;
  allocator a = make(64 * MiB, 4 * MiB, &log);  // keep two emptied granules committed
  std::vector<size_t> offs;
  for (int i = 0; i < 8; ++i) {
    auto o = a.allocate(granule, granule);
    ASSERT_TRUE(o);
    offs.push_back(*o);
  }
  for (size_t o : offs) a.release(o);
  // eight granules emptied, two retained: six handed back, oldest first
  ASSERT_EQ(log.ranges.size(), 6u);
  EXPECT_EQ(log.ranges[0], std::make_pair(offs[0], granule));
  for (auto &r : log.ranges) EXPECT_EQ(r.second, granule);
}

TEST(Allocator, MallocFreeLoopCostsNoRelease) {
  released log;
  allocator a = make(64 * MiB, 64 * MiB, &log);
  for (int i = 0; i < 1000; ++i) {
    auto o = a.allocate(MiB, 64);
    ASSERT_TRUE(o);
    a.release(*o);
  }
  EXPECT_TRUE(log.ranges.empty());  // the retained granule is reused, never released
}
