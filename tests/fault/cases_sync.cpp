// Fault suite: point-to-point waits and tests, signal waits, locks. A variable that is waited on
// must be symmetric (another PE can only write it there): a wait on anything else fails at once
// instead of waiting out SYMMEM_WAIT_TIMEOUT. Every wait ends by that limit, naming what it
// awaited.
#include <unistd.h>

#include <cstdint>

#include "probe.hpp"

namespace probe {
namespace {

std::string pe0(const std::string &call, const std::string &what) { return "PE 0: " + call + ": " + what; }
const char *sym_text = "address (0x[0-9a-f]+|\\(nil\\)) is not symmetric";
const char *wrap_text = ".* does not fit in size_t: the size wraps around";

}  // namespace

void add_sync(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn, double max_s = 20,
                 std::string env = "") {
    test_case c;
    c.name = "sync." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    c.max_s = max_s;
    c.env = std::move(env);
    out.push_back(std::move(c));
  };
  // A non-symmetric variable: before the check this waited out the whole SYMMEM_WAIT_TIMEOUT.
  add("long_wait_until.stack", outcome::fatal, pe0("long_wait_until", sym_text), [] {
    long x = 0;
    if (me == 0) shmem_long_wait_until(&x, SHMEM_CMP_EQ, 1);
  }, 4, "SYMMEM_WAIT_TIMEOUT=8");
  add("long_wait_until.null", outcome::fatal, pe0("long_wait_until", sym_text),
      [] { if (me == 0) shmem_long_wait_until(nullptr, SHMEM_CMP_EQ, 1); });
  add("long_wait_until.value", outcome::ok, "PE 1 survived", [] {
    if (me == 0) shmem_long_atomic_set(lbuf, 5, 1);
    if (me == 1) shmem_long_wait_until(lbuf, SHMEM_CMP_GE, 5);
  });
  add("long_wait_until.timeout", outcome::fatal,
      pe0("long_wait_until", "waited 1 s for the variable at 0x[0-9a-f]+ to become == 1 \\(it holds 0\\)"),
      [] {
        if (me == 0) shmem_long_wait_until(lbuf, SHMEM_CMP_EQ, 1);
        ::sleep(10);  // PE 1 is busy elsewhere: only PE 0's wait can pass the limit
      }, 6, "SYMMEM_WAIT_TIMEOUT=1");
  add("long_wait_until.bad_cmp", outcome::fatal, pe0("long_wait_until", "comparison 42 is not one of"),
      [] { if (me == 0) shmem_long_wait_until(lbuf, 42, 0); });
  add("int_test.stack", outcome::fatal, pe0("int_test", sym_text), [] {
    int x = 0;
    if (me == 0) (void)shmem_int_test(&x, SHMEM_CMP_EQ, 0);
  });
  add("int_wait_until_all.n_0", outcome::ok, "PE 1 survived",
      [] { shmem_int_wait_until_all(nullptr, 0, nullptr, SHMEM_CMP_EQ, 1); });
  add("int_wait_until_all.n_wrap", outcome::fatal, pe0("int_wait_until_all", wrap_text),
      [] { if (me == 0) shmem_int_wait_until_all(reinterpret_cast<int *>(lbuf), SIZE_MAX / 4 + 2, nullptr, SHMEM_CMP_EQ, 0); });
  add("int_wait_until_all.past_end", outcome::fatal, pe0("int_wait_until_all", ".*run past the end"),
      [] { if (me == 0) shmem_int_wait_until_all(reinterpret_cast<int *>(lbuf), heap_bytes, nullptr, SHMEM_CMP_EQ, 0); });
  add("int_wait_until_all.null", outcome::fatal, pe0("int_wait_until_all", sym_text),
      [] { if (me == 0) shmem_int_wait_until_all(nullptr, 4, nullptr, SHMEM_CMP_EQ, 0); });
  add("long_wait_until_any.all_excluded", outcome::ok, "PE 1 survived", [] {
    int status[4] = {1, 1, 1, 1};
    PROBE_CHECK(shmem_long_wait_until_any(lbuf, 4, status, SHMEM_CMP_EQ, 9) == SIZE_MAX);
  });
  add("long_wait_until_some.indices_null", outcome::fatal, pe0("long_wait_until_some", "indices is NULL"),
      [] { if (me == 0) (void)shmem_long_wait_until_some(lbuf, 4, nullptr, nullptr, SHMEM_CMP_EQ, 0); });
  add("long_wait_until_all_vector.values_null", outcome::fatal,
      pe0("long_wait_until_all_vector", "cmp_values is NULL"),
      [] { if (me == 0) shmem_long_wait_until_all_vector(lbuf, 4, nullptr, SHMEM_CMP_EQ, nullptr); });
  add("long_test_any.n_0", outcome::ok, "PE 1 survived",
      [] { PROBE_CHECK(shmem_long_test_any(lbuf, 0, nullptr, SHMEM_CMP_EQ, 0) == SIZE_MAX); });
  add("signal_wait_until.stack", outcome::fatal, pe0("signal_wait_until", sym_text), [] {
    uint64_t s = 0;
    if (me == 0) (void)shmem_signal_wait_until(&s, SHMEM_CMP_EQ, 1);
  });
  add("signal_fetch.null", outcome::fatal, pe0("signal_fetch", sym_text),
      [] { if (me == 0) (void)shmem_signal_fetch(nullptr); });
  add("signal_fetch.misaligned", outcome::fatal, pe0("signal_fetch", "address 0x[0-9a-f]+ is not aligned to 8 bytes"),
      [] { if (me == 0) (void)shmem_signal_fetch(reinterpret_cast<uint64_t *>(cbuf + 4)); });
  add("set_lock.stack", outcome::fatal, pe0("set_lock", sym_text), [] {
    long l = 0;
    if (me == 0) shmem_set_lock(&l);
  });
  add("set_lock.misaligned", outcome::fatal, pe0("set_lock", "address 0x[0-9a-f]+ is not aligned to 8 bytes"),
      [] { if (me == 0) shmem_set_lock(reinterpret_cast<long *>(cbuf + 4)); });
  add("clear_lock.not_held", outcome::fatal, pe0("clear_lock", "the lock at 0x[0-9a-f]+ is not held"),
      [] { if (me == 0) shmem_clear_lock(lbuf); });
  add("set_lock.contended", outcome::ok, "PE 1 survived", [] {
    for (int i = 0; i < 200; ++i) {
      shmem_set_lock(lbuf);
      long v = shmem_long_g(lbuf + 1, 0);
      shmem_long_p(lbuf + 1, v + 1, 0);
      shmem_quiet();
      shmem_clear_lock(lbuf);
    }
    shmem_barrier_all();
    if (me == 0) PROBE_CHECK(lbuf[1] == 200L * npes);
  });
}

}  // namespace probe
