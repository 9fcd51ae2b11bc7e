// Fault suite: atomics. A target must be symmetric, in range and naturally aligned: an atomic on
// a misaligned address is not atomic (it may straddle two cache lines), so it is refused.
#include <climits>
#include <cstdint>

#include "probe.hpp"

namespace probe {
namespace {

struct amo {
  const char *name;
  size_t size;
  void (*call)(void *target, int pe);
};

const amo amos[] = {
    {"long_atomic_fetch_add", 8, [](void *t, int pe) { (void)shmem_long_atomic_fetch_add(static_cast<long *>(t), 1, pe); }},
    {"int_atomic_inc", 4, [](void *t, int pe) { shmem_int_atomic_inc(static_cast<int *>(t), pe); }},
    {"uint64_atomic_compare_swap", 8,
     [](void *t, int pe) { (void)shmem_uint64_atomic_compare_swap(static_cast<uint64_t *>(t), 0, 1, pe); }},
    {"double_atomic_fetch", 8, [](void *t, int pe) { (void)shmem_double_atomic_fetch(static_cast<double *>(t), pe); }},
    {"float_atomic_set", 4, [](void *t, int pe) { shmem_float_atomic_set(static_cast<float *>(t), 1.0f, pe); }},
    {"ulonglong_atomic_fetch_xor", 8,
     [](void *t, int pe) { (void)shmem_ulonglong_atomic_fetch_xor(static_cast<unsigned long long *>(t), 1, pe); }},
    {"int32_atomic_swap", 4, [](void *t, int pe) { (void)shmem_int32_atomic_swap(static_cast<int32_t *>(t), 5, pe); }},
    {"ctx_long_atomic_add", 8,
     [](void *t, int pe) { shmem_ctx_long_atomic_add(SHMEM_CTX_DEFAULT, static_cast<long *>(t), 1, pe); }},
};

void add_one(std::vector<test_case> &out, const amo &a) {
  const std::string call = reported(a.name);
  const std::string base = std::string("amo.") + a.name + ".";
  auto add = [&](const char *edge, outcome o, std::string pattern, std::function<void()> fn) {
    test_case c;
    c.name = base + edge;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  const std::string aligned = "PE 0: " + call + ": address 0x[0-9a-f]+ is not aligned to " + std::to_string(a.size) +
                              " bytes";
  add("aligned", outcome::ok, "PE 1 survived", [a] { a.call(lbuf + 1, 1); });
  add("self", outcome::ok, "PE 0 survived", [a] { if (me == 0) a.call(lbuf, 0); });
  add("misaligned_1", outcome::fatal, aligned, [a] { if (me == 0) a.call(cbuf + 1, 1); });
  add("misaligned_half", outcome::fatal, aligned, [a] { if (me == 0) a.call(cbuf + a.size / 2, 1); });
  add("pe_minus1", outcome::fatal, pe_range(call), [a] { if (me == 0) a.call(lbuf, -1); });
  add("pe_npes", outcome::fatal, pe_range(call), [a] { if (me == 0) a.call(lbuf, npes); });
  add("pe_int_max", outcome::fatal, pe_range(call), [a] { if (me == 0) a.call(lbuf, INT_MAX); });
  add("null", outcome::fatal, not_symmetric(call), [a] { if (me == 0) a.call(nullptr, 1); });
  add("stack", outcome::fatal, not_symmetric(call), [a] {
    long x[2] = {};
    if (me == 0) a.call(x, 1);
  });
  add("last_word", outcome::ok, "PE 0 survived", [a] {
    if (me == 0) a.call(static_cast<char *>(symmem_heap_base()) + heap_bytes - a.size, 1);
  });
}

}  // namespace

void add_amo(std::vector<test_case> &out) {
  for (const amo &a : amos) add_one(out, a);
  // Many PEs on one word: the total is exact (nothing lost to a misplaced check).
  test_case c;
  c.name = "amo.long_atomic_add.total";
  c.np = 4;
  c.pattern = "PE 0 survived";
  c.run = [] {
    for (int i = 0; i < 10000; ++i) shmem_long_atomic_add(lbuf, 1, 0);
    shmem_barrier_all();
    if (me == 0) PROBE_CHECK(lbuf[0] == 10000L * npes);
  };
  out.push_back(c);
}

}  // namespace probe
