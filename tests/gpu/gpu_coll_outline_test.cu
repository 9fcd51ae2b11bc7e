// symmem GPU test: the device collectives' out-of-line copies (include/symmem/detail/coll_outline.cuh),
// which a program built with -rdc and -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES takes from
// libsymmem_device.a, compiled there with at most 64 registers. Block collectives from a kernel of
// 1024 threads must launch (a kernel's registers times its threads must fit the SM's 65,536; inline
// they gave such kernels 93-146) and give the same results; each kind (broadcast, fcollect,
// alltoall, reductions whose integer types share a copy by size and, for min and max, sign) in the
// thread, warp and block forms, on poisoned outputs.
#include <nvshmem.h>
#include <nvshmemx.h>

#include "gpu_test.h"

#if !defined(SYMMEM_DEVICE_OUTLINE_COLLECTIVES) || !defined(__CUDACC_RDC__)
#error "built with -rdc and -DSYMMEM_DEVICE_OUTLINE_COLLECTIVES (tests/gpu/CMakeLists.txt)"
#endif

namespace {

int me, npes;

__global__ void wide_kernel(int *d, const int *s, int64_t *rd, const int64_t *rs, size_t n) {
  nvshmemx_int_fcollect_block(NVSHMEM_TEAM_WORLD, d, s, n);
  nvshmemx_int64_max_reduce_block(NVSHMEM_TEAM_WORLD, rd, rs, n);
  nvshmemx_int_broadcast_block(NVSHMEM_TEAM_WORLD, d + n * nvshmem_n_pes(), s, n, 0);
}

enum form { f_thread, f_warp, f_block };
const char *form_name[] = {"thread", "warp", "block"};
// Every kind once per form: alltoall of ints, a short sum (an unsigned copy), a signed char min, a
// float sum and a double2 maxloc.
__global__ void kinds_kernel(int f, int *a2a_d, const int *a2a_s, short *ss_d, const short *ss_s, signed char *cm_d,
                             const signed char *cm_s, float *fs_d, const float *fs_s, double2 *ml_d, const double2 *ml_s,
                             size_t n) {
  const nvshmem_team_t w = NVSHMEM_TEAM_WORLD;
  if (f == f_thread && threadIdx.x == 0) {
    nvshmem_int_alltoall(w, a2a_d, a2a_s, n);
    nvshmem_short_sum_reduce(w, ss_d, ss_s, n);
    nvshmem_schar_min_reduce(w, cm_d, cm_s, n);
    nvshmem_float_sum_reduce(w, fs_d, fs_s, n);
    nvshmem_double2_maxloc_reduce(w, ml_d, ml_s, n);
  } else if (f == f_warp && threadIdx.x < 32) {
    nvshmemx_int_alltoall_warp(w, a2a_d, a2a_s, n);
    nvshmemx_short_sum_reduce_warp(w, ss_d, ss_s, n);
    nvshmemx_schar_min_reduce_warp(w, cm_d, cm_s, n);
    nvshmemx_float_sum_reduce_warp(w, fs_d, fs_s, n);
    nvshmemx_double2_maxloc_reduce_warp(w, ml_d, ml_s, n);
  } else if (f == f_block) {
    nvshmemx_int_alltoall_block(w, a2a_d, a2a_s, n);
    nvshmemx_short_sum_reduce_block(w, ss_d, ss_s, n);
    nvshmemx_schar_min_reduce_block(w, cm_d, cm_s, n);
    nvshmemx_float_sum_reduce_block(w, fs_d, fs_s, n);
    nvshmemx_double2_maxloc_reduce_block(w, ml_d, ml_s, n);
  }
}

int val(int pe, size_t i, int round) { return (int)((pe * 7919 + (int)i * 104729 + round * 31) % 2001) - 1000; }

template <typename T>
T *at(char *base, size_t &off, size_t n) {
  off = (off + 15) & ~size_t(15);
  T *p = reinterpret_cast<T *>(base + off);
  off += n * sizeof(T);
  return p;
}

void test_wide(char *a, char *b) {
  for (size_t n : {size_t(5), size_t(3000)}) {
    size_t so = 0, dof = 0;
    int *s = at<int>(a, so, n);
    int64_t *rs = at<int64_t>(a, so, n);
    int *d = at<int>(b, dof, n * (npes + 1));
    int64_t *rd = at<int64_t>(b, dof, n);
    std::vector<int> mine(n);
    std::vector<int64_t> lmine(n);
    for (size_t i = 0; i < n; ++i) mine[i] = val(me, i, 1), lmine[i] = (int64_t)val(me, i, 2) * 1000003;
    CK(cudaMemcpy(s, mine.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(rs, lmine.data(), n * sizeof(int64_t), cudaMemcpyHostToDevice));
    CK(cudaMemset(b, gt::poison, dof));
    nvshmem_barrier_all();
    wide_kernel<<<1, 1024>>>(d, s, rd, rs, n);
    const cudaError_t e = cudaGetLastError();
    EXPECT(e == cudaSuccess, "PE %d: a 1024-thread kernel calling block collectives did not launch: %s", me,
           cudaGetErrorString(e));
    if (e != cudaSuccess) return;
    CK(cudaDeviceSynchronize());
    nvshmem_barrier_all();
    std::vector<int> got(n * (npes + 1));
    std::vector<int64_t> lgot(n);
    CK(cudaMemcpy(got.data(), d, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(lgot.data(), rd, n * sizeof(int64_t), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      int64_t want = 0;
      for (int j = 0; j < npes; ++j) {
        bad += got[j * n + i] != val(j, i, 1);
        const int64_t v = (int64_t)val(j, i, 2) * 1000003;
        want = j == 0 || v > want ? v : want;
      }
      bad += got[npes * n + i] != val(0, i, 1);
      bad += lgot[i] != want;
    }
    EXPECT(bad == 0, "PE %d: 1024-thread block fcollect / int64 max reduce / broadcast of %zu: %zu wrong", me, n, bad);
  }
}

void test_kinds(char *a, char *b) {
  for (size_t n : {size_t(3), size_t(700)}) {
    for (int f = f_thread; f <= f_block; ++f) {
      const int round = 10 + f;
      size_t so = 0, dof = 0;
      int *a2a_s = at<int>(a, so, n * npes);
      short *ss_s = at<short>(a, so, n);
      signed char *cm_s = at<signed char>(a, so, n);
      float *fs_s = at<float>(a, so, n);
      double2 *ml_s = at<double2>(a, so, n);
      int *a2a_d = at<int>(b, dof, n * npes);
      short *ss_d = at<short>(b, dof, n);
      signed char *cm_d = at<signed char>(b, dof, n);
      float *fs_d = at<float>(b, dof, n);
      double2 *ml_d = at<double2>(b, dof, n);
      std::vector<int> a2a(n * npes);
      std::vector<short> ss(n);
      std::vector<signed char> cm(n);
      std::vector<float> fs(n);
      std::vector<double2> ml(n);
      for (size_t i = 0; i < n * npes; ++i) a2a[i] = val(me, i, round);
      for (size_t i = 0; i < n; ++i) {
        ss[i] = (short)(val(me, i, round) * 37);
        cm[i] = (signed char)(val(me, i, round + 1) % 128);
        fs[i] = (float)(val(me, i, round + 2) % 64);  // small integers: sums exact in any order
        ml[i] = make_double2((double)(val(me, i, round + 3) % 5), (double)me);
      }
      CK(cudaMemcpy(a2a_s, a2a.data(), a2a.size() * sizeof(int), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(ss_s, ss.data(), n * sizeof(short), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(cm_s, cm.data(), n, cudaMemcpyHostToDevice));
      CK(cudaMemcpy(fs_s, fs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
      CK(cudaMemcpy(ml_s, ml.data(), n * sizeof(double2), cudaMemcpyHostToDevice));
      CK(cudaMemset(b, gt::poison, dof));
      nvshmem_barrier_all();
      kinds_kernel<<<1, 256>>>(f, a2a_d, a2a_s, ss_d, ss_s, cm_d, cm_s, fs_d, fs_s, ml_d, ml_s, n);
      CK(cudaGetLastError());
      CK(cudaDeviceSynchronize());
      nvshmem_barrier_all();
      std::vector<int> ga(n * npes);
      std::vector<short> gs(n);
      std::vector<signed char> gc(n);
      std::vector<float> gf(n);
      std::vector<double2> gm(n);
      CK(cudaMemcpy(ga.data(), a2a_d, ga.size() * sizeof(int), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(gs.data(), ss_d, n * sizeof(short), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(gc.data(), cm_d, n, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(gf.data(), fs_d, n * sizeof(float), cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(gm.data(), ml_d, n * sizeof(double2), cudaMemcpyDeviceToHost));
      size_t bad = 0;
      for (int j = 0; j < npes; ++j)
        for (size_t i = 0; i < n; ++i) bad += ga[j * n + i] != val(j, me * n + i, round);  // block me of PE j
      for (size_t i = 0; i < n; ++i) {
        short ws = 0;
        signed char wc = 0;
        float wf = 0;
        double2 wm = make_double2(0, 0);
        for (int j = 0; j < npes; ++j) {
          ws = (short)(ws + (short)(val(j, i, round) * 37));
          const signed char c = (signed char)(val(j, i, round + 1) % 128);
          wc = j == 0 || c < wc ? c : wc;
          wf += (float)(val(j, i, round + 2) % 64);
          const double v = (double)(val(j, i, round + 3) % 5);
          if (j == 0 || v > wm.x) wm = make_double2(v, (double)j);
        }
        bad += gs[i] != ws;
        bad += gc[i] != wc;
        bad += gf[i] != wf;
        bad += gm[i].x != wm.x || gm[i].y != wm.y;
      }
      EXPECT(bad == 0, "PE %d: out-of-line alltoall / short sum / schar min / float sum / double2 maxloc of %zu (%s): %zu wrong",
             me, n, form_name[f], bad);
    }
  }
}

}  // namespace

int main() {
  gt::skip_without_gpu("gpu_coll_outline_test");
  nvshmem_init();
  me = nvshmem_my_pe();
  npes = nvshmem_n_pes();
  const size_t cap = size_t(1) << 20;
  char *a = static_cast<char *>(nvshmem_malloc(cap)), *b = static_cast<char *>(nvshmem_malloc(cap));
  test_wide(a, b);
  test_kinds(a, b);
  nvshmem_barrier_all();
  nvshmem_free(b);
  nvshmem_free(a);
  nvshmem_finalize();
  if (me == 0) std::printf("PASS gpu_coll_outline_test (%d PEs)\n", npes);
  return 0;
}
