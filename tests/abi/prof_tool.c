/* A profiling tool as OpenSHMEM 9.14 describes them: it defines shmem_ routines, counts the calls
 * and forwards each to its pshmem_ twin. Linked before libsymmem-shmem (or LD_PRELOADed), it sees
 * the program's calls; shmem_finalize prints the counts. */
#include <pshmem.h>
#include <stdio.h>

static long n_putmem, n_long_put, n_fadd, n_barrier;

void shmem_putmem(void *d, const void *s, size_t n, int pe) { ++n_putmem; pshmem_putmem(d, s, n, pe); }
void shmem_long_put(long *d, const long *s, size_t n, int pe) { ++n_long_put; pshmem_long_put(d, s, n, pe); }
long shmem_long_atomic_fetch_add(long *d, long v, int pe) { ++n_fadd; return pshmem_long_atomic_fetch_add(d, v, pe); }
void shmem_barrier_all(void) { ++n_barrier; pshmem_barrier_all(); }
void shmem_finalize(void) {
  printf("prof: PE %d: putmem %ld long_put %ld long_atomic_fetch_add %ld barrier_all %ld\n", pshmem_my_pe(),
         n_putmem, n_long_put, n_fadd, n_barrier);
  fflush(stdout);
  pshmem_finalize();
}
