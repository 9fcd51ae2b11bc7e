/* symmem: the device collectives out of line, on request (included by coll.cuh).
 *
 * Inline, a collective brings every path it may take (LL, barriers, pulls, pushes through the
 * proxy ring) into the calling kernel, and ptxas, with no limit, gave a kernel calling one 93 to
 * 146 registers: past 128 a block of 512 threads cannot launch, past 64 one of 1024 ("too many
 * resources requested for launch"). NVSHMEM 3.4.5's are no better (75 to 198 registers on the same
 * probe kernels; a block fcollect or reduction does not launch with 512 threads). A program built
 * with -rdc and -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES calls these out-of-line copies instead, one per
 * group and kind of move (as bytes) and one per group, operator and machine type of reduction.
 * They are defined twice, as the cold paths are (cold.h): here, inline (weak), and in
 * libsymmem_device_coll.a (also in the drop-in's lib/), compiled with at most
 * SYMMEM_DEVICE_COLL_REGS registers (CMake; 64 by default); a program whose device link names that
 * library takes those, and its kernels launch with blocks of 1024 threads. The price is speed:
 * with 64 registers the copies spill, and on one H100 NVIDIA's collective perftests took up to 3.2x
 * as long (medians 1.3-1.4x per program) as with the inline ones, so inline stays the default
 * (docs/gpu.md).
 */
#ifndef SYMMEM_DETAIL_COLL_OUTLINE_CUH
#define SYMMEM_DETAIL_COLL_OUTLINE_CUH

#if defined(SYMMEM_OUTLINE_LIBRARY) || (defined(__CUDACC_RDC__) && defined(SYMMEM_DEVICE_OUTLINE_COLLECTIVES))
#define SYMMEM_DEVICE_OUTLINE 1
#else
#define SYMMEM_DEVICE_OUTLINE 0
#endif

#if defined(SYMMEM_OUTLINE_LIBRARY)
#define SYMMEM_OUTLINE __device__ __noinline__
#else
#define SYMMEM_OUTLINE __device__ __noinline__ inline
#endif

#if SYMMEM_DEVICE_OUTLINE
namespace symmem {
namespace device {
namespace detail {

template <typename G>
struct outline_group
    : std::integral_constant<bool, std::is_same<G, group_thread>::value || std::is_same<G, group_warp>::value ||
                                       std::is_same<G, group_block>::value> {};

/* ---- broadcast, fcollect, alltoall: bytes ----------------------------------------------------- */
template <typename G>
struct outline_move;
#define SYMMEM_OUTLINE_MOVES(GN, G)                                                                          \
  SYMMEM_OUTLINE int outline_broadcast_##GN(int team, char *d, const char *s, size_t bytes, int root) {    \
    return broadcast_body<char, G>(team, d, s, bytes, root);                                              \
  }                                                                                                        \
  SYMMEM_OUTLINE int outline_fcollect_##GN(int team, char *d, const char *s, size_t bytes) {               \
    return fcollect_body<char, G>(team, d, s, bytes);                                                     \
  }                                                                                                        \
  SYMMEM_OUTLINE int outline_alltoall_##GN(int team, char *d, const char *s, size_t bytes) {               \
    return alltoall_body<char, G>(team, d, s, bytes);                                                     \
  }                                                                                                        \
  template <>                                                                                              \
  struct outline_move<G> {                                                                                 \
    static __device__ __forceinline__ int broadcast(int team, char *d, const char *s, size_t b, int root) { \
      return outline_broadcast_##GN(team, d, s, b, root);                                                  \
    }                                                                                                      \
    static __device__ __forceinline__ int fcollect(int team, char *d, const char *s, size_t b) {           \
      return outline_fcollect_##GN(team, d, s, b);                                                         \
    }                                                                                                      \
    static __device__ __forceinline__ int alltoall(int team, char *d, const char *s, size_t b) {           \
      return outline_alltoall_##GN(team, d, s, b);                                                         \
    }                                                                                                      \
  };
SYMMEM_OUTLINE_MOVES(thread, group_thread)
SYMMEM_OUTLINE_MOVES(warp, group_warp)
SYMMEM_OUTLINE_MOVES(block, group_block)
#undef SYMMEM_OUTLINE_MOVES

/* ---- reductions: by operator and machine type ------------------------------------------------- *
 * An integer type reduces as the fixed-width type of its size, signed or not as it is for min and
 * max, unsigned for the others, whose bits do not depend on the sign (char, long long, size_t, ...
 * share the copies of int8_t, int64_t, uint64_t); float, double, half, bfloat16 and double2
 * (maxloc, minloc) as themselves. Any other (operator, type) stays inline. */
template <size_t N, bool S>
struct outline_int {
  using type = void;
};
template <> struct outline_int<1, true> { using type = int8_t; };
template <> struct outline_int<2, true> { using type = int16_t; };
template <> struct outline_int<4, true> { using type = int32_t; };
template <> struct outline_int<8, true> { using type = int64_t; };
template <> struct outline_int<1, false> { using type = uint8_t; };
template <> struct outline_int<2, false> { using type = uint16_t; };
template <> struct outline_int<4, false> { using type = uint32_t; };
template <> struct outline_int<8, false> { using type = uint64_t; };

template <int OP, typename T, bool I = std::is_integral<T>::value && !std::is_same<T, bool>::value>
struct outline_red_type {
  using type = typename std::conditional<std::is_same<T, float>::value || std::is_same<T, double>::value ||
                                             std::is_same<T, __half>::value || std::is_same<T, __nv_bfloat16>::value ||
                                             std::is_same<T, double2>::value,
                                         T, void>::type;
};
template <int OP, typename T>
struct outline_red_type<OP, T, true> {
  using type = typename outline_int<sizeof(T), std::is_signed<T>::value && (OP == SYMMEM_RED_MIN || OP == SYMMEM_RED_MAX)>::type;
};

template <int OP, typename T, typename G>
struct outline_red {
  static constexpr bool value = false;
};
#define SYMMEM_OUTLINE_RED_G(OPN, OPC, T, TN, GN, G)                                                           \
  SYMMEM_OUTLINE int outline_red_##OPN##_##TN##_##GN(int team, void *d, const void *s, size_t first, size_t n,   \
                                                      size_t src_elems) {                                     \
    return reduce_group<OPC, T, G>(team, (T *)d, (const T *)s, first, n, src_elems);                          \
  }                                                                                                           \
  template <>                                                                                                 \
  struct outline_red<OPC, T, G> {                                                                             \
    static constexpr bool value = true;                                                                       \
    static __device__ __forceinline__ int call(int team, void *d, const void *s, size_t first, size_t n,      \
                                               size_t src_elems) {                                           \
      return outline_red_##OPN##_##TN##_##GN(team, d, s, first, n, src_elems);                               \
    }                                                                                                         \
  };
#define SYMMEM_OUTLINE_RED(OPN, OPC, T, TN)               \
  SYMMEM_OUTLINE_RED_G(OPN, OPC, T, TN, thread, group_thread) \
  SYMMEM_OUTLINE_RED_G(OPN, OPC, T, TN, warp, group_warp)     \
  SYMMEM_OUTLINE_RED_G(OPN, OPC, T, TN, block, group_block)
#define SYMMEM_OUTLINE_RED_ARITH(T, TN)            \
  SYMMEM_OUTLINE_RED(sum, SYMMEM_RED_SUM, T, TN)   \
  SYMMEM_OUTLINE_RED(prod, SYMMEM_RED_PROD, T, TN) \
  SYMMEM_OUTLINE_RED(min, SYMMEM_RED_MIN, T, TN)   \
  SYMMEM_OUTLINE_RED(max, SYMMEM_RED_MAX, T, TN)
#define SYMMEM_OUTLINE_RED_SIGNED(T, TN)         \
  SYMMEM_OUTLINE_RED(min, SYMMEM_RED_MIN, T, TN) \
  SYMMEM_OUTLINE_RED(max, SYMMEM_RED_MAX, T, TN)
#define SYMMEM_OUTLINE_RED_UNSIGNED(T, TN)       \
  SYMMEM_OUTLINE_RED_ARITH(T, TN)                \
  SYMMEM_OUTLINE_RED(and, SYMMEM_RED_AND, T, TN) \
  SYMMEM_OUTLINE_RED(or, SYMMEM_RED_OR, T, TN)   \
  SYMMEM_OUTLINE_RED(xor, SYMMEM_RED_XOR, T, TN)
SYMMEM_OUTLINE_RED_SIGNED(int8_t, int8)
SYMMEM_OUTLINE_RED_SIGNED(int16_t, int16)
SYMMEM_OUTLINE_RED_SIGNED(int32_t, int32)
SYMMEM_OUTLINE_RED_SIGNED(int64_t, int64)
SYMMEM_OUTLINE_RED_UNSIGNED(uint8_t, uint8)
SYMMEM_OUTLINE_RED_UNSIGNED(uint16_t, uint16)
SYMMEM_OUTLINE_RED_UNSIGNED(uint32_t, uint32)
SYMMEM_OUTLINE_RED_UNSIGNED(uint64_t, uint64)
SYMMEM_OUTLINE_RED_ARITH(float, float)
SYMMEM_OUTLINE_RED_ARITH(double, double)
SYMMEM_OUTLINE_RED_ARITH(__half, half)
SYMMEM_OUTLINE_RED_ARITH(__nv_bfloat16, bfloat16)
SYMMEM_OUTLINE_RED(maxloc, SYMMEM_RED_MAXLOC, double2, double2)
SYMMEM_OUTLINE_RED(minloc, SYMMEM_RED_MINLOC, double2, double2)
#undef SYMMEM_OUTLINE_RED_SIGNED
#undef SYMMEM_OUTLINE_RED_UNSIGNED
#undef SYMMEM_OUTLINE_RED_ARITH
#undef SYMMEM_OUTLINE_RED
#undef SYMMEM_OUTLINE_RED_G

}  // namespace detail
}  // namespace device
}  // namespace symmem
#endif /* SYMMEM_DEVICE_OUTLINE */

#endif /* SYMMEM_DETAIL_COLL_OUTLINE_CUH */
