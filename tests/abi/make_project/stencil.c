#include "stencil.h"

#include <math.h>
#include <mpp/shmem.h>

/* grid[0] and grid[n + 1] are halo cells written by the neighbours. */
double stencil_step(double *grid, size_t n, int me, int npes) {
  int left = (me + npes - 1) % npes, right = (me + 1) % npes;
  shmem_double_put(&grid[n + 1], &grid[1], 1, left);
  shmem_double_put(&grid[0], &grid[n], 1, right);
  shmem_barrier_all();
  double sum = 0;
  for (size_t i = 1; i <= n; ++i) sum += grid[i] * grid[i];
  return sqrt(sum);
}
