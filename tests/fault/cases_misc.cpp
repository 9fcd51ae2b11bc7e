// Fault suite: contexts, teams and address queries.
#include <climits>
#include <cstdint>
#include <cstdlib>

#include "probe.hpp"

namespace probe {
namespace {

const char *live_ctx = "is not a live context";

}  // namespace

void add_misc(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn, std::string env = "") {
    test_case c;
    c.name = "misc." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    c.env = std::move(env);
    out.push_back(std::move(c));
    return &out.back();
  };
  // ---- contexts ----
  add("ctx_destroy.twice", outcome::fatal, std::string("PE 0: ctx_destroy: 0x[0-9a-f]+ ") + live_ctx, [] {
    shmem_ctx_t c;
    PROBE_CHECK(shmem_ctx_create(0, &c) == 0);
    shmem_ctx_destroy(c);
    if (me == 0) shmem_ctx_destroy(c);
  });
  add("ctx_long_put.after_destroy", outcome::fatal, live_ctx, [] {
    shmem_ctx_t c;
    PROBE_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &c) == 0);
    shmem_ctx_destroy(c);
    if (me == 0) shmem_ctx_long_put(c, lbuf, lsrc, 1, 1);
  });
  add("ctx_create.null", outcome::ok, "ctx_create: ctx is NULL", [] { PROBE_CHECK(shmem_ctx_create(0, nullptr) != 0); });
  add("ctx_create.bad_options", outcome::ok, "ctx_create: unknown options 0x100", [] {
    shmem_ctx_t c = SHMEM_CTX_DEFAULT;
    PROBE_CHECK(shmem_ctx_create(0x100, &c) != 0 && c == SHMEM_CTX_INVALID);
  });
  add("ctx_destroy.default", outcome::ok, "SHMEM_CTX_DEFAULT cannot be destroyed", [] { shmem_ctx_destroy(SHMEM_CTX_DEFAULT); });
  add("ctx_long_p.invalid", outcome::fatal, "PE 0: .*the context is SHMEM_CTX_INVALID",
      [] { if (me == 0) shmem_ctx_long_p(SHMEM_CTX_INVALID, lbuf, 1, 1); });
  add("ctx_long_p.pe_outside_team", outcome::fatal, "PE 1 is out of range for the context's team of 1 PEs", [] {
    shmem_team_t t;  // a team of PE 0 alone
    PROBE_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 1, nullptr, 0, &t) == 0);
    if (me != 0) return;
    shmem_ctx_t c;
    PROBE_CHECK(shmem_team_create_ctx(t, 0, &c) == 0);
    shmem_ctx_long_p(c, lbuf, 1, 1);
  });
  // ---- teams ----
  const char *triplet = "team_split_strided: start -?[0-9]+, stride -?[0-9]+, size -?[0-9]+ do not name distinct PEs";
  struct split {
    const char *name;
    int start, stride, size;
  };
  for (split s : {split{"start_minus1", -1, 1, 1}, split{"size_0", 0, 1, 0}, split{"size_npes_plus1", 0, 1, 3},
                  split{"stride_0", 0, 0, 2}, split{"stride_int_max", 0, INT_MAX, 2}, split{"start_int_min", INT_MIN, 1, 1},
                  split{"stride_minus_int_max", 1, -INT_MAX, INT_MAX}}) {
    add(std::string("team_split_strided.") + s.name, outcome::ok, triplet, [s] {
      shmem_team_t t = SHMEM_TEAM_WORLD;
      PROBE_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, s.start, s.stride, s.size, nullptr, 0, &t) != 0);
      PROBE_CHECK(t == SHMEM_TEAM_INVALID);
    });
  }
  add("team_split_strided.new_team_null", outcome::ok, "team_split_strided: new_team is NULL",
      [] { PROBE_CHECK(shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, 2, nullptr, 0, nullptr) != 0); });
  add("team_translate_pe.edges", outcome::ok, "PE 1 survived", [] {
    PROBE_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, -1, SHMEM_TEAM_WORLD) == -1);
    PROBE_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, npes, SHMEM_TEAM_WORLD) == -1);
    PROBE_CHECK(shmem_team_translate_pe(SHMEM_TEAM_WORLD, INT_MIN, SHMEM_TEAM_WORLD) == -1);
    PROBE_CHECK(shmem_team_translate_pe(SHMEM_TEAM_INVALID, 0, SHMEM_TEAM_WORLD) == -1);
    PROBE_CHECK(shmem_team_my_pe(SHMEM_TEAM_INVALID) == -1 && shmem_team_n_pes(SHMEM_TEAM_INVALID) == -1);
  });
  add("team_sync.invalid", outcome::ok, "PE 1 survived", [] { PROBE_CHECK(shmem_team_sync(SHMEM_TEAM_INVALID) != 0); });
  // ---- address queries: never fatal, NULL or 0 for what is not reachable ----
  add("ptr.edges", outcome::ok, "PE 1 survived", [] {
    long x = 0;
    PROBE_CHECK(shmem_ptr(lbuf, -1) == nullptr && shmem_ptr(lbuf, npes) == nullptr);
    PROBE_CHECK(shmem_ptr(lbuf, INT_MIN) == nullptr && shmem_ptr(&x, 1 - me) == nullptr);
    PROBE_CHECK(shmem_ptr(nullptr, 1 - me) == nullptr && shmem_ptr(lbuf, 1 - me) != nullptr);
    PROBE_CHECK(shmem_pe_accessible(-1) == 0 && shmem_pe_accessible(npes) == 0 && shmem_pe_accessible(INT_MAX) == 0);
    PROBE_CHECK(shmem_addr_accessible(nullptr, 0) == 0 && shmem_addr_accessible(&x, 0) == 0);
    PROBE_CHECK(shmem_addr_accessible(lbuf, -1) == 0 && shmem_addr_accessible(lbuf, 1) == 1);
    PROBE_CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, lbuf, -1) == nullptr);
  });
}

}  // namespace probe
