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

}  // namespace

TEST(AgreeOnAddress, FallsBackToSharedCandidatesWhenProposalsAreTaken) {
  auto boot = symmem::boot::make_singleton();
  picky_reserver r(3);
  uintptr_t out = 0;
  const size_t align = size_t{2} << 20;
  ASSERT_TRUE(symmem::mem::agree_on_address(*boot, r, size_t{1} << 30, align, out).ok());
  ASSERT_EQ(r.asked.size(), 4u);  // three refused candidates, the fourth taken
  EXPECT_EQ(out, r.asked.back());
  EXPECT_EQ(out % align, 0u);
  EXPECT_GE(out, uintptr_t{16} << 40);
  EXPECT_LT(out, uintptr_t{80} << 40);
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
