// symmem GPU test: collectives on a GPU heap through NVSHMEM's names. Every collective in its
// device thread, warp and block forms, its *_on_stream form and its host form, on the world and
// on a split team (every other PE), with fresh random data and poisoned outputs; reductions in
// int, float, uint64 (and/or/xor), half, bfloat16 and double2 maxloc, also in place; team routines
// in kernels; collective launch with the grid-size query. (gpu_coll_outline_test: the out-of-line
// copies.)
#include <nvshmem.h>
#include <nvshmemx.h>

#include <cmath>

#include "gpu_test.h"

namespace {

int me, npes;
int round_no = 0;
enum form { f_thread, f_warp, f_block, f_stream, f_host, n_forms };
const char *form_name[] = {"thread", "warp", "block", "on_stream", "host"};

// ---- moving collectives --------------------------------------------------------------------------
enum move_kind { k_bcast, k_fcollect, k_alltoall };

__global__ void move_kernel(int kind, int f, nvshmem_team_t team, int *d, const int *s, size_t n, int root) {
  if (f == f_thread && threadIdx.x == 0) {
    if (kind == k_bcast) nvshmem_int_broadcast(team, d, s, n, root);
    if (kind == k_fcollect) nvshmem_int_fcollect(team, d, s, n);
    if (kind == k_alltoall) nvshmem_int_alltoall(team, d, s, n);
  } else if (f == f_warp && threadIdx.x < 32) {
    if (kind == k_bcast) nvshmemx_int_broadcast_warp(team, d, s, n, root);
    if (kind == k_fcollect) nvshmemx_int_fcollect_warp(team, d, s, n);
    if (kind == k_alltoall) nvshmemx_int_alltoall_warp(team, d, s, n);
  } else if (f == f_block) {
    if (kind == k_bcast) nvshmemx_int_broadcast_block(team, d, s, n, root);
    if (kind == k_fcollect) nvshmemx_int_fcollect_block(team, d, s, n);
    if (kind == k_alltoall) nvshmemx_int_alltoall_block(team, d, s, n);
  }
}

void run_move(int kind, int f, nvshmem_team_t team, int *d, const int *s, size_t n, int root, cudaStream_t st) {
  if (f == f_stream) {
    if (kind == k_bcast) nvshmemx_int_broadcast_on_stream(team, d, s, n, root, st);
    if (kind == k_fcollect) nvshmemx_int_fcollect_on_stream(team, d, s, n, st);
    if (kind == k_alltoall) nvshmemx_int_alltoall_on_stream(team, d, s, n, st);
  } else if (f == f_host) {
    if (kind == k_bcast) nvshmem_int_broadcast(team, d, s, n, root);
    if (kind == k_fcollect) nvshmem_int_fcollect(team, d, s, n);
    if (kind == k_alltoall) nvshmem_int_alltoall(team, d, s, n);
  } else {
    move_kernel<<<1, 256, 0, st>>>(kind, f, team, d, s, n, root);
    CK(cudaGetLastError());
  }
  CK(cudaStreamSynchronize(st));
}

std::vector<int> ints(int pe, int round, size_t n) {
  auto b = gt::pattern(pe, round, n * sizeof(int));
  std::vector<int> v(n);
  std::memcpy(v.data(), b.data(), n * sizeof(int));
  return v;
}

// An int whose bytes are all gt::poison (what a poisoned int buffer holds).
int poison_int() {
  int v;
  std::memset(&v, gt::poison, sizeof v);
  return v;
}

// Team member i's world PE.
int world_of(nvshmem_team_t team, int i) { return nvshmem_team_translate_pe(team, i, NVSHMEM_TEAM_WORLD); }

void test_move(nvshmem_team_t team, int *src, int *dst, cudaStream_t st) {
  const int tn = nvshmem_team_n_pes(team), ti = nvshmem_team_my_pe(team);
  // 8 and 28 ints: one thread's blocks of 2 and 7 whole lines, pulled from the members together;
  // 3000: a block's, 3 lines per thread; 70000 ints: the grid path on stream
  for (size_t n : {size_t(1), size_t(8), size_t(28), size_t(37), size_t(3000), size_t(70000)}) {
    for (int kind = 0; kind < 3; ++kind) {
      for (int f = 0; f < n_forms; ++f) {
        ++round_no;
        const size_t in = kind == k_alltoall ? n * tn : n, out = kind == k_bcast ? n : n * tn;
        auto mine = ints(me, round_no, in);
        CK(cudaMemcpy(src, mine.data(), in * sizeof(int), cudaMemcpyHostToDevice));
        CK(cudaMemset(dst, gt::poison, (out + 16) * sizeof(int)));
        const int root = (round_no % tn);
        nvshmem_barrier(team);
        run_move(kind, f, team, dst, src, n, root, st);
        nvshmem_barrier(team);
        std::vector<int> got(out + 16);
        CK(cudaMemcpy(got.data(), dst, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
        std::vector<std::vector<int>> sent(tn);  // what every member sent this round
        for (int j = 0; j < tn; ++j) sent[j] = ints(world_of(team, j), round_no, in);
        for (size_t i = 0; i < out; ++i) {
          int want = 0;
          if (kind == k_bcast) want = sent[root][i];
          if (kind == k_fcollect) want = sent[i / n][i % n];
          if (kind == k_alltoall) want = sent[i / n][ti * n + i % n];
          EXPECT(got[i] == want, "PE %d: %s %s (n %zu, team of %d): element %zu is %d, expected %d", me,
                 kind == k_bcast ? "broadcast" : kind == k_fcollect ? "fcollect" : "alltoall", form_name[f], n, tn, i,
                 got[i], want);
        }
        for (size_t i = out; i < out + 16; ++i) EXPECT(got[i] == poison_int(), "PE %d: wrote past the end", me);
      }
    }
  }
}

// ---- reductions ----------------------------------------------------------------------------------
template <typename T>
T value_of(int pe, int round, size_t i);
template <> int value_of<int>(int pe, int round, size_t i) { return (int)((pe * 7919 + round * 31 + i * 13) % 2001) - 1000; }
template <> float value_of<float>(int pe, int round, size_t i) { return (float)((pe * 131 + round * 17 + i * 7) % 977) * 0.25f - 100.f; }
template <> uint64_t value_of<uint64_t>(int pe, int round, size_t i) {
  return (0x9e3779b97f4a7c15ull * (uint64_t)(pe + 1) * (round + 3)) ^ (i * 0x5851f42d4c957f2dull);
}
// Negative and positive: a max of shorts taken as unsigned would pick the negative ones.
template <> short value_of<short>(int pe, int round, size_t i) {
  return (short)((int)((pe * 4099 + round * 577 + i * 29) % 60001) - 30000);
}
// Bits all over, the sign bit too (about half of them negative).
template <> long long value_of<long long>(int pe, int round, size_t i) {
  return (long long)((0xd1b54a32d192ed03ull * (uint64_t)(pe + 2) * (round + 1)) ^ (i * 0x2545f4914f6cdd1dull));
}
template <> long value_of<long>(int pe, int round, size_t i) { return (long)value_of<long long>(pe, round, i) | 0x40; }
template <> half value_of<half>(int pe, int round, size_t i) { return __float2half((float)((pe + round + i) % 16)); }
template <> __nv_bfloat16 value_of<__nv_bfloat16>(int pe, int round, size_t i) {
  return __float2bfloat16((float)((pe * 3 + round + i) % 32));
}
template <> double2 value_of<double2>(int pe, int round, size_t i) {
  return make_double2((double)((pe * 5 + round + i) % 7), (double)pe);  // ties across PEs: the lowest index wins
}

double as_double(int v) { return v; }
double as_double(float v) { return v; }
double as_double(uint64_t v) { return (double)v; }
double as_double(half v) { return __half2float(v); }
double as_double(__nv_bfloat16 v) { return __bfloat162float(v); }
bool same(int a, int b) { return a == b; }
bool same(short a, short b) { return a == b; }
bool same(long long a, long long b) { return a == b; }
bool same(long a, long b) { return a == b; }
bool same(float a, float b) { return a == b; }
bool same(uint64_t a, uint64_t b) { return a == b; }
bool same(half a, half b) { return __half2float(a) == __half2float(b); }
bool same(__nv_bfloat16 a, __nv_bfloat16 b) { return __bfloat162float(a) == __bfloat162float(b); }
bool same(double2 a, double2 b) { return a.x == b.x && a.y == b.y; }

template <int OP, typename T>
T ref_combine(T a, T b) {
  if constexpr (std::is_same<T, double2>::value) {
    return (b.x > a.x || (b.x == a.x && b.y < a.y)) ? b : a;
  } else if constexpr (std::is_same<T, half>::value || std::is_same<T, __nv_bfloat16>::value) {
    return T((float)as_double(a) + (float)as_double(b));
  } else if constexpr (OP == SYMMEM_RED_SUM) {
    return (T)(a + b);
  } else if constexpr (OP == SYMMEM_RED_MAX) {
    return b > a ? b : a;
  } else if constexpr (OP == SYMMEM_RED_AND) {
    return a & b;
  } else {
    return a ^ b;
  }
}

#define SYMMEM_T_RED(NAME, T, OP, CALL_T, CALL_W, CALL_B, CALL_S, CALL_H)                                   \
  __global__ void NAME##_kernel(int f, int scatter, nvshmem_team_t team, T *d, const T *s, size_t n) {     \
    if (f == f_thread && threadIdx.x == 0) {                                                              \
      if (scatter) CALL_T##scatter(team, d, s, n); else CALL_T(team, d, s, n);                            \
    } else if (f == f_warp && threadIdx.x < 32) {                                                         \
      if (scatter) CALL_W##scatter##_warp(team, d, s, n); else CALL_W##_warp(team, d, s, n);              \
    } else if (f == f_block) {                                                                            \
      if (scatter) CALL_B##scatter##_block(team, d, s, n); else CALL_B##_block(team, d, s, n);            \
    }                                                                                                     \
  }                                                                                                       \
  void NAME##_run(int f, int scatter, nvshmem_team_t team, T *d, const T *s, size_t n, cudaStream_t st) { \
    if (f == f_stream) {                                                                                  \
      if (scatter) CALL_S##scatter##_on_stream(team, d, s, n, st); else CALL_S##_on_stream(team, d, s, n, st); \
    } else if (f == f_host) {                                                                             \
      if (scatter) CALL_H##scatter(team, d, s, n); else CALL_H(team, d, s, n);                            \
    } else {                                                                                              \
      NAME##_kernel<<<1, 128, 0, st>>>(f, scatter, team, d, s, n);                                        \
      CK(cudaGetLastError());                                                                             \
    }                                                                                                     \
    CK(cudaStreamSynchronize(st));                                                                        \
  }
SYMMEM_T_RED(isum, int, SYMMEM_RED_SUM, nvshmem_int_sum_reduce, nvshmemx_int_sum_reduce, nvshmemx_int_sum_reduce,
             nvshmemx_int_sum_reduce, nvshmem_int_sum_reduce)
SYMMEM_T_RED(fmax, float, SYMMEM_RED_MAX, nvshmem_float_max_reduce, nvshmemx_float_max_reduce, nvshmemx_float_max_reduce,
             nvshmemx_float_max_reduce, nvshmem_float_max_reduce)
SYMMEM_T_RED(uxor, uint64_t, SYMMEM_RED_XOR, nvshmem_uint64_xor_reduce, nvshmemx_uint64_xor_reduce,
             nvshmemx_uint64_xor_reduce, nvshmemx_uint64_xor_reduce, nvshmem_uint64_xor_reduce)
// The library's stream kernels are one per machine type (kernels.cu): a short max keeps its sign,
// a long long max shares the kernel of long and keeps its sign, an int64 (signed) and goes through
// the 64-bit unsigned kernel.
SYMMEM_T_RED(smax, short, SYMMEM_RED_MAX, nvshmem_short_max_reduce, nvshmemx_short_max_reduce, nvshmemx_short_max_reduce,
             nvshmemx_short_max_reduce, nvshmem_short_max_reduce)
SYMMEM_T_RED(llmax, long long, SYMMEM_RED_MAX, nvshmem_longlong_max_reduce, nvshmemx_longlong_max_reduce,
             nvshmemx_longlong_max_reduce, nvshmemx_longlong_max_reduce, nvshmem_longlong_max_reduce)
SYMMEM_T_RED(i64and, int64_t, SYMMEM_RED_AND, nvshmem_int64_and_reduce, nvshmemx_int64_and_reduce,
             nvshmemx_int64_and_reduce, nvshmemx_int64_and_reduce, nvshmem_int64_and_reduce)
SYMMEM_T_RED(hsum, half, SYMMEM_RED_SUM, nvshmem_half_sum_reduce, nvshmemx_half_sum_reduce, nvshmemx_half_sum_reduce,
             nvshmemx_half_sum_reduce, nvshmem_half_sum_reduce)
SYMMEM_T_RED(bsum, __nv_bfloat16, SYMMEM_RED_SUM, nvshmem_bfloat16_sum_reduce, nvshmemx_bfloat16_sum_reduce,
             nvshmemx_bfloat16_sum_reduce, nvshmemx_bfloat16_sum_reduce, nvshmem_bfloat16_sum_reduce)
SYMMEM_T_RED(mloc, double2, SYMMEM_RED_MAXLOC, nvshmem_double2_maxloc_reduce, nvshmemx_double2_maxloc_reduce,
             nvshmemx_double2_maxloc_reduce, nvshmemx_double2_maxloc_reduce, nvshmem_double2_maxloc_reduce)

template <int OP, typename T, typename Run>
void test_reduce(const char *what, Run run, nvshmem_team_t team, void *sbuf, void *dbuf, cudaStream_t st) {
  const int tn = nvshmem_team_n_pes(team), ti = nvshmem_team_my_pe(team);
  // 64: 2-byte elements in whole 4-byte words (LL for warps and blocks), as 4- and 8-byte ones are at 1 and 33.
  for (size_t n : {size_t(1), size_t(33), size_t(64), size_t(70000)}) {
    for (int scatter = 0; scatter < 2; ++scatter) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        if (std::is_same<T, double2>::value && scatter) continue;  // NVSHMEM has no maxloc reducescatter
        for (int f = 0; f < n_forms; ++f) {
          ++round_no;
          const size_t in = scatter ? n * tn : n;
          std::vector<T> mine(in);
          for (size_t i = 0; i < in; ++i) mine[i] = value_of<T>(me, round_no, i);
          T *s = static_cast<T *>(sbuf);
          T *d = in_place ? s : static_cast<T *>(dbuf);
          CK(cudaMemset(dbuf, gt::poison, (n + 8) * sizeof(T)));
          CK(cudaMemcpy(s, mine.data(), in * sizeof(T), cudaMemcpyHostToDevice));
          nvshmem_barrier(team);
          run(f, scatter, team, d, s, n, st);
          nvshmem_barrier(team);
          std::vector<T> got(n);
          CK(cudaMemcpy(got.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
          for (size_t i = 0; i < n; ++i) {
            const size_t at = scatter ? ti * n + i : i;
            T want = value_of<T>(world_of(team, 0), round_no, at);
            for (int j = 1; j < tn; ++j) want = ref_combine<OP>(want, value_of<T>(world_of(team, j), round_no, at));
            EXPECT(same(got[i], want), "PE %d: %s%s %s%s (n %zu, team of %d): element %zu wrong", me, what,
                   scatter ? " reducescatter" : " reduce", form_name[f], in_place ? " in place" : "", n, tn, i);
          }
        }
      }
    }
  }
}

// ---- team routines, barriers and collective launch -------------------------------------------------
__global__ void team_query_kernel(nvshmem_team_t team, int *out) {
  out[0] = nvshmem_team_my_pe(team);
  out[1] = nvshmem_team_n_pes(team);
  out[2] = nvshmem_team_translate_pe(team, out[1] - 1, NVSHMEM_TEAM_WORLD);
  out[3] = nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE);
  out[4] = nvshmem_team_translate_pe(NVSHMEM_TEAM_WORLD, nvshmem_my_pe(), team);
}

// Every block of a cooperative grid stores, then block 0 waits for all and barriers across PEs:
// only a launch whose blocks are all resident finishes.
__global__ void coop_kernel(int *arrived, int *slot, int round) {
  if (threadIdx.x == 0) atomicAdd(arrived, 1);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    while (atomicAdd(arrived, 0) < (int)gridDim.x) {
    }
    nvshmem_int_p(slot, round, (nvshmem_my_pe() + 1) % nvshmem_n_pes());
    nvshmem_barrier_all();
  }
}

void test_team_routines(nvshmem_team_t team) {
  int *out = nullptr;
  CK(cudaMalloc(&out, 5 * sizeof(int)));
  team_query_kernel<<<1, 1>>>(team, out);
  CK(cudaDeviceSynchronize());
  int h[5];
  CK(cudaMemcpy(h, out, sizeof h, cudaMemcpyDeviceToHost));
  EXPECT(h[0] == nvshmem_team_my_pe(team) && h[1] == nvshmem_team_n_pes(team), "PE %d: team my_pe/n_pes in a kernel", me);
  EXPECT(h[2] == world_of(team, h[1] - 1), "PE %d: translate_pe in a kernel gave %d", me, h[2]);
  EXPECT(h[3] == nvshmem_team_my_pe(NVSHMEMX_TEAM_NODE), "PE %d: NODE team in a kernel", me);
  EXPECT(h[4] == h[0], "PE %d: translate world -> team gave %d", me, h[4]);
  CK(cudaFree(out));
}

void test_collective_launch(int *slot) {
  int grid = 0;
  void *args_probe[] = {nullptr};
  EXPECT(nvshmemx_collective_launch_query_gridsize((const void *)coop_kernel, dim3(256), args_probe, 0, &grid) ==
             NVSHMEMX_SUCCESS && grid > 0,
         "query_gridsize gave %d", grid);
  int *arrived = nullptr;
  CK(cudaMalloc(&arrived, sizeof(int)));
  CK(cudaMemset(arrived, 0, sizeof(int)));
  CK(cudaMemset(slot, 0xFF, sizeof(int)));
  nvshmem_barrier_all();
  int round = 4242;
  void *args[] = {&arrived, &slot, &round};
  const int blocks = grid < 64 ? grid : 64;
  EXPECT(nvshmemx_collective_launch((const void *)coop_kernel, dim3(blocks), dim3(256), args, 0, 0) == NVSHMEMX_SUCCESS,
         "collective_launch of %d blocks", blocks);
  CK(cudaDeviceSynchronize());
  nvshmem_barrier_all();
  int got = 0;
  CK(cudaMemcpy(&got, slot, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == round, "PE %d: collective-launched kernel's put: %d", me, got);
  EXPECT(nvshmemx_collective_launch((const void *)coop_kernel, dim3(grid + 1), dim3(256), args, 0, 0) != NVSHMEMX_SUCCESS,
         "a grid larger than the query must be refused");
  CK(cudaFree(arrived));
}

// Back-to-back fcollects and broadcasts in one kernel with no barrier between them, the source
// rewritten for every call, the broadcast's root moving on every call, and each result checked in
// the kernel: small blocks on the teams made at init go through the LL areas (coll.cuh), which
// only the calls' own order keeps apart (fcollect: two areas by turns; broadcast: an offset that
// advances with every call and a barrier when the area is full, every 8 calls at 8 KiB). No
// __syncthreads in the block form: a block's call starts and ends with one, as NVSHMEM's do.
__device__ int ll_value(int pe, int it, size_t i) { return pe * 1000003 + it * 7919 + (int)i; }
enum b2b_kind { b_fcollect, b_bcast, b_both, b_reduce };
const char *b2b_name[] = {"fcollect", "broadcast", "broadcast+fcollect", "reduce+alltoall+fcollect"};

__global__ void back_to_back_kernel(int kind, int f, nvshmem_team_t team, int *d, int *s, size_t n, int iters,
                                    const int *world, int *errors) {
  const bool in_group = f == f_thread ? threadIdx.x == 0 : f == f_warp ? threadIdx.x < 32 : true;
  if (!in_group) return;
  const size_t tid = f == f_thread ? 0 : threadIdx.x, nth = f == f_thread ? 1 : f == f_warp ? 32 : blockDim.x;
  const int tn = nvshmem_team_n_pes(team), me_pe = nvshmem_my_pe();
  int *bd = d + n * tn;  // the broadcast's dest, after the fcollect's
  for (int it = 0; it < iters; ++it) {
    for (size_t i = tid; i < n; i += nth) s[i] = ll_value(me_pe, it, i);
    if (kind == b_reduce) {  // sum in place (odd iterations) or into the dest after the fcollect's
      int *rd = it % 2 ? s : bd;
      if (f == f_thread) nvshmem_int_sum_reduce(team, rd, s, n);
      if (f == f_warp) nvshmemx_int_sum_reduce_warp(team, rd, s, n);
      if (f == f_block) nvshmemx_int_sum_reduce_block(team, rd, s, n);
      for (size_t i = tid; i < n; i += nth) {
        unsigned want = 0;
        for (int j = 0; j < tn; ++j) want += (unsigned)ll_value(world[j], it, i);
        if ((unsigned)rd[i] != want) atomicAdd(errors, 1);
      }
      if (f == f_block) __syncthreads();
      if (f == f_warp) __syncwarp();
      for (size_t i = tid; i < n; i += nth) s[i] = ll_value(me_pe, it, i);  // the fcollect's source again
      // alltoall: block j of this PE's source (after the n ints above) goes to team PE j
      int *as = s + n, *ad = d + n * (tn + 1) + 16;
      const int ti = nvshmem_team_my_pe(team);
      for (size_t i = tid; i < n * tn; i += nth) as[i] = ll_value(me_pe * 64 + (int)(i / n), it, i % n);
      if (f == f_block) __syncthreads();
      if (f == f_warp) __syncwarp();
      if (f == f_thread) nvshmem_int_alltoall(team, ad, as, n);
      if (f == f_warp) nvshmemx_int_alltoall_warp(team, ad, as, n);
      if (f == f_block) nvshmemx_int_alltoall_block(team, ad, as, n);
      for (size_t i = tid; i < n * tn; i += nth)
        if (ad[i] != ll_value(world[i / n] * 64 + ti, it, i % n)) atomicAdd(errors, 1);
    } else if (kind != b_fcollect) {
      const int root = it % tn;
      if (f == f_thread) nvshmem_int_broadcast(team, bd, s, n, root);
      if (f == f_warp) nvshmemx_int_broadcast_warp(team, bd, s, n, root);
      if (f == f_block) nvshmemx_int_broadcast_block(team, bd, s, n, root);
      for (size_t i = tid; i < n; i += nth)
        if (bd[i] != ll_value(world[root], it, i)) atomicAdd(errors, 1);
    }
    if (kind != b_bcast) {
      if (f == f_thread) nvshmem_int_fcollect(team, d, s, n);
      if (f == f_warp) nvshmemx_int_fcollect_warp(team, d, s, n);
      if (f == f_block) nvshmemx_int_fcollect_block(team, d, s, n);
      for (size_t i = tid; i < n * tn; i += nth)
        if (d[i] != ll_value(world[i / n], it, i % n)) atomicAdd(errors, 1);
    }
  }
}

void test_back_to_back(nvshmem_team_t team, int *src, int *dst, cudaStream_t st) {
  const int tn = nvshmem_team_n_pes(team);
  std::vector<int> world(tn);
  for (int j = 0; j < tn; ++j) world[j] = world_of(team, j);
  int *w = nullptr, *errors = nullptr;
  CK(cudaMalloc(&w, tn * sizeof(int)));
  CK(cudaMalloc(&errors, sizeof(int)));
  CK(cudaMemcpy(w, world.data(), tn * sizeof(int), cudaMemcpyHostToDevice));
  // fcollect, alltoall and reduce: LL up to 16 B per member for one thread (fcollect and alltoall:
  // 8 B on teams of 3 or 4), 512 B for a warp (fcollect and alltoall: also 1 KiB from all other
  // members together), 2 KiB for a block, then
  // barriers; broadcast: LL up to 64 B for one thread, 4 KiB for a warp, 8 KiB
  // for a block, then barriers.
  const std::vector<size_t> sizes[] = {{1, 2, 4, 5, 8, 28, 128, 129, 256, 257, 512, 513}, {1, 2, 16, 17, 1024, 1025, 2048, 2049},
                                       {2, 128}, {1, 3, 4, 5, 8, 128, 129, 512, 513}};
  for (int kind = b_fcollect; kind <= b_reduce; ++kind) {
    for (size_t n : sizes[kind]) {
      for (int f = f_thread; f <= f_block; ++f) {
        CK(cudaMemset(errors, 0, sizeof(int)));
        CK(cudaMemset(dst, gt::poison, (n * (tn + 1) + 16) * sizeof(int)));
        nvshmem_barrier(team);
        back_to_back_kernel<<<1, 256, 0, st>>>(kind, f, team, dst, src, n, 300, w, errors);
        CK(cudaGetLastError());
        CK(cudaStreamSynchronize(st));
        int bad = -1;
        CK(cudaMemcpy(&bad, errors, sizeof bad, cudaMemcpyDeviceToHost));
        EXPECT(bad == 0, "PE %d: %d wrong elements in 300 back-to-back %s calls of %zu ints (%s, team of %d)", me,
               bad, b2b_name[kind], n, form_name[f], tn);
        std::vector<int> tail(16);
        CK(cudaMemcpy(tail.data(), dst + n * (tn + 1), tail.size() * sizeof(int), cudaMemcpyDeviceToHost));
        for (int v : tail) EXPECT(v == poison_int(), "PE %d: %s %s wrote past the end", me, b2b_name[kind], form_name[f]);
      }
    }
  }
  nvshmem_barrier(team);
  CK(cudaFree(errors));
  CK(cudaFree(w));
}

// Bytes at an odd address, a multiple of 4 long: too small for anything but LL, which moves
// 4-byte words, so it must take the aligned path (a misaligned word load faults the kernel).
__global__ void odd_bytes_kernel(int f, nvshmem_team_t team, char *d, const char *s, size_t n, int root) {
  if (f == f_warp && threadIdx.x < 32) {
    nvshmemx_char_fcollect_warp(team, d, s, n);
    nvshmemx_char_broadcast_warp(team, d + n * nvshmem_team_n_pes(team), s, n, root);
  } else if (f == f_block) {
    nvshmemx_char_fcollect_block(team, d, s, n);
    nvshmemx_char_broadcast_block(team, d + n * nvshmem_team_n_pes(team), s, n, root);
  }
}

void test_odd_bytes(nvshmem_team_t team, char *src, char *dst, cudaStream_t st) {
  const int tn = nvshmem_team_n_pes(team);
  const size_t n = 8;
  for (int f = f_warp; f <= f_block; ++f) {
    ++round_no;
    const int root = round_no % tn;
    auto mine = gt::pattern(me, round_no, n);
    CK(cudaMemcpy(src + 1, mine.data(), n, cudaMemcpyHostToDevice));
    CK(cudaMemset(dst, gt::poison, n * (tn + 1) + 2));
    nvshmem_barrier(team);
    odd_bytes_kernel<<<1, 64, 0, st>>>(f, team, dst + 1, src + 1, n, root);
    const cudaError_t e = cudaStreamSynchronize(st);
    EXPECT(e == cudaSuccess, "PE %d: %s fcollect/broadcast of %zu bytes at an odd address: %s", me, form_name[f], n,
           cudaGetErrorString(e));
    if (e != cudaSuccess) return;
    nvshmem_barrier(team);
    std::vector<unsigned char> got(n * (tn + 1) + 2);
    CK(cudaMemcpy(got.data(), dst, got.size(), cudaMemcpyDeviceToHost));
    for (size_t i = 0; i < n * (tn + 1); ++i) {
      const int from = i < n * tn ? world_of(team, (int)(i / n)) : world_of(team, root);
      const unsigned char want = gt::pattern(from, round_no, n)[i % n];
      EXPECT(got[i + 1] == want, "PE %d: %s odd-address %s byte %zu is %d, expected %d", me, form_name[f],
             i < n * tn ? "fcollect" : "broadcast", i % n, got[i + 1], want);
    }
    EXPECT(got[0] == (unsigned char)gt::poison && got.back() == (unsigned char)gt::poison,
           "PE %d: odd-address collectives wrote outside their dest", me);
  }
}

void run_all(nvshmem_team_t team, void *a, void *b, cudaStream_t st) {
  test_team_routines(team);
  test_move(team, static_cast<int *>(a), static_cast<int *>(b), st);
  test_back_to_back(team, static_cast<int *>(a), static_cast<int *>(b), st);
  test_odd_bytes(team, static_cast<char *>(a), static_cast<char *>(b), st);
  test_reduce<SYMMEM_RED_SUM, int>("int sum", isum_run, team, a, b, st);
  test_reduce<SYMMEM_RED_MAX, float>("float max", fmax_run, team, a, b, st);
  test_reduce<SYMMEM_RED_XOR, uint64_t>("uint64 xor", uxor_run, team, a, b, st);
  test_reduce<SYMMEM_RED_MAX, short>("short max", smax_run, team, a, b, st);
  test_reduce<SYMMEM_RED_MAX, long long>("longlong max", llmax_run, team, a, b, st);
  test_reduce<SYMMEM_RED_AND, int64_t>("int64 and", i64and_run, team, a, b, st);
  test_reduce<SYMMEM_RED_SUM, half>("half sum", hsum_run, team, a, b, st);
  test_reduce<SYMMEM_RED_SUM, __nv_bfloat16>("bfloat16 sum", bsum_run, team, a, b, st);
  test_reduce<SYMMEM_RED_MAXLOC, double2>("double2 maxloc", mloc_run, team, a, b, st);
}

}  // namespace

int main() {
  gt::skip_without_gpu("gpu_coll_test");
  nvshmem_init();
  me = nvshmem_my_pe();
  npes = nvshmem_n_pes();
  const size_t cap = size_t(8) << 20;
  void *a = nvshmem_malloc(cap), *b = nvshmem_malloc(cap);
  int *slot = (int *)nvshmem_malloc(sizeof(int));
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  run_all(NVSHMEM_TEAM_WORLD, a, b, st);
  test_back_to_back(NVSHMEMX_TEAM_NODE, static_cast<int *>(a), static_cast<int *>(b), st);
  nvshmem_team_t odd = NVSHMEM_TEAM_INVALID;
  EXPECT(nvshmem_team_split_strided(NVSHMEM_TEAM_WORLD, npes > 1 ? 1 : 0, 2, npes > 1 ? npes / 2 : 1, nullptr, 0, &odd) == 0,
         "split");
  if (odd != NVSHMEM_TEAM_INVALID) {
    EXPECT(odd >= NVSHMEM_TEAMS_MIN - 2 && odd < 64, "team index %d", odd);
    run_all(odd, a, b, st);
    nvshmem_team_destroy(odd);
  }
  nvshmem_barrier_all();
  test_collective_launch(slot);
  CK(cudaStreamDestroy(st));
  nvshmem_free(slot);
  nvshmem_free(b);
  nvshmem_free(a);
  nvshmem_finalize();
  if (me == 0) std::printf("PASS gpu_coll_test (%d PEs)\n", npes);
  return 0;
}
