/* A put with signal's data is in place when its signal shows, to a reader that polls the signal
 * word with plain loads (outside the library, so the owner's progress thread carries the requests
 * out while the reader looks).
 *
 * PE 0 sends the first PE of the other host `rounds` puts with signal of 512 bytes, each into its
 * own slot of a heap buffer, the signal set to the round's number, with four small puts to other
 * bytes after each: small puts with signal travel in the sender's batches among those puts, and
 * the owner carries a batch out record by record. The reader spins on the signal word; for every
 * value v it sees, slot v must hold round v's bytes (the buffer is poisoned first). With the owner
 * holding a batch's stores (SYMMEM_NET_HOLD_STORES, as for a GPU heap), a signal applied before
 * the held data was sent showed the signal first.
 *
 *   mh_sigorder [ROUNDS]   (default 2000) */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BLOCK 512

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static unsigned char byte_of(long round, int i) { return (unsigned char)((round * 37 + i * 11 + 1) % 251 + 1); }

int main(int argc, char **argv) {
  shmem_init();
  const long rounds = argc > 1 ? atol(argv[1]) : 2000;
  const int me = shmem_my_pe(), n = shmem_n_pes(), peer = n / 2;
  unsigned char *data = shmem_malloc((size_t)(rounds + 1) * BLOCK);
  unsigned char *filler = shmem_malloc(4096);
  uint64_t *sig = shmem_malloc(sizeof(uint64_t));
  memset(data, 0, (size_t)(rounds + 1) * BLOCK); /* poison: 0 is no round's byte */
  *sig = 0;
  shmem_barrier_all();
  int failed = 0;
  if (me == 0) {
    unsigned char block[BLOCK], small[64];
    for (long r = 1; r <= rounds; ++r) {
      for (int i = 0; i < BLOCK; ++i) block[i] = byte_of(r, i);
      shmem_putmem_signal(data + r * BLOCK, block, BLOCK, sig, (uint64_t)r, SHMEM_SIGNAL_SET, peer);
      for (int k = 0; k < 4; ++k) {
        memset(small, (int)(r + k), sizeof small);
        shmem_putmem(filler + ((r * 4 + k) % 64) * 64, small, sizeof small, peer);
      }
    }
    shmem_quiet();
  } else if (me == peer) {
    uint64_t seen = 0;
    long checked = 0;
    const double t0 = now();
    while (seen < (uint64_t)rounds && !failed) {
      const uint64_t v = __atomic_load_n(sig, __ATOMIC_ACQUIRE);
      if (v == seen) {
        if ((++checked & 0xfffff) == 0 && now() - t0 > 60) {
          fprintf(stderr, "PE %d: signal still %llu of %ld after 60 s\n", me, (unsigned long long)v, rounds);
          failed = 1;
        }
        continue;
      }
      const unsigned char *slot = data + v * BLOCK;
      for (int i = 0; i < BLOCK; ++i) {
        if (slot[i] != byte_of((long)v, i)) {
          fprintf(stderr, "PE %d: signal %llu showed before its data: byte %d of slot %llu is %u, want %u\n", me,
                  (unsigned long long)v, i, (unsigned long long)v, slot[i], byte_of((long)v, i));
          failed = 1;
          break;
        }
      }
      seen = v;
    }
    printf("mh_sigorder: %ld puts with signal, the last signal %llu, %s\n", rounds, (unsigned long long)seen,
           failed ? "FAILED" : "every signal seen after its data");
  }
  static int flag, out;
  flag = failed;
  shmem_barrier_all();
  shmem_int_max_reduce(SHMEM_TEAM_WORLD, &out, &flag, 1);
  const int all = out;
  shmem_free(sig);
  shmem_free(filler);
  shmem_free(data);
  shmem_finalize();
  return all ? 1 : 0;
}
