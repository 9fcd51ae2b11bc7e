#include <mpp/shmem.h>
#include <mpp/shmemx.h>
#include <stdio.h>

#include "stencil.h"

#define N 8

int main(void) {
  shmem_init();
  int me = shmem_my_pe(), npes = shmem_n_pes();
  double *grid = shmem_malloc((N + 2) * sizeof(double));
  for (int i = 0; i < N + 2; ++i) grid[i] = -1;
  for (int i = 1; i <= N; ++i) grid[i] = me + 1;
  shmem_barrier_all();
  double norm = stencil_step(grid, N, me, npes);
  int left = (me + npes - 1) % npes, right = (me + 1) % npes;
  /* The halo cells hold the neighbours' edge values; the norm is sqrt(N) * (me + 1). */
  int ok = grid[0] == left + 1 && grid[N + 1] == right + 1 && norm > 2.828 * (me + 1) && norm < 2.829 * (me + 1);
  shmem_barrier_all(); /* every PE has read its halo before it is written again */
  /* A non-blocking put with a request handle (shmemx), completed by shmemx_wait_req. */
  shmemx_request_handle_t h;
  double mark = 100 + me;
  shmemx_double_put_nb(&grid[0], &mark, 1, right, &h);
  shmemx_wait_req(h);
  shmem_barrier_all();
  ok = ok && grid[0] == 100 + left && shmemx_lookup_remote_addr(grid, me) == (void *)grid;
  printf("halo: PE %d of %d: %s\n", me, npes, ok ? "ok" : "WRONG");
  shmem_free(grid);
  shmem_finalize();
  return !ok;
}
