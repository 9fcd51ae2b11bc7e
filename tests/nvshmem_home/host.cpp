// A host file compiled by the C++ compiler (not nvcc) and linked with -lnvshmem_host only, as
// NVSHMEM allows: no GPU work, so it runs on machines without one too.
#include <nvshmem.h>
#include <stdio.h>

int main() {
  nvshmem_init();
  int me = nvshmem_my_pe(), n = nvshmem_n_pes();
  nvshmem_barrier_all();
  printf("host file: PE %d of %d\n", me, n);
  nvshmem_finalize();
  return 0;
}
