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

/* OpenSHMEM 1.6's block-strided RMA, signal updates and prefix sums under the shmemx_ names Sandia
 * OpenSHMEM gave them first (the shmem_ names: <shmem/routines.h>). */
#define SYMMEM_SHR16_X shmemx_
#include "shmem/routines_16.h"
#undef SYMMEM_SHR16_X
