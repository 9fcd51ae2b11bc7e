// symmem: the library's own kernels (kernels.cu), behind plain launch functions so that the host
// C++ files need no CUDA compiler.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "symmem/detail/device_state.h"

namespace symmem::cuda {

// The arguments of one stream collective (symmem_collective_on_stream).
struct coll_args {
  int kind;   // symmem_coll_kind
  int team;   // team index
  void *dest;
  const void *source;
  size_t nelems;  // elements of dtype (bytes for the moving collectives)
  int dtype;      // symmem_dtype
  int op;         // SYMMEM_RED_*
  int root;
  int team_size;
};

// Copies n bytes with a grid of at most max_blocks blocks, in stream order.
int launch_copy(void *dst, const void *src, size_t n, int max_blocks, CUstream stream);
// True when kernels of this GPU can read and write p (device, managed or mapped pinned memory).
bool device_accessible(const void *p);
// Each returns the launch's error (cudaError_t as int, 0 on success).
int launch_barrier(int team, CUstream stream);
// One collective in stream order: a fused one-block kernel for small sizes, barrier + grid-wide
// data kernel + barrier for large ones. max_blocks bounds the grid.
int launch_collective(const coll_args &a, int max_blocks, CUstream stream);
// Collective over team `parent`: *out = OR of the members' team_masks[0][0] (teams.cpp).
int launch_team_agree(int parent, uint64_t *out, CUstream stream);
// p in stream order: stores `size` bytes of `value` at dest (a peer address) with a strong store.
int launch_p(void *dest, uint64_t value, unsigned size, CUstream stream);
// putmem + signal in stream order: a grid copies, then one thread signals (release).
int launch_put_signal(void *dest, const void *src, size_t n, uint64_t *sig, uint64_t value, int op, int max_blocks,
                      CUstream stream);
// Waits (one thread, bounded) until every active ivars[i] compares true; see symmem_wait_until_on_stream.
int launch_wait_until(void *ivars, size_t n, const int *status, int cmp, const void *values, uint64_t value,
                      unsigned size, int is_signed, CUstream stream);
// Copies the job's state into the library's kernels (at init and finalize).
void publish_library_state(const symmem_device_state *s);
int launch_signal_wait(const uint64_t *sig, int cmp, uint64_t value, int gpu_scope, uint64_t limit_ns, int me,
                       CUstream stream);
int launch_signal_op(uint64_t *target, uint64_t value, int op, int gpu_scope, CUstream stream);
// One host AMO (op: mem::amo_op) on `target`; the old value lands in *result (host-mapped).
int launch_amo(int op, void *target, unsigned size, bool is_float, uint64_t a, uint64_t b, uint64_t *result,
               CUstream stream);
// A stream-ordered operation to a PE on another host: one thread issues it through the device
// API's proxy path (symmem/detail/proxy.cuh), so it takes its place in the stream.
enum remote_kind : int { remote_put, remote_get, remote_p, remote_signal, remote_put_signal, remote_quiet };
struct remote_args {
  int kind;  // remote_kind
  int pe;
  void *dest;
  const void *src;
  size_t n;        // bytes (remote_p: 1, 2, 4 or 8)
  uint64_t *sig;
  uint64_t value;  // remote_p: the value's bytes; signals: the signal
  int op;          // SYMMEM_SIGNAL_SET / _ADD
};
int launch_remote(const remote_args &a, CUstream stream);
// Loads the kernels above that a running kernel may wait for (kernels.cu says why); 0 or an error.
int preload_kernels();
const char *launch_error_text(int err);

}  // namespace symmem::cuda
