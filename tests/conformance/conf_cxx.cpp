// The C++ overloads of the 1.5 generic routines (and the typed C names) from a C++ program: RMA and
// atomics with and without a context, put_signal, nbi atomics, the wait sets, the team
// collectives and reductions, including the unsigned types.
#include <shmem.h>

#include "conf_mem.h"

#include <cstdio>

#define CHECK(c)                                                                          \
  do {                                                                                    \
    if (!(c)) {                                                                           \
      std::fprintf(stderr, "CHECK FAILED on PE %d at line %d: %s\n", shmem_my_pe(), __LINE__, #c); \
      shmem_global_exit(1);                                                               \
    }                                                                                     \
  } while (0)

int main() {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  auto *l = static_cast<long *>(conf_calloc(64, sizeof(long)));
  auto *u = static_cast<unsigned int *>(conf_calloc(64, sizeof(unsigned int)));
  auto *sig = static_cast<uint64_t *>(conf_calloc(1, sizeof(uint64_t)));
  shmem_ctx_t ctx;
  CHECK(shmem_ctx_create(0, &ctx) == 0);
  long v = 10 + me;
  shmem_put(l, &v, 1, (me + 1) % n);
  shmem_p(ctx, l + 1, v, (me + 1) % n);
  shmem_quiet();
  shmem_ctx_quiet(ctx);  // shmem_quiet completes the default context's operations only (1.5, 9.5.5)
  shmem_barrier_all();
  CHECK(l[0] == 10 + (me + n - 1) % n && shmem_g(ctx, l + 1, me) == l[0]);
  unsigned int f = 0;
  shmem_atomic_fetch_add_nbi(ctx, &f, u, 1u, 0);
  shmem_atomic_add(u + 1, 2u, 0);
  shmem_quiet();
  shmem_barrier_all();
  if (me == 0) CHECK(u[0] == static_cast<unsigned>(n) && u[1] == 2u * n);
  shmem_barrier_all();
  shmem_put_signal(l + 2, &v, 1, sig, 1, SHMEM_SIGNAL_ADD, (me + 1) % n);
  shmem_signal_wait_until(sig, SHMEM_CMP_EQ, 1);
  CHECK(l[2] == l[0]);
  shmem_wait_until_all(l, 3, nullptr, SHMEM_CMP_GE, 10L);
  CHECK(shmem_test_any(l, 3, nullptr, SHMEM_CMP_EQ, l[0]) == 0);
  u[2] = me + 1u;
  CHECK(shmem_sum_reduce(SHMEM_TEAM_WORLD, u + 3, u + 2, 1) == 0);
  CHECK(u[3] == static_cast<unsigned>(n * (n + 1) / 2));
  CHECK(shmem_xor_reduce(SHMEM_TEAM_WORLD, u + 4, u + 2, 1) == 0);
  CHECK(shmem_broadcast(SHMEM_TEAM_WORLD, l + 4, l, 1, 0) == 0);
  CHECK(l[4] == 10 + (n - 1));
  CHECK(shmem_fcollect(SHMEM_TEAM_WORLD, l + 8, l + 2, 1) == 0);
  CHECK(shmem_alltoall(SHMEM_TEAM_WORLD, u + 16, u + 32, 1) == 0);
  shmem_ctx_destroy(ctx);
  shmem_finalize();
  if (me == 0) std::printf("conf_cxx: %d PEs ok\n", n);
  return 0;
}
