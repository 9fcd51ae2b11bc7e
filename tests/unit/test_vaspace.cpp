#include <gtest/gtest.h>

#include <vector>

#include "bootstrap/bootstrap.h"
#include "mem/vaspace.h"

namespace {

// A reserver that refuses the first `refuse` addresses it is asked for (standing in for ranges
// taken in some PE) and records what it was asked. The real host reserver is exercised by every
// multi-process test.
class picky_reserver final : public symmem::mem::reserver {
 public:
  explicit picky_reserver(int refuse) : refuse_(refuse) {}
  uintptr_t propose(size_t, size_t) override { return 0; }  // no proposal of its own
  bool try_at(uintptr_t addr, size_t) override {
    asked.push_back(addr);
    return static_cast<int>(asked.size()) > refuse_;
  }
  void release(uintptr_t, size_t) override {}
  [[nodiscard]] const char *what() const override { return "test heap"; }
  std::vector<uintptr_t> asked;

 private:
  int refuse_;
};

// The real host reserver behind a refusal of the PE's own proposal: the shared candidates are
// really mapped. Under ThreadSanitizer a window outside the ranges TSan accepts ended the process
// ("mmap at bad address"); static.fork and static.error.shlib_tls died of it now and then, when
// the two PEs' proposals overlapped each other's mappings.
class proposal_refusing_reserver final : public symmem::mem::reserver {
 public:
  uintptr_t propose(size_t, size_t) override { return 0; }
  bool try_at(uintptr_t addr, size_t size) override { return real_.try_at(addr, size); }
  void release(uintptr_t addr, size_t size) override { real_.release(addr, size); }
  [[nodiscard]] const char *what() const override { return "test heap"; }

 private:
  symmem::mem::host_reserver real_;
};

}  // namespace

TEST(AgreeOnAddress, SharedCandidatesAreMappableInThisBuild) {
  auto boot = symmem::boot::make_singleton();
  proposal_refusing_reserver r;
  const size_t size = size_t{1} << 30;
  uintptr_t out = 0;
  ASSERT_TRUE(symmem::mem::agree_on_address(*boot, r, size, size_t{2} << 20, out).ok());
  const symmem::mem::address_window win = symmem::mem::shared_candidate_window();
  EXPECT_GE(out, win.lo);
  EXPECT_LE(out + size, win.hi);
  // The reservation is there: a second one on the same range is refused.
  EXPECT_FALSE(symmem::mem::host_reserver().try_at(out, size));
  r.release(out, size);
}

TEST(AgreeOnAddress, FallsBackToSharedCandidatesWhenProposalsAreTaken) {
  auto boot = symmem::boot::make_singleton();
  picky_reserver r(3);
  uintptr_t out = 0;
  const size_t align = size_t{2} << 20;
  ASSERT_TRUE(symmem::mem::agree_on_address(*boot, r, size_t{1} << 30, align, out).ok());
  ASSERT_EQ(r.asked.size(), 4u);  // three refused candidates, the fourth taken
  EXPECT_EQ(out, r.asked.back());
  EXPECT_EQ(out % align, 0u);
  const symmem::mem::address_window win = symmem::mem::shared_candidate_window();
  EXPECT_GE(out, win.lo);
  EXPECT_LT(out + (size_t{1} << 30), win.hi + 1);
  for (size_t i = 1; i < r.asked.size(); ++i) EXPECT_NE(r.asked[i], r.asked[i - 1]);
}

TEST(AgreeOnAddress, GivesUpWithAMessageNamingTheVariable) {
  auto boot = symmem::boot::make_singleton();
  picky_reserver r(1000);
  uintptr_t out = 0;
  symmem::status st = symmem::mem::agree_on_address(*boot, r, size_t{1} << 30, size_t{2} << 20, out);
  EXPECT_EQ(st.code(), SYMMEM_ERR_OUT_OF_MEMORY);
  EXPECT_NE(symmem::last_error().find("SYMMEM_SYMMETRIC_SIZE"), std::string::npos);
}
