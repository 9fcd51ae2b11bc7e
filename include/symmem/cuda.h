/* symmem: the host API for a symmetric heap in GPU memory. Include it from CUDA programs (it needs
 * the CUDA runtime's headers); <symmem/device.cuh> includes it.
 *
 * With a GPU heap (docs/gpu.md) the plain host routines of <symmem/symmem.h> still work on it:
 * putmem/getmem/p/g go through the copy engine and complete before they return; atomics run as a
 * one-thread kernel with system-scope atomics (atomic with respect to device atomics); and
 * symmem_barrier_all also waits for the PE's outstanding GPU work. The *_on_stream routines
 * enqueue the operation on a CUDA stream instead and return at once.
 */
#ifndef SYMMEM_CUDA_H
#define SYMMEM_CUDA_H

#include <cuda_runtime_api.h>
#include <stdio.h>

#include "symmem/symmem.h"
#include "symmem/shmem15.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Asks for the heap in GPU memory under SYMMEM_HEAP=auto even when the program has no device code
 * (call before init; <nvshmem.h> does it from a constructor: NVSHMEM programs always have a GPU heap). */
SYMMEM_API void symmem_request_gpu_heap(void);
/* 1 when the symmetric heap is in GPU memory (pointers from symmem_malloc are device pointers). */
SYMMEM_API int symmem_heap_on_gpu(void);
/* The CUDA device ordinal this PE uses (-1 with a host heap). */
SYMMEM_API int symmem_gpu_device(void);

/* Stream-ordered RMA: the copy runs on `stream` after the work before it; nothing waits here. */
SYMMEM_API void symmem_putmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream);
SYMMEM_API void symmem_getmem_on_stream(void *dest, const void *source, size_t nbytes, int pe, cudaStream_t stream);
/* Completes, in stream order, the puts enqueued or issued by kernels before it on `stream`. */
SYMMEM_API void symmem_quiet_on_stream(cudaStream_t stream);
/* Collective, in stream order: a device-side dissemination barrier kernel (bounded spins). */
SYMMEM_API void symmem_barrier_all_on_stream(cudaStream_t stream);
SYMMEM_API void symmem_sync_all_on_stream(cudaStream_t stream);
/* In stream order: later work on `stream` starts once *sig_addr (this PE's) compares true. */
SYMMEM_API void symmem_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value, cudaStream_t stream);
/* In stream order: signal_op from the GPU (SYMMEM_SIGNAL_SET or SYMMEM_SIGNAL_ADD). */
SYMMEM_API void symmem_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t stream);

/* ---- teams kernels can name: NVSHMEM's nvshmem_team_t indices ---------------------------------- */
/* Index 0 is the world, 1 shared (this host), 2 node, 3 the PEs of every node with this PE's local
 * rank; splits take the lowest index free on every PE of the parent (agreed in the split). */
#define SYMMEM_TEAM_INDEX_WORLD 0
#define SYMMEM_TEAM_INDEX_SHARED 1
#define SYMMEM_TEAM_INDEX_NODE 2
#define SYMMEM_TEAM_INDEX_SAME_MYPE_NODE 3
#define SYMMEM_TEAM_INDEX_INVALID (-1)
/* The team of an index (SYMMEM_TEAM_INVALID when none); -1 when the team has no index. */
SYMMEM_API symmem_team_t symmem_team_of_index(int index);
SYMMEM_API int symmem_team_index_of(symmem_team_t team);
/* Collective over the parent, like symmem_team_split_strided / _2d; new teams get indices. */
SYMMEM_API int symmem_team_index_split_strided(int parent, int start, int stride, int size,
                                               const symmem_team_config_t *config, long config_mask, int *new_index);
SYMMEM_API int symmem_team_index_split_2d(int parent, int xrange, const symmem_team_config_t *xaxis_config,
                                          long xaxis_mask, int *xaxis_index, const symmem_team_config_t *yaxis_config,
                                          long yaxis_mask, int *yaxis_index);
/* Like symmem_team_init (a team from a unique id, collective over its members); the team gets the
 * lowest index free on every member. Its members may be any world PEs in any order, in kernels too. */
SYMMEM_API int symmem_team_index_init(int *index, uint64_t uniqueid, int npes, int pe_idx_in_team,
                                      const symmem_team_config_t *config, long config_mask);
/* The unique id a team was made from (symmem_team_index_init); UINT64_MAX for any other team. */
SYMMEM_API uint64_t symmem_team_index_uniqueid(int index);
SYMMEM_API void symmem_team_index_destroy(int index);

/* ---- collectives on a GPU heap ---------------------------------------------------------------- */
/* Reduction operators (device templates and the stream collectives). */
#define SYMMEM_RED_SUM 0
#define SYMMEM_RED_PROD 1
#define SYMMEM_RED_MIN 2
#define SYMMEM_RED_MAX 3
#define SYMMEM_RED_AND 4
#define SYMMEM_RED_OR 5
#define SYMMEM_RED_XOR 6
#define SYMMEM_RED_MAXLOC 7 /* double2 (value, index): the largest value, the lowest index on ties */
#define SYMMEM_RED_MINLOC 8
/* Element types of the stream collectives. */
enum symmem_dtype {
  SYMMEM_DT_CHAR, SYMMEM_DT_SCHAR, SYMMEM_DT_UCHAR, SYMMEM_DT_SHORT, SYMMEM_DT_USHORT, SYMMEM_DT_INT,
  SYMMEM_DT_UINT, SYMMEM_DT_LONG, SYMMEM_DT_ULONG, SYMMEM_DT_LONGLONG, SYMMEM_DT_ULONGLONG, SYMMEM_DT_FLOAT,
  SYMMEM_DT_DOUBLE, SYMMEM_DT_HALF, SYMMEM_DT_BFLOAT16, SYMMEM_DT_DOUBLE2, SYMMEM_DT_COUNT
};
/* Collective kinds. */
enum symmem_coll_kind {
  SYMMEM_COLL_BARRIER, SYMMEM_COLL_SYNC, SYMMEM_COLL_BROADCAST, SYMMEM_COLL_FCOLLECT, SYMMEM_COLL_ALLTOALL,
  SYMMEM_COLL_REDUCE, SYMMEM_COLL_REDUCESCATTER
};
/* In stream order over team index `team` (nelems elements of `dtype`; `op` a SYMMEM_RED_*,
 * `root` for broadcast). Returns 0, or fails the job with a message on bad arguments. */
SYMMEM_API int symmem_collective_on_stream(int kind, int team, void *dest, const void *source, size_t nelems,
                                           int dtype, int op, int root, cudaStream_t stream);
/* The same from the host: waits for this PE's GPU work, runs the collective, returns when done. */
SYMMEM_API int symmem_collective_on_gpu_heap(int kind, int team, void *dest, const void *source, size_t nelems,
                                             int dtype, int op, int root);
/* Nonblocking stream-ordered put, and put with signal (NVSHMEM's *_nbi_on_stream). */
SYMMEM_API void symmem_putmem_signal_on_stream(void *dest, const void *source, size_t nbytes, uint64_t *sig_addr,
                                               uint64_t signal, int sig_op, int pe, cudaStream_t stream);

/* In stream order: later work on `stream` starts once every ivars[i] (status[i] == 0 or status
 * NULL) compares true with values[i] (values NULL: with `value`). Elements of `size` bytes (2, 4
 * or 8), signed or not; ivars, status and values in memory this GPU can read. */
SYMMEM_API void symmem_wait_until_on_stream(void *ivars, size_t n, const int *status, int cmp, const void *values,
                                            uint64_t value, size_t size, int is_signed, cudaStream_t stream);
/* p and g in stream order: p copies `size` bytes of *value at the call; g waits for the stream and
 * stores the value at *value. */
SYMMEM_API void symmem_p_on_stream(void *dest, const void *value, size_t size, int pe, cudaStream_t stream);
SYMMEM_API void symmem_g_on_stream(void *value, const void *source, size_t size, int pe, cudaStream_t stream);
/* Copies the job's device state into a module loaded with cuModuleLoad (CUmodule) or a library
 * loaded with cuLibraryLoad* (CUlibrary) whose code includes <symmem/device.cuh>: such a module is
 * not registered by a constructor. 0, also when the module has no symmem device code. */
SYMMEM_API int symmem_cumodule_init(void *cu_module);
SYMMEM_API int symmem_culibrary_init(void *cu_library);
/* NVSHMEM's nvshmemx_qp_create (collective): *out gets num_qps handles, each the default queue
 * pair (NVSHMEMX_QP_DEFAULT, 1), in memory from calloc that the caller frees; 0, or an error with a
 * message for a NULL out or num_qps < 1. */
SYMMEM_API int symmem_qp_create(int num_qps, int **out);

/* ---- buffers the program allocated itself ----------------------------------------------------- */
/* Local buffers (cudaMalloc, cuMemCreate, pinned host memory) need no registration for RMA here:
 * kernels and the copy engine reach them directly. These check that the range is memory this GPU
 * can access and return 0, or 1 with a message. */
SYMMEM_API int symmem_buffer_register(void *addr, size_t length);
SYMMEM_API int symmem_buffer_unregister(void *addr);
/* Collective: maps the cuMemCreate allocation at addr (POSIX-fd shareable, `length` a multiple of
 * the 2 MiB granule) into the symmetric heap on every PE and returns its symmetric address (NULL
 * with a message on failure). Unregister is collective too. */
SYMMEM_API void *symmem_buffer_register_symmetric(void *addr, size_t length, int flags);
SYMMEM_API int symmem_buffer_unregister_symmetric(void *mapped, size_t length);

#ifdef __cplusplus
}
#endif

/* Largest grid of `func` (block threads, dynamic shared memory) whose blocks can all be resident
 * at once: what a cooperative launch may use. 0 when the GPU has no cooperative launch. */
static inline cudaError_t symmem_collective_launch_query_gridsize(const void *func, dim3 block, size_t shmem,
                                                                  int *gridsize) {
  int dev = 0, sms = 0, per_sm = 0, coop = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e == cudaSuccess) e = cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev);
  if (e == cudaSuccess) {
    e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, func, (int)(block.x * block.y * block.z), shmem);
  }
  if (e == cudaSuccess && gridsize != NULL) *gridsize = coop ? per_sm * sms : 0;
  return e;
}

/* Cooperative launch for kernels that synchronise across blocks (device barriers called by several
 * blocks, grid-wide waits): every block is resident at once, or the launch fails with a message.
 * Inline on purpose: `func` is registered with the CUDA runtime linked into the program, which may
 * be a different copy from the library's. */
static inline cudaError_t symmem_collective_launch(const void *func, dim3 grid, dim3 block, void **args, size_t shmem,
                                                   cudaStream_t stream) {
  int max_grid = 0, dev = 0;
  cudaError_t e = symmem_collective_launch_query_gridsize(func, block, shmem, &max_grid);
  if (e != cudaSuccess) return e;
  const unsigned long long blocks = (unsigned long long)grid.x * grid.y * grid.z;
  if (blocks > (unsigned long long)max_grid) {
    (void)cudaGetDevice(&dev);
    fprintf(stderr,
            "symmem: collective_launch: %llu blocks cannot all be resident on GPU %d (at most %d of %u threads%s); "
            "launch fewer blocks or fewer threads per block\n",
            blocks, dev, max_grid, block.x * block.y * block.z, max_grid == 0 ? ": no cooperative launch" : "");
    return cudaErrorCooperativeLaunchTooLarge;
  }
  return cudaLaunchCooperativeKernel(func, grid, block, args, shmem, stream);
}

#endif /* SYMMEM_CUDA_H */
