/* symmem: symmetric memory for CPU and GPU processes.
 *
 * The C API. Every routine carries the symmem_ prefix; <shmem.h> maps the OpenSHMEM 1.5 names onto
 * these, so symmem can live in one process beside another OpenSHMEM or NVSHMEM library.
 *
 * Error contract (docs/errors.md):
 *  - routines that return int return SYMMEM_SUCCESS (0) or a negative SYMMEM_ERR_* code;
 *  - allocation routines return NULL on failure;
 *  - misuse of a data-path routine (bad PE, non-symmetric address, use before init or after
 *    finalize) is fatal: the PE prints "symmem: PE <n>: <call>: <what>; <fix>" and the job ends.
 *  Every failure leaves its message readable through symmem_last_error().
 */
#ifndef SYMMEM_SYMMEM_H
#define SYMMEM_SYMMEM_H

#include <stddef.h>
#include <stdint.h>

#include "symmem/detail/typelists.h"
#include "symmem/version.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define SYMMEM_API __attribute__((visibility("default")))
#else
#define SYMMEM_API
#endif

/* ---- status codes ---------------------------------------------------------------------------- */
enum symmem_status {
  SYMMEM_SUCCESS = 0,
  SYMMEM_ERR_NOT_INITIALIZED = -1,     /* a routine ran before symmem_init or after finalize */
  SYMMEM_ERR_ALREADY_INITIALIZED = -2, /* symmem_init while already initialized */
  SYMMEM_ERR_INVALID_ARGUMENT = -3,    /* a bad argument: the message names it */
  SYMMEM_ERR_CONFIG = -4,              /* an environment variable holds an invalid value */
  SYMMEM_ERR_BOOTSTRAP = -5,           /* the job could not be formed (launcher, MPI, PMIx) */
  SYMMEM_ERR_OUT_OF_MEMORY = -6,       /* the symmetric heap or the system is out of memory */
  SYMMEM_ERR_MISMATCH = -7,            /* PEs called a collective with different arguments */
  SYMMEM_ERR_PEER_GONE = -8,           /* another PE exited or died */
  SYMMEM_ERR_TIMEOUT = -9,             /* a wait passed its limit */
  SYMMEM_ERR_SYSTEM = -10,             /* an operating-system or driver call failed */
  SYMMEM_ERR_UNSUPPORTED = -11,        /* not available in this build or on this machine */
  SYMMEM_ERR_NOT_ACCESSIBLE = -12      /* the target PE cannot be reached by this operation */
};

/* Text of a status code ("symmem: invalid argument"). Never NULL. */
SYMMEM_API const char *symmem_error_string(int code);
/* The last error message of this PE ("" when none). Valid until the next failing call. */
SYMMEM_API const char *symmem_last_error(void);
/* The code of the last error of this PE (SYMMEM_SUCCESS when none). */
SYMMEM_API int symmem_last_error_code(void);

/* ---- library setup, exit and query ----------------------------------------------------------- */
enum symmem_thread_level {
  SYMMEM_THREAD_SINGLE = 0,
  SYMMEM_THREAD_FUNNELED = 1,
  SYMMEM_THREAD_SERIALIZED = 2,
  SYMMEM_THREAD_MULTIPLE = 3
};

/* Collective. Forms the job through the chosen bootstrap and builds the symmetric heap. */
SYMMEM_API int symmem_init(void);
SYMMEM_API int symmem_init_thread(int requested, int *provided);
/* symmem_init for OpenSHMEM 1.2's start_pes: the job also finalizes implicitly when the program
 * exits without symmem_finalize, as start_pes promised (npes is ignored). */
SYMMEM_API int symmem_start_pes(int npes);
SYMMEM_API void symmem_query_thread(int *provided);
/* Collective, with an implicit barrier; releases the heap, every mapping and descriptor. */
SYMMEM_API void symmem_finalize(void);
/* 1 between a successful init and finalize, else 0. Never fails. */
SYMMEM_API int symmem_initialized(void);
/* Ends the whole job with this status, from any one PE. */
SYMMEM_API void symmem_global_exit(int status) __attribute__((noreturn));
SYMMEM_API int symmem_my_pe(void);
SYMMEM_API int symmem_n_pes(void);
/* This PE's number and the job's size while initialized ({-1, 0} before init and after finalize),
 * for the OpenSHMEM ABI's shmem_my_pe and shmem_n_pes: one load instead of a second call through
 * libsymmem's PLT, as programs call them in inner loops (bale's THREADS and MYTHREAD are these
 * calls). Outside init..finalize they call symmem_my_pe / symmem_n_pes, which name the mistake.
 * Programs use symmem_my_pe / symmem_n_pes. */
SYMMEM_API extern int symmem_detail_world[2];
static inline int symmem_detail_my_pe(void) {
  int v = __atomic_load_n(&symmem_detail_world[0], __ATOMIC_RELAXED);
  return v >= 0 ? v : symmem_my_pe();
}
static inline int symmem_detail_n_pes(void) {
  int v = __atomic_load_n(&symmem_detail_world[1], __ATOMIC_RELAXED);
  return v > 0 ? v : symmem_n_pes();
}
SYMMEM_API void symmem_info_get_version(int *major, int *minor);
SYMMEM_API void symmem_info_get_name(char *name);
/* "0.1.0" */
SYMMEM_API const char *symmem_version_string(void);
/* Name of the bootstrap that formed this job ("launcher", "singleton", ...). */
SYMMEM_API const char *symmem_bootstrap_name(void);
/* Symmetric heap: base address (the same on every PE) and size in bytes. */
SYMMEM_API void *symmem_heap_base(void);
SYMMEM_API size_t symmem_heap_size(void);

/* ---- memory management (collective, with implicit barrier) ----------------------------------- */
SYMMEM_API void *symmem_malloc(size_t size);
SYMMEM_API void *symmem_calloc(size_t count, size_t size);
SYMMEM_API void *symmem_align(size_t alignment, size_t size);
SYMMEM_API void *symmem_realloc(void *ptr, size_t size);
SYMMEM_API void symmem_free(void *ptr);
/* Bytes in use and free in this PE's heap (local, not collective). */
SYMMEM_API void symmem_heap_usage(size_t *used, size_t *free_bytes);

/* ---- address queries ------------------------------------------------------------------------- */
SYMMEM_API void *symmem_ptr(const void *dest, int pe);
SYMMEM_API int symmem_addr_accessible(const void *addr, int pe);
SYMMEM_API int symmem_pe_accessible(int pe);

/* ---- RMA ------------------------------------------------------------------------------------- */
SYMMEM_API void symmem_putmem(void *dest, const void *source, size_t nelems, int pe);
SYMMEM_API void symmem_getmem(void *dest, const void *source, size_t nelems, int pe);
SYMMEM_API void symmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
SYMMEM_API void symmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);

#define SYMMEM_DECL_RMA(T, N)                                                                      \
  SYMMEM_API void symmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);              \
  SYMMEM_API void symmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);              \
  SYMMEM_API void symmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);          \
  SYMMEM_API void symmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);          \
  SYMMEM_API void symmem_##N##_p(T *dest, T value, int pe);                                       \
  SYMMEM_API T symmem_##N##_g(const T *source, int pe);                                           \
  SYMMEM_API void symmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,       \
                                    size_t nelems, int pe);                                       \
  SYMMEM_API void symmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst,       \
                                    size_t nelems, int pe);
SYMMEM_RMA_TYPES(SYMMEM_DECL_RMA)
#undef SYMMEM_DECL_RMA

#define SYMMEM_DECL_RMA_SIZED(B)                                                                   \
  SYMMEM_API void symmem_put##B(void *dest, const void *source, size_t nelems, int pe);           \
  SYMMEM_API void symmem_get##B(void *dest, const void *source, size_t nelems, int pe);           \
  SYMMEM_API void symmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);     \
  SYMMEM_API void symmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);     \
  SYMMEM_API void symmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                                 size_t nelems, int pe);                                          \
  SYMMEM_API void symmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,    \
                                 size_t nelems, int pe);
SYMMEM_RMA_SIZES(SYMMEM_DECL_RMA_SIZED)
#undef SYMMEM_DECL_RMA_SIZED

/* ---- atomics --------------------------------------------------------------------------------- */
#define SYMMEM_DECL_AMO_EXT(T, N)                                                                  \
  SYMMEM_API T symmem_##N##_atomic_fetch(const T *source, int pe);                                \
  SYMMEM_API void symmem_##N##_atomic_set(T *dest, T value, int pe);                              \
  SYMMEM_API T symmem_##N##_atomic_swap(T *dest, T value, int pe);
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_DECL_AMO_EXT)
#undef SYMMEM_DECL_AMO_EXT

#define SYMMEM_DECL_AMO_STD(T, N)                                                                  \
  SYMMEM_API T symmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                \
  SYMMEM_API T symmem_##N##_atomic_fetch_inc(T *dest, int pe);                                    \
  SYMMEM_API void symmem_##N##_atomic_inc(T *dest, int pe);                                       \
  SYMMEM_API T symmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                           \
  SYMMEM_API void symmem_##N##_atomic_add(T *dest, T value, int pe);
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_DECL_AMO_STD)
#undef SYMMEM_DECL_AMO_STD

#define SYMMEM_DECL_AMO_BIT(T, N)                                                                  \
  SYMMEM_API T symmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                           \
  SYMMEM_API void symmem_##N##_atomic_and(T *dest, T value, int pe);                              \
  SYMMEM_API T symmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                            \
  SYMMEM_API void symmem_##N##_atomic_or(T *dest, T value, int pe);                               \
  SYMMEM_API T symmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                           \
  SYMMEM_API void symmem_##N##_atomic_xor(T *dest, T value, int pe);
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_DECL_AMO_BIT)
#undef SYMMEM_DECL_AMO_BIT

/* ---- ordering and synchronization ------------------------------------------------------------ */
enum symmem_cmp {
  SYMMEM_CMP_EQ = 0,
  SYMMEM_CMP_NE = 1,
  SYMMEM_CMP_GT = 2,
  SYMMEM_CMP_GE = 3,
  SYMMEM_CMP_LT = 4,
  SYMMEM_CMP_LE = 5
};

SYMMEM_API void symmem_fence(void);
SYMMEM_API void symmem_quiet(void);
/* Collective over all PEs: completes this PE's outstanding operations, then synchronizes. */
SYMMEM_API void symmem_barrier_all(void);
/* Collective over all PEs: synchronizes only (no completion of outstanding operations). */
SYMMEM_API void symmem_sync_all(void);

#define SYMMEM_DECL_P2P(T, N)                                                                      \
  SYMMEM_API void symmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                         \
  SYMMEM_API int symmem_##N##_test(T *ivar, int cmp, T cmp_value);
SYMMEM_P2P_SYNC_TYPES(SYMMEM_DECL_P2P)
#undef SYMMEM_DECL_P2P

#ifdef __cplusplus
}
#endif

#include "symmem/shmem15.h"   /* teams, collectives, contexts, signals, locks */
#include "symmem/init_attr.h" /* init with an MPI communicator or a unique id */

#endif /* SYMMEM_SYMMEM_H */
