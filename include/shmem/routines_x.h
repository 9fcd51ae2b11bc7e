/* symmem: the shmemx_ extensions of <shmemx.h> that public OpenSHMEM programs call, as entries of
 * a routine list like <shmem/routines.h> (no include guard; see there). Chosen from what the test
 * suites and examples use: the non-blocking puts and gets with request handles of the reference
 * implementation and Cray SHMEM, over the 1.5 nbi routines. Not shmemx_wtime: programs that run on
 * OSHMEM as well define their own when the library has none (tests-sos does, under a static
 * declaration that a library declaration would contradict). */

SYMMEM_SHMEM_FN(void *, shmemx_lookup_remote_addr, (void *addr, int pe), symmem_ptr(addr, pe))

/* A request completes at the next quiet; shmemx_wait_req quiets, shmemx_test_req quiets and says
 * done (symmem's transports complete an nbi operation within a quiet, so nothing is pending after). */
SYMMEM_SHMEM_VFN(shmemx_wait_req, (shmemx_request_handle_t h), ((void)h, symmem_quiet()))
SYMMEM_SHMEM_VFN(shmemx_test_req, (shmemx_request_handle_t h, int *done), ((void)h, symmem_quiet(), *done = 1))

#define SYMMEM_SHRX_NB(T, N)                                                                           \
  SYMMEM_SHMEM_VFN(shmemx_##N##_put_nb, (T *d, const T *s, size_t n, int pe, shmemx_request_handle_t *h), \
                   (symmem_##N##_put_nbi(d, s, n, pe), symmem_shmemx_request(h)))                      \
  SYMMEM_SHMEM_VFN(shmemx_##N##_get_nb, (T *d, const T *s, size_t n, int pe, shmemx_request_handle_t *h), \
                   (symmem_##N##_get_nbi(d, s, n, pe), symmem_shmemx_request(h)))
SYMMEM_RMA_TYPES(SYMMEM_SHRX_NB)
#undef SYMMEM_SHRX_NB
#define SYMMEM_SHRX_NB_SIZED(B)                                                                        \
  SYMMEM_SHMEM_VFN(shmemx_put##B##_nb, (void *d, const void *s, size_t n, int pe, shmemx_request_handle_t *h), \
                   (symmem_put##B##_nbi(d, s, n, pe), symmem_shmemx_request(h)))                       \
  SYMMEM_SHMEM_VFN(shmemx_get##B##_nb, (void *d, const void *s, size_t n, int pe, shmemx_request_handle_t *h), \
                   (symmem_get##B##_nbi(d, s, n, pe), symmem_shmemx_request(h)))
SYMMEM_RMA_SIZES(SYMMEM_SHRX_NB_SIZED)
SYMMEM_SHRX_NB_SIZED(mem)
#undef SYMMEM_SHRX_NB_SIZED

/* Cray's untyped broadcast: the 64-bit form. */
SYMMEM_SHMEM_VFN(shmemx_broadcast, (void *d, const void *s, size_t n, int root, int start, int ls, int size, long *ps),
                 symmem_broadcast64(d, s, n, root, start, ls, size, ps))

/* OpenSHMEM 1.6's block-strided RMA, signal updates and Sandia OpenSHMEM's prefix sums, under the
 * shmemx_ names Sandia OpenSHMEM gave them first (the shmem_ names are in <shmem/routines.h>). */
#define SYMMEM_SHRX_NOCTX()
#define SYMMEM_SHRX_CTXP() shmem_ctx_t c,
#define SYMMEM_SHRX_CTXA() c,
#define SYMMEM_SHRX_IB1(T, N, P, CP, CA)                                                               \
  SYMMEM_SHMEM_VFN(shmemx_##P##N##_ibput, (CP() T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibput_sized(CA() d, s, tst, sst, bsize, nblocks, sizeof(T), pe))                \
  SYMMEM_SHMEM_VFN(shmemx_##P##N##_ibget, (CP() T *d, const T *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibget_sized(CA() d, s, tst, sst, bsize, nblocks, sizeof(T), pe))
#define SYMMEM_SHRX_IB_SIZED1(B, P, CP, CA)                                                            \
  SYMMEM_SHMEM_VFN(shmemx_##P##ibput##B, (CP() void *d, const void *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibput_sized(CA() d, s, tst, sst, bsize, nblocks, B / 8, pe))                    \
  SYMMEM_SHMEM_VFN(shmemx_##P##ibget##B, (CP() void *d, const void *s, ptrdiff_t tst, ptrdiff_t sst, size_t bsize, size_t nblocks, int pe), \
                   symmem_##P##ibget_sized(CA() d, s, tst, sst, bsize, nblocks, B / 8, pe))
#define SYMMEM_SHRX_IB(T, N)                                                                           \
  SYMMEM_SHRX_IB1(T, N, , SYMMEM_SHRX_NOCTX, SYMMEM_SHRX_NOCTX)                                        \
  SYMMEM_SHRX_IB1(T, N, ctx_, SYMMEM_SHRX_CTXP, SYMMEM_SHRX_CTXA)
#define SYMMEM_SHRX_IB_SIZED(B)                                                                        \
  SYMMEM_SHRX_IB_SIZED1(B, , SYMMEM_SHRX_NOCTX, SYMMEM_SHRX_NOCTX)                                     \
  SYMMEM_SHRX_IB_SIZED1(B, ctx_, SYMMEM_SHRX_CTXP, SYMMEM_SHRX_CTXA)
SYMMEM_RMA_TYPES(SYMMEM_SHRX_IB)
SYMMEM_RMA_SIZES(SYMMEM_SHRX_IB_SIZED)
SYMMEM_SHMEM_VFN(shmemx_signal_add, (uint64_t *sig, uint64_t v, int pe), symmem_signal_add(sig, v, pe))
SYMMEM_SHMEM_VFN(shmemx_signal_set, (uint64_t *sig, uint64_t v, int pe), symmem_signal_set(sig, v, pe))
SYMMEM_SHMEM_VFN(shmemx_ctx_signal_add, (shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe), symmem_ctx_signal_add(c, sig, v, pe))
SYMMEM_SHMEM_VFN(shmemx_ctx_signal_set, (shmem_ctx_t c, uint64_t *sig, uint64_t v, int pe), symmem_ctx_signal_set(c, sig, v, pe))
#define SYMMEM_SHRX_SCAN(T, N)                                                                         \
  SYMMEM_SHMEM_FN(int, shmemx_##N##_sum_inscan, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_sum_inscan(t, d, s, n)) \
  SYMMEM_SHMEM_FN(int, shmemx_##N##_sum_exscan, (shmem_team_t t, T *d, const T *s, size_t n), symmem_##N##_sum_exscan(t, d, s, n))
SYMMEM_REDUCE_ARITH_TYPES(SYMMEM_SHRX_SCAN)
#undef SYMMEM_SHRX_SCAN
#undef SYMMEM_SHRX_IB
#undef SYMMEM_SHRX_IB_SIZED
#undef SYMMEM_SHRX_IB1
#undef SYMMEM_SHRX_IB_SIZED1
#undef SYMMEM_SHRX_NOCTX
#undef SYMMEM_SHRX_CTXP
#undef SYMMEM_SHRX_CTXA
