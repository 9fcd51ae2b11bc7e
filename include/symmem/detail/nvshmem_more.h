/* symmem: the rest of NVSHMEM's names (included by <nvshmem.h> in C++): strided and sized RMA in
 * every form, sized puts with signal, the multi-variable waits and tests, waits in stream order,
 * and compile-time messages for the names symmem does not provide (queue pairs, unique-id teams,
 * warpgroup barriers).
 */
#ifndef SYMMEM_DETAIL_NVSHMEM_MORE_H
#define SYMMEM_DETAIL_NVSHMEM_MORE_H

/* ---- strided RMA in stream order: one 2-D copy (a row per element) -------------------------------- */
inline void symmem_nv_strided_on_stream(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es,
                                        cudaStream_t st) {
  if (n == 0) return;
  if (dst >= 1 && sst >= 1) {
    (void)cudaMemcpy2DAsync(d, (size_t)dst * es, s, (size_t)sst * es, es, n, cudaMemcpyDefault, st);
    return;
  }
  for (size_t i = 0; i < n; ++i) {  // zero or negative strides: element by element
    (void)cudaMemcpyAsync((char *)d + (ptrdiff_t)i * dst * (ptrdiff_t)es, (const char *)s + (ptrdiff_t)i * sst * (ptrdiff_t)es,
                          es, cudaMemcpyDefault, st);
  }
}
inline void *symmem_nv_peer_or_die(const void *addr, int pe, const char *call) {
  void *p = symmem_ptr(addr, pe);
  if (p == NULL) {
    fprintf(stderr, "symmem: PE %d: %s: PE %d's heap is not mapped here (another host); use the host RMA routines\n",
            symmem_my_pe(), call, pe);
    symmem_global_exit(1);
  }
  return p;
}

#define SYMMEM_NVM_STRIDED(T, N)                                                                       \
  SYMMEM_NV_H void nvshmemx_##N##_iput_on_stream(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                 cudaStream_t st) {                                    \
    symmem_nv_strided_on_stream(symmem_nv_peer_or_die(d, pe, "iput_on_stream"), s, dst, sst, n, sizeof(T), st); \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_iget_on_stream(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                 cudaStream_t st) {                                    \
    symmem_nv_strided_on_stream(d, symmem_nv_peer_or_die(s, pe, "iget_on_stream"), dst, sst, n, sizeof(T), st); \
  }                                                                                                    \
  SYMMEM_NV_DEV_STRIDED(T, N)
#if defined(__CUDACC__)
#define SYMMEM_NV_DEV_STRIDED(T, N)                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_iput_warp(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iput_group<SYMMEM_NV_GROUP_warp>(d, s, dst, sst, n, pe);                           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_iput_block(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iput_group<SYMMEM_NV_GROUP_block>(d, s, dst, sst, n, pe);                          \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_iget_warp(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iget_group<SYMMEM_NV_GROUP_warp>(d, s, dst, sst, n, pe);                           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_##N##_iget_block(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iget_group<SYMMEM_NV_GROUP_block>(d, s, dst, sst, n, pe);                          \
  }
#else
#define SYMMEM_NV_DEV_STRIDED(T, N)
#endif
SYMMEM_NV_RMA_TYPES(SYMMEM_NVM_STRIDED)
#undef SYMMEM_NVM_STRIDED

/* ---- sized forms (8, 16, 32, 64, 128 bits): strided, with signal, in stream order --------------- */
#define SYMMEM_NVM_SIZED(B, T)                                                                         \
  SYMMEM_NV_HD void nvshmem_iput##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::iput((T *)d, (const T *)s, dst, sst, n, pe),                       \
                   symmem_nv_iputmem(d, s, dst, sst, n, sizeof(T), pe));                                \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_iget##B(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::iget((T *)d, (const T *)s, dst, sst, n, pe),                       \
                   symmem_nv_igetmem(d, s, dst, sst, n, sizeof(T), pe));                                \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_put##B##_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) { \
    nvshmem_putmem_signal(d, s, n * sizeof(T), sig, v, op, pe);                                        \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_put##B##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                int pe) {                                              \
    nvshmem_putmem_signal_nbi(d, s, n * sizeof(T), sig, v, op, pe);                                    \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_iput##B##_on_stream(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                cudaStream_t st) {                                     \
    symmem_nv_strided_on_stream(symmem_nv_peer_or_die(d, pe, "iput_on_stream"), s, dst, sst, n, sizeof(T), st); \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_iget##B##_on_stream(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                cudaStream_t st) {                                     \
    symmem_nv_strided_on_stream(d, symmem_nv_peer_or_die(s, pe, "iget_on_stream"), dst, sst, n, sizeof(T), st); \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_put##B##_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) { \
    symmem_putmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_get##B##_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) { \
    symmem_getmem_on_stream(d, s, n * sizeof(T), pe, st);                                              \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_put##B##_signal_on_stream(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, \
                                                      int op, int pe, cudaStream_t st) {               \
    symmem_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                           \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_put##B##_signal_nbi_on_stream(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, \
                                                          int op, int pe, cudaStream_t st) {           \
    symmem_putmem_signal_on_stream(d, s, n * sizeof(T), sig, v, op, pe, st);                           \
  }                                                                                                    \
  SYMMEM_NV_DEV_SIZED(B, T, warp) SYMMEM_NV_DEV_SIZED(B, T, block)
#if defined(__CUDACC__)
#define SYMMEM_NV_DEV_SIZED(B, T, SC)                                                                  \
  SYMMEM_NV_D void nvshmemx_iput##B##_##SC(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iput_group<SYMMEM_NV_GROUP_##SC>((T *)d, (const T *)s, dst, sst, n, pe);           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_iget##B##_##SC(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_DEV::iget_group<SYMMEM_NV_GROUP_##SC>((T *)d, (const T *)s, dst, sst, n, pe);           \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_put##B##_signal_##SC(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, \
                                                 int pe) {                                             \
    SYMMEM_NV_DEV::putmem_signal_##SC(d, s, n * sizeof(T), sig, v, op, pe);                                  \
  }                                                                                                    \
  SYMMEM_NV_D void nvshmemx_put##B##_signal_nbi_##SC(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v,  \
                                                     int op, int pe) {                                 \
    SYMMEM_NV_DEV::putmem_signal_nbi_##SC(d, s, n * sizeof(T), sig, v, op, pe);                              \
  }
#else
#define SYMMEM_NV_DEV_SIZED(B, T, SC)
#endif
SYMMEM_NVM_SIZED(8, int8_t) SYMMEM_NVM_SIZED(16, int16_t) SYMMEM_NVM_SIZED(32, int32_t)
SYMMEM_NVM_SIZED(64, int64_t) SYMMEM_NVM_SIZED(128, int4)
#undef SYMMEM_NVM_SIZED

/* ---- multi-variable waits and tests; waits in stream order -------------------------------------- */
#define SYMMEM_NVM_WAITS(T, N)                                                                         \
  SYMMEM_NV_HD size_t nvshmem_##N##_wait_until_some(T *iv, size_t n, size_t *idx, const int *status, int cmp, T v) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_some_v(iv, n, idx, status, cmp, v),               \
                          symmem_##N##_wait_until_some(iv, n, idx, status, cmp, v));                   \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_test_some(T *iv, size_t n, size_t *idx, const int *status, int cmp, T v) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_some_v(iv, n, idx, status, cmp, v),                     \
                          symmem_##N##_test_some(iv, n, idx, status, cmp, v));                         \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_wait_until_all_vector(T *iv, size_t n, const int *status, int cmp, T *vs) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_all_v(iv, n, status, cmp, (const T *)vs),                 \
                   symmem_##N##_wait_until_all_vector(iv, n, status, cmp, vs));                        \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_wait_until_any_vector(T *iv, size_t n, const int *status, int cmp, T *vs) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_any_v(iv, n, status, cmp, (const T *)vs),         \
                          symmem_##N##_wait_until_any_vector(iv, n, status, cmp, vs));                 \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_wait_until_some_vector(T *iv, size_t n, size_t *idx, const int *status, int cmp, \
                                                           T *vs) {                                    \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_some_v(iv, n, idx, status, cmp, (const T *)vs),   \
                          symmem_##N##_wait_until_some_vector(iv, n, idx, status, cmp, vs));           \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_test_all_vector(T *iv, size_t n, const int *status, int cmp, T *vs) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_all_v(iv, n, status, cmp, (const T *)vs),               \
                          symmem_##N##_test_all_vector(iv, n, status, cmp, vs));                       \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_test_any_vector(T *iv, size_t n, const int *status, int cmp, T *vs) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_any_v(iv, n, status, cmp, (const T *)vs),               \
                          symmem_##N##_test_any_vector(iv, n, status, cmp, vs));                       \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_test_some_vector(T *iv, size_t n, size_t *idx, const int *status, int cmp, T *vs) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_some_v(iv, n, idx, status, cmp, (const T *)vs),         \
                          symmem_##N##_test_some_vector(iv, n, idx, status, cmp, vs));                 \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_wait_until_on_stream(T *iv, int cmp, T v, cudaStream_t st) {         \
    symmem_wait_until_on_stream(iv, 1, NULL, cmp, NULL, (uint64_t)(int64_t)v, sizeof(T), (T)-1 < 0, st); \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_wait_until_all_on_stream(T *iv, size_t n, const int *status, int cmp, T v,   \
                                                           cudaStream_t st) {                          \
    symmem_wait_until_on_stream(iv, n, status, cmp, NULL, (uint64_t)(int64_t)v, sizeof(T), (T)-1 < 0, st); \
  }                                                                                                    \
  SYMMEM_NV_H void nvshmemx_##N##_wait_until_all_vector_on_stream(T *iv, size_t n, const int *status, int cmp,  \
                                                                  T *vs, cudaStream_t st) {            \
    symmem_wait_until_on_stream(iv, n, status, cmp, vs, 0, sizeof(T), (T)-1 < 0, st);                 \
  }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_NVM_WAITS)
#undef SYMMEM_NVM_WAITS

/* ---- names symmem does not provide --------------------------------------------------------------- */
#define SYMMEM_NVM_PUT6 "NVSHMEM's headers declare the put6 names by a slip for put16; call nvshmemx_put16_signal_*"
SYMMEM_NV_UNSUPPORTED(nvshmemx_put6_signal_warp, SYMMEM_NVM_PUT6)
SYMMEM_NV_UNSUPPORTED(nvshmemx_put6_signal_block, SYMMEM_NVM_PUT6)
SYMMEM_NV_UNSUPPORTED(nvshmemx_put6_signal_nbi_warp, SYMMEM_NVM_PUT6)
SYMMEM_NV_UNSUPPORTED(nvshmemx_put6_signal_nbi_block, SYMMEM_NVM_PUT6)

#endif /* SYMMEM_DETAIL_NVSHMEM_MORE_H */
