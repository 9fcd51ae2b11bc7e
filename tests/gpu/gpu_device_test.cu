// symmem GPU test: the device API (RMA in thread/warp/block forms, p/g, atomics, signals,
// wait_until, barriers, symmem_ptr) across the PEs of one job, each talking to its ring neighbours.
// Built twice: without -rdc, and with -rdc plus a second translation unit (rdc_extra.cu).
#include <symmem/device.cuh>

#include "gpu_test.h"

namespace sd = symmem::device;

#ifdef SYMMEM_TEST_RDC
// rdc_extra.cu: another translation unit with its own copy of the device state.
__global__ void rdc_ring_kernel(int *slots, int round);
#endif

namespace {

int me, npes, right_pe, left_pe;
int round_no = 0;

enum variant { put_thread, put_warp, put_block, put_nbi, get_thread, get_warp, get_block, get_nbi_block, n_variants };
const char *variant_name[] = {"putmem", "putmem_warp", "putmem_block", "putmem_nbi+quiet",
                              "getmem", "getmem_warp", "getmem_block", "getmem_nbi_block"};

__global__ void rma_kernel(int v, char *dst, const char *src, size_t n, int pe) {
  switch (v) {
    case put_thread: if (threadIdx.x == 0) sd::putmem(dst, src, n, pe); break;
    case put_warp: if (threadIdx.x < 32) sd::putmem_warp(dst, src, n, pe); break;
    case put_block: sd::putmem_block(dst, src, n, pe); break;
    case put_nbi: if (threadIdx.x == 0) { sd::putmem_nbi(dst, src, n, pe); sd::quiet(); } break;
    case get_thread: if (threadIdx.x == 0) sd::getmem(dst, src, n, pe); break;
    case get_warp: if (threadIdx.x >= 32 && threadIdx.x < 64) sd::getmem_warp(dst, src, n, pe); break;
    case get_block: sd::getmem_block(dst, src, n, pe); break;
    case get_nbi_block: sd::getmem_nbi_block(dst, src, n, pe); sd::quiet(); break;
  }
}

void test_rma(char *src, char *dst, size_t cap) {
  const size_t sizes[] = {1, 7, 16, 33, 4099, (size_t(1) << 20) + 5};
  const size_t offs[] = {0, 3, 16};
  for (int v = 0; v < n_variants; ++v) {
    for (size_t n : sizes) {
      for (size_t off : offs) {
        const size_t total = off + n + 13;
        EXPECT(total <= cap, "buffer too small");
        ++round_no;
        auto mine = gt::pattern(me, round_no, n);
        CK(cudaMemset(src, 0x11, total));
        CK(cudaMemcpy(src + off, mine.data(), n, cudaMemcpyHostToDevice));
        CK(cudaMemset(dst, gt::poison, total));
        symmem_barrier_all();
        const bool is_put = v < get_thread;
        rma_kernel<<<1, 256>>>(v, dst + off, src + off, n, is_put ? right_pe : left_pe);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        symmem_barrier_all();
        gt::check_bytes(dst, total, off, gt::pattern(left_pe, round_no, n), variant_name[v], me);
      }
    }
  }
}

__global__ void pg_kernel(int *arr, double *darr, int *out, int n, int right, int me) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) {
    sd::p(&arr[i], me * 100000 + i, right);
    sd::p(&darr[i], me + i * 0.5, right);
  }
  if (i == 0) sd::quiet();
}

__global__ void g_kernel(const int *arr, int *out, int n, int pe) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = sd::g(&arr[i], pe);
}

void test_p_g() {
  const int n = 1000;
  int *arr = static_cast<int *>(symmem_malloc(n * sizeof(int)));
  double *darr = static_cast<double *>(symmem_malloc(n * sizeof(double)));
  int *out = nullptr;
  CK(cudaMalloc(&out, n * sizeof(int)));
  CK(cudaMemset(arr, 0xA5, n * sizeof(int)));
  CK(cudaMemset(out, 0xA5, n * sizeof(int)));
  symmem_barrier_all();
  pg_kernel<<<4, 256>>>(arr, darr, out, n, right_pe, me);
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  std::vector<int> h(n);
  std::vector<double> hd(n);
  CK(cudaMemcpy(h.data(), arr, n * sizeof(int), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(hd.data(), darr, n * sizeof(double), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT(h[i] == left_pe * 100000 + i, "PE %d: p: arr[%d] = %d", me, i, h[i]);
    EXPECT(hd[i] == left_pe + i * 0.5, "PE %d: p(double): darr[%d] = %g", me, i, hd[i]);
  }
  g_kernel<<<4, 256>>>(arr, out, n, right_pe);  // right holds what I put there: me*100000+i
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT(h[i] == me * 100000 + i, "PE %d: g: out[%d] = %d", me, i, h[i]);
  symmem_barrier_all();
  CK(cudaFree(out));
  symmem_free(darr);
  symmem_free(arr);
}

struct amo_words {
  unsigned long long counter;
  int cas_word;
  int winners;
  unsigned int bits;
  unsigned int xor_word;
  long long swap_word;
  float fswap;
  long long set_slots[64];
  unsigned int counter32;        // fetch_add by every thread: each old value once
  unsigned long long old_sum;    // the sum of those old values
  unsigned int and_word;         // all ones; each PE clears its bit
  unsigned long long fo_word;    // fetch_or/fetch_xor: each PE's bit, the old value must not have it
  int fetch_errors;
};

__global__ void amo_kernel(amo_words *w, int me, int n) {
  const int tid = threadIdx.x + blockIdx.x * blockDim.x;
  sd::atomic_fetch_add(&w->counter, 1ull, 0);
  sd::atomic_inc(&w->counter, 0);
  const unsigned old = sd::atomic_fetch_add(&w->counter32, 1u, 0);
  sd::atomic_add(&w->old_sum, (unsigned long long)old, 0);
  if (tid == 0) {
    sd::atomic_and(&w->and_word, ~(1u << me), 0);
    if (sd::atomic_fetch_or(&w->fo_word, 1ull << me, 0) & (1ull << me)) sd::atomic_add(&w->fetch_errors, 1, 0);
    if (!(sd::atomic_fetch_xor(&w->fo_word, 1ull << (32 + me), 0) & (1ull << me))) sd::atomic_add(&w->fetch_errors, 1, 0);
    if (sd::atomic_compare_swap(&w->cas_word, 0, me + 1, 0) == 0) sd::atomic_add(&w->winners, 1, 0);
    sd::atomic_or(&w->bits, 1u << me, 0);
    sd::atomic_xor(&w->xor_word, 0x5u << me, 0);
    sd::atomic_xor(&w->xor_word, 0x5u << me, 0);
    (void)sd::atomic_swap(&w->swap_word, (long long)me, 0);
    (void)sd::atomic_swap(&w->fswap, 1.5f, 0);
    sd::atomic_set(&w->set_slots[me], (long long)me * 7 + 1, 0);
    (void)sd::atomic_fetch_and(&w->bits, ~0u, 0);
  }
}

__global__ void amo_fetch_kernel(amo_words *w, unsigned long long *out) {
  out[0] = sd::atomic_fetch(&w->counter, 0);
  out[1] = (unsigned long long)sd::atomic_fetch(&w->bits, 0);
}

void test_atomics() {
  amo_words *w = static_cast<amo_words *>(symmem_malloc(sizeof(amo_words)));
  unsigned long long *out = nullptr;
  CK(cudaMalloc(&out, 2 * sizeof(unsigned long long)));
  CK(cudaMemset(w, 0, sizeof(amo_words)));
  CK(cudaMemset(&w->and_word, 0xff, sizeof w->and_word));
  symmem_barrier_all();
  const int blocks = 8, threads = 128;
  amo_kernel<<<blocks, threads>>>(w, me, npes);
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  amo_fetch_kernel<<<1, 1>>>(w, out);
  CK(cudaDeviceSynchronize());
  unsigned long long h[2];
  CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  const unsigned long long want = 2ull * blocks * threads * npes;
  const unsigned all_bits = npes >= 32 ? ~0u : (1u << npes) - 1;
  EXPECT(h[0] == want, "PE %d: atomic_fetch(counter) = %llu, expected %llu", me, h[0], want);
  EXPECT(h[1] == all_bits, "PE %d: atomic_fetch(bits) = %#llx", me, h[1]);
  if (me == 0) {
    amo_words hw;
    CK(cudaMemcpy(&hw, w, sizeof hw, cudaMemcpyDeviceToHost));
    EXPECT(hw.winners == 1, "compare_swap had %d winners", hw.winners);
    EXPECT(hw.cas_word >= 1 && hw.cas_word <= npes, "cas_word = %d", hw.cas_word);
    EXPECT(hw.xor_word == 0, "xor_word = %#x", hw.xor_word);
    EXPECT(hw.swap_word >= 0 && hw.swap_word < npes, "swap_word = %lld", hw.swap_word);
    EXPECT(hw.fswap == 1.5f, "fswap = %g", hw.fswap);
    for (int p = 0; p < npes; ++p) EXPECT(hw.set_slots[p] == p * 7 + 1, "set_slots[%d] = %lld", p, hw.set_slots[p]);
    const unsigned long long n_add = (unsigned long long)blocks * threads * npes;
    EXPECT(hw.counter32 == n_add, "counter32 = %u, expected %llu", hw.counter32, n_add);
    EXPECT(hw.old_sum == n_add * (n_add - 1) / 2, "sum of fetch_add's old values = %llu, expected %llu (each of 0..%llu once)",
           hw.old_sum, n_add * (n_add - 1) / 2, n_add - 1);
    EXPECT(hw.and_word == ~all_bits, "and_word = %#x, expected %#x", hw.and_word, ~all_bits);
    const unsigned long long fo_want = (unsigned long long)all_bits | ((unsigned long long)all_bits << 32);
    EXPECT(hw.fo_word == fo_want, "fo_word = %#llx, expected %#llx", hw.fo_word, fo_want);
    EXPECT(hw.fetch_errors == 0, "%d fetch_or/fetch_xor returned an old value without or with this PE's bit", hw.fetch_errors);
  }
  symmem_barrier_all();
  CK(cudaFree(out));
  symmem_free(w);
}

// Puts with a signal to the right, waits for the left's signal, then copies what arrived to `out`.
__global__ void signal_kernel(int mode, char *dst, const char *src, size_t n, uint64_t *sig, uint64_t value,
                              int *flag, int round, char *out) {
  const int right = (sd::my_pe() + 1) % sd::n_pes();
  switch (mode) {
    case 0: sd::putmem_signal_block(dst, src, n, sig, 1, SYMMEM_SIGNAL_ADD, right); break;
    case 1: if (threadIdx.x < 32) sd::putmem_signal_nbi_warp(dst, src, n, sig, value, SYMMEM_SIGNAL_SET, right); break;
    case 2: if (threadIdx.x == 0) sd::putmem_signal(dst, src, n, sig, value, SYMMEM_SIGNAL_SET, right); break;
    case 3: sd::putmem_signal_nbi_block(dst, src, n, sig, 1, SYMMEM_SIGNAL_ADD, right); break;
    case 4:
      if (threadIdx.x == 0) {
        sd::putmem(dst, src, n, right);
        sd::fence();
        sd::p(flag, round, right);
      }
      break;
  }
  if (threadIdx.x == 0) {
    if (mode == 4) {
      sd::wait_until(flag, SYMMEM_CMP_EQ, round);
    } else {
      uint64_t got = sd::signal_wait_until(sig, SYMMEM_CMP_GE, mode == 1 || mode == 2 ? value : 1);
      if (got < (mode == 1 || mode == 2 ? value : 1)) __trap();
    }
  }
  __syncthreads();
  for (size_t i = threadIdx.x; i < n; i += blockDim.x) out[i] = ((volatile char *)dst)[i];
}

void test_signals(char *src, char *dst) {
  uint64_t *sig = static_cast<uint64_t *>(symmem_malloc(sizeof(uint64_t)));
  int *flag = static_cast<int *>(symmem_malloc(sizeof(int)));
  char *out = nullptr;
  const size_t n = 65536 + 3;
  CK(cudaMalloc(&out, n));
  for (int mode = 0; mode < 5; ++mode) {
    ++round_no;
    auto mine = gt::pattern(me, round_no, n);
    CK(cudaMemcpy(src, mine.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(dst, gt::poison, n));
    CK(cudaMemset(out, gt::poison, n));
    CK(cudaMemset(sig, 0, sizeof(uint64_t)));
    CK(cudaMemset(flag, 0, sizeof(int)));
    symmem_barrier_all();
    signal_kernel<<<1, 256>>>(mode, dst, src, n, sig, 1000 + round_no, flag, round_no, out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    static const char *names[] = {"putmem_signal_block", "putmem_signal_nbi_warp", "putmem_signal",
                                  "putmem_signal_nbi_block", "put+fence+p / wait_until"};
    gt::check_bytes(out, n, 0, gt::pattern(left_pe, round_no, n), names[mode], me);
    symmem_barrier_all();
  }
  CK(cudaFree(out));
  symmem_free(flag);
  symmem_free(sig);
}

// Ring writes separated by barriers: after barrier i, my slot from the left holds i. Slots are
// split by parity, since the left may start round i+1 before this PE has read round i.
__global__ void barrier_kernel(int *slots, int iters, int mode, int *errors) {
  const int me = sd::my_pe(), n = sd::n_pes(), right = (me + 1) % n, left = (me - 1 + n) % n;
  for (int i = 1; i <= iters; ++i) {
    if (threadIdx.x == 0) sd::p(&slots[2 * me + (i & 1)], i, right);
    if (mode == 0) {
      if (threadIdx.x == 0) sd::barrier_all();
      __syncthreads();
    } else if (mode == 1) {
      sd::barrier_all_block();
    } else if (mode == 2) {
      if (threadIdx.x < 32) sd::sync_all_warp();
      __syncthreads();
    } else {
      sd::sync_all_block();
    }
    if (((volatile int *)slots)[2 * left + (i & 1)] != i) atomicAdd(errors, 1);
    __syncthreads();
  }
}

void test_barriers() {
  int *slots = static_cast<int *>(symmem_malloc(2 * npes * sizeof(int)));
  int *errors = nullptr;
  CK(cudaMalloc(&errors, sizeof(int)));
  for (int mode = 0; mode < 4; ++mode) {
    CK(cudaMemset(slots, 0xFF, 2 * npes * sizeof(int)));
    CK(cudaMemset(errors, 0, sizeof(int)));
    symmem_barrier_all();
    barrier_kernel<<<1, 128>>>(slots, 2000, mode, errors);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    int h = -1;
    CK(cudaMemcpy(&h, errors, sizeof h, cudaMemcpyDeviceToHost));
    EXPECT(h == 0, "PE %d: barrier mode %d: %d stale reads after the barrier", me, mode, h);
    symmem_barrier_all();
  }
#ifdef SYMMEM_TEST_RDC
  CK(cudaMemset(slots, 0xFF, 2 * npes * sizeof(int)));
  symmem_barrier_all();
  rdc_ring_kernel<<<1, 32>>>(slots, 77);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int got = 0;
  CK(cudaMemcpy(&got, slots + 2 * left_pe, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == 77, "PE %d: rdc kernel from another translation unit: slot = %d", me, got);
  symmem_barrier_all();
#endif
  CK(cudaFree(errors));
  symmem_free(slots);
}

__global__ void raw_copy(char *dst, const char *src, size_t n) {
  for (size_t i = threadIdx.x + blockIdx.x * (size_t)blockDim.x; i < n; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}

void test_ptr(char *src, char *dst) {
  const size_t n = 300001;
  char *remote = static_cast<char *>(symmem_ptr(dst, right_pe));
  EXPECT(remote != nullptr, "PE %d: symmem_ptr(dst, %d) is NULL on one host", me, right_pe);
  EXPECT(symmem_ptr(dst, me) == dst, "symmem_ptr(dst, me) must be dst");
  ++round_no;
  auto mine = gt::pattern(me, round_no, n);
  CK(cudaMemcpy(src, mine.data(), n, cudaMemcpyHostToDevice));
  CK(cudaMemset(dst, gt::poison, n + 64));
  symmem_barrier_all();
  raw_copy<<<16, 256>>>(remote, src, n);
  CK(cudaDeviceSynchronize());
  symmem_barrier_all();
  gt::check_bytes(dst, n + 64, 0, gt::pattern(left_pe, round_no, n), "store through symmem_ptr", me);
}

}  // namespace

int main() {
  gt::skip_without_gpu("gpu_device_test");
  if (symmem_init() != SYMMEM_SUCCESS) return 1;
  me = symmem_my_pe();
  npes = symmem_n_pes();
  right_pe = (me + 1) % npes;
  left_pe = (me - 1 + npes) % npes;
  EXPECT(symmem_heap_on_gpu() == 1, "the heap should be on the GPU (SYMMEM_HEAP=%s)", std::getenv("SYMMEM_HEAP"));
  const size_t cap = (size_t(2) << 20);
  char *src = static_cast<char *>(symmem_malloc(cap));
  char *dst = static_cast<char *>(symmem_malloc(cap));
  EXPECT(src != nullptr && dst != nullptr, "symmem_malloc failed");
  test_rma(src, dst, cap);
  test_p_g();
  test_atomics();
  test_signals(src, dst);
  test_barriers();
  test_ptr(src, dst);
  symmem_free(dst);
  symmem_free(src);
  symmem_finalize();
  if (me == 0) std::printf("PASS gpu_device_test (%d PEs)\n", npes);
  return 0;
}
