/* symmem: NVSHMEM's collective names (included by <nvshmem.h> in C++).
 *
 *   nvshmem_<T>_<op>_reduce, _reducescatter, _broadcast, _fcollect, _alltoall, and the *mem forms:
 *       host (on a GPU heap: waits for this PE's GPU work, runs the collective, returns) and
 *       device, one thread per PE;
 *   nvshmemx_<...>_warp / _block: device, every thread of the warp / block;
 *   nvshmemx_<...>_on_stream: host, in stream order.
 * Device forms are symmem::device's templates (detail/coll.cuh); host forms call
 * symmem_collective_on_gpu_heap / _on_stream with the element type's code.
 */
#ifndef SYMMEM_DETAIL_NVSHMEM_COLL_H
#define SYMMEM_DETAIL_NVSHMEM_COLL_H

#include <vector_types.h>

/* Element type codes of the stream collectives. */
template <typename T> struct symmem_nv_dtype;
#define SYMMEM_NV_DT(T, CODE) \
  template <> struct symmem_nv_dtype<T> { static constexpr int value = CODE; };
SYMMEM_NV_DT(char, SYMMEM_DT_CHAR) SYMMEM_NV_DT(signed char, SYMMEM_DT_SCHAR) SYMMEM_NV_DT(unsigned char, SYMMEM_DT_UCHAR)
SYMMEM_NV_DT(short, SYMMEM_DT_SHORT) SYMMEM_NV_DT(unsigned short, SYMMEM_DT_USHORT) SYMMEM_NV_DT(int, SYMMEM_DT_INT)
SYMMEM_NV_DT(unsigned int, SYMMEM_DT_UINT) SYMMEM_NV_DT(long, SYMMEM_DT_LONG) SYMMEM_NV_DT(unsigned long, SYMMEM_DT_ULONG)
SYMMEM_NV_DT(long long, SYMMEM_DT_LONGLONG) SYMMEM_NV_DT(unsigned long long, SYMMEM_DT_ULONGLONG)
SYMMEM_NV_DT(float, SYMMEM_DT_FLOAT) SYMMEM_NV_DT(double, SYMMEM_DT_DOUBLE) SYMMEM_NV_DT(half, SYMMEM_DT_HALF)
SYMMEM_NV_DT(__nv_bfloat16, SYMMEM_DT_BFLOAT16) SYMMEM_NV_DT(double2, SYMMEM_DT_DOUBLE2)
#undef SYMMEM_NV_DT

#define SYMMEM_NV_GROUP_warp ::symmem::device::detail::group_warp
#define SYMMEM_NV_GROUP_block ::symmem::device::detail::group_block
#define SYMMEM_NV_RED_sum SYMMEM_RED_SUM
#define SYMMEM_NV_RED_prod SYMMEM_RED_PROD
#define SYMMEM_NV_RED_min SYMMEM_RED_MIN
#define SYMMEM_NV_RED_max SYMMEM_RED_MAX
#define SYMMEM_NV_RED_and SYMMEM_RED_AND
#define SYMMEM_NV_RED_or SYMMEM_RED_OR
#define SYMMEM_NV_RED_xor SYMMEM_RED_XOR
#define SYMMEM_NV_RED_maxloc SYMMEM_RED_MAXLOC
#define SYMMEM_NV_RED_minloc SYMMEM_RED_MINLOC

/* Bytes-moving collectives are run by the library as bytes (type UCHAR, count in bytes). */
#define SYMMEM_NV_HOST_COLL(KIND, team, d, s, bytes, root) \
  symmem_collective_on_gpu_heap(KIND, team, d, s, bytes, SYMMEM_DT_UCHAR, 0, root)
#define SYMMEM_NV_STREAM_COLL(KIND, team, d, s, bytes, root, st) \
  symmem_collective_on_stream(KIND, team, d, s, bytes, SYMMEM_DT_UCHAR, 0, root, st)

/* ---- broadcast, fcollect, alltoall ------------------------------------------------------------ */
#if defined(__CUDACC__)
#define SYMMEM_NV_MOVE_GROUP(T, N, SC)                                                                 \
  SYMMEM_NV_D int nvshmemx_##N##_broadcast_##SC(nvshmem_team_t team, T *d, const T *s, size_t n, int root) { \
    return SYMMEM_NV_DEV::broadcast<T, SYMMEM_NV_GROUP_##SC>(team, d, s, n, root);                    \
  }                                                                                                    \
  SYMMEM_NV_D int nvshmemx_##N##_fcollect_##SC(nvshmem_team_t team, T *d, const T *s, size_t n) {      \
    return SYMMEM_NV_DEV::fcollect<T, SYMMEM_NV_GROUP_##SC>(team, d, s, n);                           \
  }                                                                                                    \
  SYMMEM_NV_D int nvshmemx_##N##_alltoall_##SC(nvshmem_team_t team, T *d, const T *s, size_t n) {      \
    return SYMMEM_NV_DEV::alltoall<T, SYMMEM_NV_GROUP_##SC>(team, d, s, n);                           \
  }
#define SYMMEM_NV_DEV_MOVE(T, N) SYMMEM_NV_MOVE_GROUP(T, N, warp) SYMMEM_NV_MOVE_GROUP(T, N, block)
#define SYMMEM_NV_DSIDE(dev, host) SYMMEM_NV_SIDE(dev, host)
#else
#define SYMMEM_NV_DEV_MOVE(T, N)
#define SYMMEM_NV_DSIDE(dev, host) host
#endif

#define SYMMEM_NV_MOVE(T, N)                                                                           \
  SYMMEM_NV_HD int nvshmem_##N##_broadcast(nvshmem_team_t team, T *d, const T *s, size_t n, int root) { \
    return SYMMEM_NV_DSIDE((SYMMEM_NV_DEV::broadcast<T>(team, d, s, n, root)),                        \
                           SYMMEM_NV_HOST_COLL(SYMMEM_COLL_BROADCAST, team, d, s, n * sizeof(T), root)); \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_fcollect(nvshmem_team_t team, T *d, const T *s, size_t n) {           \
    return SYMMEM_NV_DSIDE((SYMMEM_NV_DEV::fcollect<T>(team, d, s, n)),                               \
                           SYMMEM_NV_HOST_COLL(SYMMEM_COLL_FCOLLECT, team, d, s, n * sizeof(T), 0));    \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_alltoall(nvshmem_team_t team, T *d, const T *s, size_t n) {           \
    return SYMMEM_NV_DSIDE((SYMMEM_NV_DEV::alltoall<T>(team, d, s, n)),                               \
                           SYMMEM_NV_HOST_COLL(SYMMEM_COLL_ALLTOALL, team, d, s, n * sizeof(T), 0));    \
  }                                                                                                    \
  SYMMEM_NV_H int nvshmemx_##N##_broadcast_on_stream(nvshmem_team_t team, T *d, const T *s, size_t n, int root, \
                                                     cudaStream_t st) {                                \
    return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_BROADCAST, team, d, s, n * sizeof(T), root, st);          \
  }                                                                                                    \
  SYMMEM_NV_H int nvshmemx_##N##_fcollect_on_stream(nvshmem_team_t team, T *d, const T *s, size_t n,   \
                                                    cudaStream_t st) {                                 \
    return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_FCOLLECT, team, d, s, n * sizeof(T), 0, st);              \
  }                                                                                                    \
  SYMMEM_NV_H int nvshmemx_##N##_alltoall_on_stream(nvshmem_team_t team, T *d, const T *s, size_t n,   \
                                                    cudaStream_t st) {                                 \
    return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_ALLTOALL, team, d, s, n * sizeof(T), 0, st);              \
  }                                                                                                    \
  SYMMEM_NV_DEV_MOVE(T, N)
SYMMEM_NV_RMA_TYPES(SYMMEM_NV_MOVE)
SYMMEM_NV_MOVE(char, symmem_bytes)
#undef SYMMEM_NV_MOVE

/* The *mem forms count bytes. */
SYMMEM_NV_HD int nvshmem_broadcastmem(nvshmem_team_t team, void *d, const void *s, size_t n, int root) {
  return nvshmem_symmem_bytes_broadcast(team, (char *)d, (const char *)s, n, root);
}
SYMMEM_NV_HD int nvshmem_fcollectmem(nvshmem_team_t team, void *d, const void *s, size_t n) {
  return nvshmem_symmem_bytes_fcollect(team, (char *)d, (const char *)s, n);
}
SYMMEM_NV_HD int nvshmem_alltoallmem(nvshmem_team_t team, void *d, const void *s, size_t n) {
  return nvshmem_symmem_bytes_alltoall(team, (char *)d, (const char *)s, n);
}
SYMMEM_NV_H int nvshmemx_broadcastmem_on_stream(nvshmem_team_t team, void *d, const void *s, size_t n, int root,
                                                cudaStream_t st) {
  return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_BROADCAST, team, d, s, n, root, st);
}
SYMMEM_NV_H int nvshmemx_fcollectmem_on_stream(nvshmem_team_t team, void *d, const void *s, size_t n, cudaStream_t st) {
  return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_FCOLLECT, team, d, s, n, 0, st);
}
SYMMEM_NV_H int nvshmemx_alltoallmem_on_stream(nvshmem_team_t team, void *d, const void *s, size_t n, cudaStream_t st) {
  return SYMMEM_NV_STREAM_COLL(SYMMEM_COLL_ALLTOALL, team, d, s, n, 0, st);
}
#if defined(__CUDACC__)
#define SYMMEM_NV_MEM_GROUP(SC)                                                                        \
  SYMMEM_NV_D int nvshmemx_broadcastmem_##SC(nvshmem_team_t team, void *d, const void *s, size_t n, int root) { \
    return nvshmemx_symmem_bytes_broadcast_##SC(team, (char *)d, (const char *)s, n, root);           \
  }                                                                                                    \
  SYMMEM_NV_D int nvshmemx_fcollectmem_##SC(nvshmem_team_t team, void *d, const void *s, size_t n) {   \
    return nvshmemx_symmem_bytes_fcollect_##SC(team, (char *)d, (const char *)s, n);                  \
  }                                                                                                    \
  SYMMEM_NV_D int nvshmemx_alltoallmem_##SC(nvshmem_team_t team, void *d, const void *s, size_t n) {   \
    return nvshmemx_symmem_bytes_alltoall_##SC(team, (char *)d, (const char *)s, n);                  \
  }
SYMMEM_NV_MEM_GROUP(warp)
SYMMEM_NV_MEM_GROUP(block)
#undef SYMMEM_NV_MEM_GROUP
#endif

/* ---- reductions ------------------------------------------------------------------------------- */
#if defined(__CUDACC__)
#define SYMMEM_NV_RED_GROUP(T, N, OP, SC)                                                              \
  SYMMEM_NV_D int nvshmemx_##N##_##OP##_reduce_##SC(nvshmem_team_t team, T *d, const T *s, size_t n) {  \
    return SYMMEM_NV_DEV::reduce<SYMMEM_NV_RED_##OP, T, SYMMEM_NV_GROUP_##SC>(team, d, s, n);         \
  }                                                                                                    \
  SYMMEM_NV_D int nvshmemx_##N##_##OP##_reducescatter_##SC(nvshmem_team_t team, T *d, const T *s, size_t n) { \
    return SYMMEM_NV_DEV::reducescatter<SYMMEM_NV_RED_##OP, T, SYMMEM_NV_GROUP_##SC>(team, d, s, n);  \
  }
#define SYMMEM_NV_DEV_RED(T, N, OP) SYMMEM_NV_RED_GROUP(T, N, OP, warp) SYMMEM_NV_RED_GROUP(T, N, OP, block)
#else
#define SYMMEM_NV_DEV_RED(T, N, OP)
#endif

#define SYMMEM_NV_RED(T, N, OP)                                                                        \
  SYMMEM_NV_HD int nvshmem_##N##_##OP##_reduce(nvshmem_team_t team, T *d, const T *s, size_t n) {      \
    return SYMMEM_NV_DSIDE((SYMMEM_NV_DEV::reduce<SYMMEM_NV_RED_##OP, T>(team, d, s, n)),             \
                           symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCE, team, d, s, n,            \
                                                         symmem_nv_dtype<T>::value, SYMMEM_NV_RED_##OP, 0)); \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_##OP##_reducescatter(nvshmem_team_t team, T *d, const T *s, size_t n) { \
    return SYMMEM_NV_DSIDE((SYMMEM_NV_DEV::reducescatter<SYMMEM_NV_RED_##OP, T>(team, d, s, n)),      \
                           symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCESCATTER, team, d, s, n,     \
                                                         symmem_nv_dtype<T>::value, SYMMEM_NV_RED_##OP, 0)); \
  }                                                                                                    \
  SYMMEM_NV_H int nvshmemx_##N##_##OP##_reduce_on_stream(nvshmem_team_t team, T *d, const T *s, size_t n, \
                                                         cudaStream_t st) {                            \
    return symmem_collective_on_stream(SYMMEM_COLL_REDUCE, team, d, s, n, symmem_nv_dtype<T>::value,   \
                                       SYMMEM_NV_RED_##OP, 0, st);                                     \
  }                                                                                                    \
  SYMMEM_NV_H int nvshmemx_##N##_##OP##_reducescatter_on_stream(nvshmem_team_t team, T *d, const T *s, size_t n, \
                                                                cudaStream_t st) {                     \
    return symmem_collective_on_stream(SYMMEM_COLL_REDUCESCATTER, team, d, s, n, symmem_nv_dtype<T>::value, \
                                       SYMMEM_NV_RED_##OP, 0, st);                                     \
  }                                                                                                    \
  SYMMEM_NV_DEV_RED(T, N, OP)

/* NVSHMEM's reduction types: and/or/xor on the unsigned and fixed-width integers, sum/prod/min/max
 * on those plus the signed integers, half, bfloat16, float and double. */
#define SYMMEM_NV_BITWISE_TYPES(X, OP)                                                                 \
  X(unsigned char, uchar, OP) X(unsigned short, ushort, OP) X(unsigned int, uint, OP)                  \
  X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP) X(int8_t, int8, OP)                 \
  X(int16_t, int16, OP) X(int32_t, int32, OP) X(int64_t, int64, OP) X(uint8_t, uint8, OP)              \
  X(uint16_t, uint16, OP) X(uint32_t, uint32, OP) X(uint64_t, uint64, OP) X(size_t, size, OP)
#define SYMMEM_NV_ARITH_TYPES(X, OP)                                                                   \
  SYMMEM_NV_BITWISE_TYPES(X, OP) X(char, char, OP) X(signed char, schar, OP) X(short, short, OP)       \
  X(int, int, OP) X(long, long, OP) X(long long, longlong, OP) X(__nv_bfloat16, bfloat16, OP)          \
  X(half, half, OP) X(float, float, OP) X(double, double, OP)
SYMMEM_NV_BITWISE_TYPES(SYMMEM_NV_RED, and)
SYMMEM_NV_BITWISE_TYPES(SYMMEM_NV_RED, or)
SYMMEM_NV_BITWISE_TYPES(SYMMEM_NV_RED, xor)
SYMMEM_NV_ARITH_TYPES(SYMMEM_NV_RED, sum)
SYMMEM_NV_ARITH_TYPES(SYMMEM_NV_RED, prod)
SYMMEM_NV_ARITH_TYPES(SYMMEM_NV_RED, min)
SYMMEM_NV_ARITH_TYPES(SYMMEM_NV_RED, max)
SYMMEM_NV_RED(double2, double2, maxloc)
SYMMEM_NV_RED(double2, double2, minloc)
#undef SYMMEM_NV_RED
#undef SYMMEM_NV_DEV_RED

#endif /* SYMMEM_DETAIL_NVSHMEM_COLL_H */
