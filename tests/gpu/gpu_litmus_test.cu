// symmem GPU test: litmus tests of the device memory model (docs/gpu.md, "Memory model").
//
//  SB (store buffering): PE a puts x=1 to PE b, quiet, then reads its own y; PE b puts y=1 to PE a,
//     quiet, reads its own x. quiet completes the put before the later load, so both reads zero is
//     forbidden. The same with fence (ordering only) and with nothing are run as controls: their
//     both-zero counts are printed (they show the test can see reordering) but not asserted.
//  MP (message passing): PE a puts a 256-byte message, fence, p(flag); PE b waits on the flag with
//     wait_until and must see the whole message.
//  Polling g: PE b spins on g(&flag, b) (a strong load: a plain one may be hoisted or served from
//     a stale line) until PE a's p arrives; the spin is bounded and fails the test when it expires.
// Pairs are PEs (2k, 2k+1); a lone last PE takes part in the barriers only. Every round uses fresh
// slots, and a device barrier starts the two PEs of a round together.
#include <symmem/device.cuh>

#include "gpu_test.h"

namespace sd = symmem::device;

namespace {

constexpr int rounds = 20000;
constexpr int msg_ints = 64;
enum order { o_quiet, o_fence, o_none };

struct slots {
  int x[rounds], y[rounds];
  int flag[rounds];
  int msg[rounds][msg_ints];
  int seen[rounds];  // what this PE read in round r
};

__device__ void order_point(int o) {
  if (o == o_quiet) sd::quiet();
  else if (o == o_fence) sd::fence();
}

__global__ void sb_kernel(slots *s, int partner, int a_side, int o) {
  for (int r = 0; r < rounds; ++r) {
    sd::barrier_all();
    if (partner >= 0) {
      if (a_side) {
        sd::p(&s->x[r], 1, partner);
        order_point(o);
        s->seen[r] = sd::g(&s->y[r], sd::my_pe());
      } else {
        sd::p(&s->y[r], 1, partner);
        order_point(o);
        s->seen[r] = sd::g(&s->x[r], sd::my_pe());
      }
    }
  }
}

__global__ void mp_kernel(slots *s, int partner, int a_side, int *bad) {
  for (int r = 0; r < rounds / 4; ++r) {
    sd::barrier_all();
    if (partner < 0) continue;
    if (a_side) {
      for (int i = 0; i < msg_ints; ++i) sd::p(&s->msg[r][i], r * 1000 + i, partner);
      sd::fence();
      sd::p(&s->flag[r], 1, partner);
    } else {
      sd::wait_until(&s->flag[r], SYMMEM_CMP_EQ, 1);
      for (int i = 0; i < msg_ints; ++i) {
        if (sd::g(&s->msg[r][i], sd::my_pe()) != r * 1000 + i) atomicAdd(bad, 1);
      }
    }
  }
}

__global__ void poll_kernel(slots *s, int partner, int a_side, int *bad) {
  for (int r = 0; r < 200; ++r) {
    sd::barrier_all();
    if (partner < 0) continue;
    if (a_side) {
      sd::p(&s->flag[r], 2, partner);
    } else {
      long long spins = 0;
      while (sd::g(&s->flag[r], sd::my_pe()) != 2) {
        if (++spins > (1ll << 26)) {
          atomicAdd(bad, 1);
          break;
        }
      }
    }
  }
}

int count_both_zero(slots *s, int me, int partner) {
  std::vector<int> mine(rounds), theirs(rounds);
  CK(cudaMemcpy(mine.data(), s->seen, sizeof(int) * rounds, cudaMemcpyDeviceToHost));
  symmem_getmem(theirs.data(), s->seen, sizeof(int) * rounds, partner);
  int both = 0;
  for (int r = 0; r < rounds; ++r) both += mine[r] == 0 && theirs[r] == 0;
  (void)me;
  return both;
}

}  // namespace

int main() {
  gt::skip_without_gpu("gpu_litmus_test");
  if (symmem_init() != SYMMEM_SUCCESS) return 1;
  const int me = symmem_my_pe(), npes = symmem_n_pes();
  const int partner = (me ^ 1) < npes ? (me ^ 1) : -1, a_side = (me & 1) == 0;
  slots *s = static_cast<slots *>(symmem_malloc(sizeof(slots)));
  int *bad = nullptr;
  CK(cudaMalloc(&bad, sizeof(int)));
  const char *names[] = {"quiet", "fence (control)", "no fence (control)"};
  for (int o = 0; o < 3; ++o) {
    CK(cudaMemset(s, 0, sizeof(slots)));
    symmem_barrier_all();
    sb_kernel<<<1, 1>>>(s, partner, a_side, o);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    symmem_barrier_all();
    if (partner >= 0 && a_side) {
      const int both = count_both_zero(s, me, partner);
      std::printf("litmus SB with %s: both reads zero in %d of %d rounds (PEs %d,%d)\n", names[o], both, rounds, me,
                  partner);
      if (o == o_quiet) EXPECT(both == 0, "PE %d: quiet did not complete a put before a later load (%d rounds)", me, both);
    }
    symmem_barrier_all();
  }
  CK(cudaMemset(s, 0, sizeof(slots)));
  CK(cudaMemset(bad, 0, sizeof(int)));
  symmem_barrier_all();
  mp_kernel<<<1, 1>>>(s, partner, a_side, bad);
  poll_kernel<<<1, 1>>>(s, partner, a_side, bad + 0);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  int h = -1;
  CK(cudaMemcpy(&h, bad, sizeof h, cudaMemcpyDeviceToHost));
  EXPECT(h == 0, "PE %d: message passing / g polling: %d stale reads or expired spins", me, h);
  symmem_barrier_all();
  CK(cudaFree(bad));
  symmem_free(s);
  symmem_finalize();
  if (me == 0) std::printf("PASS gpu_litmus_test (%d PEs)\n", npes);
  return 0;
}
