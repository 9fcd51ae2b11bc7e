// symmem: the C entry points of the collectives, generated from the type lists. Team forms return
// 0 or a negative code (the message is in symmem_last_error); the deprecated active-set forms
// cannot report, so a failure there ends the job with the message.
#include "coll/coll.h"
#include "core/remote.h"
#include "symmem/symmem.h"

namespace symmem::coll {
namespace {

template <typename F>
int on_team(symmem_team_t h, const char *call, F &&body) {
  group gr;
  if (!team_group(h, gr, call)) {
    return last_error_code() != SYMMEM_SUCCESS ? last_error_code() : SYMMEM_ERR_INVALID_ARGUMENT;
  }
  return body(gr).code();
}

// A typed team collective: nelems * esize counted without wrapping, then the body with the bytes.
template <typename F>
int on_team_n(symmem_team_t h, const char *call, size_t nelems, size_t esize, F &&body) {
  return on_team(h, call, [&](group &gr) { return body(gr, bytes_of(nelems, esize, call)); });
}

template <typename F>
void on_aset(int start, int log_stride, int size, long *psync, const char *call, F &&body) {
  group gr;
  if (!aset_group(start, log_stride, size, psync, gr, call)) {
    return;  // this PE is not in the active set: it neither waits nor writes (as in OSHMEM)
  }
  if (!body(gr).ok()) {
    fatal(call, "%s", last_error().c_str());
  }
}

// The operations, element-wise.
struct op_and { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a & b); } };
struct op_or { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a | b); } };
struct op_xor { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a ^ b); } };
struct op_max { template <typename T> T operator()(T a, T b) const { return a < b ? b : a; } };
struct op_min { template <typename T> T operator()(T a, T b) const { return b < a ? b : a; } };
struct op_sum { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a + b); } };
struct op_prod { template <typename T> T operator()(T a, T b) const { return static_cast<T>(a * b); } };

// The hot loop of every reduction: O3 here so that it is vectorised even in -O2 builds (GCC's -O2
// cost model skips loops that need a remainder loop).
template <typename T, typename Op>
__attribute__((optimize("O3"))) void combine(void *acc, const void *in, size_t n) {
  T *__restrict a = static_cast<T *>(acc);
  const T *__restrict b = static_cast<const T *>(in);
  for (size_t i = 0; i < n; ++i) {
    a[i] = Op{}(a[i], b[i]);
  }
}

template <typename T, typename Op>
const reducer &reducer_of() {
  static const reducer r{sizeof(T), &combine<T, Op>};
  return r;
}

// The operation in the argument check: its first two letters (teams/team_sync.cpp names them).
constexpr uint32_t op_code(const char *op) {
  return static_cast<uint32_t>(op[0]) << 8 | static_cast<uint32_t>(op[1]);
}

}  // namespace
}  // namespace symmem::coll

using namespace symmem;
using namespace symmem::coll;

extern "C" {

int symmem_broadcastmem(symmem_team_t team, void *dest, const void *source, size_t nbytes, int root) {
  return on_team(team, "broadcastmem", [&](group &gr) { return broadcast(gr, dest, source, nbytes, root, true, "broadcastmem"); });
}
int symmem_collectmem(symmem_team_t team, void *dest, const void *source, size_t nbytes) {
  return on_team(team, "collectmem", [&](group &gr) { return collect(gr, dest, source, nbytes, "collectmem"); });
}
int symmem_fcollectmem(symmem_team_t team, void *dest, const void *source, size_t nbytes) {
  return on_team(team, "fcollectmem", [&](group &gr) { return fcollect(gr, dest, source, nbytes, "fcollectmem"); });
}
int symmem_alltoallmem(symmem_team_t team, void *dest, const void *source, size_t nbytes) {
  return on_team(team, "alltoallmem", [&](group &gr) { return alltoall(gr, dest, source, nbytes, "alltoallmem"); });
}
int symmem_alltoallsmem(symmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                        size_t nbytes) {
  return on_team(team, "alltoallsmem",
                 [&](group &gr) { return alltoalls(gr, dest, source, dst, sst, nbytes, 1, "alltoallsmem"); });
}

#define SYMMEM_DEF_COLL(T, N)                                                                            \
  int symmem_##N##_broadcast(symmem_team_t team, T *dest, const T *source, size_t nelems, int root) {    \
    return on_team_n(team, #N "_broadcast", nelems, sizeof(T), [&](group &gr, size_t nbytes) {       \
      return broadcast(gr, dest, source, nbytes, root, true, #N "_broadcast");                       \
    });                                                                                                  \
  }                                                                                                      \
  int symmem_##N##_collect(symmem_team_t team, T *dest, const T *source, size_t nelems) {                \
    return on_team_n(team, #N "_collect", nelems, sizeof(T), [&](group &gr, size_t nbytes) {         \
      return collect(gr, dest, source, nbytes, #N "_collect");                                       \
    });                                                                                              \
  }                                                                                                      \
  int symmem_##N##_fcollect(symmem_team_t team, T *dest, const T *source, size_t nelems) {               \
    return on_team_n(team, #N "_fcollect", nelems, sizeof(T), [&](group &gr, size_t nbytes) {        \
      return fcollect(gr, dest, source, nbytes, #N "_fcollect");                                     \
    });                                                                                              \
  }                                                                                                      \
  int symmem_##N##_alltoall(symmem_team_t team, T *dest, const T *source, size_t nelems) {               \
    return on_team_n(team, #N "_alltoall", nelems, sizeof(T), [&](group &gr, size_t nbytes) {        \
      return alltoall(gr, dest, source, nbytes, #N "_alltoall");                                     \
    });                                                                                              \
  }                                                                                                      \
  int symmem_##N##_alltoalls(symmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,  \
                             size_t nelems) {                                                            \
    return on_team(team, #N "_alltoalls", [&](group &gr) {                                               \
      return alltoalls(gr, dest, source, dst, sst, nelems, sizeof(T), #N "_alltoalls");                  \
    });                                                                                                  \
  }
SYMMEM_RMA_TYPES(SYMMEM_DEF_COLL)
#undef SYMMEM_DEF_COLL

#define SYMMEM_DEF_REDUCE(T, N, OP)                                                                      \
  int symmem_##N##_##OP##_reduce(symmem_team_t team, T *dest, const T *source, size_t nreduce) {         \
    return on_team(team, #N "_" #OP "_reduce", [&](group &gr) {                                          \
      return reduce(gr, dest, source, nreduce, reducer_of<T, op_##OP>(), op_code(#OP), #N "_" #OP "_reduce"); \
    });                                                                                                  \
  }
#define SYMMEM_DEF_REDUCE_BIT(T, N) SYMMEM_DEF_REDUCE(T, N, and) SYMMEM_DEF_REDUCE(T, N, or) SYMMEM_DEF_REDUCE(T, N, xor)
#define SYMMEM_DEF_REDUCE_MM(T, N) SYMMEM_DEF_REDUCE(T, N, max) SYMMEM_DEF_REDUCE(T, N, min)
#define SYMMEM_DEF_REDUCE_AR(T, N) SYMMEM_DEF_REDUCE(T, N, sum) SYMMEM_DEF_REDUCE(T, N, prod)
SYMMEM_REDUCE_BITWISE_TYPES(SYMMEM_DEF_REDUCE_BIT)
SYMMEM_REDUCE_MINMAX_TYPES(SYMMEM_DEF_REDUCE_MM)
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_DEF_REDUCE_AR)

#define SYMMEM_DEF_SCAN1(T, N, KIND, INCL)                                                               \
  int symmem_##N##_sum_##KIND(symmem_team_t team, T *dest, const T *source, size_t nelems) {             \
    return on_team(team, #N "_sum_" #KIND, [&](group &gr) {                                              \
      return scan(gr, dest, source, nelems, reducer_of<T, op_sum>(), INCL, #N "_sum_" #KIND);            \
    });                                                                                                  \
  }
#define SYMMEM_DEF_SCAN(T, N) SYMMEM_DEF_SCAN1(T, N, inscan, true) SYMMEM_DEF_SCAN1(T, N, exscan, false)
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_DEF_SCAN)
#undef SYMMEM_DEF_SCAN
#undef SYMMEM_DEF_SCAN1

// ---- active sets ------------------------------------------------------------------------------
void symmem_barrier(int start, int log_stride, int size, long *pSync) {
  // barrier = quiet + sync: puts to PEs on other hosts must have landed before the sync (a put
  // still on the wire was seen after the barrier by a PE the barrier did not signal directly).
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (SYMMEM_UNLIKELY(core::g.remote)) core::remote_quiet("barrier");
  symmem_sync(start, log_stride, size, pSync);
}

void symmem_sync(int start, int log_stride, int size, long *pSync) {
  const core::call_record rec{teams::call_team_sync, 1, 0, 0};
  on_aset(start, log_stride, size, pSync, "sync", [&](group &gr) { return gr.sync(rec, "sync"); });
}

#define SYMMEM_DEF_ASET(B)                                                                               \
  void symmem_broadcast##B(void *dest, const void *source, size_t nelems, int root, int start, int log_stride, \
                           int size, long *pSync) {                                                      \
    on_aset(start, log_stride, size, pSync, "broadcast" #B, [&](group &gr) {                            \
      return broadcast(gr, dest, source, bytes_of(nelems, B / 8, "broadcast" #B), root, false, "broadcast" #B); \
    });                                                                                                  \
  }                                                                                                      \
  void symmem_collect##B(void *dest, const void *source, size_t nelems, int start, int log_stride, int size, \
                         long *pSync) {                                                                  \
    on_aset(start, log_stride, size, pSync, "collect" #B, [&](group &gr) {                           \
      return collect(gr, dest, source, bytes_of(nelems, B / 8, "collect" #B), "collect" #B);         \
    });                                                                                              \
  }                                                                                                      \
  void symmem_fcollect##B(void *dest, const void *source, size_t nelems, int start, int log_stride, int size, \
                          long *pSync) {                                                                 \
    on_aset(start, log_stride, size, pSync, "fcollect" #B, [&](group &gr) {                          \
      return fcollect(gr, dest, source, bytes_of(nelems, B / 8, "fcollect" #B), "fcollect" #B);      \
    });                                                                                              \
  }                                                                                                      \
  void symmem_alltoall##B(void *dest, const void *source, size_t nelems, int start, int log_stride, int size, \
                          long *pSync) {                                                                 \
    on_aset(start, log_stride, size, pSync, "alltoall" #B, [&](group &gr) {                          \
      return alltoall(gr, dest, source, bytes_of(nelems, B / 8, "alltoall" #B), "alltoall" #B);      \
    });                                                                                              \
  }                                                                                                      \
  void symmem_alltoalls##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                           int start, int log_stride, int size, long *pSync) {                           \
    on_aset(start, log_stride, size, pSync, "alltoalls" #B, [&](group &gr) {                            \
      return alltoalls(gr, dest, source, dst, sst, nelems, B / 8, "alltoalls" #B);                       \
    });                                                                                                  \
  }
SYMMEM_DEF_ASET(32)
SYMMEM_DEF_ASET(64)
#undef SYMMEM_DEF_ASET

#define SYMMEM_DEF_TOALL(T, N, OP)                                                                       \
  void symmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int start, int log_stride, int size, \
                                  T *pWrk, long *pSync) {                                                \
    (void)pWrk; /* peers' sources are read directly: no work array needed */                            \
    on_aset(start, log_stride, size, pSync, #N "_" #OP "_to_all", [&](group &gr) {                      \
      if (nreduce < 0) fatal(#N "_" #OP "_to_all", "nreduce %d is negative", nreduce);               \
      return reduce(gr, dest, source, static_cast<size_t>(nreduce), reducer_of<T, op_##OP>(),        \
                    op_code(#OP), #N "_" #OP "_to_all");                                                 \
    });                                                                                                  \
  }
#define SYMMEM_DEF_TOALL_BIT(T, N) SYMMEM_DEF_TOALL(T, N, and) SYMMEM_DEF_TOALL(T, N, or) SYMMEM_DEF_TOALL(T, N, xor)
#define SYMMEM_DEF_TOALL_MM(T, N) SYMMEM_DEF_TOALL(T, N, max) SYMMEM_DEF_TOALL(T, N, min)
#define SYMMEM_DEF_TOALL_AR(T, N) SYMMEM_DEF_TOALL(T, N, sum) SYMMEM_DEF_TOALL(T, N, prod)
SYMMEM_TOALL_BITWISE_TYPES(SYMMEM_DEF_TOALL_BIT)
SYMMEM_TOALL_MINMAX_TYPES(SYMMEM_DEF_TOALL_MM)
SYMMEM_TOALL_ARITH_TYPES(SYMMEM_DEF_TOALL_AR)

}  // extern "C"
