// Host collectives on a GPU heap whose team has members on other hosts.
//
// The GPU collectives read and write the members' buffers with loads and stores, which a PE on
// another host does not offer; these move the data with the runtime's put and get instead (to a
// PE on another host: staged operations, carried out by its host) and synchronise with the team's
// sync (the device barrier, through the proxy ring to other hosts):
//   broadcast, fcollect, alltoall: team sync (every member has entered the call, so its dest may
//     be written), each PE puts its contribution into every member's dest, quiet, team sync. A
//     member's dest is complete when the second sync returns. Without the first, a member still
//     writing its dest before the call (nvshmem_compat_test poisons it with a memset on the
//     stream) could overwrite what a faster member had already put there.
//   reduce, reducescatter: team sync (every source is ready); each PE gets every member's source
//     (reducescatter: the slice it owns) into host memory and folds them in team order 0..n-1, so
//     all members get bit-identical results; team sync (no member still reads a source, which
//     may be the dest); then it writes its dest.
// The GPU folds nothing here: the host does, with the device operators' rules (combine below is
// the host twin of coll.cuh's detail::combine: half and bfloat16 through float, one rounding;
// maxloc/minloc take the smaller index on ties).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <vector_types.h>

#include <cstring>
#include <type_traits>
#include <vector>

#include "core/remote.h"
#include "core/state.h"
#include "cuda/coll_hosts.h"
#include "symmem/cuda.h"
#include "symmem/symmem.h"

namespace symmem::cuda {
namespace {

template <typename T>
constexpr bool is_half_v = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <typename T>
T combine(T a, T b, int op) {
  if constexpr (std::is_same_v<T, double2>) {
    const bool take_b = op == SYMMEM_RED_MAXLOC ? (b.x > a.x || (b.x == a.x && b.y < a.y))
                                                : (b.x < a.x || (b.x == a.x && b.y < a.y));
    return take_b ? b : a;
  } else if constexpr (is_half_v<T>) {
    const float x = static_cast<float>(a), y = static_cast<float>(b);
    const float r = op == SYMMEM_RED_SUM ? x + y : op == SYMMEM_RED_PROD ? x * y
                  : op == SYMMEM_RED_MIN ? (y < x ? y : x) : (y > x ? y : x);
    return T(r);
  } else {
    switch (op) {
      case SYMMEM_RED_SUM: return static_cast<T>(a + b);
      case SYMMEM_RED_PROD: return static_cast<T>(a * b);
      case SYMMEM_RED_MIN: return b < a ? b : a;
      case SYMMEM_RED_MAX: return b > a ? b : a;
      default: break;
    }
    if constexpr (std::is_integral_v<T>) {
      return op == SYMMEM_RED_AND ? static_cast<T>(a & b) : op == SYMMEM_RED_OR ? static_cast<T>(a | b)
                                                                               : static_cast<T>(a ^ b);
    }
    return a;  // not reached: check_collective refused the pair
  }
}

template <typename T>
void fold(void *acc, const void *in, size_t n, int op) {
  T *a = static_cast<T *>(acc);
  const T *b = static_cast<const T *>(in);
  for (size_t i = 0; i < n; ++i) a[i] = combine(a[i], b[i], op);
}

using fold_fn = void (*)(void *, const void *, size_t, int);

fold_fn fold_of(int dtype) {
  switch (dtype) {
    case SYMMEM_DT_CHAR: return fold<char>;
    case SYMMEM_DT_SCHAR: return fold<signed char>;
    case SYMMEM_DT_UCHAR: return fold<unsigned char>;
    case SYMMEM_DT_SHORT: return fold<short>;
    case SYMMEM_DT_USHORT: return fold<unsigned short>;
    case SYMMEM_DT_INT: return fold<int>;
    case SYMMEM_DT_UINT: return fold<unsigned>;
    case SYMMEM_DT_LONG: return fold<long>;
    case SYMMEM_DT_ULONG: return fold<unsigned long>;
    case SYMMEM_DT_LONGLONG: return fold<long long>;
    case SYMMEM_DT_ULONGLONG: return fold<unsigned long long>;
    case SYMMEM_DT_FLOAT: return fold<float>;
    case SYMMEM_DT_DOUBLE: return fold<double>;
    case SYMMEM_DT_HALF: return fold<__half>;
    case SYMMEM_DT_BFLOAT16: return fold<__nv_bfloat16>;
    case SYMMEM_DT_DOUBLE2: return fold<double2>;
    default: return nullptr;
  }
}

int member(const symmem_device_team &t, int i) { return t.host_pes != nullptr ? t.host_pes[i] : t.start + i * t.stride; }

void team_sync(int team) {
  symmem_quiet();  // this PE's puts have landed before the sync says so
  (void)symmem_collective_on_gpu_heap(SYMMEM_COLL_SYNC, team, nullptr, nullptr, 0, 0, 0, 0);
}

}  // namespace

bool spans_hosts(const symmem_device_team &t) {
  for (int i = 0; i < t.size; ++i)
    if (core::is_remote(member(t, i))) return true;
  return false;
}

void collective_across_hosts(const coll_args &a, const symmem_device_team &t, size_t esize) {
  const size_t bytes = a.nelems * esize;  // one block; check_collective checked the products
  char *dst = static_cast<char *>(a.dest);
  const char *src = static_cast<const char *>(a.source);
  const size_t me = static_cast<size_t>(t.my_index);
  team_sync(a.team);  // every member has entered: its dest may be written, its source is ready
  switch (a.kind) {
    case SYMMEM_COLL_BROADCAST:
      if (t.my_index == a.root)
        for (int i = 0; i < t.size; ++i) symmem_putmem_nbi(a.dest, a.source, bytes, member(t, (t.my_index + i) % t.size));
      team_sync(a.team);
      return;
    case SYMMEM_COLL_FCOLLECT:
      for (int i = 0; i < t.size; ++i) {
        const int j = (t.my_index + i) % t.size;
        symmem_putmem_nbi(dst + me * bytes, src, bytes, member(t, j));
      }
      team_sync(a.team);
      return;
    case SYMMEM_COLL_ALLTOALL:
      for (int i = 0; i < t.size; ++i) {
        const int j = (t.my_index + i) % t.size;
        symmem_putmem_nbi(dst + me * bytes, src + static_cast<size_t>(j) * bytes, bytes, member(t, j));
      }
      team_sync(a.team);
      return;
    default: break;
  }
  // Reductions: each PE folds its result in host memory.
  const fold_fn f = fold_of(a.dtype);
  const bool scatter = a.kind == SYMMEM_COLL_REDUCESCATTER;
  const size_t from = scatter ? me * bytes : 0;  // where this PE's part lies in each source
  std::vector<unsigned char> acc(bytes), in(bytes);
  if (bytes != 0) {
    symmem_getmem(acc.data(), src + from, bytes, member(t, 0));
    for (int i = 1; i < t.size; ++i) {
      symmem_getmem(in.data(), src + from, bytes, member(t, i));
      f(acc.data(), in.data(), a.nelems, a.op);
    }
  }
  team_sync(a.team);  // no member reads a source any more: the dest may be one
  if (bytes != 0) core::g.heap->copy(a.dest, acc.data(), bytes);
}

}  // namespace symmem::cuda
