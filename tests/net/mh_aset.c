/* OpenSHMEM 1.4's active-set routines across hosts, as OSU's and older programs call them:
 *  - shmem_barrier on an active set completes the PE's puts first (barrier = quiet + sync): nbi
 *    puts of several sizes to the PE before this one (at 2 hosts x 2 PEs, PE 0 -> PE 3 and PE 2 ->
 *    PE 1 cross hosts and are not PEs the dissemination barrier signals directly), then the
 *    barrier, then the target checks every byte (poisoned before);
 *  - broadcast32/64, fcollect64, collect32, alltoall64 and long_sum_to_all, back to back, on the
 *    whole job and on every other PE (a set that is not the world), pSync arrays used in turn,
 *    every result checked against poisoned destinations.
 *
 *   mh_aset [ROUNDS]      (default 50) */
#include <shmem.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXB (1 << 20) /* a put this large is still on the wire when a barrier without quiet would end */
#define NSYNC 3
static long psync[NSYNC][SHMEM_REDUCE_SYNC_SIZE > SHMEM_BCAST_SYNC_SIZE ? SHMEM_REDUCE_SYNC_SIZE : SHMEM_BCAST_SYNC_SIZE];
static long pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE + 64];
static long src[64 * 8], dst[64 * 8 * 8];
static unsigned char inbox[MAXB];
static int me, n;

static void fail(const char *what, long round, long at, long got, long want) {
  fprintf(stderr, "PE %d: %s: round %ld, element %ld is %ld, want %ld\n", me, what, round, at, got, want);
  shmem_global_exit(1);
}

static long val(long round, int pe, long i) { return round * 1000003L + pe * 1009L + i; }

/* One round of the collectives on the set (start, log_stride, size); this PE is member `idx`. */
static void collectives(long r, int start, int logs, int size, int idx, int k) {
  const int root = (int)(r % size);
  const size_t ne = 1 + (size_t)(r % 7);
  for (size_t i = 0; i < 64; ++i) src[i] = val(r, me, (long)i);
  /* broadcast64: the root's dest is not written */
  for (size_t i = 0; i < 64; ++i) dst[i] = -1;
  shmem_broadcast64(dst, src, ne, root, start, logs, size, psync[k % NSYNC]);
  k++;
  const int root_pe = start + (root << logs);
  for (size_t i = 0; i < ne; ++i)
    if (dst[i] != (idx == root ? -1 : val(r, root_pe, (long)i))) fail("broadcast64", r, (long)i, dst[i], val(r, root_pe, (long)i));
  /* fcollect64 */
  for (size_t i = 0; i < ne * (size_t)size + 4; ++i) dst[i] = -1;
  shmem_fcollect64(dst, src, ne, start, logs, size, psync[k % NSYNC]);
  k++;
  for (int m = 0; m < size; ++m)
    for (size_t i = 0; i < ne; ++i)
      if (dst[(size_t)m * ne + i] != val(r, start + (m << logs), (long)i)) fail("fcollect64", r, (long)((size_t)m * ne + i), dst[(size_t)m * ne + i], val(r, start + (m << logs), (long)i));
  if (dst[ne * (size_t)size] != -1) fail("fcollect64 (past the end)", r, (long)(ne * (size_t)size), dst[ne * (size_t)size], -1);
  /* alltoall64: block m of my dest comes from member m's block idx */
  for (size_t i = 0; i < ne * (size_t)size; ++i) src[i] = val(r, me, (long)i);
  for (size_t i = 0; i < ne * (size_t)size; ++i) dst[i] = -1;
  shmem_alltoall64(dst, src, ne, start, logs, size, psync[k % NSYNC]);
  k++;
  for (int m = 0; m < size; ++m)
    for (size_t i = 0; i < ne; ++i) {
      const long want = val(r, start + (m << logs), (long)((size_t)idx * ne + i));
      if (dst[(size_t)m * ne + i] != want) fail("alltoall64", r, (long)((size_t)m * ne + i), dst[(size_t)m * ne + i], want);
    }
  /* long_sum_to_all */
  for (size_t i = 0; i < ne; ++i) src[i] = val(r, me, (long)i);
  for (size_t i = 0; i < ne; ++i) dst[i] = -1;
  shmem_long_sum_to_all(dst, src, (int)ne, start, logs, size, pwrk, psync[k % NSYNC]);
  k++;
  for (size_t i = 0; i < ne; ++i) {
    long want = 0;
    for (int m = 0; m < size; ++m) want += val(r, start + (m << logs), (long)i);
    if (dst[i] != want) fail("long_sum_to_all", r, (long)i, dst[i], want);
  }
  /* collect32: member m contributes m + 1 ints */
  int *s32 = (int *)src, *d32 = (int *)dst;
  for (int i = 0; i < idx + 1; ++i) s32[i] = (int)val(r, me, i);
  for (int i = 0; i < size * (size + 1) / 2 + 2; ++i) d32[i] = -1;
  shmem_collect32(d32, s32, (size_t)idx + 1, start, logs, size, psync[k % NSYNC]);
  k++;
  for (int m = 0, at = 0; m < size; at += m + 1, ++m)
    for (int i = 0; i < m + 1; ++i)
      if (d32[at + i] != (int)val(r, start + (m << logs), i)) fail("collect32", r, at + i, d32[at + i], (int)val(r, start + (m << logs), i));
  shmem_barrier(start, logs, size, psync[k % NSYNC]);
}

int main(int argc, char **argv) {
  for (int k = 0; k < NSYNC; ++k)
    for (size_t i = 0; i < sizeof psync[0] / sizeof(long); ++i) psync[k][i] = SHMEM_SYNC_VALUE;
  shmem_init();
  me = shmem_my_pe();
  n = shmem_n_pes();
  const long rounds = argc > 1 ? atol(argv[1]) : 50;
  const int peer = (me + n - 1) % n, from = (me + 1) % n;
  unsigned char *heap = shmem_malloc(MAXB);
  unsigned char *mine = malloc(MAXB);
  if (!heap || !mine) {
    fprintf(stderr, "PE %d: out of memory\n", me);
    shmem_global_exit(1);
  }
  static const size_t sizes[] = {1, 8, 100, 4096, 4097, MAXB};
  /* Puts, then the active-set barrier of the whole job: the target sees every byte. */
  for (long r = 0; r < rounds; ++r) {
    const size_t len = sizes[r % 6];
    unsigned char *to = r % 2 ? heap : inbox;
    memset(to, 0xEE, MAXB);
    shmem_barrier(0, 0, n, psync[r % NSYNC]);
    for (size_t i = 0; i < len; ++i) mine[i] = (unsigned char)(r * 13 + (long)i * 7 + me);
    shmem_putmem_nbi(to, mine, len, peer);
    shmem_barrier(0, 0, n, psync[(r + 1) % NSYNC]);
    for (size_t i = 0; i < len; ++i)
      if (to[i] != (unsigned char)(r * 13 + (long)i * 7 + from)) fail("putmem_nbi then shmem_barrier", r, (long)i, to[i], (unsigned char)(r * 13 + (long)i * 7 + from));
    if (len < MAXB && to[len] != 0xEE) fail("putmem_nbi then shmem_barrier (past the end)", r, (long)len, to[len], 0xEE);
  }
  shmem_barrier_all();
  /* Collectives on the whole job, then on the even PEs (a set that is not the world). */
  for (long r = 0; r < rounds; ++r) collectives(r, 0, 0, n, me, (int)r);
  if (n >= 2 && me % 2 == 0)
    for (long r = 0; r < rounds; ++r) collectives(r + rounds, 0, 1, (n + 1) / 2, me / 2, (int)r);
  shmem_barrier_all();
  if (me == 0) printf("mh_aset: %d PEs ok\n", n);
  shmem_free(heap);
  free(mine);
  shmem_finalize();
  return 0;
}
