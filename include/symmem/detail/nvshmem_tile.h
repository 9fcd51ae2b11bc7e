/* symmem: NVSHMEM's tile API (namespace nvshmemx, C++17): tensors described by a layout (shape and
 * stride tuples), tile_put / tile_get between a PE's tile and a peer's, and the tile collectives.
 * Included by <nvshmemx.h> (and <device_host/nvshmem_tensor.h>) where C++17 is on and CUDA's C++
 * library (<cuda/std/tuple>) is found: always under nvcc; a host compiler needs <cuda>/include/cccl
 * on its include path (CUDA 13), as with NVSHMEM's header, which includes it unconditionally.
 *
 * - The types (ConstInt, shape, stride, Layout, Tensor, make_shape/make_stride/make_layout,
 *   tile_coll_algo_t, tile_algo_t) are provided, with NVSHMEM's names and enumerator values.
 * - tile_put / tile_get (thread, warp, warpgroup, block) are provided for both of NVSHMEM's
 *   algorithms (PEER_* and REMOTE_*, which name the same values): a 2-D tile, contiguous along one
 *   dimension, goes row by row as non-blocking puts (gets), so a peer on this GPU or another GPU of
 *   the node takes stores (loads) and a peer on another host the network; nvshmem_quiet completes
 *   them. Elements whose coordinate start_coord + index is not below `boundary` in both dimensions
 *   are left alone (an empty tuple type: no bound). Any element type, where NVSHMEM takes half,
 *   bfloat16 and float. `flag` must be 0, as in NVSHMEM.
 * - The tile collectives (tile_<op>_reduce, tile_<op>_rooted_reduce, tile_allgather,
 *   tile_broadcast, tile_collective_wait) stop the build with a message: NVSHMEM's algorithms for
 *   them are NVLink multicast (NVLS) operations, which symmem does not use.
 * Warpgroup forms: the 128 threads of four consecutive warps of a block (threads 128k..128k+127),
 * joined by named barrier 1 + k. */
#ifndef SYMMEM_DETAIL_NVSHMEM_TILE_H
#define SYMMEM_DETAIL_NVSHMEM_TILE_H

#if defined(__cplusplus) && __cplusplus >= 201703L && defined(__has_include)
#if __has_include(<cuda/std/tuple>) /* nvcc finds CUDA's C++ library; a host compiler may need -I<cuda>/include/cccl */

#include <climits>
#include <cstdint>
#include <type_traits>

#include <cuda/std/tuple>
#include <cuda/std/type_traits>

template <int v>
struct ConstInt : cuda::std::integral_constant<int, v> {
  __host__ __device__ constexpr operator int() const { return v; }
};

namespace nvshmemx {

template <class... S>
using shape = cuda::std::tuple<S...>;
template <class... S>
using stride = cuda::std::tuple<S...>;

template <class... T>
__host__ __device__ constexpr shape<T...> make_shape(T const &...t) {
  return shape<T...>(t...);
}
template <class... T>
__host__ __device__ constexpr stride<T...> make_stride(T const &...t) {
  return stride<T...>(t...);
}

template <class Shape, class Stride>
struct Layout {
  Shape shape_;
  Stride stride_;
  __host__ __device__ constexpr Layout(Shape const &sh = {}, Stride const &st = {}) : shape_(sh), stride_(st) {}
  __host__ __device__ constexpr Shape shape() const { return shape_; }
  __host__ __device__ constexpr Stride stride() const { return stride_; }
};
template <class Shape, class Stride>
__host__ __device__ constexpr Layout<Shape, Stride> make_layout(Shape const &sh, Stride const &st) {
  return Layout<Shape, Stride>(sh, st);
}

template <typename T, class L>
struct Tensor {
  using value_type = T;
  using layout_type = L;
  T *_data;
  const L _layout;
  __host__ __device__ constexpr Tensor(T *data, L layout) : _data(data), _layout(layout) {}
  __host__ __device__ Tensor(L layout) : _data(nullptr), _layout(layout) {}
  __host__ __device__ constexpr L layout() const { return _layout; }
  __host__ __device__ T *data() const { return _data; }
  __host__ __device__ constexpr auto shape() const { return _layout.shape(); }
  __host__ __device__ constexpr auto stride() const { return _layout.stride(); }
};

typedef enum {
  NVLS_ONE_SHOT_PUSH_NBI = 0,
  NVLS_ONE_SHOT_PULL_NBI = 1,
  NVLS_TWO_SHOT_PUSH_NBI = 2,
  NVLS_TWO_SHOT_PULL_NBI = 3,
  NVSHMEMI_TILE_COLL_ALGO_SENTINEL = INT_MAX
} tile_coll_algo_t;

typedef enum {
  PEER_PUSH_NBI = 0,
  PEER_PULL_NBI = 0,
  REMOTE_PUSH_NBI = 1,
  REMOTE_PULL_NBI = 1,
  NVSHMEMI_TILE_ALGO_SENTINEL = INT_MAX
} tile_algo_t;

}  // namespace nvshmemx

#if defined(__CUDACC__)
namespace symmem::device::detail {

template <int I, class Tup>
__device__ __forceinline__ long long tile_at(const Tup &t) {
  return static_cast<long long>(cuda::std::get<I>(t));
}

/* The tile copy: put (peer = dst's PE) or get (peer = src's PE). The contiguous dimension (stride
 * 1 in both tensors) is walked as rows of one put/get each; a tile with neither dimension
 * contiguous goes element by element. */
template <bool IsPut, class G, class SrcT, class DstT, class Tup>
__device__ __forceinline__ int tile_copy(SrcT src, DstT dst, Tup start, Tup bound, int pe, uint64_t flag,
                                         const char *call) {
  using T = typename SrcT::value_type;
  static_assert(std::is_same<T, typename DstT::value_type>::value,
                "symmem: tile_put/tile_get: the source and destination tensors must have the same element type");
  static_assert(cuda::std::tuple_size<decltype(src.shape())>::value == 2 &&
                    cuda::std::tuple_size<decltype(dst.shape())>::value == 2,
                "symmem: tile_put/tile_get: tiles are 2-D tensors, as in NVSHMEM");
  if (flag != 0) {
    if (G::idx() == 0) printf("symmem: PE %d: %s: flag must be 0 (NVSHMEM's tile API takes no other yet)\n", my_pe(), call);
    __trap();
  }
  const long long s0 = tile_at<0>(src.stride()), s1 = tile_at<1>(src.stride());
  const long long d0 = tile_at<0>(dst.stride()), d1 = tile_at<1>(dst.stride());
  long long n0 = tile_at<0>(src.shape()), n1 = tile_at<1>(src.shape());
  if constexpr (!std::is_empty<Tup>::value) {
    const long long c0 = tile_at<0>(start), c1 = tile_at<1>(start);
    const long long b0 = tile_at<0>(bound), b1 = tile_at<1>(bound);
    n0 = b0 - c0 < n0 ? b0 - c0 : n0;  // elements of dimension d with start + index < bound
    n1 = b1 - c1 < n1 ? b1 - c1 : n1;
  }
  if (n0 <= 0 || n1 <= 0) return 0;
  T *s = src.data();
  T *d = dst.data();
  const int major = (s0 == 1 && d0 == 1) ? 0 : (s1 == 1 && d1 == 1) ? 1 : -1;
  if (major >= 0) {
    const long long len = major == 0 ? n0 : n1;         // elements per row
    const long long rows = major == 0 ? n1 : n0;
    const long long srow = major == 0 ? s1 : s0, drow = major == 0 ? d1 : d0;
    for (long long r = 0; r < rows; ++r) {
      if (IsPut) {
        put_group<G>(d + r * drow, s + r * srow, static_cast<size_t>(len) * sizeof(T), pe, false, call);
      } else {
        get_group<G>(d + r * drow, s + r * srow, static_cast<size_t>(len) * sizeof(T), pe, call);
      }
    }
    return 0;
  }
  for (long long e = static_cast<long long>(G::idx()); e < n0 * n1; e += static_cast<long long>(G::size())) {
    const long long i = e % n0, j = e / n0;
    if (IsPut) {
      ::symmem::device::iput(d + i * d0 + j * d1, s + i * s0 + j * s1, 1, 1, 1, pe);
    } else {
      ::symmem::device::iget(d + i * d0 + j * d1, s + i * s0 + j * s1, 1, 1, 1, pe);
    }
  }
  G::sync();
  return 0;
}

template <auto>
inline constexpr bool tile_never = false;

}  // namespace symmem::device::detail

namespace nvshmemx {

#define SYMMEM_TILE_RMA(SUF, G)                                                                         \
  template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t, nvshmemx::tile_algo_t algo> \
  __device__ inline int tile_put##SUF(src_tensor_t src, dst_tensor_t dst, tuple_t start_coord, tuple_t boundary, \
                                      int pe, uint64_t flag) {                                          \
    return ::symmem::device::detail::tile_copy<true, ::symmem::device::detail::G>(src, dst, start_coord, boundary, \
                                                                                pe, flag, "tile_put" #SUF); \
  }                                                                                                     \
  template <typename src_tensor_t, typename dst_tensor_t, typename tuple_t, nvshmemx::tile_algo_t algo> \
  __device__ inline int tile_get##SUF(src_tensor_t src, dst_tensor_t dst, tuple_t start_coord, tuple_t boundary, \
                                      int pe, uint64_t flag) {                                          \
    return ::symmem::device::detail::tile_copy<false, ::symmem::device::detail::G>(src, dst, start_coord, boundary, \
                                                                                 pe, flag, "tile_get" #SUF); \
  }
SYMMEM_TILE_RMA(, group_thread)
SYMMEM_TILE_RMA(_warp, group_warp)
SYMMEM_TILE_RMA(_warpgroup, group_warpgroup)
SYMMEM_TILE_RMA(_block, group_block)
#undef SYMMEM_TILE_RMA

#define SYMMEM_TILE_WHY                                                                                 \
  " is not supported: NVSHMEM's tile collectives are NVLink multicast (NVLS) operations, which symmem " \
  "does not use; move the tile with nvshmemx::tile_put/tile_get and reduce it, or use the nvshmemx_<T>_<op>_reduce_block " \
  "/ fcollect_block / broadcast_block collectives on a contiguous buffer"
/* One line per name, so that the compiler's message shows only that name's stub. */
#define SYMMEM_TILE_STUB(NAME, PARAMS)                                                                  \
  template <typename S, typename D, typename U, nvshmemx::tile_coll_algo_t A>                          \
  __device__ inline int NAME PARAMS {                                                                   \
    static_assert(::symmem::device::detail::tile_never<A>, "symmem: nvshmemx::" #NAME SYMMEM_TILE_WHY); \
    return -1;                                                                                          \
  }
#define SYMMEM_TILE_ROOTED (nvshmem_team_t, S, D, U, U, int, uint64_t)
#define SYMMEM_TILE_UNROOTED (nvshmem_team_t, S, D, U, U, uint64_t)
SYMMEM_TILE_STUB(tile_sum_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_sum_reduce, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_sum_rooted_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_max_rooted_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_min_rooted_reduce, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_allgather, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_broadcast, SYMMEM_TILE_UNROOTED)
template <nvshmemx::tile_coll_algo_t A>
__device__ inline int tile_collective_wait(nvshmem_team_t, uint64_t) {
  static_assert(::symmem::device::detail::tile_never<A>, "symmem: nvshmemx::tile_collective_wait" SYMMEM_TILE_WHY);
  return -1;
}
SYMMEM_TILE_STUB(tile_sum_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_sum_reduce_warp, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_sum_rooted_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_warp, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_max_rooted_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_warp, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_min_rooted_reduce_warp, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_allgather_warp, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_broadcast_warp, SYMMEM_TILE_UNROOTED)
template <nvshmemx::tile_coll_algo_t A>
__device__ inline int tile_collective_wait_warp(nvshmem_team_t, uint64_t) {
  static_assert(::symmem::device::detail::tile_never<A>, "symmem: nvshmemx::tile_collective_wait_warp" SYMMEM_TILE_WHY);
  return -1;
}
SYMMEM_TILE_STUB(tile_sum_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_sum_reduce_warpgroup, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_sum_rooted_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_warpgroup, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_max_rooted_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_warpgroup, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_min_rooted_reduce_warpgroup, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_allgather_warpgroup, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_broadcast_warpgroup, SYMMEM_TILE_UNROOTED)
template <nvshmemx::tile_coll_algo_t A>
__device__ inline int tile_collective_wait_warpgroup(nvshmem_team_t, uint64_t) {
  static_assert(::symmem::device::detail::tile_never<A>, "symmem: nvshmemx::tile_collective_wait_warpgroup" SYMMEM_TILE_WHY);
  return -1;
}
SYMMEM_TILE_STUB(tile_sum_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_sum_reduce_block, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_sum_rooted_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_max_reduce_block, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_max_rooted_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_min_reduce_block, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_min_rooted_reduce_block, SYMMEM_TILE_ROOTED)
SYMMEM_TILE_STUB(tile_allgather_block, SYMMEM_TILE_UNROOTED)
SYMMEM_TILE_STUB(tile_broadcast_block, SYMMEM_TILE_UNROOTED)
template <nvshmemx::tile_coll_algo_t A>
__device__ inline int tile_collective_wait_block(nvshmem_team_t, uint64_t) {
  static_assert(::symmem::device::detail::tile_never<A>, "symmem: nvshmemx::tile_collective_wait_block" SYMMEM_TILE_WHY);
  return -1;
}
#undef SYMMEM_TILE_ROOTED
#undef SYMMEM_TILE_UNROOTED
#undef SYMMEM_TILE_STUB
#undef SYMMEM_TILE_WHY

}  // namespace nvshmemx
#endif /* __CUDACC__ */

#endif /* <cuda/std/tuple> */
#endif /* C++17 */
#endif /* SYMMEM_DETAIL_NVSHMEM_TILE_H */
