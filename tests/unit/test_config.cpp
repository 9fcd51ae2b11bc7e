#include <gtest/gtest.h>

#include <cstdlib>

#include "common/config.h"

using symmem::config::parse_bool;
using symmem::config::parse_seconds;
using symmem::config::parse_size;

TEST(ParseSize, PlainBytes) {
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("1073741824"), 1073741824u);
}

TEST(ParseSize, NvshmemSuffixesArePowersOf1024) {
  EXPECT_EQ(parse_size("20m"), 20u << 20);
  EXPECT_EQ(parse_size("20M"), 20u << 20);
  EXPECT_EQ(parse_size("1k"), 1024u);
  EXPECT_EQ(parse_size("2g"), size_t{2} << 30);
  EXPECT_EQ(parse_size("1t"), size_t{1} << 40);
  EXPECT_EQ(parse_size("1T"), size_t{1} << 40);
}

TEST(ParseSize, DecimalsRoundUpToWholeBytes) {
  EXPECT_EQ(parse_size("3.1M"), 3250586u);  // 3.1 * 2^20 = 3250585.6
  EXPECT_EQ(parse_size(".5m"), 524288u);
  EXPECT_EQ(parse_size("1.5k"), 1536u);
  EXPECT_EQ(parse_size("2."), 2u);
}

TEST(ParseSize, RejectsEverythingElse) {
  for (const char *bad : {"", "m", ".", "abc", "12q", "1mb", "-1", "+1", "1.2.3", " 1", "1 ", "1e3", "0x10", "1kk"}) {
    EXPECT_FALSE(parse_size(bad).has_value()) << "accepted '" << bad << "'";
  }
}

TEST(ParseBool, StrictWords) {
  EXPECT_EQ(parse_bool("1"), true);
  EXPECT_EQ(parse_bool("YES"), true);
  EXPECT_EQ(parse_bool("off"), false);
  EXPECT_FALSE(parse_bool("maybe").has_value());
  EXPECT_FALSE(parse_bool("").has_value());  // set but empty is not "on"
}

TEST(ParseSeconds, NonNegativeNumbers) {
  EXPECT_EQ(parse_seconds("30"), 30.0);
  EXPECT_EQ(parse_seconds("0.5"), 0.5);
  EXPECT_FALSE(parse_seconds("-1").has_value());
  EXPECT_FALSE(parse_seconds("10s").has_value());
}

// 0 means no limit; the range stops at 1e7 s, beyond which a deadline in nanoseconds overflows
// (1e10 was accepted and broke init).
TEST(ParseSeconds, ZeroAndTheRange) {
  EXPECT_EQ(parse_seconds("0"), 0.0);
  EXPECT_EQ(parse_seconds("1e7"), 1e7);
  for (const char *bad : {"1e10", "10000001", "inf", "-inf", "nan", "-0.5", ""}) {
    EXPECT_FALSE(parse_seconds(bad).has_value()) << bad;
  }
}

TEST(EditDistance, Suggestions) {
  EXPECT_EQ(symmem::config::edit_distance("SYMMEM_SYMETRIC_SIZE", "SYMMEM_SYMMETRIC_SIZE"), 1u);
  EXPECT_EQ(symmem::config::edit_distance("", "abc"), 3u);
}

class ConfigLoad : public ::testing::Test {
 protected:
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (const char *v : {"SYMMEM_SYMMETRIC_SIZE", "NVSHMEM_SYMMETRIC_SIZE", "SHMEM_SYMMETRIC_SIZE",
                          "SMA_SYMMETRIC_SIZE", "NVSHMEM_SYMMETRIC_SIZE_MB", "SYMMEM_SYMMETRIC_SIZE_MB", "SYMMEM_DEBUG",
                          "SYMMEM_BOOTSTRAP_TIMEOUT", "SYMMEM_BOOTSTRAP_TIMOUT"}) {
      unsetenv(v);
    }
  }
};

TEST_F(ConfigLoad, DefaultIsOneGiB) {
  symmem::config::settings s;
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, size_t{1} << 30);
  EXPECT_EQ(s.heap_bytes_source, "default");
}

TEST_F(ConfigLoad, ByteFormWinsOverMegabytes) {
  setenv("NVSHMEM_SYMMETRIC_SIZE", "20m", 1);
  setenv("NVSHMEM_SYMMETRIC_SIZE_MB", "64", 1);
  symmem::config::settings s;
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, 20u << 20);
  EXPECT_EQ(s.heap_bytes_source, "NVSHMEM_SYMMETRIC_SIZE");
}

TEST_F(ConfigLoad, MegabytesAlone) {
  setenv("NVSHMEM_SYMMETRIC_SIZE_MB", "64", 1);
  symmem::config::settings s;
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, 64u << 20);
}

TEST_F(ConfigLoad, SymmemNameBeatsAliases) {
  setenv("SYMMEM_SYMMETRIC_SIZE", "4m", 1);
  setenv("NVSHMEM_SYMMETRIC_SIZE", "8m", 1);
  symmem::config::settings s;
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, 4u << 20);
}

// SMA_SYMMETRIC_SIZE: the name of Cray SHMEM and Sandia OpenSHMEM, which older job scripts set.
TEST_F(ConfigLoad, SmaNameIsAnAliasAfterTheShmemName) {
  setenv("SMA_SYMMETRIC_SIZE", "6m", 1);
  symmem::config::settings s;
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, 6u << 20);
  EXPECT_EQ(s.heap_bytes_source, "SMA_SYMMETRIC_SIZE");
  setenv("SHMEM_SYMMETRIC_SIZE", "10m", 1);
  ASSERT_TRUE(symmem::config::load(s).ok());
  EXPECT_EQ(s.heap_bytes, 10u << 20);
}

TEST_F(ConfigLoad, InvalidValueIsQuotedInTheError) {
  setenv("SHMEM_SYMMETRIC_SIZE", "12q", 1);
  symmem::config::settings s;
  symmem::status st = symmem::config::load(s);
  EXPECT_EQ(st.code(), SYMMEM_ERR_CONFIG);
  EXPECT_NE(symmem::last_error().find("SHMEM_SYMMETRIC_SIZE=\"12q\""), std::string::npos);
}

TEST_F(ConfigLoad, TimeoutOutOfRangeFailsInit) {
  setenv("SYMMEM_BOOTSTRAP_TIMEOUT", "1e10", 1);
  symmem::config::settings s;
  symmem::status st = symmem::config::load(s);
  EXPECT_EQ(st.code(), SYMMEM_ERR_CONFIG);
  EXPECT_NE(symmem::last_error().find("SYMMEM_BOOTSTRAP_TIMEOUT=\"1e10\" is not valid: expected 0 (no limit)"),
            std::string::npos);
}

TEST_F(ConfigLoad, MisspeltBootstrapVariableIsWarned) {
  setenv("SYMMEM_BOOTSTRAP_TIMOUT", "5", 1);
  symmem::config::settings s;
  testing::internal::CaptureStderr();
  EXPECT_TRUE(symmem::config::load(s).ok());
  std::string err = testing::internal::GetCapturedStderr();
  unsetenv("SYMMEM_BOOTSTRAP_TIMOUT");
  EXPECT_NE(err.find("unknown variable SYMMEM_BOOTSTRAP_TIMOUT is ignored; did you mean SYMMEM_BOOTSTRAP_TIMEOUT?"),
            std::string::npos) << err;
}

TEST_F(ConfigLoad, BadChoice) {
  setenv("SYMMEM_DEBUG", "loud", 1);
  symmem::config::settings s;
  EXPECT_EQ(symmem::config::load(s).code(), SYMMEM_ERR_CONFIG);
  EXPECT_NE(symmem::last_error().find("off,warn,info,trace"), std::string::npos);
}

TEST(ConfigTable, EveryRowDocumented) {
  for (const auto &e : symmem::config::table()) {
    EXPECT_EQ(std::string(e.name).rfind("SYMMEM_", 0), 0u);
    EXPECT_GT(std::string(e.doc).size(), 20u) << e.name;
  }
}
