// Fault suite: collectives and reductions, team and active-set forms. Every PE makes the same
// bad call (a collective's arguments must agree), so every PE reports it. Sizes that wrap or
// leave the heap, and buffers that are not symmetric, end the job: a collective that returned
// an error on some PEs only would leave the others waiting. A bad root, stride or team is
// reported by the return value on every PE alike.
#include <climits>
#include <cstdint>
#include <cstring>

#include "probe.hpp"

namespace probe {
namespace {

std::string any_pe(const std::string &call, const std::string &what) { return "PE [01]: " + call + ": " + what; }
const char *wrap_text = ".* does not fit in size_t: the size wraps around";
const char *past_text = "[0-9]+ bytes at 0x[0-9a-f]+ run past the end of the symmetric heap";
const char *sym_text = "address (0x[0-9a-f]+|\\(nil\\)) is not symmetric";

long *sym_psync() {
  static long *p = nullptr;
  if (p == nullptr) {
    p = static_cast<long *>(shmem_calloc(SHMEM_REDUCE_SYNC_SIZE, sizeof(long)));
  }
  return p;
}

}  // namespace

void add_coll(std::vector<test_case> &out) {
  auto add = [&](std::string name, outcome o, std::string pattern, std::function<void()> fn) {
    test_case c;
    c.name = "coll." + name;
    c.expect = o;
    c.pattern = std::move(pattern);
    c.run = std::move(fn);
    out.push_back(std::move(c));
  };
  // ---- broadcast ----
  add("long_broadcast.value", outcome::ok, "PE 1 survived", [] {
    if (me == 0) for (int i = 0; i < 100; ++i) lbuf[i] = i;
    PROBE_CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, lbuf + 200, lbuf, 100, 0) == 0);
    for (int i = 0; i < 100; ++i) PROBE_CHECK(lbuf[200 + i] == i);
  });
  add("long_broadcast.nelems_wrap", outcome::fatal, any_pe("long_broadcast", wrap_text),
      [] { (void)shmem_long_broadcast(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, SIZE_MAX / 8 + 2, 0); });
  add("broadcastmem.heap_plus_one", outcome::fatal, any_pe("broadcastmem", past_text),
      [] { (void)shmem_broadcastmem(SHMEM_TEAM_WORLD, lbuf, lbuf, heap_bytes + 1, 0); });
  add("broadcastmem.dest_stack", outcome::fatal, any_pe("broadcastmem", sym_text), [] {
    char local[8192];
    (void)shmem_broadcastmem(SHMEM_TEAM_WORLD, local, cbuf, sizeof local, 0);
  });
  add("long_broadcast.root_npes", outcome::ok, "long_broadcast: PE_root 2 is not a PE of the team", [] {
    PROBE_CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, 1, npes) != 0);
  });
  add("long_broadcast.root_minus1", outcome::ok, "long_broadcast: PE_root -1 is not a PE of the team", [] {
    PROBE_CHECK(shmem_long_broadcast(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, 1, -1) != 0);
  });
  add("long_broadcast.team_invalid", outcome::ok, "PE 1 survived",
      [] { PROBE_CHECK(shmem_long_broadcast(SHMEM_TEAM_INVALID, lbuf + 8, lbuf, 1, 0) != 0); });
  // ---- fcollect, collect, alltoall(s) ----
  add("long_fcollect.nelems_0", outcome::ok, "PE 1 survived",
      [] { PROBE_CHECK(shmem_long_fcollect(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, 0) == 0); });
  add("long_fcollect.total_wraps", outcome::fatal, any_pe("long_fcollect", wrap_text),
      [] { (void)shmem_long_fcollect(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, SIZE_MAX / 16 + 1); });
  add("long_fcollect.nelems_wrap", outcome::fatal, any_pe("long_fcollect", wrap_text),
      [] { (void)shmem_long_fcollect(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, SIZE_MAX / 8 + 2); });
  add("fcollectmem.dest_past_end", outcome::fatal, any_pe("fcollectmem", past_text), [] {
    (void)shmem_fcollectmem(SHMEM_TEAM_WORLD, static_cast<char *>(symmem_heap_base()) + heap_bytes - 64, cbuf, 64);
  });
  add("int_collect.nelems_wrap", outcome::fatal, any_pe("int_collect", wrap_text),
      [] {
        int *i = reinterpret_cast<int *>(lbuf);
        (void)shmem_int_collect(SHMEM_TEAM_WORLD, i + 16, i, SIZE_MAX / 4 + 2);
      });
  add("long_alltoall.total_wraps", outcome::fatal, any_pe("long_alltoall", wrap_text),
      [] { (void)shmem_long_alltoall(SHMEM_TEAM_WORLD, lbuf + 64, lbuf, SIZE_MAX / 16 + 1); });
  add("alltoallmem.heap_plus_one", outcome::fatal, any_pe("alltoallmem", past_text),
      [] { (void)shmem_alltoallmem(SHMEM_TEAM_WORLD, lbuf, lbuf, heap_bytes / 2 + 1); });
  add("long_alltoalls.stride_0", outcome::ok, "long_alltoalls: strides must be positive",
      [] { PROBE_CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, lbuf + 64, lbuf, 0, 1, 2) != 0); });
  add("long_alltoalls.span_wraps", outcome::fatal, any_pe("long_alltoalls", wrap_text),
      [] { (void)shmem_long_alltoalls(SHMEM_TEAM_WORLD, lbuf + 64, lbuf, PTRDIFF_MAX, 1, 2); });
  add("long_alltoalls.value", outcome::ok, "PE 1 survived", [] {
    for (int j = 0; j < npes; ++j) for (int k = 0; k < 3; ++k) lbuf[(j * 3 + k) * 2] = me * 100 + j * 10 + k;
    PROBE_CHECK(shmem_long_alltoalls(SHMEM_TEAM_WORLD, lbuf + 4096, lbuf, 3, 2, 3) == 0);
    for (int i = 0; i < npes; ++i)
      for (int k = 0; k < 3; ++k) PROBE_CHECK(lbuf[4096 + (i * 3 + k) * 3] == i * 100 + me * 10 + k);
  });
  // ---- reductions ----
  add("long_sum_reduce.value", outcome::ok, "PE 1 survived", [] {
    for (int i = 0; i < 5000; ++i) lbuf[i] = i + me;
    PROBE_CHECK(shmem_long_sum_reduce(SHMEM_TEAM_WORLD, lbuf + 8192, lbuf, 5000) == 0);
    for (int i = 0; i < 5000; ++i) PROBE_CHECK(lbuf[8192 + i] == 2L * i + 1);
  });
  add("long_sum_reduce.nreduce_wrap", outcome::fatal, any_pe("long_sum_reduce", wrap_text),
      [] { (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, lbuf + 8, lbuf, SIZE_MAX / 8 + 2); });
  add("double_max_reduce.minus1", outcome::fatal, any_pe("double_max_reduce", wrap_text), [] {
    (void)shmem_double_max_reduce(SHMEM_TEAM_WORLD, reinterpret_cast<double *>(lbuf) + 8,
                                  reinterpret_cast<double *>(lbuf), static_cast<size_t>(-1));
  });
  add("uint_and_reduce.heap_plus_one", outcome::fatal, any_pe("uint_and_reduce", past_text), [] {
    auto *u = reinterpret_cast<unsigned *>(lbuf);
    (void)shmem_uint_and_reduce(SHMEM_TEAM_WORLD, u, u,
                               heap_bytes / 4 + 1);
  });
  add("long_sum_reduce.dest_stack", outcome::fatal, any_pe("long_sum_reduce", sym_text), [] {
    long local[16];
    (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, local, lbuf, 16);
  });
  add("long_sum_reduce.src_null", outcome::fatal, any_pe("long_sum_reduce", sym_text),
      [] { (void)shmem_long_sum_reduce(SHMEM_TEAM_WORLD, lbuf, nullptr, 16); });
  // ---- active sets (the deprecated 1.x forms) ----
  add("long_sum_to_all.nreduce_minus1", outcome::fatal, any_pe("long_sum_to_all", "nreduce -1 is negative"), [] {
    static long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    shmem_long_sum_to_all(lbuf + 8, lbuf, -1, 0, 0, npes, wrk, sym_psync());
  });
  add("long_sum_to_all.nreduce_int_max", outcome::fatal, any_pe("long_sum_to_all", past_text), [] {
    static long wrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];
    shmem_long_sum_to_all(lbuf + 8, lbuf, INT_MAX, 0, 0, npes, wrk, sym_psync());
  });
  add("broadcast64.start_minus1", outcome::fatal, any_pe("broadcast64", "the active set \\(PE_start -1"),
      [] { shmem_broadcast64(lbuf + 8, lbuf, 1, 0, -1, 0, npes, sym_psync()); });
  add("broadcast64.size_0", outcome::fatal, any_pe("broadcast64", "the active set \\(PE_start 0, logPE_stride 0, PE_size 0\\)"),
      [] { shmem_broadcast64(lbuf + 8, lbuf, 1, 0, 0, 0, 0, sym_psync()); });
  add("broadcast64.size_too_big", outcome::fatal, any_pe("broadcast64", ".*does not fit in the job's 2 PEs"),
      [] { shmem_broadcast64(lbuf + 8, lbuf, 1, 0, 0, 0, npes + 1, sym_psync()); });
  add("broadcast64.log_stride_31", outcome::fatal, any_pe("broadcast64", ".*does not fit"),
      [] { shmem_broadcast64(lbuf + 8, lbuf, 1, 0, 0, 31, 2, sym_psync()); });
  add("broadcast64.psync_null", outcome::fatal, any_pe("broadcast64", "pSync is NULL"),
      [] { shmem_broadcast64(lbuf + 8, lbuf, 1, 0, 0, 0, npes, nullptr); });
  add("broadcast64.psync_stack", outcome::fatal, any_pe("broadcast64", sym_text), [] {
    long psync[SHMEM_BCAST_SYNC_SIZE] = {};  // on the stack: not symmetric (a global would be)
    shmem_broadcast64(lbuf + 8, lbuf, 1, 0, 0, 0, npes, psync);
  });
  add("fcollect32.nelems_wrap", outcome::fatal, any_pe("fcollect32", wrap_text),
      [] { shmem_fcollect32(lbuf + 8, lbuf, SIZE_MAX / 4 + 2, 0, 0, npes, sym_psync()); });
  add("alltoall64.total_wraps", outcome::fatal, any_pe("alltoall64", wrap_text),
      [] { shmem_alltoall64(lbuf + 8, lbuf, SIZE_MAX / 16 + 1, 0, 0, npes, sym_psync()); });
}

}  // namespace probe
