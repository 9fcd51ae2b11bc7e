/* The symmem demo: what symmetric memory is, in four steps.
 *
 *   symmem-run -n 4 ./demo
 *
 * 1. every PE allocates the same symmetric array and prints its address: the same on every PE;
 * 2. a ring: each PE puts its number into the next PE's array, one-sided;
 * 3. an atomic counter on PE 0 that every PE increments;
 * 4. barriers order the steps; output is gathered on PE 0 so it reads in order.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <shmem.h>

#define MAX_PES 256

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int npes = shmem_n_pes();

  /* Symmetric allocations: collective, same size everywhere, same address everywhere. */
  long *ring = shmem_malloc(sizeof(long));
  long *counter = shmem_calloc(1, sizeof(long));
  uintptr_t *addrs = shmem_malloc(sizeof(uintptr_t) * MAX_PES);
  *ring = -1; /* memory is undefined until initialised; poison it so a missing put shows */
  shmem_barrier_all();

  if (me == 0) {
    printf("symmem demo: %d PEs, bootstrap %s\n\n", npes, symmem_bootstrap_name());
    printf("step 1: one symmetric address on every PE\n");
  }
  /* Each PE reports where its array lives by writing into PE 0's table. */
  shmem_putmem(&addrs[me], &(uintptr_t){(uintptr_t)ring}, sizeof(uintptr_t), 0);
  shmem_barrier_all();
  if (me == 0) {
    int same = 1;
    for (int pe = 0; pe < npes && pe < MAX_PES; ++pe) {
      printf("  PE %d: ring array at %#lx\n", pe, (unsigned long)addrs[pe]);
      same = same && addrs[pe] == addrs[0];
    }
    printf("  -> %s\n\n", same ? "the same address on every PE, backed by each PE's own memory"
                                : "ADDRESSES DIFFER (bug)");
  }

  /* Step 2: one-sided put of my PE number into the next PE's ring slot. */
  const int next = (me + 1) % npes;
  shmem_long_p(ring, (long)me, next);
  shmem_barrier_all();
  const int prev = (me + npes - 1) % npes;
  shmem_putmem(&addrs[me], &(uintptr_t){(uintptr_t)*ring}, sizeof(uintptr_t), 0);
  shmem_barrier_all();
  if (me == 0) {
    printf("step 2: a ring of puts (PE i writes i into PE i+1)\n");
    int ok = 1;
    for (int pe = 0; pe < npes && pe < MAX_PES; ++pe) {
      long got = (long)addrs[pe];
      long want = (pe + npes - 1) % npes;
      printf("  PE %d received %ld from PE %ld%s\n", pe, got, want, got == want ? "" : "  <- WRONG");
      ok = ok && got == want;
    }
    printf("  -> %s\n\n", ok ? "every put landed" : "RING BROKEN");
  }
  (void)prev;

  /* Step 3: every PE adds to one counter on PE 0, 1000 times. */
  for (int i = 0; i < 1000; ++i) {
    shmem_long_atomic_add(counter, 1, 0);
  }
  shmem_barrier_all();
  if (me == 0) {
    long total = *counter;
    printf("step 3: an atomic counter on PE 0, incremented 1000 times by each PE\n");
    printf("  counter = %ld, expected %d -> %s\n\n", total, 1000 * npes, total == 1000L * npes ? "exact" : "WRONG");
  }

  /* Step 4: the barrier: nobody passes until everyone arrived. */
  shmem_barrier_all();
  if (me == 0) {
    printf("step 4: barrier_all passed by all %d PEs\n", npes);
  }

  shmem_free(addrs);
  shmem_free(counter);
  shmem_free(ring);
  shmem_finalize();
  return 0;
}
