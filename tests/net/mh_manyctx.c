/* Many contexts, then finalize, across hosts: every PE makes 32 contexts and does one atomic
 * increment on each at its right neighbour (on the other host for half of the PEs: 32 network
 * workers with endpoints to that host), then quiet, a barrier, the check, and finalize. Sandia
 * OpenSHMEM's many-ctx does the same; it hung in finalize one run in three when the flush of the
 * network workers came after finalize's barrier (a peer's context workers were no longer
 * progressed by then). mh_manyctx.sh runs it several times. */
#include <shmem.h>
#include <stdio.h>

#define NCTX 32

static long data = 0;

int main(void) {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes();
  shmem_ctx_t ctx[NCTX];
  for (int i = 0; i < NCTX; ++i)
    if (shmem_ctx_create(0, &ctx[i]) != 0) ctx[i] = SHMEM_CTX_DEFAULT;
  for (int i = 0; i < NCTX; ++i) shmem_ctx_long_atomic_inc(ctx[i], &data, (me + 1) % n);
  for (int i = 0; i < NCTX; ++i) shmem_ctx_quiet(ctx[i]);
  shmem_sync_all();
  int bad = data != NCTX;
  if (bad) fprintf(stderr, "PE %d: %ld increments arrived, want %d\n", me, data, NCTX);
  shmem_finalize(); /* contexts left alive on purpose: finalize completes and frees them */
  if (me == 0 && !bad) printf("mh_manyctx: %d PEs ok\n", n);
  return bad;
}
