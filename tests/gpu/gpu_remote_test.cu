// symmem GPU test: kernels reach PEs on other hosts through the proxy ring (symmem/detail/proxy.cuh).
//
// Every PE targets its "far" partner (me + n/2) mod n, on another host when the job spans two
// hosts of n/2 PEs each (symmem-run --hosts a:1,b:1 or a:2,b:2 on one GPU: the PEs are remote to
// each other), and with 4 PEs or more also its neighbour me^1 (mapped: the same host). On one host
// every target is mapped and the test checks the load/store path the same way. Sections, each on
// buffers poisoned first and checked exactly, per element, with what was expected and what came:
//   rma      p, g of every standard type (p from one thread, from a warp's lanes at consecutive
//            elements, from lanes 5 apart); put/get blocking and _nbi, thread, warp and block
//            forms; iput/iget; a put and a get from a kernel's local memory (carried in the ring)
//   amo      every AMO form on 4- and 8-byte integers (fetching and not), fetch/set/swap/cswap on
//            float and double: returned values and final values
//   signal   signal_op SET and ADD, put_signal (thread, warp, block; blocking and _nbi), each
//            waited for by the target in a concurrent kernel block and its data checked
//   counter  one 64-bit and one 32-bit counter on PE 0 hammered by 256 GPU threads of every PE
//            (remote ones through the proxy, node-local ones with device atomics) while every PE's
//            host thread adds with host atomics: the totals must be exact
//   litmus   store buffering: p + quiet + local read, and local store + quiet + g from the partner:
//            both reads zero is forbidden; message passing: put_nbi + fence + p(flag), the target
//            waits on the flag and checks the message
//   nbi      NVSHMEM's typed and sized non-blocking warp and block puts (and put_signal_nbi_block) to a PE on
//            another host stay posted until quiet: the ring's completion count does not move before
//            the kernel's quiet (they were the blocking forms, a proxy round trip each); data checked
//   barrier  barrier_all / sync_all / team_sync in a loop, each round's data put before it checked
//            after it
//   stream   putmem/getmem/p/g/signal_op/putmem_signal/quiet/barrier_all _on_stream
//   coll     host and on-stream collectives on the GPU heap over the world team: broadcast (every
//            root), fcollect, alltoall, reductions (int, float, half, double2 maxloc, in place),
//            reducescatter
//   dcoll    device fcollect and alltoall (block) and broadcast (thread, every root) over the world
//            team: pushed through the proxy ring to members on other hosts
//   dred     device reductions (thread, warp, block; int, float, half, double2 maxloc; in place;
//            reducescatter) over the world team: fetched through the ring from other hosts
// Exit 0 pass, 1 fail (the first failure is printed with PE, section, element, expected and got).
#include <symmem/device.cuh>
#include <nvshmemx.h>  // the NVSHMEM names of the nbi section

#include <algorithm>
#include <cstdarg>
#include <string>
#include <type_traits>

#include "gpu_test.h"

namespace sd = symmem::device;

namespace {

constexpr int N = 64;     // elements per RMA region
constexpr int REG = N + 1; // a region and its guard element (must stay poison)
enum region { r_p, r_p_warp, r_p_perm, r_put, r_put_nbi, r_put_warp, r_put_block, r_put_warp_nbi, r_put_block_nbi, r_iput, r_put_local,
              r_g, r_get, r_get_nbi, r_get_warp, r_get_block, r_iget, r_get_local, r_src, n_regions };
const char *region_name[] = {"p", "p from a warp's lanes", "p from lanes 5 elements apart", "put", "put_nbi", "put_warp", "put_block", "put_nbi_warp", "put_nbi_block", "iput",
                             "put from local memory", "g", "get", "get_nbi", "get_warp", "get_block", "iget",
                             "get into local memory", "source"};
constexpr int local_n = 5;       // elements of a get into local memory (inline: at most 48 bytes)
constexpr int local_put_n = 45;  // elements of a put from local memory (carried in the ring: up to 1064 bytes)

int g_me = -1, g_npes = 0;
bool g_failed = false;

void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void failf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  std::fprintf(stderr, "FAIL PE %d: ", g_me);
  std::vfprintf(stderr, fmt, ap);
  std::fprintf(stderr, "\n");
  va_end(ap);
  g_failed = true;
}

bool is_remote(int pe) { return symmem_team_translate_pe(symmem_team_world, pe, symmem_team_shared) < 0; }

// The value PE `pe` sends as element i of type index `ti`: never the poison pattern.
template <typename T>
__host__ __device__ T value_of(int pe, int i, int ti) {
  if constexpr (std::is_floating_point<T>::value) {
    return T(pe * 1000 + i * 3 + ti) + T(0.25);
  } else if constexpr (sizeof(T) == 1) {
    return T((pe * 29 + i * 3 + ti + 1) & 0x7f);
  } else {
    return T((uint64_t(pe + 1) << (sizeof(T) * 8 - 8)) | uint64_t(i * 5 + ti * 131 + 1));
  }
}

template <typename T>
std::string show(T v) {
  char b[96];
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof(T));
  if constexpr (std::is_floating_point<T>::value) std::snprintf(b, sizeof b, "%g (bits %#llx)", double(v), (unsigned long long)bits);
  else std::snprintf(b, sizeof b, "%lld (%#llx)", (long long)v, (unsigned long long)bits);
  return b;
}

template <typename T>
bool same(T a, T b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <typename T>
T poison_value() {
  T v;
  std::memset(&v, gt::poison, sizeof v);
  return v;
}

// ---- rma ------------------------------------------------------------------------------------------
template <typename T>
__global__ void rma_put_kernel(T *area, int to, int ti) {
  const int me = sd::my_pe(), tid = threadIdx.x;
  T *reg[n_regions];
  for (int r = 0; r < n_regions; ++r) reg[r] = area + r * REG;
  if (tid == 0) {
    for (int i = 0; i < N; ++i) sd::p(&reg[r_p][i], value_of<T>(me, i, ti), to);
    sd::put(reg[r_put], reg[r_src], N, to);
    sd::put_nbi(reg[r_put_nbi], reg[r_src], N, to);
    sd::iput(reg[r_iput], reg[r_src], 1, 1, N, to);
    T local[local_put_n];
    for (int i = 0; i < local_put_n; ++i) local[i] = value_of<T>(me, i, ti);
    sd::put(reg[r_put_local], local, local_put_n, to);
  }
  // Each of N threads stores one element: consecutive in lane order (one request a warp to a
  // PE on another host), then 5 apart (a request a lane).
  if (tid < N) {
    sd::p(&reg[r_p_warp][tid], value_of<T>(me, tid, ti), to);
    const int j = (tid * 5) % N;
    sd::p(&reg[r_p_perm][j], value_of<T>(me, j, ti), to);
  }
  if (tid < 32) {
    sd::put_warp(reg[r_put_warp], reg[r_src], N, to);
    sd::putmem_nbi_warp(reg[r_put_warp_nbi], reg[r_src], N * sizeof(T), to);
  }
  sd::put_block(reg[r_put_block], reg[r_src], N, to);
  sd::putmem_nbi_block(reg[r_put_block_nbi], reg[r_src], N * sizeof(T), to);
  if (tid == 0) sd::quiet();
}

template <typename T>
__global__ void rma_get_kernel(T *area, int from) {
  const int tid = threadIdx.x;
  T *reg[n_regions];
  for (int r = 0; r < n_regions; ++r) reg[r] = area + r * REG;
  if (tid == 0) {
    for (int i = 0; i < N; ++i) reg[r_g][i] = sd::g(&reg[r_src][i], from);
    sd::get(reg[r_get], reg[r_src], N, from);
    sd::get_nbi(reg[r_get_nbi], reg[r_src], N, from);
    sd::quiet();
    sd::iget(reg[r_iget], reg[r_src], 1, 1, N, from);
    T local[local_n];
    sd::get(local, reg[r_src], local_n, from);
    for (int i = 0; i < local_n; ++i) reg[r_get_local][i] = local[i];
  }
  if (tid < 32) sd::get_warp(reg[r_get_warp], reg[r_src], N, from);
  sd::get_block(reg[r_get_block], reg[r_src], N, from);
}

template <typename T>
void check_region(const std::vector<T> &h, int r, int n, int sender, int ti, const char *type, int target) {
  for (int i = 0; i <= N; ++i) {
    const T want = i < n ? value_of<T>(sender, i, ti) : poison_value<T>();
    const T got = h[size_t(r) * REG + i];
    if (!same(got, want)) {
      failf("rma %s<%s> (PE %d %s PE %d): element %d of %d: expected %s, got %s%s", region_name[r], type, sender,
            r < r_g ? "->" : "read by", target, i, n, show(want).c_str(), show(got).c_str(),
            i == n ? " (the element past the end must stay poison)" : "");
      return;
    }
  }
}

template <typename T>
void rma_type(int ti, const char *type, int to) {
  const int me = g_me;
  T *area = static_cast<T *>(symmem_malloc(sizeof(T) * REG * n_regions));
  CK(cudaMemset(area, gt::poison, sizeof(T) * REG * n_regions));
  std::vector<T> src(REG, poison_value<T>());
  for (int i = 0; i < N; ++i) src[i] = value_of<T>(me, i, ti);
  CK(cudaMemcpy(area + r_src * REG, src.data(), sizeof(T) * REG, cudaMemcpyHostToDevice));
  symmem_barrier_all();
  rma_put_kernel<T><<<1, 128>>>(area, to, ti);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  const int from = to;  // the pairings are symmetric
  std::vector<T> h(size_t(REG) * n_regions);
  CK(cudaMemcpy(h.data(), area, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
  for (int r = r_p; r <= r_put_local; ++r) check_region(h, r, r == r_put_local ? local_put_n : N, from, ti, type, me);
  symmem_barrier_all();
  rma_get_kernel<T><<<1, 128>>>(area, from);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), area, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
  for (int r = r_g; r <= r_get_local; ++r) check_region(h, r, r == r_get_local ? local_n : N, from, ti, type, me);
  symmem_barrier_all();
  symmem_free(area);
}

void rma(int to) {
  int ti = 0;
#define RMA_TYPE(T) rma_type<T>(ti++, #T, to);
  RMA_TYPE(char) RMA_TYPE(signed char) RMA_TYPE(short) RMA_TYPE(int) RMA_TYPE(long) RMA_TYPE(long long)
  RMA_TYPE(unsigned char) RMA_TYPE(unsigned short) RMA_TYPE(unsigned int) RMA_TYPE(unsigned long)
  RMA_TYPE(unsigned long long) RMA_TYPE(int8_t) RMA_TYPE(int16_t) RMA_TYPE(int32_t) RMA_TYPE(int64_t)
  RMA_TYPE(uint8_t) RMA_TYPE(uint16_t) RMA_TYPE(uint32_t) RMA_TYPE(uint64_t) RMA_TYPE(size_t) RMA_TYPE(ptrdiff_t)
  RMA_TYPE(float) RMA_TYPE(double)
#undef RMA_TYPE
}

// ---- amo ------------------------------------------------------------------------------------------
constexpr int n_amo = 12;

template <typename T>
__host__ __device__ T amo_init(int k) { return T(1000 + 17 * k); }

template <typename T>
__global__ void amo_int_kernel(T *x, T *ret, int to) {
  const T ma = T(0x0ff0), mb = T(0x0f3c), mo = T(0x5000), mx = T(0x0a0a);
  ret[0] = sd::atomic_fetch_add(&x[0], T(5), to);
  ret[1] = sd::atomic_fetch_inc(&x[0], to);
  sd::atomic_add(&x[1], T(7), to);
  sd::atomic_inc(&x[1], to);
  sd::quiet();
  ret[2] = sd::atomic_fetch(&x[1], to);
  ret[3] = sd::atomic_swap(&x[2], T(11), to);
  sd::atomic_set(&x[3], T(12), to);
  sd::quiet();
  ret[4] = sd::atomic_fetch(&x[3], to);
  ret[5] = sd::atomic_compare_swap(&x[4], amo_init<T>(4), T(13), to);
  ret[6] = sd::atomic_compare_swap(&x[4], T(999), T(14), to);
  ret[7] = sd::atomic_fetch_and(&x[5], ma, to);
  sd::atomic_and(&x[5], mb, to);
  ret[8] = sd::atomic_fetch_or(&x[6], mo, to);
  sd::atomic_or(&x[6], T(1), to);
  ret[9] = sd::atomic_fetch_xor(&x[7], mx, to);
  sd::atomic_xor(&x[7], mx, to);
  sd::atomic_xor(&x[7], T(3), to);
  sd::quiet();
  ret[10] = sd::atomic_fetch(&x[5], to);
  ret[11] = sd::atomic_fetch(&x[7], to);
}

template <typename T>
void amo_int_type(const char *type, int to) {
  T *x = static_cast<T *>(symmem_malloc(sizeof(T) * n_amo * 2));  // x, then the returned values
  std::vector<T> init(n_amo * 2, poison_value<T>());
  for (int k = 0; k < n_amo; ++k) init[k] = amo_init<T>(k);
  CK(cudaMemcpy(x, init.data(), sizeof(T) * init.size(), cudaMemcpyHostToDevice));
  symmem_barrier_all();
  amo_int_kernel<T><<<1, 1>>>(x, x + n_amo, to);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  std::vector<T> h(n_amo * 2);
  CK(cudaMemcpy(h.data(), x, sizeof(T) * h.size(), cudaMemcpyDeviceToHost));
  auto I = [](int k) { return amo_init<T>(k); };
  const T ma = T(0x0ff0), mb = T(0x0f3c), mo = T(0x5000), mx = T(0x0a0a);
  const T want_ret[n_amo] = {I(0), T(I(0) + 5), T(I(1) + 8), I(2), T(12), I(4), T(13), I(5), I(6), I(7),
                             T(I(5) & ma & mb), T(I(7) ^ T(3))};
  const char *ret_name[n_amo] = {"fetch_add", "fetch_inc", "fetch after add+inc", "swap", "fetch after set",
                                 "compare_swap (match)", "compare_swap (no match)", "fetch_and", "fetch_or",
                                 "fetch_xor", "fetch after and", "fetch after xor"};
  for (int k = 0; k < n_amo; ++k) {
    if (!same(h[n_amo + k], want_ret[k])) {
      failf("amo<%s> to PE %d: %s returned %s, expected %s", type, to, ret_name[k], show(h[n_amo + k]).c_str(),
            show(want_ret[k]).c_str());
    }
  }
  // Final values here, written by the partner (the same sequence).
  const T want_x[8] = {T(I(0) + 6), T(I(1) + 8), T(11), T(12), T(13), T(I(5) & ma & mb), T(I(6) | mo | T(1)), T(I(7) ^ T(3))};
  for (int k = 0; k < 8; ++k) {
    if (!same(h[k], want_x[k])) {
      failf("amo<%s> from PE %d: word %d holds %s, expected %s", type, to, k, show(h[k]).c_str(), show(want_x[k]).c_str());
    }
  }
  symmem_barrier_all();
  symmem_free(x);
}

template <typename T>
__global__ void amo_float_kernel(T *x, T *ret, int to) {
  ret[0] = sd::atomic_fetch(&x[0], to);
  ret[1] = sd::atomic_swap(&x[1], T(2.5), to);
  sd::atomic_set(&x[2], T(-3.75), to);
  sd::quiet();
  ret[2] = sd::atomic_fetch(&x[2], to);
  ret[3] = sd::atomic_compare_swap(&x[3], T(7.5), T(8.5), to);
}

template <typename T>
void amo_float_type(const char *type, int to) {
  T *x = static_cast<T *>(symmem_malloc(sizeof(T) * 8));
  const T init[8] = {T(1.5), T(2.25), T(3.125), T(7.5), T(0), T(0), T(0), T(0)};
  CK(cudaMemcpy(x, init, sizeof init, cudaMemcpyHostToDevice));
  symmem_barrier_all();
  amo_float_kernel<T><<<1, 1>>>(x, x + 4, to);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  T h[8];
  CK(cudaMemcpy(h, x, sizeof h, cudaMemcpyDeviceToHost));
  const T want[8] = {T(1.5), T(2.5), T(-3.75), T(8.5), T(1.5), T(2.25), T(-3.75), T(7.5)};
  const char *what[8] = {"word 0 after fetch", "word 1 after swap", "word 2 after set", "word 3 after compare_swap",
                         "fetch's result", "swap's result", "fetch after set", "compare_swap's result"};
  for (int k = 0; k < 8; ++k) {
    if (!same(h[k], want[k])) failf("amo<%s> with PE %d: %s is %s, expected %s", type, to, what[k], show(h[k]).c_str(), show(want[k]).c_str());
  }
  symmem_barrier_all();
  symmem_free(x);
}

void amo(int to) {
#define AMO_INT(T) amo_int_type<T>(#T, to);
  AMO_INT(int) AMO_INT(long) AMO_INT(long long) AMO_INT(unsigned int) AMO_INT(unsigned long)
  AMO_INT(unsigned long long) AMO_INT(int32_t) AMO_INT(int64_t) AMO_INT(uint32_t) AMO_INT(uint64_t) AMO_INT(size_t)
  AMO_INT(ptrdiff_t)
#undef AMO_INT
  amo_float_type<float>("float", to);
  amo_float_type<double>("double", to);
}

// ---- signal ---------------------------------------------------------------------------------------
constexpr int n_sig = 6;  // 0 SET, 1 ADD x3, 2 putmem_signal, 3 put_signal_nbi (ADD), 4 warp, 5 nbi block
struct sig_area {
  uint64_t sig[n_sig];
  int data[4][N];
  int src[4][N];  // global memory: the proxy reads the sources when it carries the puts out
};

__device__ int sig_value(int pe, int k, int i) { return pe * 100000 + k * 1000 + i; }

// Block 1 is the target side (it waits for the partner's signals, then checks the data); block 0
// sends every form to the partner.
__global__ void signal_kernel(sig_area *s, int to, int *bad) {
  const int me = sd::my_pe(), tid = threadIdx.x;
  if (blockIdx.x == 1) {
    if (tid != 0) return;
    if (sd::signal_wait_until(&s->sig[0], SYMMEM_CMP_EQ, 42) != 42) atomicAdd(bad, 1);
    if (sd::signal_wait_until(&s->sig[1], SYMMEM_CMP_EQ, 15) != 15) atomicAdd(bad, 1);
    for (int k = 0; k < 4; ++k) {
      sd::signal_wait_until(&s->sig[2 + k], SYMMEM_CMP_EQ, uint64_t(k + 1));
      for (int i = 0; i < N; ++i) {
        if (s->data[k][i] != sig_value(to, k, i)) atomicAdd(bad, 1 << 8);
      }
    }
    return;
  }
  for (int k = 0; k < 4; ++k)
    for (int i = tid; i < N; i += blockDim.x) s->src[k][i] = sig_value(me, k, i);
  __syncthreads();
  if (tid == 0) {
    sd::signal_op(&s->sig[0], 42, SYMMEM_SIGNAL_SET, to);
    for (int j = 0; j < 3; ++j) sd::signal_op(&s->sig[1], 5, SYMMEM_SIGNAL_ADD, to);
    sd::putmem_signal(s->data[0], s->src[0], N * sizeof(int), &s->sig[2], 1, SYMMEM_SIGNAL_SET, to);
    sd::put_signal_nbi(s->data[1], s->src[1], N, &s->sig[3], 2, SYMMEM_SIGNAL_ADD, to);
  }
  if (tid < 32) sd::putmem_signal_warp(s->data[2], s->src[2], N * sizeof(int), &s->sig[4], 3, SYMMEM_SIGNAL_SET, to);
  sd::putmem_signal_nbi_block(s->data[3], s->src[3], N * sizeof(int), &s->sig[5], 4, SYMMEM_SIGNAL_SET, to);
  if (tid == 0) sd::quiet();
}

void signal(int to) {
  sig_area *s = static_cast<sig_area *>(symmem_calloc(1, sizeof(sig_area)));
  int *bad = nullptr;
  CK(cudaMalloc(&bad, sizeof(int)));
  CK(cudaMemset(bad, 0, sizeof(int)));
  symmem_barrier_all();
  signal_kernel<<<2, 64>>>(s, to, bad);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int h = 0;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  if (h != 0) {
    failf("signal from PE %d: %d wrong signal values seen by signal_wait_until, %d wrong data words after a "
          "put_signal's signal (the data must land before the signal)", to, h & 0xff, h >> 8);
  }
  uint64_t sig[n_sig];
  CK(cudaMemcpy(sig, s->sig, sizeof sig, cudaMemcpyDeviceToHost));
  const uint64_t want[n_sig] = {42, 15, 1, 2, 3, 4};
  const char *what[n_sig] = {"signal_op SET", "3 x signal_op ADD 5", "putmem_signal", "put_signal_nbi (ADD)",
                             "putmem_signal_warp", "putmem_signal_nbi_block"};
  for (int k = 0; k < n_sig; ++k) {
    if (sig[k] != want[k]) {
      failf("signal from PE %d: %s: the signal word holds %llu, expected %llu", to, what[k],
            (unsigned long long)sig[k], (unsigned long long)want[k]);
    }
  }
  symmem_barrier_all();
  CK(cudaFree(bad));
  symmem_free(s);
}

// ---- counter --------------------------------------------------------------------------------------
constexpr int ctr_blocks = 4, ctr_threads = 64, ctr_per = 8, host_adds = 300;

__global__ void counter_kernel(uint64_t *c64, uint32_t *c32, uint64_t limit, int *bad) {
  for (int k = 0; k < ctr_per; ++k) {
    sd::atomic_add(c64, uint64_t(1), 0);
    const uint32_t old = sd::atomic_fetch_add(c32, uint32_t(2), 0);
    if (old >= 2 * limit) atomicAdd(bad, 1);
  }
  sd::quiet();
}

void counter() {
  auto *c64 = static_cast<uint64_t *>(symmem_calloc(1, sizeof(uint64_t)));
  auto *c32 = static_cast<uint32_t *>(symmem_calloc(1, sizeof(uint32_t)));
  int *bad = nullptr;
  CK(cudaMalloc(&bad, sizeof(int)));
  CK(cudaMemset(bad, 0, sizeof(int)));
  const uint64_t per_pe = uint64_t(ctr_blocks) * ctr_threads * ctr_per + host_adds;
  const uint64_t total = per_pe * uint64_t(g_npes);
  symmem_barrier_all();
  counter_kernel<<<ctr_blocks, ctr_threads>>>(c64, c32, total, bad);
  CK(cudaGetLastError());
  for (int k = 0; k < host_adds; ++k) {  // at the same time as the kernels of every PE
    symmem_uint64_atomic_add(c64, 1, 0);
    symmem_uint32_atomic_add(c32, 2, 0);
  }
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  int h = 0;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  if (h != 0) failf("counter: %d fetch_adds returned a value past the final total", h);
  if (g_me == 0) {
    uint64_t v64 = 0;
    uint32_t v32 = 0;
    CK(cudaMemcpy(&v64, c64, sizeof v64, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&v32, c32, sizeof v32, cudaMemcpyDeviceToHost));
    if (v64 != total) failf("counter: the 64-bit counter on PE 0 is %llu, expected %llu (%d PEs x %llu adds)", (unsigned long long)v64, (unsigned long long)total, g_npes, (unsigned long long)per_pe);
    if (v32 != 2 * total) failf("counter: the 32-bit counter on PE 0 is %u, expected %llu", v32, (unsigned long long)(2 * total));
    std::printf("counter: %llu adds from %d PEs' GPU threads and host threads, exact\n", (unsigned long long)total, g_npes);
  }
  symmem_barrier_all();
  CK(cudaFree(bad));
  symmem_free(c32);
  symmem_free(c64);
}

// ---- litmus ---------------------------------------------------------------------------------------
constexpr int sb_rounds = 300, mp_rounds = 100;
struct litmus_area {
  int w[sb_rounds];      // variant A: written by the partner, read here
  int own[sb_rounds];    // variant B: written here, read by the partner with g
  int seen_a[sb_rounds], seen_b[sb_rounds];
  int msg[mp_rounds][N];
  int flag[mp_rounds];
  int src[mp_rounds][N];
};

__global__ void sb_kernel(litmus_area *s, int to) {
  const int me = sd::my_pe();
  for (int r = 0; r < sb_rounds; ++r) {
    sd::barrier_all();
    sd::p(&s->w[r], 1, to);
    sd::quiet();
    s->seen_a[r] = sd::g(&s->w[r], me);
    sd::p(&s->own[r], 1, me);
    sd::quiet();
    s->seen_b[r] = sd::g(&s->own[r], to);
  }
}

__global__ void mp_kernel(litmus_area *s, int to, int *bad) {
  const int me = sd::my_pe();
  for (int r = 0; r < mp_rounds; ++r) {
    for (int i = 0; i < N; ++i) s->src[r][i] = me * 1000000 + r * 1000 + i;
    sd::put_nbi(s->msg[r], s->src[r], N, to);
    sd::fence();
    sd::p(&s->flag[r], 1, to);
    sd::wait_until(&s->flag[r], SYMMEM_CMP_EQ, 1);
    for (int i = 0; i < N; ++i) {
      if (s->msg[r][i] != to * 1000000 + r * 1000 + i) atomicAdd(bad, 1);
    }
  }
  sd::quiet();
}

void litmus(int to) {
  auto *s = static_cast<litmus_area *>(symmem_calloc(1, sizeof(litmus_area)));
  int *bad = nullptr;
  CK(cudaMalloc(&bad, sizeof(int)));
  CK(cudaMemset(bad, 0, sizeof(int)));
  symmem_barrier_all();
  sb_kernel<<<1, 1>>>(s, to);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  std::vector<int> mine_a(sb_rounds), mine_b(sb_rounds), theirs_a(sb_rounds), theirs_b(sb_rounds);
  CK(cudaMemcpy(mine_a.data(), s->seen_a, sizeof(int) * sb_rounds, cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(mine_b.data(), s->seen_b, sizeof(int) * sb_rounds, cudaMemcpyDeviceToHost));
  symmem_getmem(theirs_a.data(), s->seen_a, sizeof(int) * sb_rounds, to);
  symmem_getmem(theirs_b.data(), s->seen_b, sizeof(int) * sb_rounds, to);
  int both_a = 0, both_b = 0;
  for (int r = 0; r < sb_rounds; ++r) {
    both_a += mine_a[r] == 0 && theirs_a[r] == 0;
    both_b += mine_b[r] == 0 && theirs_b[r] == 0;
  }
  if (both_a != 0) failf("litmus SB (p to PE %d + quiet + local read): both reads zero in %d of %d rounds", to, both_a, sb_rounds);
  if (both_b != 0) failf("litmus SB (local store + quiet + g from PE %d): both reads zero in %d of %d rounds", to, both_b, sb_rounds);
  symmem_barrier_all();
  mp_kernel<<<1, 1>>>(s, to, bad);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int h = 0;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  if (h != 0) failf("litmus MP (put_nbi + fence + p(flag) from PE %d): %d message words stale after the flag", to, h);
  symmem_barrier_all();
  CK(cudaFree(bad));
  symmem_free(s);
}

// ---- barrier --------------------------------------------------------------------------------------
constexpr int bar_rounds = 120;

// Round r: put a value to the partner, a barrier in one of four forms (sync forms after a quiet:
// a sync does not complete puts), then check what the partner put. 32 threads: the block form.
__global__ void barrier_kernel(int *slot, int *src, int to, int *bad) {
  const int me = sd::my_pe(), tid = threadIdx.x;
  for (int r = 0; r < bar_rounds; ++r) {
    if (tid == 0) {
      src[r] = me * 10000 + r + 1;
      sd::put_nbi(&slot[r], &src[r], 1, to);
    }
    switch (r % 4) {
      case 0:
        if (tid == 0) sd::barrier_all();
        break;
      case 1:
        if (tid == 0) {
          sd::quiet();
          sd::sync_all();
        }
        break;
      case 2:
        if (tid == 0) {
          sd::quiet();
          sd::team_sync(0);
        }
        break;
      default: sd::barrier_all_block(); break;
    }
    __syncthreads();
    if (tid == 0 && sd::g(&slot[r], me) != to * 10000 + r + 1) atomicAdd(bad, 1);
  }
}

// ---- nbi ------------------------------------------------------------------------------------------
struct nbi_area {
  uint64_t sig;
  float data[4][N];
  float src[N];  // global memory: the proxy reads it when it carries the puts out
};

// seen: the ring's completion count before the non-blocking calls, after them, after quiet.
__global__ void nbi_kernel(nbi_area *a, int to, unsigned long long *seen) {
  const int tid = threadIdx.x;
  symmem_proxy_ring *r = sd::detail::ring();
  const volatile uint64_t *done = r != nullptr ? &r->completed : nullptr;
  if (tid == 0 && done != nullptr) seen[0] = *done;
  __syncthreads();
  nvshmemx_float_put_nbi_block(a->data[0], a->src, N, to);
  if (tid < 32) nvshmemx_float_put_nbi_warp(a->data[1], a->src, N, to);
  __syncthreads();
  nvshmemx_float_put_signal_nbi_block(a->data[2], a->src, N, &a->sig, 7, NVSHMEM_SIGNAL_SET, to);
  nvshmemx_put32_nbi_block(a->data[3], a->src, N, to);
  if (tid == 0) {
    if (done != nullptr) seen[1] = *done;
    nvshmem_quiet();
    if (done != nullptr) seen[2] = *done;
  }
}

void nbi(int to) {
  const int me = g_me, from = to;  // the pairings are symmetric
  auto *a = static_cast<nbi_area *>(symmem_malloc(sizeof(nbi_area)));
  CK(cudaMemset(a, gt::poison, sizeof(nbi_area)));
  std::vector<float> src(N);
  for (int i = 0; i < N; ++i) src[i] = value_of<float>(me, i, 0);
  CK(cudaMemcpy(a->src, src.data(), sizeof(float) * N, cudaMemcpyHostToDevice));
  unsigned long long *seen = nullptr;
  CK(cudaMalloc(&seen, 3 * sizeof(unsigned long long)));
  CK(cudaMemset(seen, 0, 3 * sizeof(unsigned long long)));
  symmem_barrier_all();
  nbi_kernel<<<1, 128>>>(a, to, seen);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  nbi_area h;
  CK(cudaMemcpy(&h, a, sizeof h, cudaMemcpyDeviceToHost));
  unsigned long long c[3];
  CK(cudaMemcpy(c, seen, sizeof c, cudaMemcpyDeviceToHost));
  const char *form[4] = {"nvshmemx_float_put_nbi_block", "nvshmemx_float_put_nbi_warp", "nvshmemx_float_put_signal_nbi_block",
                         "nvshmemx_put32_nbi_block"};
  for (int k = 0; k < 4; ++k) {
    for (int i = 0; i < N; ++i) {
      if (!same(h.data[k][i], value_of<float>(from, i, 0))) {
        failf("nbi %s (PE %d -> PE %d): element %d: expected %s, got %s", form[k], from, me, i,
              show(value_of<float>(from, i, 0)).c_str(), show(h.data[k][i]).c_str());
        break;
      }
    }
  }
  if (h.sig != 7) failf("nbi %s (PE %d -> PE %d): signal %llu, expected 7", form[2], from, me, (unsigned long long)h.sig);
  if (is_remote(to)) {
    if (c[1] != c[0]) {
      failf("nbi: the non-blocking warp and block puts to PE %d (another host) waited for completion: the proxy ring's "
            "completion count went from %llu to %llu before the kernel's quiet (each was a blocking put)", to, c[0], c[1]);
    }
    if (c[2] <= c[1]) failf("nbi: quiet to PE %d did not complete through the ring (count %llu, then %llu)", to, c[1], c[2]);
  }
  CK(cudaFree(seen));
  symmem_barrier_all();
  symmem_free(a);
}

void barrier(int to) {
  int *slot = static_cast<int *>(symmem_calloc(bar_rounds, sizeof(int)));
  int *src = static_cast<int *>(symmem_calloc(bar_rounds, sizeof(int)));
  int *bad = nullptr;
  CK(cudaMalloc(&bad, sizeof(int)));
  CK(cudaMemset(bad, 0, sizeof(int)));
  symmem_barrier_all();
  barrier_kernel<<<1, 32>>>(slot, src, to, bad);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int h = 0;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  if (h != 0) failf("barrier: in %d of %d rounds the value PE %d put before the barrier was not there after it", h, bar_rounds, to);
  symmem_barrier_all();
  CK(cudaFree(bad));
  symmem_free(src);
  symmem_free(slot);
}

// ---- stream ---------------------------------------------------------------------------------------
struct stream_area {
  int put[N], put_sig[N], back[N];
  uint64_t p64, sig_set, sig_put;
  uint16_t p16;
  int src[N];
};

void stream(int to) {
  const int me = g_me;
  auto *s = static_cast<stream_area *>(symmem_calloc(1, sizeof(stream_area)));
  int *local = nullptr;  // cudaMalloc'ed: a local buffer the program allocated itself
  CK(cudaMalloc(&local, sizeof(int) * N));
  std::vector<int> src(N);
  for (int i = 0; i < N; ++i) src[i] = me * 7000 + i;
  CK(cudaMemcpy(s->src, src.data(), sizeof(int) * N, cudaMemcpyHostToDevice));
  CK(cudaMemset(local, gt::poison, sizeof(int) * N));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  symmem_barrier_all();
  const uint64_t v64 = 0x1234567800000000ull + uint64_t(me);
  const uint16_t v16 = uint16_t(0x4100 + me);
  symmem_putmem_on_stream(s->put, s->src, sizeof(int) * N, to, st);
  symmem_p_on_stream(&s->p64, &v64, sizeof v64, to, st);
  symmem_p_on_stream(&s->p16, &v16, sizeof v16, to, st);
  symmem_signal_op_on_stream(&s->sig_set, 77, SYMMEM_SIGNAL_SET, to, st);
  symmem_putmem_signal_on_stream(s->put_sig, s->src, sizeof(int) * N, &s->sig_put, 9, SYMMEM_SIGNAL_ADD, to, st);
  symmem_quiet_on_stream(st);
  symmem_barrier_all_on_stream(st);
  symmem_signal_wait_until_on_stream(&s->sig_put, SYMMEM_CMP_EQ, 9, st);
  symmem_getmem_on_stream(local, s->src, sizeof(int) * N, to, st);  // the partner's source
  CK(cudaStreamSynchronize(st));
  uint64_t g64 = 0;
  symmem_g_on_stream(&g64, &s->p64, sizeof g64, to, st);  // what this PE put there
  symmem_barrier_all();
  stream_area h;
  CK(cudaMemcpy(&h, s, sizeof h, cudaMemcpyDeviceToHost));
  std::vector<int> got(N);
  CK(cudaMemcpy(got.data(), local, sizeof(int) * N, cudaMemcpyDeviceToHost));
  for (int i = 0; i < N; ++i) {
    const int want = to * 7000 + i;
    if (h.put[i] != want) { failf("putmem_on_stream from PE %d: element %d is %d, expected %d", to, i, h.put[i], want); break; }
    if (h.put_sig[i] != want) { failf("putmem_signal_on_stream from PE %d: element %d is %d, expected %d", to, i, h.put_sig[i], want); break; }
    if (got[i] != want) { failf("getmem_on_stream from PE %d into cudaMalloc memory: element %d is %d, expected %d", to, i, got[i], want); break; }
  }
  const uint64_t want64 = 0x1234567800000000ull + uint64_t(to);
  if (h.p64 != want64) failf("p_on_stream (8 bytes) from PE %d: %#llx, expected %#llx", to, (unsigned long long)h.p64, (unsigned long long)want64);
  if (h.p16 != uint16_t(0x4100 + to)) failf("p_on_stream (2 bytes) from PE %d: %#x, expected %#x", to, h.p16, 0x4100 + to);
  if (h.sig_set != 77) failf("signal_op_on_stream from PE %d: %llu, expected 77", to, (unsigned long long)h.sig_set);
  if (h.sig_put != 9) failf("putmem_signal_on_stream's signal from PE %d: %llu, expected 9", to, (unsigned long long)h.sig_put);
  if (g64 != v64) failf("g_on_stream from PE %d: %#llx, expected %#llx (what this PE put there)", to, (unsigned long long)g64, (unsigned long long)v64);
  symmem_barrier_all();
  CK(cudaStreamDestroy(st));
  CK(cudaFree(local));
  symmem_free(s);
}

// Inputs and checks shared by the host (coll) and device (dred) reductions: a half min whose
// values repeat across PEs, and a double2 maxloc with ties (the smaller PE index wins).
std::vector<__half> half_min_input(int pe, size_t count) {
  std::vector<__half> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = __float2half(float((int(i) * 7 + pe * 3) % 50) - 20.f);
  return v;
}

void check_half_min(const char *what, const std::vector<__half> &got, int n) {
  for (size_t i = 0; i < got.size(); ++i) {
    float w = 1e9f;
    for (int p = 0; p < n; ++p) w = std::min(w, float((int(i) * 7 + p * 3) % 50) - 20.f);
    if (__half2float(got[i]) != w) { failf("%s: element %zu is %g, expected %g", what, i, __half2float(got[i]), w); return; }
  }
}

std::vector<double2> maxloc_input(int pe, size_t count) {
  std::vector<double2> v(count);
  for (size_t i = 0; i < count; ++i) v[i] = make_double2(double((int(i) + pe) % 3), double(pe));
  return v;
}

void check_maxloc(const char *what, const std::vector<double2> &got, int n) {
  for (size_t i = 0; i < got.size(); ++i) {
    double v = -1, at = -1;
    for (int p = 0; p < n; ++p) {
      const double x = double((int(i) + p) % 3);
      if (x > v) { v = x; at = p; }  // ties keep the smaller index
    }
    if (got[i].x != v || got[i].y != at) { failf("%s: element %zu is (%g, %g), expected (%g, %g)", what, i, got[i].x, got[i].y, v, at); return; }
  }
}

// Host and on-stream collectives on the GPU heap over SYMMEM_TEAM_WORLD (which spans the hosts
// when the job does: then carried out with puts, gets and team syncs, coll_hosts.cpp), each onto
// poisoned memory and checked per element: broadcast from every root, fcollect, alltoall, sum of
// ints and floats, max of doubles, min of halfs, maxloc of double2, reducescatter, a sum in place,
// and an on-stream sum.
void coll(int) {
  const int me = g_me, n = g_npes;
  constexpr size_t E = 300;  // elements per PE's block
  const size_t area = sizeof(double2) * E * n;  // the widest type's blocks
  auto *src = static_cast<int *>(symmem_malloc(area));
  auto *dst = static_cast<int *>(symmem_malloc(area));
  std::vector<int> h(E * n), want(E * n);
  auto load = [&](const std::vector<int> &v) { CK(cudaMemcpy(src, v.data(), sizeof(int) * v.size(), cudaMemcpyHostToDevice)); };
  auto poison = [&] { CK(cudaMemset(dst, gt::poison, area)); };
  auto fetch_dst = [&](size_t count) {
    h.assign(count, 0);
    CK(cudaMemcpy(h.data(), dst, sizeof(int) * count, cudaMemcpyDeviceToHost));
  };
  auto compare = [&](const char *what, size_t count) {
    fetch_dst(count);
    for (size_t i = 0; i < count; ++i) {
      if (h[i] != want[i]) { failf("%s: element %zu is %d, expected %d", what, i, h[i], want[i]); return; }
    }
  };
  std::vector<int> mine(E * n);
  for (size_t i = 0; i < E * n; ++i) mine[i] = me * 100000 + int(i);
  load(mine);
  for (int root = 0; root < n; ++root) {
    poison();
    symmem_barrier_all();
    symmem_collective_on_gpu_heap(SYMMEM_COLL_BROADCAST, SYMMEM_TEAM_INDEX_WORLD, dst, src, sizeof(int) * E, SYMMEM_DT_UCHAR, 0, root);
    for (size_t i = 0; i < E; ++i) want[i] = root * 100000 + int(i);
    compare("broadcast", E);
  }
  poison();
  symmem_barrier_all();
  symmem_collective_on_gpu_heap(SYMMEM_COLL_FCOLLECT, SYMMEM_TEAM_INDEX_WORLD, dst, src, sizeof(int) * E, SYMMEM_DT_UCHAR, 0, 0);
  for (int p = 0; p < n; ++p) for (size_t i = 0; i < E; ++i) want[p * E + i] = p * 100000 + int(i);
  compare("fcollect", E * n);
  poison();
  symmem_barrier_all();
  symmem_collective_on_gpu_heap(SYMMEM_COLL_ALLTOALL, SYMMEM_TEAM_INDEX_WORLD, dst, src, sizeof(int) * E, SYMMEM_DT_UCHAR, 0, 0);
  for (int p = 0; p < n; ++p) for (size_t i = 0; i < E; ++i) want[p * E + i] = p * 100000 + int(me * E + i);
  compare("alltoall", E * n);
  poison();
  symmem_barrier_all();
  symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCE, SYMMEM_TEAM_INDEX_WORLD, dst, src, E, SYMMEM_DT_INT, SYMMEM_RED_SUM, 0);
  for (size_t i = 0; i < E; ++i) { want[i] = 0; for (int p = 0; p < n; ++p) want[i] += p * 100000 + int(i); }
  compare("sum_reduce<int>", E);
  poison();
  symmem_barrier_all();
  symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCESCATTER, SYMMEM_TEAM_INDEX_WORLD, dst, src, E, SYMMEM_DT_INT, SYMMEM_RED_MAX, 0);
  for (size_t i = 0; i < E; ++i) want[i] = (n - 1) * 100000 + int(me * E + i);
  compare("max_reducescatter<int>", E);
  // In place: the sum lands in the source itself.
  symmem_barrier_all();
  symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCE, SYMMEM_TEAM_INDEX_WORLD, src, src, E, SYMMEM_DT_INT, SYMMEM_RED_SUM, 0);
  CK(cudaMemcpy(h.data(), src, sizeof(int) * E, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < E; ++i) {
    int w = 0;
    for (int p = 0; p < n; ++p) w += p * 100000 + int(i);
    if (h[i] != w) { failf("sum_reduce<int> in place: element %zu is %d, expected %d", i, h[i], w); break; }
  }
  load(mine);
  // On a stream.
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  poison();
  symmem_barrier_all();
  symmem_collective_on_stream(SYMMEM_COLL_REDUCE, SYMMEM_TEAM_INDEX_WORLD, dst, src, E, SYMMEM_DT_INT, SYMMEM_RED_SUM, 0, st);
  CK(cudaStreamSynchronize(st));
  for (size_t i = 0; i < E; ++i) { want[i] = 0; for (int p = 0; p < n; ++p) want[i] += p * 100000 + int(i); }
  compare("sum_reduce_on_stream<int>", E);
  CK(cudaStreamDestroy(st));
  // Floating point and the 16-bit types, folded in team order: this PE's values in, the result out.
  auto reduce_typed = [&](const auto &in, int dtype, int op) {
    using T = typename std::decay_t<decltype(in)>::value_type;
    CK(cudaMemcpy(src, in.data(), sizeof(T) * in.size(), cudaMemcpyHostToDevice));
    poison();
    symmem_barrier_all();
    symmem_collective_on_gpu_heap(SYMMEM_COLL_REDUCE, SYMMEM_TEAM_INDEX_WORLD, dst, src, in.size(), dtype, op, 0);
    std::vector<T> out(in.size());
    CK(cudaMemcpy(out.data(), dst, sizeof(T) * out.size(), cudaMemcpyDeviceToHost));
    return out;
  };
  {
    std::vector<float> f(E), fw(E, 0.f);
    for (size_t i = 0; i < E; ++i) f[i] = float(me) * 0.5f + float(i) * 0.25f;
    const std::vector<float> fh = reduce_typed(f, SYMMEM_DT_FLOAT, SYMMEM_RED_SUM);
    for (size_t i = 0; i < E; ++i) for (int p = 0; p < n; ++p) fw[i] += float(p) * 0.5f + float(i) * 0.25f;
    for (size_t i = 0; i < E; ++i) if (fh[i] != fw[i]) { failf("sum_reduce<float>: element %zu is %g, expected %g", i, fh[i], fw[i]); break; }
  }
  check_half_min("min_reduce<half>", reduce_typed(half_min_input(me, E), SYMMEM_DT_HALF, SYMMEM_RED_MIN), n);
  check_maxloc("maxloc_reduce<double2>", reduce_typed(maxloc_input(me, E), SYMMEM_DT_DOUBLE2, SYMMEM_RED_MAXLOC), n);
  symmem_barrier_all();
  symmem_free(dst);
  symmem_free(src);
}

// Device collectives over the world team (pushed through the proxy ring to members on other
// hosts): fcollect and alltoall by a block, broadcast by one thread from every root, each onto
// poisoned memory, checked per element.
__global__ void dcoll_kernel(int *dst, const int *src, size_t n, int kind, int root) {
  namespace dd = symmem::device::detail;
  if (kind == 0) sd::fcollect<int, dd::group_block>(SYMMEM_TEAM_INDEX_WORLD, dst, src, n);
  if (kind == 1) sd::alltoall<int, dd::group_block>(SYMMEM_TEAM_INDEX_WORLD, dst, src, n);
  if (kind == 2 && threadIdx.x == 0) sd::broadcast<int>(SYMMEM_TEAM_INDEX_WORLD, dst, src, n, root);
}

void dcoll(int) {
  const int me = g_me, n = g_npes;
  constexpr size_t E = 1000;
  auto *src = static_cast<int *>(symmem_malloc(sizeof(int) * E * n));
  auto *dst = static_cast<int *>(symmem_malloc(sizeof(int) * E * n));
  std::vector<int> mine(E * n), h(E * n), want(E * n);
  for (size_t i = 0; i < E * n; ++i) mine[i] = me * 100000 + int(i);
  CK(cudaMemcpy(src, mine.data(), sizeof(int) * E * n, cudaMemcpyHostToDevice));
  const char *names[] = {"fcollect_block", "alltoall_block", "broadcast"};
  for (int kind = 0; kind < 3; ++kind) {
    for (int root = 0; root < (kind == 2 ? n : 1); ++root) {
      CK(cudaMemset(dst, gt::poison, sizeof(int) * E * n));
      symmem_barrier_all();
      dcoll_kernel<<<1, 256>>>(dst, src, E, kind, root);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      const size_t count = kind == 2 ? E : E * n;
      for (int p = 0; p < n; ++p) {
        for (size_t i = 0; i < E; ++i) {
          if (kind == 0) want[p * E + i] = p * 100000 + int(i);
          if (kind == 1) want[p * E + i] = p * 100000 + int(me * E + i);
          if (kind == 2 && p == 0) want[i] = root * 100000 + int(i);
        }
      }
      CK(cudaMemcpy(h.data(), dst, sizeof(int) * count, cudaMemcpyDeviceToHost));
      for (size_t i = 0; i < count; ++i) {
        if (h[i] != want[i]) { failf("device %s (root %d): element %zu is %d, expected %d", names[kind], root, i, h[i], want[i]); break; }
      }
    }
  }
  symmem_barrier_all();
  symmem_free(dst);
  symmem_free(src);
}

// Device reductions over the world team (the members on other hosts fetched through the proxy
// ring into the team's scratch, chunk by chunk): sums of ints by a block, out of place and in
// place, over more elements than one chunk holds; a sum of floats by one thread (folded in team
// order, compared bit for bit); a min of halfs by a warp; maxloc of double2 by a block; a max
// reducescatter by a block. Each onto poisoned memory, checked per element.
template <int OP, typename T, typename G>
__global__ void dred_kernel(T *dst, const T *src, size_t n, bool scatter) {
  if (scatter) sd::reducescatter<OP, T, G>(SYMMEM_TEAM_INDEX_WORLD, dst, src, n);
  else sd::reduce<OP, T, G>(SYMMEM_TEAM_INDEX_WORLD, dst, src, n);
}

template <int OP, typename T, typename G>
std::vector<T> device_reduce(const std::vector<T> &in, T *src, T *dst, size_t n, bool scatter, int threads) {
  CK(cudaMemcpy(src, in.data(), sizeof(T) * in.size(), cudaMemcpyHostToDevice));
  if (dst != src) CK(cudaMemset(dst, gt::poison, sizeof(T) * n));
  symmem_barrier_all();
  dred_kernel<OP, T, G><<<1, threads>>>(dst, src, n, scatter);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<T> out(n);
  CK(cudaMemcpy(out.data(), dst, sizeof(T) * n, cudaMemcpyDeviceToHost));
  return out;
}

void dred(int) {
  namespace dd = symmem::device::detail;
  const int me = g_me, n = g_npes;
  constexpr size_t E = 40000;  // ints: 160 KB, more than a chunk of the 64 KiB scratch
  const size_t area = std::max(sizeof(int) * E * n, sizeof(double2) * 1000);
  auto *src = static_cast<char *>(symmem_malloc(area));
  auto *dst = static_cast<char *>(symmem_malloc(area));
  {
    std::vector<int> in(E * n);
    for (size_t i = 0; i < in.size(); ++i) in[i] = me * 1000 + int(i % 977);
    auto check = [&](const std::vector<int> &h, const char *what, bool scatter) {
      for (size_t i = 0; i < E; ++i) {
        int w = scatter ? -1 : 0;
        for (int p = 0; p < n; ++p) {
          const int v = p * 1000 + int((scatter ? me * E + i : i) % 977);
          w = scatter ? std::max(w, v) : w + v;
        }
        if (h[i] != w) { failf("device %s: element %zu is %d, expected %d", what, i, h[i], w); return; }
      }
    };
    check(device_reduce<SYMMEM_RED_SUM, int, dd::group_block>(in, (int *)src, (int *)dst, E, false, 256), "sum_reduce_block<int>", false);
    check(device_reduce<SYMMEM_RED_SUM, int, dd::group_block>(in, (int *)src, (int *)src, E, false, 256), "sum_reduce_block<int> in place", false);
    check(device_reduce<SYMMEM_RED_MAX, int, dd::group_block>(in, (int *)src, (int *)dst, E, true, 256), "max_reducescatter_block<int>", true);
  }
  {
    constexpr size_t F = 300;
    std::vector<float> in(F);
    for (size_t i = 0; i < F; ++i) in[i] = float(me) * 0.1f + float(i) * 1e-3f;
    const std::vector<float> h = device_reduce<SYMMEM_RED_SUM, float, dd::group_thread>(in, (float *)src, (float *)dst, F, false, 1);
    for (size_t i = 0; i < F; ++i) {
      float w = 0.f;
      for (int p = 0; p < n; ++p) w = p == 0 ? float(p) * 0.1f + float(i) * 1e-3f : w + (float(p) * 0.1f + float(i) * 1e-3f);
      if (h[i] != w) { failf("device sum_reduce<float>: element %zu is %.9g, expected %.9g (team order)", i, h[i], w); break; }
    }
  }
  check_half_min("device min_reduce_warp<half>",
                 device_reduce<SYMMEM_RED_MIN, __half, dd::group_warp>(half_min_input(me, 500), (__half *)src, (__half *)dst, 500, false, 32), n);
  check_maxloc("device maxloc_reduce_block<double2>",
               device_reduce<SYMMEM_RED_MAXLOC, double2, dd::group_block>(maxloc_input(me, 1000), (double2 *)src, (double2 *)dst, 1000, false, 128), n);
  symmem_barrier_all();
  symmem_free(dst);
  symmem_free(src);
}

}  // namespace

int main() {
  gt::skip_without_gpu("gpu_remote_test");
  if (symmem_init() != SYMMEM_SUCCESS) return 1;
  g_me = symmem_my_pe();
  g_npes = symmem_n_pes();
  if (!symmem_heap_on_gpu()) {
    std::printf("SKIPPED gpu_remote_test: the heap is in host memory\n");
    symmem_finalize();
    return 77;
  }
  // Targets: the far partner, and with 4 PEs or more the neighbour (pairings are symmetric).
  std::vector<int> targets;  // the same number on every PE: the sections are collective
  if (g_npes == 1) targets.push_back(0);
  if (g_npes % 2 == 0) targets.push_back((g_me + g_npes / 2) % g_npes);
  if (g_npes % 2 == 0 && g_npes >= 4) targets.push_back(g_me ^ 1);
  int remote = 0;
  for (int p = 0; p < g_npes; ++p) remote += is_remote(p);
  for (int to : targets) {
    std::printf("PE %d: target PE %d is %s\n", g_me, to, is_remote(to) ? "on another host (through the proxy ring)" : "mapped here");
  }
  struct section { const char *name; void (*run)(int); };
  const section sections[] = {{"rma", rma}, {"amo", amo}, {"signal", signal}, {"litmus", litmus},
                              {"nbi", nbi},          {"barrier", barrier}, {"stream", stream}};
  // SYMMEM_TEST_SECTIONS=amo,barrier runs only those (and the counter only when named).
  const char *only = std::getenv("SYMMEM_TEST_SECTIONS");
  auto chosen = [only](const char *name) {
    if (only == nullptr) return true;
    const std::string list = std::string(",") + only + ",";
    return list.find(std::string(",") + name + ",") != std::string::npos;
  };
  // An odd job (other than 1 PE) has no symmetric pairs: only the counter runs.
  for (const section &sec : sections) {
    if (!chosen(sec.name)) continue;
    for (size_t t = 0; t < targets.size(); ++t) {
      const bool before = g_failed;
      sec.run(targets[t]);
      std::printf("PE %d: %s with PE %d: %s\n", g_me, sec.name, targets[t], g_failed && !before ? "FAILED" : "ok");
      std::fflush(stdout);
    }
  }
  if (chosen("counter")) counter();
  if (chosen("dcoll")) {
    const bool before = g_failed;
    dcoll(0);
    std::printf("PE %d: dcoll (device fcollect, alltoall, broadcast over the world team, %d PEs): %s\n", g_me, g_npes,
                g_failed && !before ? "FAILED" : "ok");
  }
  if (chosen("dred")) {
    const bool before = g_failed;
    dred(0);
    std::printf("PE %d: dred (device reductions over the world team, %d PEs): %s\n", g_me, g_npes,
                g_failed && !before ? "FAILED" : "ok");
  }
  if (chosen("coll")) {
    const bool before = g_failed;
    coll(0);
    std::printf("PE %d: coll (host and on-stream collectives on the GPU heap, %d PEs): %s\n", g_me, g_npes,
                g_failed && !before ? "FAILED" : "ok");
  }
  symmem_barrier_all();
  symmem_finalize();
  std::printf("%s gpu_remote_test PE %d (%d PEs, %d on other hosts than this one)\n", g_failed ? "FAIL" : "PASS", g_me,
              g_npes, remote);
  return g_failed ? 1 : 0;
}
