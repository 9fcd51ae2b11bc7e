// symmem GPU test: a program written to the NVSHMEM API (host and device names), compiled
// against symmem's <nvshmem.h>/<nvshmemx.h> with no change.
#include <nvshmem.h>
#include <nvshmemx.h>

#include "gpu_test.h"

__global__ void ring(float *dst, int n, int round) {
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  for (int i = threadIdx.x; i < n; i += blockDim.x) nvshmem_float_p(&dst[i], me * 1000.0f + i + round, (me + 1) % npes);
  nvshmemx_barrier_all_block();
}

// put with signal to the right neighbour, block-wide, then the signal waited for: with qps NULL
// the plain forms, else NVSHMEM's queue-pair forms (nvshmemx_qp_*) on qps[0].
__global__ void signal_ring(char *dst, const char *src, size_t n, uint64_t *sig, char *out, nvshmemx_qp_handle_t *qps) {
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes(), right = (me + 1) % npes;
  if (qps == nullptr) {
    nvshmemx_putmem_signal_nbi_block(dst, src, n, sig, 1, NVSHMEM_SIGNAL_ADD, right);
  } else {
    nvshmemx_qp_char_put_signal_nbi_block(dst, src, n, sig, 1, NVSHMEM_SIGNAL_ADD, right, qps[0]);
  }
  if (threadIdx.x == 0) {
    if (qps == nullptr) {
      nvshmem_quiet();
    } else {
      nvshmemx_qp_quiet(right, qps, 1);
    }
    nvshmem_uint64_wait_until(sig, NVSHMEM_CMP_GE, 1);
  }
  __syncthreads();
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = ((volatile char *)dst)[i];
  if (threadIdx.x == 0) nvshmem_sync_all();
}

// One signal_ring of `bytes` (pattern round `round`), poisoned first and checked byte by byte.
void signal_case(int me, int npes, size_t bytes, int round, nvshmemx_qp_handle_t *qps, const char *what) {
  const int left = (me - 1 + npes) % npes;
  char *src = (char *)nvshmem_malloc(bytes), *buf = (char *)nvshmem_malloc(bytes), *out = nullptr;
  uint64_t *sig = (uint64_t *)nvshmem_calloc(1, sizeof(uint64_t));
  CK(cudaMalloc(&out, bytes));
  auto mine = gt::pattern(me, round, bytes);
  CK(cudaMemcpy(src, mine.data(), bytes, cudaMemcpyHostToDevice));
  CK(cudaMemset(buf, gt::poison, bytes));
  CK(cudaMemset(out, gt::poison, bytes));
  cudaStream_t s;
  CK(cudaStreamCreate(&s));
  nvshmemx_barrier_all_on_stream(s);  // everyone's buffers are ready before anyone puts
  signal_ring<<<1, 256, 0, s>>>(buf, src, bytes, sig, out, qps);
  CK(cudaStreamSynchronize(s));
  gt::check_bytes(out, bytes, 0, gt::pattern(left, round, bytes), what, me);
  nvshmem_barrier_all();
  CK(cudaStreamDestroy(s));
  CK(cudaFree(out));
  nvshmem_free(sig);
  nvshmem_free(buf);
  nvshmem_free(src);
}

// NVSHMEM's queue-pair forms (nvshmemx_qp_*) with the handles nvshmemx_qp_create gave: p to the
// right neighbour, a block quiet on the pairs, a warpgroup barrier, then g of what arrived here.
__global__ void qp_ring(float *dst, int n, const nvshmemx_qp_handle_t *qps, int nq, float *got) {
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes(), right = (me + 1) % npes;
  const nvshmemx_qp_handle_t qp = qps[threadIdx.x % nq];
  for (int i = threadIdx.x; i < n; i += blockDim.x) nvshmemx_qp_float_p(&dst[i], me * 1000.0f + i, right, qp);
  nvshmemx_qp_quiet_block(right, const_cast<nvshmemx_qp_handle_t *>(qps), nq);
  if (threadIdx.x < 128) nvshmemx_barrier_warpgroup(NVSHMEM_TEAM_WORLD);  // one warpgroup per PE
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) got[i] = nvshmemx_qp_float_g(&dst[i], me, qp);
}

void qp_checks(int me, int npes) {
  const int left = (me - 1 + npes) % npes;
  nvshmemx_qp_handle_t *qps = nullptr;
  EXPECT(nvshmemx_qp_create(3, &qps) == 0 && qps != nullptr, "nvshmemx_qp_create(3)");
  for (int i = 0; i < 3; ++i) EXPECT(qps[i] == NVSHMEMX_QP_DEFAULT, "qp handle %d is %d", i, qps[i]);
  nvshmemx_qp_handle_t *none = nullptr;
  EXPECT(nvshmemx_qp_create(0, &none) != 0 && none == nullptr, "nvshmemx_qp_create(0) must fail");
  nvshmemx_qp_handle_t *dq = nullptr;
  CK(cudaMalloc(&dq, 3 * sizeof *dq));
  CK(cudaMemcpy(dq, qps, 3 * sizeof *dq, cudaMemcpyHostToDevice));
  const int n = 555;
  float *dst = (float *)nvshmem_malloc(n * sizeof(float)), *got = nullptr;
  CK(cudaMalloc(&got, n * sizeof(float)));
  CK(cudaMemset(dst, gt::poison, n * sizeof(float)));
  CK(cudaMemset(got, gt::poison, n * sizeof(float)));
  nvshmem_barrier_all();
  qp_ring<<<1, 256>>>(dst, n, dq, 3, got);
  CK(cudaDeviceSynchronize());
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), got, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == left * 1000.0f + i, "PE %d: nvshmemx_qp_float_p/g: [%d] = %g", me, i, h[i]);

  signal_case(me, npes, 70001, 3, dq, "nvshmemx_qp_char_put_signal_nbi_block");
  nvshmem_free(dst);
  CK(cudaFree(got));
  CK(cudaFree(dq));
  free(qps);
}

__global__ void through_ptr(int *x, int me) {
  int *r = (int *)nvshmem_ptr(x, (me + 1) % nvshmem_n_pes());
  if (r != nullptr) *r = 31 + me;
  else nvshmem_int_p(x, 31 + me, (me + 1) % nvshmem_n_pes());  // a PE on another host: no pointer
  nvshmem_fence();
}

// Device RMA to this PE itself at an address outside the heap (cudaMalloc memory), as the
// single-GPU reference of NVIDIA's jacobi sample does: a store and a load at that address. The
// device nvshmem_ptr of such an address is NULL, as NVSHMEM's.
__global__ void self_outside_heap(float *local, int n, float *got, int *ptr_null) {
  const int me = nvshmem_my_pe();
  for (int i = threadIdx.x; i < n; i += blockDim.x) nvshmem_float_p(local + i, 7.0f * i + me, me);
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) got[i] = nvshmem_float_g(local + i, me);
  if (threadIdx.x == 0) *ptr_null = nvshmem_ptr(local, me) == nullptr;
}

void self_outside_heap_check(int me) {
  const int n = 300;
  float *local = nullptr, *got = nullptr;
  int *ptr_null = nullptr;
  CK(cudaMalloc(&local, n * sizeof(float)));
  CK(cudaMalloc(&got, n * sizeof(float)));
  CK(cudaMalloc(&ptr_null, sizeof(int)));
  CK(cudaMemset(local, gt::poison, n * sizeof(float)));
  CK(cudaMemset(got, gt::poison, n * sizeof(float)));
  CK(cudaMemset(ptr_null, 0, sizeof(int)));
  self_outside_heap<<<1, 128>>>(local, n, got, ptr_null);
  CK(cudaDeviceSynchronize());
  std::vector<float> a(n), b(n);
  int pn = 0;
  CK(cudaMemcpy(a.data(), local, n * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(b.data(), got, n * sizeof(float), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(&pn, ptr_null, sizeof pn, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT(a[i] == 7.0f * i + me && b[i] == a[i], "PE %d: p/g to itself outside the heap: [%d] = %g, %g", me, i, a[i], b[i]);
  }
  EXPECT(pn == 1, "PE %d: device nvshmem_ptr of an address outside the heap is not NULL", me);
  CK(cudaFree(local));
  CK(cudaFree(got));
  CK(cudaFree(ptr_null));
}

// nvshmemx_buffer_register_symmetric of the program's own cuMemCreate memory, with heap
// allocations already live (the runtime's own and ours share the heap's first commit extent):
// before, registering was refused ("shares memory with live allocations"), which is what
// NVSHMEM's user-buffer example does. Each PE puts its rank into its right neighbour's buffer.
// The driver calls through the runtime's entry-point query, so the program does not link libcuda
// (without a GPU driver it must still start, and report itself skipped).
template <typename F>
F driver_fn(const char *name) {
  void *fn = nullptr;
  cudaDriverEntryPointQueryResult q{};
  CK(cudaGetDriverEntryPointByVersion(name, &fn, 12000, cudaEnableDefault, &q));
  EXPECT(fn != nullptr && q == cudaDriverEntryPointSuccess, "driver entry point %s", name);
  return reinterpret_cast<F>(fn);
}

void registered_buffer(int me, int npes) {
  auto cuMemCreate = driver_fn<decltype(&::cuMemCreate)>("cuMemCreate");
  auto cuMemAddressReserve = driver_fn<decltype(&::cuMemAddressReserve)>("cuMemAddressReserve");
  auto cuMemMap = driver_fn<decltype(&::cuMemMap)>("cuMemMap");
  auto cuMemSetAccess = driver_fn<decltype(&::cuMemSetAccess)>("cuMemSetAccess");
  auto cuMemUnmap = driver_fn<decltype(&::cuMemUnmap)>("cuMemUnmap");
  auto cuMemAddressFree = driver_fn<decltype(&::cuMemAddressFree)>("cuMemAddressFree");
  auto cuMemRelease = driver_fn<decltype(&::cuMemRelease)>("cuMemRelease");
  int dev = 0;
  CK(cudaGetDevice(&dev));
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = dev;
  prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  const size_t size = size_t(2) << 20;
  CUmemGenericAllocationHandle h;
  CUdeviceptr va = 0;
  EXPECT(cuMemCreate(&h, size, &prop, 0) == CUDA_SUCCESS, "cuMemCreate");
  EXPECT(cuMemAddressReserve(&va, size, 0, 0, 0) == CUDA_SUCCESS, "cuMemAddressReserve");
  EXPECT(cuMemMap(va, size, 0, h, 0) == CUDA_SUCCESS, "cuMemMap");
  CUmemAccessDesc acc = {};
  acc.location = prop.location;
  acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  EXPECT(cuMemSetAccess(va, size, &acc, 1) == CUDA_SUCCESS, "cuMemSetAccess");
  int *sym = (int *)nvshmemx_buffer_register_symmetric((void *)va, size, 0);
  EXPECT(sym != nullptr, "PE %d: nvshmemx_buffer_register_symmetric with live allocations", me);
  CK(cudaMemset(sym, gt::poison, size));
  nvshmem_barrier_all();
  const int left = (me - 1 + npes) % npes;
  nvshmem_int_p(sym + 1000, 500 + me, (me + 1) % npes);
  nvshmem_barrier_all();
  int got = 0;
  CK(cudaMemcpy(&got, (void *)(va + 1000 * sizeof(int)), sizeof got, cudaMemcpyDeviceToHost));  // the user's own view
  EXPECT(got == 500 + left, "PE %d: a put into the registered buffer: %d, want %d", me, got, 500 + left);
  EXPECT(nvshmemx_buffer_unregister_symmetric(sym, size) == 0, "nvshmemx_buffer_unregister_symmetric");
  EXPECT(cuMemUnmap(va, size) == CUDA_SUCCESS && cuMemAddressFree(va, size) == CUDA_SUCCESS &&
             cuMemRelease(h) == CUDA_SUCCESS, "releasing the buffer");
}

// NVSHMEM's tile API (nvshmemx::Tensor, tile_put/tile_get): a 40 x 24 float tile, contiguous along
// dimension 0 (stride (1, 40)) or dimension 1 (stride (24, 1)), put to the right neighbour or got
// from the left one by a thread, a warp, a warpgroup or a block; with bounds, only the elements
// whose start_coord + index lies below `boundary` move, the others stay poisoned.
constexpr int tile_m = 40, tile_n = 24;
__host__ __device__ inline float tile_value(int pe, int i, int j) { return pe * 10000.0f + i * 100.0f + j; }

template <int Form, bool Dim0, bool Bounded, bool Put>
__global__ void tile_rma(float *local, float *sym) {
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes();
  auto shape = nvshmemx::make_shape<ConstInt<tile_m>, int>(ConstInt<tile_m>{}, tile_n);
  auto layout0 = nvshmemx::make_layout(shape, nvshmemx::make_stride<ConstInt<1>, int>(ConstInt<1>{}, tile_m));
  auto layout1 = nvshmemx::make_layout(shape, nvshmemx::make_stride<int, ConstInt<1>>(tile_n, ConstInt<1>{}));
  auto run = [&](auto layout) {
    // put: this PE's local tile into the right neighbour's sym; get: the left neighbour's sym into local.
    nvshmemx::Tensor<float, decltype(layout)> src(Put ? local : sym, layout), dst(Put ? sym : local, layout);
    const int peer = Put ? (me + 1) % npes : (me - 1 + npes) % npes;
    auto start = nvshmemx::make_shape<int, int>(30, 20);
    auto bound = nvshmemx::make_shape<int, int>(64, 22);  // rows 0..33, columns 0..1 of the tile
    struct none {};
    constexpr auto algo = Put ? nvshmemx::tile_algo_t::PEER_PUSH_NBI : nvshmemx::tile_algo_t::PEER_PULL_NBI;
    if constexpr (Bounded) {
      using U = decltype(start);
      if constexpr (Form == 0) { if (threadIdx.x == 0) Put ? nvshmemx::tile_put<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0) : nvshmemx::tile_get<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0); }
      if constexpr (Form == 1) { if (threadIdx.x < 32) Put ? nvshmemx::tile_put_warp<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0) : nvshmemx::tile_get_warp<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0); }
      if constexpr (Form == 2) { if (threadIdx.x < 128) Put ? nvshmemx::tile_put_warpgroup<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0) : nvshmemx::tile_get_warpgroup<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0); }
      if constexpr (Form == 3) { Put ? nvshmemx::tile_put_block<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0) : nvshmemx::tile_get_block<decltype(src), decltype(dst), U, algo>(src, dst, start, bound, peer, 0); }
    } else {
      if constexpr (Form == 0) { if (threadIdx.x == 0) Put ? nvshmemx::tile_put<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0) : nvshmemx::tile_get<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0); }
      if constexpr (Form == 1) { if (threadIdx.x < 32) Put ? nvshmemx::tile_put_warp<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0) : nvshmemx::tile_get_warp<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0); }
      if constexpr (Form == 2) { if (threadIdx.x < 128) Put ? nvshmemx::tile_put_warpgroup<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0) : nvshmemx::tile_get_warpgroup<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0); }
      if constexpr (Form == 3) { Put ? nvshmemx::tile_put_block<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0) : nvshmemx::tile_get_block<decltype(src), decltype(dst), none, algo>(src, dst, {}, {}, peer, 0); }
    }
  };
  if constexpr (Dim0) run(layout0); else run(layout1);
  __syncthreads();
  if (threadIdx.x == 0) nvshmem_quiet();
}

template <int Form, bool Dim0, bool Bounded, bool Put>
void tile_case(int me, int npes, float *sym, float *local) {
  const int count = tile_m * tile_n;
  const int from = (me - 1 + npes) % npes;  // whose values land here: the left neighbour's, either way
  std::vector<float> mine(count);
  auto at = [](int i, int j) { return Dim0 ? i + j * tile_m : i * tile_n + j; };
  for (int i = 0; i < tile_m; ++i)
    for (int j = 0; j < tile_n; ++j) mine[at(i, j)] = tile_value(me, i, j);
  // The source (local for a put, sym for a get) holds this PE's values; the destination is poisoned.
  CK(cudaMemcpy(Put ? local : sym, mine.data(), count * sizeof(float), cudaMemcpyHostToDevice));
  CK(cudaMemset(Put ? sym : local, gt::poison, count * sizeof(float)));
  nvshmem_barrier_all();
  tile_rma<Form, Dim0, Bounded, Put><<<1, 256>>>(local, sym);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  std::vector<float> got(count);
  CK(cudaMemcpy(got.data(), Put ? sym : local, count * sizeof(float), cudaMemcpyDeviceToHost));
  float poison;
  std::memset(&poison, gt::poison, sizeof poison);
  for (int i = 0; i < tile_m; ++i) {
    for (int j = 0; j < tile_n; ++j) {
      const bool moves = !Bounded || (30 + i < 64 && 20 + j < 22);
      const float want = moves ? tile_value(from, i, j) : poison;
      EXPECT(std::memcmp(&got[at(i, j)], &want, sizeof want) == 0,
             "PE %d: tile_%s form %d, dimension %d contiguous%s: element (%d, %d) = %g, want %g", me, Put ? "put" : "get",
             Form, Dim0 ? 0 : 1, Bounded ? ", bounded" : "", i, j, got[at(i, j)], want);
    }
  }
}

void tile_checks(int me, int npes) {
  float *sym = (float *)nvshmem_malloc(tile_m * tile_n * sizeof(float)), *local = nullptr;
  CK(cudaMalloc(&local, tile_m * tile_n * sizeof(float)));
  tile_case<0, true, false, true>(me, npes, sym, local);
  tile_case<1, false, false, true>(me, npes, sym, local);
  tile_case<2, true, true, true>(me, npes, sym, local);
  tile_case<3, false, true, true>(me, npes, sym, local);
  tile_case<0, false, true, false>(me, npes, sym, local);
  tile_case<1, true, true, false>(me, npes, sym, local);
  tile_case<2, false, false, false>(me, npes, sym, local);
  tile_case<3, true, false, false>(me, npes, sym, local);
  CK(cudaFree(local));
  nvshmem_free(sym);
}

// A team from a unique id (nvshmemx_team_init) whose team order is the world's rotated by one:
// not evenly spaced in world PE numbers, so kernels find its members by list.
__global__ void uid_team_kernel(nvshmem_team_t t, int *src, int *all, int *sum, int *ok) {
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes(), idx = (me + 1) % npes;
  int good = nvshmem_team_my_pe(t) == idx && nvshmem_team_n_pes(t) == npes &&
             nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, me, t) == idx;
  for (int i = 0; i < npes; ++i) good &= nvshmem_team_translate_pe(t, i, NVSHMEM_TEAM_WORLD) == (i - 1 + npes) % npes;
  *src = 100 + me;
  nvshmem_barrier(t);
  nvshmem_int_fcollect(t, all, src, 1);
  nvshmem_int_sum_reduce(t, sum, src, 1);
  nvshmem_team_sync(t);
  *ok = good;
}

void uid_team_checks(int me, int npes) {
  auto *box = (nvshmemx_team_uniqueid_t *)nvshmem_malloc(sizeof(nvshmemx_team_uniqueid_t));
  int *buf = (int *)nvshmem_malloc((2 * npes + 4) * sizeof(int));
  if (me == 0) {
    nvshmemx_team_uniqueid_t id = 0;
    EXPECT(nvshmemx_team_get_uniqueid(&id) == 0, "nvshmemx_team_get_uniqueid");
    for (int p = 0; p < npes; ++p) nvshmem_putmem(box, &id, sizeof id, p);
  }
  nvshmem_barrier_all();
  nvshmem_team_config_t config = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  CK(cudaMemcpy(&config.uniqueid, box, sizeof config.uniqueid, cudaMemcpyDeviceToHost));
  nvshmem_team_t t = NVSHMEM_TEAM_INVALID;
  int rc = nvshmemx_team_init(&t, &config, NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID, npes, (me + 1) % npes);
  EXPECT(rc == 0 && t != NVSHMEM_TEAM_INVALID, "nvshmemx_team_init returned %d", rc);
  nvshmem_team_config_t got = NVSHMEM_TEAM_CONFIG_INITIALIZER;
  nvshmem_team_get_config(t, &got);
  EXPECT(got.uniqueid == config.uniqueid, "nvshmem_team_get_config: unique id");
  CK(cudaMemset(buf, 0xA5, (2 * npes + 4) * sizeof(int)));
  nvshmem_barrier_all();
  int *src = buf, *sum = buf + 1, *ok = buf + 2, *all = buf + 4;
  uid_team_kernel<<<1, 1>>>(t, src, all, sum, ok);
  CK(cudaDeviceSynchronize());
  std::vector<int> h(2 * npes + 4);
  CK(cudaMemcpy(h.data(), buf, h.size() * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT(h[2] == 1, "PE %d: team geometry in a kernel (team from a unique id)", me);
  EXPECT(h[1] == 100 * npes + npes * (npes - 1) / 2, "PE %d: sum_reduce on the team: %d", me, h[1]);
  for (int i = 0; i < npes; ++i)
    EXPECT(h[4 + i] == 100 + (i - 1 + npes) % npes, "PE %d: fcollect on the team: [%d] = %d", me, i, h[4 + i]);
  // and a host collective on a stream over it
  CK(cudaMemset(all, 0xA5, npes * sizeof(int)));
  nvshmemx_int_fcollect_on_stream(t, all, src, 1, 0);
  CK(cudaStreamSynchronize(0));
  CK(cudaMemcpy(h.data(), all, npes * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < npes; ++i)
    EXPECT(h[i] == 100 + (i - 1 + npes) % npes, "PE %d: fcollect_on_stream on the team: [%d] = %d", me, i, h[i]);
  nvshmem_team_destroy(t);
  nvshmem_barrier_all();
  nvshmem_free(buf);
  nvshmem_free(box);
}

int main() {
  gt::skip_without_gpu("nvshmem_compat_test");
  nvshmem_init();
  const int me = nvshmem_my_pe(), npes = nvshmem_n_pes(), left = (me - 1 + npes) % npes;
  const int n = 777;
  float *dst = (float *)nvshmem_align(256, n * sizeof(float));
  EXPECT(dst != nullptr && ((uintptr_t)dst & 255) == 0, "nvshmem_align");
  CK(cudaMemset(dst, 0xA5, n * sizeof(float)));
  nvshmem_barrier_all();
  ring<<<1, 128>>>(dst, n, 5);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  std::vector<float> h(n);
  CK(cudaMemcpy(h.data(), dst, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == left * 1000.0f + i + 5, "PE %d: nvshmem_float_p: [%d] = %g", me, i, h[i]);

  signal_case(me, npes, 100003, 1, nullptr, "nvshmemx_putmem_signal_nbi_block");

  int *x = (int *)nvshmem_malloc(sizeof(int));
  CK(cudaMemset(x, 0, sizeof(int)));
  nvshmem_barrier_all();
  // A pointer exactly to the PEs of this node (NVSHMEMX_TEAM_NODE); none to another host's.
  const bool same_node = nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, (me + 1) % npes, NVSHMEMX_TEAM_NODE) >= 0;
  EXPECT((nvshmem_ptr(x, (me + 1) % npes) != nullptr) == same_node, "host nvshmem_ptr (same node: %d)", same_node);
  through_ptr<<<1, 1>>>(x, me);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  EXPECT(nvshmem_int_g(x, me) == 31 + left, "PE %d: store through device nvshmem_ptr", me);
  nvshmem_int_atomic_add(x, 10, me);
  EXPECT(nvshmem_int_atomic_fetch(x, me) == 41 + left, "host atomic on GPU heap");

  registered_buffer(me, npes);
  self_outside_heap_check(me);
  tile_checks(me, npes);
  qp_checks(me, npes);
  uid_team_checks(me, npes);

  nvshmem_team_t even = NVSHMEM_TEAM_INVALID;
  int rc = nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, nullptr, 0, &even);
  EXPECT(rc == 0, "nvshmem_team_split_strided returned %d", rc);
  EXPECT((me % 2 == 0) == (even != NVSHMEM_TEAM_INVALID), "team membership");
  if (even != NVSHMEM_TEAM_INVALID) {
    EXPECT(nvshmem_team_n_pes(even) == (npes + 1) / 2 && nvshmem_team_my_pe(even) == me / 2, "team geometry");
    nvshmem_team_destroy(even);
  }
  nvshmem_barrier_all();
  nvshmem_free(x);
  nvshmem_free(dst);
  nvshmem_finalize();
  if (me == 0) std::printf("PASS nvshmem_compat_test (%d PEs)\n", npes);
  return 0;
}
