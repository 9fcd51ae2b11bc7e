/* symmem: NVSHMEM source compatibility, host and device names (<nvshmemx.h> adds the nvshmemx_
 * extensions). A program written to NVSHMEM compiles against symmem unchanged with symmem-nvcc:
 * each nvshmem_ name maps onto a symmem_ host routine (the exported ABI keeps the symmem_ prefix,
 * so a real NVSHMEM may live in the same process) or onto symmem::device in device code. Names
 * used from both sides are __host__ __device__ inline functions that pick the side with
 * __CUDA_ARCH__. Like NVSHMEM's, this header brings the CUDA runtime (and half/bfloat16 in C++),
 * and its host part compiles with a plain C or C++ compiler. A name symmem does not support fails
 * to compile with a message saying so, never at link time. docs/nvshmem-names.md lists them all.
 */
#ifndef SYMMEM_NVSHMEM_H
#define SYMMEM_NVSHMEM_H

#define SYMMEM_NVSHMEM_COMPAT 1

#include <cuda_runtime.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#if defined(__cplusplus)
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

#include "symmem/symmem.h"
#include "symmem/shmem15.h"
#include "symmem/cuda.h"

#if defined(__CUDACC__)
#include "symmem/device.cuh"
#define SYMMEM_NV_HD __host__ __device__ inline
#define SYMMEM_NV_D __device__ inline
#define SYMMEM_NV_H inline
#elif defined(__cplusplus)
#define SYMMEM_NV_HD inline
#define SYMMEM_NV_H inline
#else
#define SYMMEM_NV_HD static inline
#define SYMMEM_NV_H static inline
#endif

/* An NVSHMEM program's heap is GPU memory, also in a translation unit without device code (a .cpp
 * host file): every file that includes this header asks for it at load time. */
#if defined(__GNUC__)
__attribute__((constructor)) static void symmem_nv_request_gpu_heap(void) { symmem_request_gpu_heap(); }
#endif

/* Device paths exist only when nvcc compiles device code; host paths everywhere else. */
#if defined(__CUDA_ARCH__)
#define SYMMEM_NV_SIDE(dev, host) dev
#else
#define SYMMEM_NV_SIDE(dev, host) host
#endif
#define SYMMEM_NV_DEV ::symmem::device

/* ---- constants -------------------------------------------------------------------------------- */
#define NVSHMEM_MAJOR_VERSION 3
#define NVSHMEM_MINOR_VERSION 4
#define NVSHMEM_PATCH_VERSION 0
#define NVSHMEM_VENDOR_MAJOR_VERSION 3
#define NVSHMEM_VENDOR_MINOR_VERSION 4
#define NVSHMEM_VENDOR_PATCH_VERSION 0
#define NVSHMEM_MAX_NAME_LEN 256
#define NVSHMEM_VENDOR_STRING "symmem (NVSHMEM source compatibility)"
#define NVSHMEM_CMP_EQ SYMMEM_CMP_EQ
#define NVSHMEM_CMP_NE SYMMEM_CMP_NE
#define NVSHMEM_CMP_GT SYMMEM_CMP_GT
#define NVSHMEM_CMP_GE SYMMEM_CMP_GE
#define NVSHMEM_CMP_LT SYMMEM_CMP_LT
#define NVSHMEM_CMP_LE SYMMEM_CMP_LE
#define NVSHMEM_SIGNAL_SET SYMMEM_SIGNAL_SET
#define NVSHMEM_SIGNAL_ADD SYMMEM_SIGNAL_ADD
#define NVSHMEM_THREAD_SINGLE SYMMEM_THREAD_SINGLE
#define NVSHMEM_THREAD_FUNNELED SYMMEM_THREAD_FUNNELED
#define NVSHMEM_THREAD_SERIALIZED SYMMEM_THREAD_SERIALIZED
#define NVSHMEM_THREAD_MULTIPLE SYMMEM_THREAD_MULTIPLE
#define NVSHMEM_CMP_SENTINEL INT_MAX
#define NVSHMEM_THREAD_TYPE_SENTINEL INT_MAX

/* NVSHMEM's status codes (nvshmemx_* routines that return int). */
enum nvshmemx_status {
  NVSHMEMX_SUCCESS = 0,
  NVSHMEMX_ERROR_INVALID_VALUE,
  NVSHMEMX_ERROR_OUT_OF_MEMORY,
  NVSHMEMX_ERROR_NOT_SUPPORTED,
  NVSHMEMX_ERROR_SYMMETRY,
  NVSHMEMX_ERROR_GPU_NOT_SELECTED,
  NVSHMEMX_ERROR_COLLECTIVE_LAUNCH_FAILED,
  NVSHMEMX_ERROR_INTERNAL,
  NVSHMEMX_ERROR_SENTINEL = INT_MAX
};

/* The reporting macros NVSHMEM's public error header gives programs (same arguments and effect:
 * print where and what, then exit / jump / carry on). */
#define SYMMEM_NV_WHERE() fprintf(stderr, "%s:%s:%d: ", __FILE__, __func__, __LINE__)
#define NVSHMEMI_ERROR_PRINT(...) (SYMMEM_NV_WHERE(), fprintf(stderr, __VA_ARGS__), (void)fputc('\n', stderr))
#define NVSHMEMI_ERROR_EXIT(...) (NVSHMEMI_ERROR_PRINT(__VA_ARGS__), exit(-1))
#define NVSHMEMI_WARN_PRINT(...) (fputs("WARN: ", stdout), printf(__VA_ARGS__), (void)fputc('\n', stdout))
#define NVSHMEMI_ERROR_JMP(status, err, label, ...) \
  do {                                              \
    NVSHMEMI_ERROR_PRINT(__VA_ARGS__);              \
    (status) = (err);                               \
    goto label;                                     \
  } while (0)
#define NVSHMEMI_CHECK_ERROR_JMP(cond, status, err, label, ...) \
  do {                                                          \
    if (cond) NVSHMEMI_ERROR_JMP(status, err, label, __VA_ARGS__); \
  } while (0)
#define NVSHMEMI_NULL_ERROR_JMP(var, status, err, label, ...) \
  NVSHMEMI_CHECK_ERROR_JMP((var) == NULL, status, err, label, __VA_ARGS__)
#define NVSHMEMI_EQ_ERROR_JMP(status, expected, err, label, ...) \
  NVSHMEMI_CHECK_ERROR_JMP((status) == (expected), status, err, label, __VA_ARGS__)
#define NVSHMEMI_NE_ERROR_JMP(status, expected, err, label, ...) \
  NVSHMEMI_CHECK_ERROR_JMP((status) != (expected), status, err, label, __VA_ARGS__)
#define NVSHMEMI_NZ_ERROR_JMP(status, err, label, ...) \
  NVSHMEMI_CHECK_ERROR_JMP((status) != 0, status, err, label, __VA_ARGS__)
#define NVSHMEMI_NZ_EXIT(status, ...)               \
  do {                                              \
    if ((status) != 0) NVSHMEMI_ERROR_EXIT(__VA_ARGS__); \
  } while (0)
#define NVSHMEMI_NZ_SYSCHECK_EXIT(status, ...) NVSHMEMI_NZ_EXIT(status, __VA_ARGS__)

/* ---- teams: NVSHMEM's nvshmem_team_t is an index, valid in kernels too ------------------------ */
typedef int32_t nvshmem_team_t;
typedef nvshmem_team_t nvshmemx_team_t;
typedef uint64_t nvshmemx_team_uniqueid_t;
/* NVSHMEM 3's team configuration (its version 2, 64 bytes): the number of contexts and, for
 * nvshmemx_team_init, the unique id. */
typedef struct {
  int version;
  int num_contexts;
  nvshmemx_team_uniqueid_t uniqueid;
  char padding[48];
} nvshmem_team_config_t;
typedef enum {
  NVSHMEM_TEAM_INVALID = SYMMEM_TEAM_INDEX_INVALID,
  NVSHMEM_TEAM_WORLD = SYMMEM_TEAM_INDEX_WORLD,
  NVSHMEM_TEAM_WORLD_INDEX = SYMMEM_TEAM_INDEX_WORLD,
  NVSHMEM_TEAM_SHARED = SYMMEM_TEAM_INDEX_SHARED,
  NVSHMEM_TEAM_SHARED_INDEX = SYMMEM_TEAM_INDEX_SHARED,
  NVSHMEMX_TEAM_NODE = SYMMEM_TEAM_INDEX_NODE,
  NVSHMEM_TEAM_NODE_INDEX = SYMMEM_TEAM_INDEX_NODE,
  NVSHMEMX_TEAM_SAME_MYPE_NODE = SYMMEM_TEAM_INDEX_SAME_MYPE_NODE,
  NVSHMEM_TEAM_SAME_MYPE_NODE_INDEX = SYMMEM_TEAM_INDEX_SAME_MYPE_NODE,
  NVSHMEM_TEAMS_MIN = 6,
  NVSHMEM_TEAM_INDEX_MAX = INT_MAX
} nvshmem_team_id_t;
#define NVSHMEM_TEAM_NUM_CONTEXTS SYMMEM_TEAM_NUM_CONTEXTS
#define NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS SYMMEM_TEAM_NUM_CONTEXTS
#define NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID (1L << 1)
#define SYMMEM_NV_TEAM_CONFIG_VERSION ((2 << 16) + (int)sizeof(nvshmem_team_config_t))
#define NVSHMEM_TEAM_CONFIG_INITIALIZER {SYMMEM_NV_TEAM_CONFIG_VERSION, -1, UINT64_MAX, {0}}
/* The part of NVSHMEM's configuration symmem's teams take: the number of contexts. */
SYMMEM_NV_H const symmem_team_config_t *symmem_nv_team_config(const nvshmem_team_config_t *c, long mask,
                                                             symmem_team_config_t *out) {
  if (c == NULL || !(mask & NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS)) return NULL;
  out->num_contexts = c->num_contexts;
  return out;
}

SYMMEM_NV_HD int nvshmem_team_my_pe(nvshmem_team_t t) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::team_my_pe(t), t == NVSHMEM_TEAM_INVALID ? -1 : symmem_team_my_pe(symmem_team_of_index(t)));
}
SYMMEM_NV_HD int nvshmem_team_n_pes(nvshmem_team_t t) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::team_n_pes(t), t == NVSHMEM_TEAM_INVALID ? -1 : symmem_team_n_pes(symmem_team_of_index(t)));
}
SYMMEM_NV_HD int nvshmem_team_translate_pe(nvshmem_team_t a, int pe, nvshmem_team_t b) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::team_translate_pe(a, pe, b),
                        a < 0 || b < 0 ? -1 : symmem_team_translate_pe(symmem_team_of_index(a), pe, symmem_team_of_index(b)));
}
/* As NVSHMEM 3: the team's configuration whole (no mask); nothing for NVSHMEM_TEAM_INVALID. */
SYMMEM_NV_H void nvshmem_team_get_config(nvshmem_team_t t, nvshmem_team_config_t *config) {
  symmem_team_config_t c = {0};
  if (t == NVSHMEM_TEAM_INVALID || config == NULL ||
      symmem_team_get_config(symmem_team_of_index(t), SYMMEM_TEAM_NUM_CONTEXTS, &c) != 0)
    return;
  config->version = SYMMEM_NV_TEAM_CONFIG_VERSION;
  config->num_contexts = c.num_contexts;
  config->uniqueid = symmem_team_index_uniqueid(t);
}
SYMMEM_NV_H int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size,
                                           const nvshmem_team_config_t *config, long mask, nvshmem_team_t *out) {
  symmem_team_config_t c;
  return symmem_team_index_split_strided(parent, start, stride, size, symmem_nv_team_config(config, mask, &c), mask, out);
}
SYMMEM_NV_H int nvshmem_team_split_2d(nvshmem_team_t parent, int xrange, const nvshmem_team_config_t *xc, long xm,
                                      nvshmem_team_t *xt, const nvshmem_team_config_t *yc, long ym, nvshmem_team_t *yt) {
  symmem_team_config_t x, y;
  return symmem_team_index_split_2d(parent, xrange, symmem_nv_team_config(xc, xm, &x), xm, xt,
                                    symmem_nv_team_config(yc, ym, &y), ym, yt);
}
/* A team of any PEs in any order, without a parent (NVSHMEM 3.4): one PE gets the id, the program
 * hands it to the members, each sets config->uniqueid and calls nvshmemx_team_init with the team's
 * size and its own index in it. Collective over the members. */
SYMMEM_NV_H int nvshmemx_team_get_uniqueid(nvshmemx_team_uniqueid_t *uniqueid) {
  return symmem_team_get_uniqueid(uniqueid);
}
SYMMEM_NV_H int nvshmemx_team_init(nvshmem_team_t *team, nvshmem_team_config_t *config, long config_mask, int npes,
                                   int pe_idx_in_team) {
  symmem_team_config_t c;
  if (team != NULL) *team = NVSHMEM_TEAM_INVALID;
  if (config == NULL) return symmem_team_index_init(team, 0, npes, pe_idx_in_team, NULL, 0); /* reports it */
  return symmem_team_index_init(team, config->uniqueid, npes, pe_idx_in_team, symmem_nv_team_config(config, config_mask, &c),
                                config_mask);
}
SYMMEM_NV_H void nvshmem_team_destroy(nvshmem_team_t t) { symmem_team_index_destroy(t); }

/* ---- setup and queries ------------------------------------------------------------------------ */
SYMMEM_NV_H void nvshmem_init(void) {
  if (symmem_init() != SYMMEM_SUCCESS) symmem_global_exit(1); /* NVSHMEM's init has no return code */
}
SYMMEM_NV_H int nvshmem_init_thread(int requested, int *provided) { return symmem_init_thread(requested, provided); }
SYMMEM_NV_H void nvshmem_query_thread(int *provided) { symmem_query_thread(provided); }
SYMMEM_NV_H void nvshmem_finalize(void) { symmem_finalize(); }
SYMMEM_NV_H void nvshmem_global_exit(int status) { symmem_global_exit(status); }
SYMMEM_NV_H void nvshmem_info_get_version(int *major, int *minor) {
  *major = NVSHMEM_MAJOR_VERSION; /* the NVSHMEM API level these headers provide */
  *minor = NVSHMEM_MINOR_VERSION;
}
SYMMEM_NV_H void nvshmem_info_get_name(char *name) { symmem_info_get_name(name); }
SYMMEM_NV_HD int nvshmem_my_pe(void) { return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::my_pe(), symmem_my_pe()); }
SYMMEM_NV_HD int nvshmem_n_pes(void) { return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::n_pes(), symmem_n_pes()); }
SYMMEM_NV_HD void *nvshmem_ptr(const void *dest, int pe) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::ptr(dest, pe), symmem_ptr(dest, pe));
}
/* No NVLink multicast here (never on shared machines): no multicast address, as NVSHMEM answers
 * when NVLS is off. */
SYMMEM_NV_HD void *nvshmemx_mc_ptr(nvshmem_team_t team, const void *ptr) {
  (void)team;
  (void)ptr;
  return NULL;
}

/* ---- memory ----------------------------------------------------------------------------------- */
SYMMEM_NV_H void *nvshmem_malloc(size_t size) { return symmem_malloc(size); }
SYMMEM_NV_H void *nvshmem_calloc(size_t count, size_t size) { return symmem_calloc(count, size); }
SYMMEM_NV_H void *nvshmem_align(size_t alignment, size_t size) { return symmem_align(alignment, size); }
SYMMEM_NV_H void *nvshmem_realloc(void *ptr, size_t size) { return symmem_realloc(ptr, size); }
SYMMEM_NV_H void nvshmem_free(void *ptr) { symmem_free(ptr); }

/* ---- ordering, barriers and team sync --------------------------------------------------------- */
SYMMEM_NV_HD void nvshmem_fence(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::fence(), symmem_fence()); }
SYMMEM_NV_HD void nvshmem_quiet(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::quiet(), symmem_quiet()); }
SYMMEM_NV_HD void nvshmem_barrier_all(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::barrier_all(), symmem_barrier_all()); }
SYMMEM_NV_HD void nvshmem_sync_all(void) { SYMMEM_NV_SIDE(SYMMEM_NV_DEV::sync_all(), symmem_sync_all()); }
SYMMEM_NV_HD int nvshmem_barrier(nvshmem_team_t team) {
  return SYMMEM_NV_SIDE((SYMMEM_NV_DEV::team_barrier(team), 0),
                        symmem_collective_on_gpu_heap(SYMMEM_COLL_BARRIER, team, NULL, NULL, 0, 0, 0, 0));
}
SYMMEM_NV_HD int nvshmem_team_sync(nvshmem_team_t team) {
  return SYMMEM_NV_SIDE((SYMMEM_NV_DEV::team_sync(team), 0),
                        symmem_collective_on_gpu_heap(SYMMEM_COLL_SYNC, team, NULL, NULL, 0, 0, 0, 0));
}
SYMMEM_NV_HD int nvshmem_sync(nvshmem_team_t team) { return nvshmem_team_sync(team); }

/* ---- RMA -------------------------------------------------------------------------------------- */
SYMMEM_NV_HD void nvshmem_putmem(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem(d, s, n, pe), symmem_putmem(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_getmem(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::getmem(d, s, n, pe), symmem_getmem(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_putmem_nbi(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_nbi(d, s, n, pe), symmem_putmem_nbi(d, s, n, pe));
}
SYMMEM_NV_HD void nvshmem_getmem_nbi(void *d, const void *s, size_t n, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::getmem_nbi(d, s, n, pe), symmem_getmem_nbi(d, s, n, pe));
}

/* NVSHMEM's standard RMA types (OpenSHMEM's, without long double); half and bfloat16 in C++. */
#define SYMMEM_NV_RMA_TYPES_C(X)                                                                       \
  X(float, float) X(double, double) X(char, char) X(signed char, schar) X(short, short) X(int, int)    \
  X(long, long) X(long long, longlong) X(unsigned char, uchar) X(unsigned short, ushort)               \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int8_t, int8)       \
  X(int16_t, int16) X(int32_t, int32) X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16)          \
  X(uint32_t, uint32) X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)
#if defined(__cplusplus)
#define SYMMEM_NV_RMA_TYPES(X) SYMMEM_NV_RMA_TYPES_C(X) X(half, half) X(__nv_bfloat16, bfloat16)
#else
#define SYMMEM_NV_RMA_TYPES(X) SYMMEM_NV_RMA_TYPES_C(X)
#endif

/* Host side of the typed forms: byte copies (the typed symmem_ routines are the same copies). */
#define SYMMEM_NV_RMA(T, N)                                                                            \
  SYMMEM_NV_HD void nvshmem_##N##_p(T *d, T v, int pe) {                                              \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::p(d, v, pe), symmem_putmem(d, &v, sizeof(T), pe));                  \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_g(const T *s, int pe) {                                                \
    T v;                                                                                               \
    SYMMEM_NV_SIDE(v = SYMMEM_NV_DEV::g(s, pe), symmem_getmem(&v, s, sizeof(T), pe));                 \
    return v;                                                                                          \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_put(T *d, const T *s, size_t n, int pe) {                           \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::put(d, s, n, pe), symmem_putmem(d, s, n * sizeof(T), pe));          \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_get(T *d, const T *s, size_t n, int pe) {                           \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::get(d, s, n, pe), symmem_getmem(d, s, n * sizeof(T), pe));          \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_put_nbi(T *d, const T *s, size_t n, int pe) {                       \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::put_nbi(d, s, n, pe), symmem_putmem_nbi(d, s, n * sizeof(T), pe));  \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_get_nbi(T *d, const T *s, size_t n, int pe) {                       \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::get_nbi(d, s, n, pe), symmem_getmem_nbi(d, s, n * sizeof(T), pe));  \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::iput(d, s, dst, sst, n, pe), symmem_nv_iputmem(d, s, dst, sst, n, sizeof(T), pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::iget(d, s, dst, sst, n, pe), symmem_nv_igetmem(d, s, dst, sst, n, sizeof(T), pe)); \
  }
/* Strided host copies element by element through the typed symmem_ routines' byte path. */
SYMMEM_NV_H void symmem_nv_iputmem(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es, int pe) {
  for (size_t i = 0; i < n; ++i) {
    symmem_putmem((char *)d + (ptrdiff_t)i * dst * (ptrdiff_t)es, (const char *)s + (ptrdiff_t)i * sst * (ptrdiff_t)es, es, pe);
  }
}
SYMMEM_NV_H void symmem_nv_igetmem(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t es, int pe) {
  for (size_t i = 0; i < n; ++i) {
    symmem_getmem((char *)d + (ptrdiff_t)i * dst * (ptrdiff_t)es, (const char *)s + (ptrdiff_t)i * sst * (ptrdiff_t)es, es, pe);
  }
}
SYMMEM_NV_RMA_TYPES(SYMMEM_NV_RMA)
#undef SYMMEM_NV_RMA

/* Sized forms: nvshmem_put8 ... nvshmem_get128 and their _nbi forms. */
#define SYMMEM_NV_SIZED(B)                                                                             \
  SYMMEM_NV_HD void nvshmem_put##B(void *d, const void *s, size_t n, int pe) { nvshmem_putmem(d, s, n * (B / 8), pe); } \
  SYMMEM_NV_HD void nvshmem_get##B(void *d, const void *s, size_t n, int pe) { nvshmem_getmem(d, s, n * (B / 8), pe); } \
  SYMMEM_NV_HD void nvshmem_put##B##_nbi(void *d, const void *s, size_t n, int pe) {                 \
    nvshmem_putmem_nbi(d, s, n * (B / 8), pe);                                                         \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_get##B##_nbi(void *d, const void *s, size_t n, int pe) {                 \
    nvshmem_getmem_nbi(d, s, n * (B / 8), pe);                                                         \
  }
SYMMEM_NV_SIZED(8) SYMMEM_NV_SIZED(16) SYMMEM_NV_SIZED(32) SYMMEM_NV_SIZED(64) SYMMEM_NV_SIZED(128)
#undef SYMMEM_NV_SIZED

/* ---- atomics ---------------------------------------------------------------------------------- */
#define SYMMEM_NV_AMO_EXT(T, N)                                                                        \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch(const T *s, int pe) {                                     \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch(s, pe), symmem_##N##_atomic_fetch(s, pe));      \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_set(T *d, T v, int pe) {                                     \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_set(d, v, pe), symmem_##N##_atomic_set(d, v, pe));           \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_swap(T *d, T v, int pe) {                                       \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_swap(d, v, pe), symmem_##N##_atomic_swap(d, v, pe));  \
  }
SYMMEM_AMO_EXTENDED_TYPES(SYMMEM_NV_AMO_EXT)
#undef SYMMEM_NV_AMO_EXT

#define SYMMEM_NV_AMO_STD(T, N)                                                                        \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_compare_swap(T *d, T c, T v, int pe) {                          \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_compare_swap(d, c, v, pe),                            \
                          symmem_##N##_atomic_compare_swap(d, c, v, pe));                             \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_inc(T *d, int pe) {                                       \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_inc(d, pe), symmem_##N##_atomic_fetch_inc(d, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_inc(T *d, int pe) {                                          \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_inc(d, pe), symmem_##N##_atomic_inc(d, pe));                 \
  }                                                                                                    \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_add(T *d, T v, int pe) {                                  \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_add(d, v, pe), symmem_##N##_atomic_fetch_add(d, v, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_add(T *d, T v, int pe) {                                     \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_add(d, v, pe), symmem_##N##_atomic_add(d, v, pe));           \
  }
SYMMEM_AMO_STANDARD_TYPES(SYMMEM_NV_AMO_STD)
#undef SYMMEM_NV_AMO_STD

#define SYMMEM_NV_AMO_BIT1(T, N, OP)                                                                   \
  SYMMEM_NV_HD T nvshmem_##N##_atomic_fetch_##OP(T *d, T v, int pe) {                                 \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_fetch_##OP(d, v, pe), symmem_##N##_atomic_fetch_##OP(d, v, pe)); \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_atomic_##OP(T *d, T v, int pe) {                                    \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::atomic_##OP(d, v, pe), symmem_##N##_atomic_##OP(d, v, pe));         \
  }
#define SYMMEM_NV_AMO_BIT(T, N) SYMMEM_NV_AMO_BIT1(T, N, and) SYMMEM_NV_AMO_BIT1(T, N, or) SYMMEM_NV_AMO_BIT1(T, N, xor)
SYMMEM_AMO_BITWISE_TYPES(SYMMEM_NV_AMO_BIT)
#undef SYMMEM_NV_AMO_BIT
#undef SYMMEM_NV_AMO_BIT1

/* ---- signals and point-to-point synchronization ----------------------------------------------- */
SYMMEM_NV_HD void nvshmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_signal(d, s, n, sig, v, op, pe), symmem_putmem_signal(d, s, n, sig, v, op, pe));
}
SYMMEM_NV_HD void nvshmem_putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sig, uint64_t v, int op, int pe) {
  SYMMEM_NV_SIDE(SYMMEM_NV_DEV::putmem_signal_nbi(d, s, n, sig, v, op, pe),
                 symmem_putmem_signal_nbi(d, s, n, sig, v, op, pe));
}
/* NVSHMEM's parameter is not a pointer to const (its type, so a program's function pointer to it
 * compiles). */
SYMMEM_NV_HD uint64_t nvshmem_signal_fetch(uint64_t *sig) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::signal_fetch(sig), symmem_signal_fetch(sig));
}
SYMMEM_NV_HD uint64_t nvshmem_signal_wait_until(uint64_t *sig, int cmp, uint64_t v) {
  return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::signal_wait_until(sig, cmp, v), symmem_signal_wait_until(sig, cmp, v));
}
#define SYMMEM_NV_P2P(T, N)                                                                            \
  SYMMEM_NV_HD void nvshmem_##N##_wait_until(T *ivar, int cmp, T v) {                                 \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until(ivar, cmp, v), symmem_##N##_wait_until(ivar, cmp, v));   \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_test(T *ivar, int cmp, T v) {                                        \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test(ivar, cmp, v), symmem_##N##_test(ivar, cmp, v));        \
  }                                                                                                    \
  SYMMEM_NV_HD void nvshmem_##N##_wait_until_all(T *ivars, size_t n, const int *status, int cmp, T v) { \
    SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_all(ivars, n, status, cmp, v),                            \
                   symmem_##N##_wait_until_all(ivars, n, status, cmp, v));                             \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_wait_until_any(T *ivars, size_t n, const int *status, int cmp, T v) { \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::wait_until_any(ivars, n, status, cmp, v),                     \
                          symmem_##N##_wait_until_any(ivars, n, status, cmp, v));                      \
  }                                                                                                    \
  SYMMEM_NV_HD int nvshmem_##N##_test_all(T *ivars, size_t n, const int *status, int cmp, T v) {      \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_all(ivars, n, status, cmp, v),                           \
                          symmem_##N##_test_all(ivars, n, status, cmp, v));                            \
  }                                                                                                    \
  SYMMEM_NV_HD size_t nvshmem_##N##_test_any(T *ivars, size_t n, const int *status, int cmp, T v) {   \
    return SYMMEM_NV_SIDE(SYMMEM_NV_DEV::test_any(ivars, n, status, cmp, v),                           \
                          symmem_##N##_test_any(ivars, n, status, cmp, v));                            \
  }
SYMMEM_P2P_SYNC_TYPES(SYMMEM_NV_P2P)
#undef SYMMEM_NV_P2P

/* ---- names symmem does not support: a compile-time message, not a link error ------------------ */
#if defined(__cplusplus)
#define SYMMEM_NV_UNSUPPORTED(name, why)                                                               \
  template <typename... A>                                                                             \
  SYMMEM_NV_HD int name(A...) {                                                                        \
    static_assert(sizeof...(A) == ~size_t(0), "symmem: " #name " is not supported: " why);           \
    return 0;                                                                                          \
  }
SYMMEM_NV_UNSUPPORTED(nvshmem_ctx_create, "contexts are not supported on a GPU heap; use the default context")
SYMMEM_NV_UNSUPPORTED(nvshmem_ctx_destroy, "contexts are not supported on a GPU heap; use the default context")
#include "symmem/detail/nvshmem_coll.h"
#include "symmem/detail/nvshmem_more.h"
#endif

#include "nvshmemx.h"

#endif /* SYMMEM_NVSHMEM_H */
