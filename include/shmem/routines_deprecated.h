/* symmem: the deprecated OpenSHMEM names (1.0 to 1.4) that old programs still call, as entries of
 * the routine list (see <shmem/routines.h>, which includes this file; no include guard). */

/* ---- setup and memory (1.0-1.2) -------------------------------------------------------------- */
/* start_pes finalizes implicitly at exit, as OpenSHMEM 1.2 promised (symmem_start_pes). */
SYMMEM_SHMEM_VFN(start_pes, (int npes), symmem_shmem_exit_unless_started(symmem_start_pes(npes)))
SYMMEM_SHMEM_FN(int, _my_pe, (void), symmem_my_pe())
SYMMEM_SHMEM_FN(int, _num_pes, (void), symmem_n_pes())
SYMMEM_SHMEM_FN(void *, shmalloc, (size_t size), symmem_malloc(size))
SYMMEM_SHMEM_VFN(shfree, (void *ptr), symmem_free(ptr))
SYMMEM_SHMEM_FN(void *, shrealloc, (void *ptr, size_t size), symmem_realloc(ptr, size))
SYMMEM_SHMEM_FN(void *, shmemalign, (size_t alignment, size_t size), symmem_align(alignment, size))

/* ---- cache management: nothing to do on coherent memory -------------------------------------- */
SYMMEM_SHMEM_VFN(shmem_clear_cache_inv, (void), (void)0)
SYMMEM_SHMEM_VFN(shmem_set_cache_inv, (void), (void)0)
SYMMEM_SHMEM_VFN(shmem_clear_cache_line_inv, (void *dest), (void)dest)
SYMMEM_SHMEM_VFN(shmem_set_cache_line_inv, (void *dest), (void)dest)
SYMMEM_SHMEM_VFN(shmem_udcflush, (void), (void)0)
SYMMEM_SHMEM_VFN(shmem_udcflush_line, (void *dest), (void)dest)

/* ---- atomics under their 1.3 names ----------------------------------------------------------- */
#define SYMMEM_SHR_OLD_EXT(T, N)                                                                       \
  SYMMEM_SHMEM_FN(T, shmem_##N##_swap, (T *d, T v, int pe), symmem_##N##_atomic_swap(d, v, pe))         \
  SYMMEM_SHMEM_FN(T, shmem_##N##_fetch, (const T *s, int pe), symmem_##N##_atomic_fetch(s, pe))         \
  SYMMEM_SHMEM_VFN(shmem_##N##_set, (T *d, T v, int pe), symmem_##N##_atomic_set(d, v, pe))
#define SYMMEM_SHR_OLD_STD(T, N)                                                                       \
  SYMMEM_SHMEM_FN(T, shmem_##N##_cswap, (T *d, T c, T v, int pe), symmem_##N##_atomic_compare_swap(d, c, v, pe)) \
  SYMMEM_SHMEM_FN(T, shmem_##N##_fadd, (T *d, T v, int pe), symmem_##N##_atomic_fetch_add(d, v, pe))    \
  SYMMEM_SHMEM_FN(T, shmem_##N##_finc, (T *d, int pe), symmem_##N##_atomic_fetch_inc(d, pe))            \
  SYMMEM_SHMEM_VFN(shmem_##N##_add, (T *d, T v, int pe), symmem_##N##_atomic_add(d, v, pe))             \
  SYMMEM_SHMEM_VFN(shmem_##N##_inc, (T *d, int pe), symmem_##N##_atomic_inc(d, pe))
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_SHR_OLD_EXT)
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_SHR_OLD_STD)
#undef SYMMEM_SHR_OLD_EXT
#undef SYMMEM_SHR_OLD_STD

/* ---- waits: shmem_TYPE_wait waits while the variable still equals the value ------------------ */
#define SYMMEM_SHR_OLD_WAIT(T, N) \
  SYMMEM_SHMEM_VFN(shmem_##N##_wait, (T *ivar, T v), symmem_##N##_wait_until(ivar, SYMMEM_CMP_NE, v))
SYMMEM_P2P_SYNC_TYPES(SYMMEM_SHR_OLD_WAIT)
#undef SYMMEM_SHR_OLD_WAIT
/* The untyped 1.0 forms on long. In C11 and C++ these names are the generic routines (a macro, or
 * overloads), so the functions are declared only for older C; the library always exports them. */
#if SYMMEM_SHMEM_UNTYPED_FORMS || defined(SYMMEM_SHMEM_ALL_FORMS)
SYMMEM_SHMEM_VFN(shmem_wait, (long *ivar, long v), symmem_long_wait_until(ivar, SYMMEM_CMP_NE, v))
SYMMEM_SHMEM_VFN(shmem_wait_until, (long *ivar, int cmp, long v), symmem_long_wait_until(ivar, cmp, v))
#endif

/* ---- collectives on active sets -------------------------------------------------------------- */
SYMMEM_SHMEM_VFN(shmem_barrier, (int start, int log_stride, int size, long *ps), symmem_barrier(start, log_stride, size, ps))
/* shmem_sync(team) is the C11 generic / C++ overload of <shmem/generic.h>: the symbol is this form. */
SYMMEM_SHMEM_VFN(shmem_sync, (int start, int log_stride, int size, long *ps), symmem_sync(start, log_stride, size, ps))
#define SYMMEM_SHR_ASET(B)                                                                             \
  SYMMEM_SHMEM_VFN(shmem_broadcast##B, (void *d, const void *s, size_t n, int root, int start, int ls, int size, long *ps), \
                   symmem_broadcast##B(d, s, n, root, start, ls, size, ps))                            \
  SYMMEM_SHMEM_VFN(shmem_collect##B, (void *d, const void *s, size_t n, int start, int ls, int size, long *ps), \
                   symmem_collect##B(d, s, n, start, ls, size, ps))                                    \
  SYMMEM_SHMEM_VFN(shmem_fcollect##B, (void *d, const void *s, size_t n, int start, int ls, int size, long *ps), \
                   symmem_fcollect##B(d, s, n, start, ls, size, ps))                                   \
  SYMMEM_SHMEM_VFN(shmem_alltoall##B, (void *d, const void *s, size_t n, int start, int ls, int size, long *ps), \
                   symmem_alltoall##B(d, s, n, start, ls, size, ps))                                   \
  SYMMEM_SHMEM_VFN(shmem_alltoalls##B,                                                                 \
                   (void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int start, int ls, int size, long *ps), \
                   symmem_alltoalls##B(d, s, dst, sst, n, start, ls, size, ps))
SYMMEM_SHR_ASET(32)
SYMMEM_SHR_ASET(64)
#undef SYMMEM_SHR_ASET

#define SYMMEM_SHR_TOALL(T, N, OP)                                                                     \
  SYMMEM_SHMEM_VFN(shmem_##N##_##OP##_to_all,                                                          \
                   (T *d, const T *s, int n, int start, int ls, int size, T *pWrk, long *ps),          \
                   symmem_##N##_##OP##_to_all(d, s, n, start, ls, size, pWrk, ps))
#define SYMMEM_SHR_TOALL_BIT(T, N) SYMMEM_SHR_TOALL(T, N, and) SYMMEM_SHR_TOALL(T, N, or) SYMMEM_SHR_TOALL(T, N, xor)
#define SYMMEM_SHR_TOALL_MM(T, N) SYMMEM_SHR_TOALL(T, N, max) SYMMEM_SHR_TOALL(T, N, min)
#define SYMMEM_SHR_TOALL_AR(T, N) SYMMEM_SHR_TOALL(T, N, sum) SYMMEM_SHR_TOALL(T, N, prod)
SYMMEM_TOALL_BITWISE_TYPES(SYMMEM_SHR_TOALL_BIT)
SYMMEM_TOALL_MINMAX_TYPES(SYMMEM_SHR_TOALL_MM)
SYMMEM_TOALL_ARITH_TYPES(SYMMEM_SHR_TOALL_AR)
#undef SYMMEM_SHR_TOALL_BIT
#undef SYMMEM_SHR_TOALL_MM
#undef SYMMEM_SHR_TOALL_AR
#undef SYMMEM_SHR_TOALL
